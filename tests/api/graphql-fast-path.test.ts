// JSON POSTs without an Origin are served by src/transports/http-fast-path.ts; the same request from a page
// on the server's own origin goes through express. Both must answer alike, byte for byte in the
// body and header for header where it matters.
import { createHash } from 'node:crypto';
import { ApolloServer } from '@apollo/server';
import manifest from '../../src/generated/client/persisted-documents.json';
import { serverForThisFile } from '../support/fixture';
import { startTestServer, type TestServer } from '../support/server';

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

/** The request log line of a request id, without what differs from one request to the next. */
function logLine(id: string): Record<string, unknown> {
  const found = fixture.api.logs.find((entry) => entry.reqId === id && entry.msg === 'request');
  const { reqId: _id, ms: _ms, time: _time, ...rest } = found ?? {};
  return rest;
}

/** The registered text and hash of the operation named `name` (the project's manifest). */
function registered(name: string): { text: string; hash: string } {
  const found = Object.entries(manifest as Record<string, string>).find(([, text]) =>
    new RegExp(`(query|mutation) ${name}\\b`).test(text),
  );
  if (!found) throw new Error(`${name} is not in the manifest`);
  return { text: found[1], hash: found[0].replace(/^sha256:/, '') };
}

describe('registered documents on the fast path skip Apollo, answering as Apollo does over express', () => {
  afterEach(() => jest.restoreAllMocks());

  const counter = registered('Counter');
  const update = registered('UpdateCounter');
  const send = registered('SendMessage');
  const me = registered('Me');
  const byHash = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

  it.each([
    ['a query by hash', { extensions: byHash(me.hash) }, 'user', 200, false],
    ['a query by its text', { query: me.text }, 'user', 200, false],
    ['a resolver error', { query: send.text, variables: { chatId: '404', message: 'hi' } }, 'user', 200, false],
    ['a role refused', { extensions: byHash(update.hash), variables: { name: 'n', count: 1 } }, 'user', 200, false],
    ['no token', { extensions: byHash(me.hash) }, undefined, 200, false],
    [
      'an argument out of range',
      { extensions: byHash(update.hash), variables: { name: 'n', count: 10 ** 9 } },
      'service',
      200,
      false,
    ],
    [
      'an operationName it does not hold (left to Apollo)',
      { extensions: byHash(me.hash), operationName: 'Other' },
      'user',
      400,
      true,
    ],
    [
      'variables that do not coerce (left to Apollo)',
      { extensions: byHash(counter.hash), variables: { name: 'n', precision: 'x' } },
      'user',
      400,
      true,
    ],
    ['an accept type of its own (left to Apollo)', { extensions: byHash(me.hash), accept: true }, 'user', 200, true],
  ] as const)('%s', async (_name, request, caller, status, apolloOnFastPath) => {
    const { accept, ...body } = request as Record<string, unknown>;
    const headers: Record<string, string> = {
      ...(caller ? { authorization: `Bearer ${fixture.api.tokens[caller]}` } : {}),
      ...(accept ? { accept: 'application/graphql-response+json' } : {}),
    };
    const apollo = jest.spyOn(ApolloServer.prototype, 'executeHTTPGraphQLRequest');
    const fast = await post(JSON.stringify(body), { ...headers, 'x-request-id': `reg-fast-${_name.length}` });
    expect(apollo).toHaveBeenCalledTimes(apolloOnFastPath ? 1 : 0);
    const origin = new URL(fixture.api.url).origin;
    const express = await post(JSON.stringify(body), {
      ...headers,
      origin,
      'x-request-id': `reg-express-${_name.length}`,
    });
    expect(apollo).toHaveBeenCalledTimes(apolloOnFastPath ? 2 : 1);
    expect([fast.status, express.status]).toEqual([status, status]);
    expect(fast.body).toBe(express.body);
    for (const name of ['content-type', 'cache-control', ...SECURITY_HEADERS])
      expect([name, fast.headers.get(name)]).toEqual([name, express.headers.get(name)]);
    expect(logLine(`reg-fast-${_name.length}`)).toEqual(logLine(`reg-express-${_name.length}`));
    expect(logLine(`reg-fast-${_name.length}`)).toMatchObject({ msg: 'request', status });
  });
});

describe('text documents on the fast path skip Apollo once valid, answering as Apollo does over express', () => {
  afterEach(() => jest.restoreAllMocks());

  const counter = registered('Counter');
  const send = registered('SendMessage');
  // Not registered: the manifest's texts are matched byte for byte.
  const text = (registeredText: string) => `${registeredText} `;
  const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
  const directives = `{ ${'__typename @skip(if: false) '.repeat(11)}}`;
  const aliased = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: me { userId }`).join(' ')} }`;

  it.each([
    ['a query', { query: 'query Mine { chats { id } }' }, 'user', 200, false],
    ['an anonymous query', { query: '{ me { userId funds } }' }, 'user', 200, false],
    [
      'the operation a name picks',
      { query: 'query A { me { userId } } query B { chats { id } }', operationName: 'B' },
      'user',
      200,
      false,
    ],
    [
      'variables, with a fragment',
      { query: text(send.text), variables: { chatId: '404', message: 'hi' } },
      'user',
      200,
      false,
    ],
    [
      'a resolver error with its path and locations',
      { query: 'mutation { sendMessage(chatId: "1", message: "hi") { id ts } }' },
      'user',
      200,
      false,
    ],
    [
      'nulls and a custom scalar',
      { query: text(counter.text), variables: { name: 'none', precision: 60, limit: null } },
      'user',
      200,
      false,
    ],
    [
      'a field refused to the caller',
      { query: 'query Stats { queue(name: "q") { name active } }' },
      'user',
      200,
      false,
    ],
    ['no token', { query: '{ me { userId } }' }, undefined, 200, false],
    [
      "a text sent with its own hash (Apollo's way to register it)",
      {
        query: '{ me { funds } }',
        extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ me { funds } }') } },
      },
      'user',
      200,
      false,
    ],
    ['introspection, which this server allows', { query: '{ __schema { queryType { name } } }' }, 'user', 200, false],
    [
      'variables that do not coerce (left to Apollo)',
      { query: text(counter.text), variables: { name: 'n', precision: 'x' } },
      'user',
      400,
      true,
    ],
    [
      'an operation name the text does not hold (left to Apollo)',
      { query: '{ me { userId } }', operationName: 'Other' },
      'user',
      400,
      true,
    ],
    [
      'two operations and no name (left to Apollo)',
      { query: 'query A { me { userId } } query B { chats { id } }' },
      'user',
      400,
      true,
    ],
    ['a validation error (left to Apollo)', { query: '{ nope }' }, 'user', 400, true],
    ['a syntax error (left to Apollo)', { query: '{ me { ' }, 'user', 400, true],
    ['too many directives (left to Apollo)', { query: directives }, 'user', 400, true],
    ['too many aliases (left to Apollo)', { query: aliased }, 'user', 400, true],
    ['too many tokens (left to Apollo)', { query: `{ ${'__typename '.repeat(1000)}}` }, 'user', 400, true],
    ['a subscription (left to Apollo)', { query: 'subscription { inboxChanged { chatId } }' }, 'user', 400, true],
    [
      "a hash that is not the text's (left to Apollo)",
      { query: '{ me { funds } }', extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ me }') } } },
      'user',
      400,
      true,
    ],
    [
      'a hash nobody registered (left to Apollo)',
      { extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ x }') } } },
      'user',
      200,
      true,
    ],
    ['no query (left to Apollo)', { variables: {} }, 'user', 400, true],
    ['a query that is not a string (left to Apollo)', { query: 5 }, 'user', 400, true],
  ] as const)('%s', async (name, body, caller, status, apolloOnFastPath) => {
    const headers: Record<string, string> = caller ? { authorization: `Bearer ${fixture.api.tokens[caller]}` } : {};
    const apollo = jest.spyOn(ApolloServer.prototype, 'executeHTTPGraphQLRequest');
    const id = `text-${sha256(name).slice(0, 12)}`;
    const fast = await post(JSON.stringify(body), { ...headers, 'x-request-id': `${id}-fast` });
    expect(apollo).toHaveBeenCalledTimes(apolloOnFastPath ? 1 : 0);
    const origin = new URL(fixture.api.url).origin;
    const express = await post(JSON.stringify(body), { ...headers, origin, 'x-request-id': `${id}-express` });
    expect(apollo).toHaveBeenCalledTimes(apolloOnFastPath ? 2 : 1);
    expect([fast.status, express.status]).toEqual([status, status]);
    expect(fast.body).toBe(express.body);
    for (const header of ['content-type', ...SECURITY_HEADERS])
      expect([header, fast.headers.get(header)]).toEqual([header, express.headers.get(header)]);
    expect(logLine(`${id}-fast`)).toEqual(logLine(`${id}-express`));
    expect(logLine(`${id}-fast`)).toMatchObject({ msg: 'request', status });
  });

  it('answers the same text again from the parsed document, alike', async () => {
    const headers = { authorization: `Bearer ${fixture.api.tokens.user}` };
    const body = JSON.stringify({ query: 'query Twice { me { userId funds } }' });
    const apollo = jest.spyOn(ApolloServer.prototype, 'executeHTTPGraphQLRequest');
    const answers = [await post(body, headers), await post(body, headers)];
    expect(apollo).not.toHaveBeenCalled();
    const express = await post(body, { ...headers, origin: new URL(fixture.api.url).origin });
    expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
      [200, express.body],
      [200, express.body],
    ]);
    expect(JSON.parse(express.body)).toEqual({ data: { me: { userId: 'alice', funds: 0 } } });
  });
});

describe('text documents where only registered ones may run and introspection is off', () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ TRUSTED_DOCUMENTS: 'require', INTROSPECTION: 'false', ROW_CACHE: 'off' });
  }, 60_000);
  afterAll(() => api?.stop());
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ["a user's text", { query: '{ me { userId } }' }, 'user', 400, true],
    [
      "a user's text with its own hash",
      {
        query: '{ me { funds } }',
        extensions: {
          persistedQuery: { version: 1, sha256Hash: createHash('sha256').update('{ me { funds } }').digest('hex') },
        },
      },
      'user',
      400,
      true,
    ],
    ['an anonymous text', { query: '{ __typename }' }, undefined, 400, true],
    ["a service's text", { query: 'query Mine { me { userId } }' }, 'service', 200, false],
    [
      "a service's introspection (left to Apollo)",
      { query: '{ __schema { queryType { name } } }' },
      'service',
      400,
      true,
    ],
    ["a service's __typename", { query: '{ __typename }' }, 'service', 200, false],
  ] as const)('%s', async (_name, body, caller, status, apolloOnFastPath) => {
    const headers: Record<string, string> = caller ? { authorization: `Bearer ${api.tokens[caller]}` } : {};
    const apollo = jest.spyOn(ApolloServer.prototype, 'executeHTTPGraphQLRequest');
    const call = async (extra: Record<string, string>) => {
      const response = await fetch(api.url, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...headers, ...extra },
      });
      return { status: response.status, body: await response.text() };
    };
    const fast = await call({});
    expect(apollo).toHaveBeenCalledTimes(apolloOnFastPath ? 1 : 0);
    const express = await call({ origin: new URL(api.url).origin });
    expect([fast.status, express.status]).toEqual([status, status]);
    expect(fast.body).toBe(express.body);
  });
});
