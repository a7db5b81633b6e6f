// Edges where the fast path must answer as express does: a client hanging up mid-body, a body with a BOM.
import net from 'node:net';
import { serverForThisFile } from '../support/fixture';

const fixture = serverForThisFile({ COUNTER_CLEANUP: 'off', ROW_CACHE: 'off' });

async function post(body: Buffer | string, headers: Record<string, string>) {
  const response = await fetch(fixture.api.url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
  return { status: response.status, body: await response.text() };
}

function partialBody(extra: Record<string, string>): Promise<void> {
  const url = new URL(fixture.api.url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      const head = Object.entries(extra)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.write(
        `POST /graphql HTTP/1.1\r\nHost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n${head}\r\n{"query":`,
      );
      setTimeout(() => {
        socket.destroy();
        setTimeout(resolve, 300);
      }, 100);
    });
  });
}

describe('fast path vs express', () => {
  it('a client that hangs up mid-body is not an unexpected server error (express: no error log)', async () => {
    const origin = new URL(fixture.api.url).origin;
    fixture.api.logs.length = 0;
    await partialBody({ origin });
    const expressErrors = fixture.api.logs.filter((l) => l.msg === 'unexpected HTTP error').length;
    await partialBody({});
    const fastErrors = fixture.api.logs.filter((l) => l.msg === 'unexpected HTTP error').length - expressErrors;
    expect([expressErrors, fastErrors]).toEqual([0, 0]);
  });

  it('a body with a UTF-8 BOM is answered alike', async () => {
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(JSON.stringify({ query: '{ __typename }' })),
    ]);
    const origin = new URL(fixture.api.url).origin;
    const viaExpress = await post(body, { origin });
    const fast = await post(body, {});
    expect(fast).toEqual(viaExpress);
  });
});
