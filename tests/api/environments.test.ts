// Development shows Apollo Sandbox and allows introspection; production does neither, on both transports.
import { connectWs, type WsClient } from '../support/graphql';
import { startTestServer, type TestServer } from '../support/server';

const INTROSPECTION = '{ __schema { queryType { name } } }';

async function introspectOverHttp(
  api: TestServer,
): Promise<{ data?: unknown; errors?: { message: string; extensions: { code: string } }[] }> {
  const response = await fetch(api.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${api.tokens.user}` },
    body: JSON.stringify({ query: INTROSPECTION }),
  });
  return (await response.json()) as { data?: unknown; errors?: { message: string; extensions: { code: string } }[] };
}

function introspectOverWs(ws: WsClient): Promise<unknown> {
  return new Promise((resolve) => {
    ws.client.subscribe({ query: INTROSPECTION }, { next: resolve, error: resolve, complete: () => undefined });
  });
}

describe('in development', () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ NODE_ENV: 'development' });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('serves the Apollo Sandbox page to a browser at /graphql', async () => {
    const response = await fetch(api.url, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('embeddable-sandbox');
  });

  it('answers introspection', async () => {
    expect(await introspectOverHttp(api)).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });
});

describe('in production', () => {
  let api: TestServer;
  const sockets: WsClient[] = [];
  beforeAll(async () => {
    api = await startTestServer({ NODE_ENV: 'production', HOST: '127.0.0.1' });
  });
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.dispose()));
    await api.stop();
  });

  it('serves no landing page', async () => {
    const response = await fetch(api.url, { headers: { accept: 'text/html' } });
    expect(await response.text()).not.toContain('embeddable-sandbox');
  });

  it('refuses introspection over HTTP', async () => {
    const result = await introspectOverHttp(api);
    // As over WebSocket: one error per introspection field (the same rules decide on both).
    expect(result.data).toBeUndefined();
    expect(result.errors!.length).toBeGreaterThan(0);
    expect(new Set(result.errors!.map((e) => e.extensions.code))).toEqual(new Set(['GRAPHQL_VALIDATION_FAILED']));
    expect(result.errors![0].message).toMatch(/introspection/i);
  });

  it('refuses introspection over WebSocket', async () => {
    const ws = connectWs(api.url, api.tokens.user);
    sockets.push(ws);
    const result = (await introspectOverWs(ws)) as { message: string; extensions: { code: string } }[];
    // An error array (not a result with data), one error per introspection field.
    expect(Array.isArray(result)).toBe(true);
    expect(result.length).toBeGreaterThan(0);
    expect(new Set(result.map((e) => e.extensions.code))).toEqual(new Set(['GRAPHQL_VALIDATION_FAILED']));
    expect(result[0].message).toMatch(/introspection/i);
  });
});
