// Counters through the real HTTP server: values, auth, bad input, and the request log.
import jwt from 'jsonwebtoken';
import { CounterDocument, CountersDocument, UpdateCounterDocument } from '../../src/generated/client/graphql';
import { codes, post } from '../support/graphql';
import { startTestServer, TEST_SECRET, type TestServer } from '../support/server';

const PRECISIONS = [1, 5, 60, 300, 3600, 18000, 86400];
const ALIGN = 432000; // a multiple of every precision

let api: TestServer;

beforeAll(async () => {
  api = await startTestServer();
});
afterAll(async () => {
  await api.stop();
});
beforeEach(async () => {
  await api.redis.client.flushdb();
});

async function serverNow(): Promise<number> {
  const [seconds] = await api.redis.client.time();
  return Number(seconds);
}

describe('updating and reading counters', () => {
  it('reads back an update at every precision', async () => {
    const base = Math.floor((await serverNow()) / ALIGN) * ALIGN - ALIGN;
    const update = await post(
      api.url,
      UpdateCounterDocument,
      { name: 'page/home', count: 5, at: base + 3661.5 },
      api.tokens.service,
    );
    expect(update.errors).toBeUndefined();
    expect(update.data).toEqual({ updateCounter: true });

    const expected: Record<number, number> = {
      1: base + 3661,
      5: base + 3660,
      60: base + 3660,
      300: base + 3600,
      3600: base + 3600,
      18000: base,
      86400: base,
    };
    for (const precision of PRECISIONS) {
      const read = await post(api.url, CounterDocument, { name: 'page/home', precision }, api.tokens.user);
      expect(read.data?.counter).toEqual([{ time: expected[precision], count: 5 }]);
    }
  });

  it('counts at the server time when `at` is omitted, with count defaulting to 1', async () => {
    const before = await serverNow();
    await post(api.url, UpdateCounterDocument, { name: 'clicks' }, api.tokens.service);
    await post(api.url, UpdateCounterDocument, { name: 'clicks' }, api.tokens.service);
    const read = await post(api.url, CounterDocument, { name: 'clicks', precision: 86400 }, api.tokens.user);
    expect(read.data?.counter).toEqual([{ time: Math.floor(before / 86400) * 86400, count: 2 }]);
  });

  it('treats NFC and NFD spellings of a name as the same counter', async () => {
    await post(api.url, UpdateCounterDocument, { name: 'caf\u00e9', count: 1 }, api.tokens.service);
    await post(api.url, UpdateCounterDocument, { name: 'cafe\u0301', count: 2 }, api.tokens.service);
    const read = await post(api.url, CounterDocument, { name: 'café', precision: 86400 }, api.tokens.user);
    expect(read.data?.counter.map((s) => s.count)).toEqual([3]);
  });

  it('lists known counters with their precisions, a page at a time', async () => {
    for (const name of ['b', 'a', 'c']) await post(api.url, UpdateCounterDocument, { name }, api.tokens.service);
    const first = await post(api.url, CountersDocument, { first: 2 }, api.tokens.user);
    expect(first.data?.counters).toEqual([
      { name: 'a', precisions: PRECISIONS },
      { name: 'b', precisions: PRECISIONS },
    ]);
    const second = await post(api.url, CountersDocument, { first: 2, after: 'b' }, api.tokens.user);
    expect(second.data?.counters.map((c) => c.name)).toEqual(['c']);
  });

  it('answers queries sent with GET', async () => {
    await post(api.url, UpdateCounterDocument, { name: 'via-get' }, api.tokens.service);
    const url = `${api.url}?query=${encodeURIComponent('{ counters { name } }')}`;
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${api.tokens.user}`, 'apollo-require-preflight': 'true' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { counters: [{ name: 'via-get' }] } });
  });

  it('refuses a mutation sent with GET', async () => {
    const url = `${api.url}?query=${encodeURIComponent('mutation { updateCounter(name: "x") }')}`;
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${api.tokens.service}`, 'apollo-require-preflight': 'true' },
    });
    expect(response.status).toBe(405);
    expect(await api.redis.client.dbsize()).toBe(0);
  });
});

describe('authentication and roles', () => {
  it('rejects a read without a token as UNAUTHENTICATED', async () => {
    const read = await post(api.url, CountersDocument, {});
    expect(codes(read)).toEqual(['UNAUTHENTICATED']);
    expect(read.data).toBeNull();
  });

  it.each([
    ['a token signed with another secret', jwt.sign({ sub: 'alice' }, 'x'.repeat(40), { algorithm: 'HS256' })],
    ['an expired token', jwt.sign({ sub: 'alice', exp: Math.floor(Date.now() / 1000) - 60 }, TEST_SECRET)],
    [
      'an unsigned token',
      `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"alice"}').toString('base64url')}.`,
    ],
    ['a token without a subject', jwt.sign({ roles: ['service'] }, TEST_SECRET)],
    ['a token whose subject cannot be a user id', jwt.sign({ sub: 'a:b{c}' }, TEST_SECRET)],
    ['a token whose roles are not a list', jwt.sign({ sub: 'alice', roles: 'service' }, TEST_SECRET)],
    ['not a token at all', 'garbage'],
  ])('rejects %s with 401 UNAUTHENTICATED', async (_label, token) => {
    const read = await post(api.url, CountersDocument, {}, token);
    expect(read.status).toBe(401);
    expect(codes(read)).toEqual(['UNAUTHENTICATED']);
    expect(read.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('rejects an Authorization header that is not a bearer token', async () => {
    const read = await post(api.url, CountersDocument, {}, undefined, { authorization: 'Basic YWxpY2U6cHc=' });
    expect(read.status).toBe(401);
    expect(codes(read)).toEqual(['UNAUTHENTICATED']);
  });

  it('lets only service callers update counters (FORBIDDEN for users, nothing written)', async () => {
    const update = await post(api.url, UpdateCounterDocument, { name: 'hits' }, api.tokens.user);
    expect(codes(update)).toEqual(['FORBIDDEN']);
    expect(update.data).toBeNull();
    expect(await api.redis.client.dbsize()).toBe(0);
  });

  it('rejects an update without a token as UNAUTHENTICATED', async () => {
    const update = await post(api.url, UpdateCounterDocument, { name: 'hits' });
    expect(codes(update)).toEqual(['UNAUTHENTICATED']);
    expect(await api.redis.client.dbsize()).toBe(0);
  });
});

describe('bad input is refused with BAD_USER_INPUT and writes nothing', () => {
  const longName = 'n'.repeat(129);
  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['a name over 128 characters', { name: longName }, 'name'],
    ['a name with a control character', { name: 'hits\u0000' }, 'name'],
    ['a name with a hash-tag brace', { name: 'hits{x}' }, 'name'],
    ['a name with a colon', { name: 'a:b' }, 'name'],
    ['a name with a space', { name: 'a b' }, 'name'],
    ['a zero count', { name: 'hits', count: 0 }, 'count'],
    ['a count over the maximum', { name: 'hits', count: 1_000_001 }, 'count'],
    ['a count under the negative maximum', { name: 'hits', count: -1_000_001 }, 'count'],
    ['a negative time', { name: 'hits', at: -1 }, 'at'],
  ])('%s', async (_label, variables, argument) => {
    const update = await post(api.url, UpdateCounterDocument, variables, api.tokens.service);
    expect(codes(update)).toEqual(['BAD_USER_INPUT']);
    expect(update.errors?.[0].extensions?.argument).toBe(argument);
    expect(update.errors?.[0].message).toMatch(new RegExp(argument));
    expect(await api.redis.client.dbsize()).toBe(0);
  });

  it('a time far in the future', async () => {
    const update = await post(
      api.url,
      UpdateCounterDocument,
      { name: 'hits', at: (await serverNow()) + 3600 },
      api.tokens.service,
    );
    expect(codes(update)).toEqual(['BAD_USER_INPUT']);
    expect(update.errors?.[0].message).toMatch(/ahead of the server clock/);
    expect(await api.redis.client.dbsize()).toBe(0);
  });

  it('a non-integer count (rejected by GraphQL itself)', async () => {
    const update = await post(api.url, UpdateCounterDocument, { name: 'hits', count: 1.5 }, api.tokens.service);
    expect(update.status).toBe(400);
    expect(codes(update)).toEqual(['BAD_USER_INPUT']);
    expect(await api.redis.client.dbsize()).toBe(0);
  });

  it('a precision that is not configured', async () => {
    const read = await post(api.url, CounterDocument, { name: 'hits', precision: 7 }, api.tokens.user);
    expect(codes(read)).toEqual(['BAD_USER_INPUT']);
    expect(read.errors?.[0].message).toContain('1, 5, 60, 300, 3600, 18000, 86400');
  });

  it.each([0, 10_001])('a read limit of %i', async (limit) => {
    const read = await post(api.url, CounterDocument, { name: 'hits', precision: 60, limit }, api.tokens.user);
    expect(codes(read)).toEqual(['BAD_USER_INPUT']);
  });

  it.each([0, 1001])('a page size of %i', async (first) => {
    const read = await post(api.url, CountersDocument, { first }, api.tokens.user);
    expect(codes(read)).toEqual(['BAD_USER_INPUT']);
  });

  it('keeps what was stored when a later update is refused', async () => {
    await post(api.url, UpdateCounterDocument, { name: 'kept', count: 4 }, api.tokens.service);
    await post(api.url, UpdateCounterDocument, { name: 'kept', count: 0 }, api.tokens.service);
    const read = await post(api.url, CounterDocument, { name: 'kept', precision: 86400 }, api.tokens.user);
    expect(read.data?.counter.map((s) => s.count)).toEqual([4]);
  });
});

describe('HTTP plumbing', () => {
  it('answers /healthz and /readyz', async () => {
    const health = await fetch(api.url.replace('/graphql', '/healthz'));
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(api.url.replace('/graphql', '/readyz'));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('writes one log line per request with its id, duration, operation and outcome', async () => {
    api.logs.length = 0;
    const requestId = 'test-request-42';
    await post(api.url, UpdateCounterDocument, { name: 'logged' }, api.tokens.user, { 'x-request-id': requestId });
    const lines = api.logs.filter((line) => line.msg === 'request' && line.reqId === requestId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      method: 'POST',
      path: '/graphql',
      status: 200,
      user: 'alice',
      operation: 'UpdateCounter',
      errors: ['FORBIDDEN'],
    });
    expect(typeof lines[0].ms).toBe('number');
  });

  it('returns a JSON 404 for unknown paths', async () => {
    const response = await fetch(api.url.replace('/graphql', '/nope'));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      errors: [{ message: expect.any(String), extensions: { code: 'NOT_FOUND' } }],
    });
  });

  it('refuses a body over the size limit with 413', async () => {
    const response = await fetch(api.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${api.tokens.user}` },
      body: JSON.stringify({ query: `{ counters { name } } # ${'x'.repeat(api.config.bodyLimitBytes)}` }),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe(
      'PAYLOAD_TOO_LARGE',
    );
  });

  it('refuses malformed JSON with 400', async () => {
    const response = await fetch(api.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe(
      'BAD_REQUEST',
    );
  });
});
