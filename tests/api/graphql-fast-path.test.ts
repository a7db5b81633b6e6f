// JSON POSTs without an Origin are served by src/transports/http-fast-path.ts; the same request from a page
// on the server's own origin goes through express. Both must answer alike, byte for byte in the
// body and header for header where it matters.
import { serverForThisFile } from '../support/fixture';

const fixture = serverForThisFile({ COUNTER_CLEANUP: 'off', ROW_CACHE: 'off' });

interface Answer {
  status: number;
  body: string;
  headers: Headers;
}

async function post(body: string, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(fixture.api.url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
  return { status: response.status, body: await response.text(), headers: response.headers };
}

/** The same request over the fast path and, with a same-origin Origin header, over express. */
async function bothWays(body: string, headers: Record<string, string> = {}): Promise<[Answer, Answer]> {
  const origin = new URL(fixture.api.url).origin;
  return [await post(body, headers), await post(body, { ...headers, origin })];
}

const SECURITY_HEADERS = [
  'content-security-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-opener-policy',
  'cache-control',
];

describe('the GraphQL fast path answers as express does', () => {
  it.each([
    ['a query', JSON.stringify({ query: '{ chats { id } }' }), 'user', 200],
    [
      'a resolver error',
      JSON.stringify({ query: 'mutation { sendMessage(chatId: "1", message: "hi") { id } }' }),
      'user',
      200,
    ],
    ['a validation error', JSON.stringify({ query: '{ nope }' }), 'user', 400],
    ['no token for a signed-in field', JSON.stringify({ query: '{ chats { id } }' }), undefined, 200],
    ['a bad token', JSON.stringify({ query: '{ chats { id } }' }), 'bad', 401],
    ['a body that is not JSON', '{"query": ', 'user', 400],
    ['JSON that is not an object', '"{ chats { id } }"', 'user', 400],
  ] as const)('%s', async (_name, body, caller, status) => {
    const token = caller === 'bad' ? 'not-a-token' : caller === undefined ? undefined : fixture.api.tokens[caller];
    const [fast, express] = await bothWays(body, token ? { authorization: `Bearer ${token}` } : {});
    expect(fast.status).toBe(status);
    expect(express.status).toBe(status);
    expect(fast.body).toBe(express.body);
    expect(fast.headers.get('content-type')).toBe(express.headers.get('content-type'));
    expect(fast.headers.get('www-authenticate')).toBe(express.headers.get('www-authenticate'));
    for (const name of SECURITY_HEADERS)
      expect([name, fast.headers.get(name)]).toEqual([name, express.headers.get(name)]);
    expect(fast.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    // Set by both paths, not by Apollo's cache-control plugin (off: no field has a cache hint).
    expect(fast.headers.get('cache-control')).toBe('no-store');
    // Only express hashes each body into an ETag: this shows which path answered.
    if (status === 200) {
      expect(fast.headers.get('etag')).toBeNull();
      expect(express.headers.get('etag')).toMatch(/^W\//);
    }
  });

  it('keeps a valid x-request-id and logs one line per request with the operation and user', async () => {
    const body = JSON.stringify({ query: 'query Mine { chats { id } }' });
    const fast = await post(body, { authorization: `Bearer ${fixture.api.tokens.user}`, 'x-request-id': 'fast-1' });
    expect(fast.headers.get('x-request-id')).toBe('fast-1');
    const lines = fixture.api.logs.filter((line) => line.reqId === 'fast-1');
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'request', method: 'POST', path: '/graphql', status: 200, operation: 'Mine' }),
    ]);
    expect(lines[0].user).toEqual(expect.any(String));
  });
});
