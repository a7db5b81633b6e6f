// Counters through the real HTTP server: values, auth, bad input, and the request log.
import jwt from 'jsonwebtoken';
import {
  CounterDocument,
  CounterSeriesDocument,
  CounterSeriesManyDocument,
  CountersDocument,
  DeleteCounterDocument,
  UpdateCounterDocument,
} from '../../src/generated/client/graphql';
import type Redis from 'ioredis';
import { CounterRepository } from '../../src/redis/counter';
import { counterBucket } from '../../src/redis/keys';
import { codes, post } from '../support/graphql';
import { scriptClient } from '../support/redis';
import { startTestServer, TEST_SECRET, type TestServer } from '../support/server';

const PRECISIONS = [1, 5, 60, 300, 3600, 18000, 86400];
const ALIGN = 432000; // a multiple of every precision

let api: TestServer;

/** For writing what the server would refuse now. */
let scripts: Redis;

beforeAll(async () => {
  api = await startTestServer();
  scripts = scriptClient(api.redis);
});
afterAll(async () => {
  scripts?.disconnect();
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

  it('a time older than the longest retention (2012), naming at and the retention it falls outside', async () => {
    // The daily precision keeps the most: the current day and the 119 before it (COUNTER_SAMPLES 120).
    const edge = (now: number) => (Math.floor(now / 86400) - 119) * 86400;
    const before = edge(await serverNow());
    const update = await post(
      api.url,
      UpdateCounterDocument,
      { name: 'hits', count: 1, at: Date.UTC(2012, 4, 1) / 1000 },
      api.tokens.service,
    );
    const after = edge(await serverNow());
    expect(codes(update)).toEqual(['BAD_USER_INPUT']);
    const error = update.errors![0];
    expect(error.extensions).toMatchObject({ argument: 'at', precision: 86400, samples: 120 });
    const retainedFrom = error.extensions!.retainedFrom as number;
    expect([before, after]).toContain(retainedFrom);
    expect(error.message).toBe(
      `at is older than the longest retention: 120 slices of 86400 seconds, from ${retainedFrom} ` +
        `(${new Date(retainedFrom * 1000).toISOString()}) by the server clock`,
    );
    expect(await api.redis.client.dbsize()).toBe(0);
    // Inside the daily retention but older than every finer one: taken, and read at the daily precision.
    const at = after + 86400;
    expect(
      (await post(api.url, UpdateCounterDocument, { name: 'hits', count: 4, at }, api.tokens.service)).data,
    ).toEqual({ updateCounter: true });
    const read = await post(api.url, CounterDocument, { name: 'hits', precision: 86400 }, api.tokens.user);
    expect(read.data?.counter).toEqual([{ time: at, count: 4 }]);
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

type Aggregation = 'SUM' | 'AVG' | 'MIN' | 'MAX' | 'COUNT';
type Fill = 'ZERO' | 'NONE';
interface Write {
  at: number;
  count: number;
}

/**
 * What a series must hold, computed from the raw writes alone: the writes summed into slices of
 * `precision`, the slices grouped into steps, a slice without a write counting as 0.
 */
function expectedPoints(
  writes: Write[],
  range: { from: number; to: number; step: number },
  precision: number,
  aggregation: Aggregation,
  fill: Fill,
): { time: number; value: number }[] {
  const { from, to, step } = range;
  const perStep = step / precision;
  const points: { time: number; value: number }[] = [];
  for (let time = Math.floor(from / step) * step; time <= Math.floor(to / step) * step; time += step) {
    const slices = new Map<number, number>();
    for (const { at, count } of writes) {
      const slice = Math.floor(at / precision) * precision;
      if (slice >= time && slice < time + step) slices.set(slice, (slices.get(slice) ?? 0) + count);
    }
    const counts = [...slices.values()];
    if (counts.length === 0) {
      if (fill === 'ZERO') points.push({ time, value: 0 });
      continue;
    }
    const withEmpty = counts.length < perStep ? [...counts, 0] : counts;
    const sum = counts.reduce((a, b) => a + b, 0);
    const value = {
      SUM: sum,
      AVG: sum / perStep,
      MIN: Math.min(...withEmpty),
      MAX: Math.max(...withEmpty),
      COUNT: counts.length,
    }[aggregation];
    points.push({ time, value });
  }
  return points;
}

async function write(name: string, writes: Write[]): Promise<void> {
  for (const { at, count } of writes) {
    const update = await post(api.url, UpdateCounterDocument, { name, count, at }, api.tokens.service);
    expect(update.errors).toBeUndefined();
  }
}

/** With the default COUNTER_SAMPLES (120): how far back each precision's retention reaches. */
const WINDOW: Record<number, number> = Object.fromEntries(PRECISIONS.map((p) => [p, p * 120]));
/** For each precision, an age inside its window and outside every finer one's. */
const AGE: Record<number, number> = {
  1: 60,
  5: 360,
  60: 3600,
  300: 18_000,
  3600: 2 * 86400,
  18000: 10 * 86400,
  86400: 60 * 86400,
};

describe('counterSeries', () => {
  // Hundreds of series reads checked against a reference: over a minute beside CPU burners (a
  // ceiling, not a deadline; nothing in it waits on time).
  it('matches a computation from the raw writes at every precision, on and off step boundaries', async () => {
    const now = await serverNow();
    const aggregations: Aggregation[] = ['SUM', 'AVG', 'MIN', 'MAX', 'COUNT'];
    for (const precision of PRECISIONS) {
      // A boundary of this precision and of each step below (p, 2p and 3p), at an age that only
      // this precision's retention covers among those dividing the steps.
      const boundary = Math.floor((now - AGE[precision]) / (6 * precision)) * (6 * precision);
      expect(now - boundary + 6 * 3 * precision).toBeLessThan(WINDOW[precision] - 30);
      const p = precision;
      const writes: Write[] = [
        { at: boundary - 4 * p, count: 23 },
        { at: boundary - 2 * p, count: 2 },
        { at: boundary - 1, count: 5 },
        { at: boundary - 0.25, count: 7 },
        { at: boundary, count: 11 },
        { at: boundary + 0.5, count: -3 },
        { at: boundary + p - 1, count: 13 },
        { at: boundary + p, count: 17 },
        // A slice whose counts cancel still holds a sample (of 0).
        { at: boundary + 2 * p, count: 3 },
        { at: boundary + 2 * p + 0.5, count: -3 },
        { at: boundary + 3 * p + 1, count: 19 },
        { at: boundary + 5 * p, count: -8 },
      ];
      const name = `exact-${p}`;
      await write(name, writes);

      for (const step of [p, 2 * p, 3 * p]) {
        const ranges = [
          { from: boundary - 2 * step, to: boundary + 2 * step },
          { from: boundary - 2 * step + 1, to: boundary + 2 * step - 1 },
          { from: boundary - 2 * step - 1, to: boundary + 2 * step + 1 },
          { from: boundary, to: boundary },
          { from: boundary - step - 0.5, to: boundary + 0.25 },
        ];
        for (const range of ranges) {
          for (const aggregation of aggregations) {
            for (const fill of ['ZERO', 'NONE'] as Fill[]) {
              const read = await post(
                api.url,
                CounterSeriesDocument,
                { name, ...range, step, aggregation, fill },
                api.tokens.user,
              );
              expect(read.errors).toBeUndefined();
              const series = read.data!.counterSeries;
              const label = `precision ${p}, step ${step}, ${range.from}..${range.to}, ${aggregation}, ${fill}`;
              expect({ label, precision: series.precision }).toEqual({ label, precision: p });
              expect({ label, points: series.points }).toEqual({
                label,
                points: expectedPoints(writes, { ...range, step }, p, aggregation, fill),
              });
              expect(series.start).toBe(Math.floor(range.from / step) * step);
              expect(series.end).toBe(Math.floor(range.to / step) * step + step);
            }
          }
        }
      }
    }
  }, 240_000);

  it('reports the precision used and how far back its retention reaches', async () => {
    const now = await serverNow();
    await write('chosen', [{ at: now - 1000, count: 4 }]);
    // Steps of 300 s from 1000 s ago: 60 s slices are kept for 2 hours, 5 s slices for only 10 minutes.
    const read = await post(
      api.url,
      CounterSeriesDocument,
      { name: 'chosen', from: now - 1000, step: 300 },
      api.tokens.user,
    );
    const series = read.data!.counterSeries;
    expect(series.precision).toBe(60);
    const after = await serverNow();
    expect([now, after].map((t) => (Math.floor(t / 60) - 119) * 60)).toContain(series.retainedFrom);
    // `to` defaults to the server's clock: the last step is the one holding now.
    expect([now, after].map((t) => Math.floor(t / 300) * 300 + 300)).toContain(series.end);
    expect(series.points.reduce((sum, point) => sum + point.value, 0)).toBe(4);
  });

  it('falls back to the coarsest precision that divides the step when none keeps the range', async () => {
    const now = await serverNow();
    const from = now - 200 * 86400; // older than every retention window (the daily one keeps 120 days)
    // Such a time is refused now; a sample this old was written while a longer retention was set,
    // and the cleanup has not run since COUNTER_SAMPLES was lowered.
    const longer = new CounterRepository(scripts, { precisions: PRECISIONS, samples: 1000, maxFutureSeconds: 60 });
    await longer.update('ancient', 9, from);
    const hourly = await post(
      api.url,
      CounterSeriesDocument,
      { name: 'ancient', from, to: from + 7200, step: 3600 },
      api.tokens.user,
    );
    expect(hourly.data?.counterSeries.precision).toBe(3600);
    expect(hourly.data?.counterSeries.points.map((p) => p.value)).toEqual([9, 0, 0]);
    const daily = await post(
      api.url,
      CounterSeriesDocument,
      { name: 'ancient', from, to: from, step: 86400 },
      api.tokens.user,
    );
    expect(daily.data?.counterSeries.precision).toBe(86400);
    expect(daily.data?.counterSeries.points).toEqual([{ time: Math.floor(from / 86400) * 86400, value: 9 }]);
  });

  it('answers a counter without samples with zeros, or no points', async () => {
    const from = (await serverNow()) - 100;
    const zero = await post(
      api.url,
      CounterSeriesDocument,
      { name: 'nobody', from, to: from + 9, step: 5 },
      api.tokens.user,
    );
    expect(zero.data?.counterSeries.points.map((p) => p.value)).toEqual(from % 5 === 0 ? [0, 0] : [0, 0, 0]);
    const none = await post(
      api.url,
      CounterSeriesDocument,
      { name: 'nobody', from, to: from + 9, step: 5, fill: 'NONE' },
      api.tokens.user,
    );
    expect(none.data?.counterSeries.points).toEqual([]);
  });
});

describe('counterSeriesMany', () => {
  it('reads several counters by name, in the order asked, at one precision', async () => {
    const now = await serverNow();
    const from = Math.floor((now - 3000) / 600) * 600;
    const names = ['line/a', 'line/b', 'line/c', 'line/d', 'line/e', 'line/f'];
    // Spread over buckets, so the read takes several script calls.
    expect(new Set(names.map(counterBucket)).size).toBeGreaterThan(1);
    for (const [i, name] of names.entries()) {
      await write(name, [
        { at: from + 10, count: i + 1 },
        { at: from + 610, count: 10 * (i + 1) },
      ]);
    }
    const asked = ['line/f', 'nobody', ...names.slice(0, 5), 'line/a'];
    const read = await post(
      api.url,
      CounterSeriesManyDocument,
      { names: asked, from, to: from + 1199, step: 600 },
      api.tokens.user,
    );
    expect(read.errors).toBeUndefined();
    const series = read.data!.counterSeriesMany;
    // Each name once, in the order of its first mention.
    expect(series.map((s) => s.name)).toEqual(['line/f', 'nobody', 'line/a', 'line/b', 'line/c', 'line/d', 'line/e']);
    expect(new Set(series.map((s) => s.precision))).toEqual(new Set([60]));
    for (const s of series) {
      const i = names.indexOf(s.name);
      expect(s.points).toEqual([
        { time: from, value: i < 0 ? 0 : i + 1 },
        { time: from + 600, value: i < 0 ? 0 : 10 * (i + 1) },
      ]);
    }
  });

  it('reads the known counters with a prefix in byte order, a page at a time', async () => {
    const now = await serverNow();
    const names = ['app/z', 'app/é', 'app/a', 'app/m', 'apple', 'other'];
    for (const [i, name] of names.entries()) await write(name, [{ at: now - 30, count: i + 1 }]);
    const range = { from: now - 60, to: now, step: 60 };
    const first = await post(
      api.url,
      CounterSeriesManyDocument,
      { prefix: 'app/', first: 2, ...range, fill: 'NONE' },
      api.tokens.user,
    );
    expect(first.errors).toBeUndefined();
    expect(first.data!.counterSeriesMany.map((s) => [s.name, s.points.map((p) => p.value)])).toEqual([
      ['app/a', [3]],
      ['app/m', [4]],
    ]);
    const second = await post(
      api.url,
      CounterSeriesManyDocument,
      { prefix: 'app/', after: 'app/m', first: 2, ...range, fill: 'NONE' },
      api.tokens.user,
    );
    // Byte order: 'z' (0x7a) before 'é' (0xc3 0xa9).
    expect(second.data!.counterSeriesMany.map((s) => [s.name, s.points.map((p) => p.value)])).toEqual([
      ['app/z', [1]],
      ['app/é', [2]],
    ]);
    const all = await post(api.url, CounterSeriesManyDocument, { prefix: '', ...range }, api.tokens.user);
    expect(all.data!.counterSeriesMany.map((s) => s.name)).toEqual([
      'app/a',
      'app/m',
      'app/z',
      'app/é',
      'apple',
      'other',
    ]);
    const none = await post(api.url, CounterSeriesManyDocument, { prefix: 'zzz', ...range }, api.tokens.user);
    expect(none.data!.counterSeriesMany).toEqual([]);
  });

  it('bounds the points of one reply: 100,000 over all its series', async () => {
    const ask = (names: string[], points: number, to?: boolean) =>
      post(
        api.url,
        CounterSeriesManyDocument,
        { names, from: 0, ...(to === false ? {} : { to: (points - 1) * 60 }), step: 60, fill: 'NONE' },
        api.tokens.user,
      );
    const fifty = Array.from({ length: 50 }, (_, i) => `many/${i}`);
    // 50 series: 2,000 points each at most; 2,001 is refused before Redis is asked.
    expect((await ask(fifty, 2000)).errors).toBeUndefined();
    const over = await ask(fifty, 2001);
    expect(codes(over)).toEqual(['BAD_USER_INPUT']);
    expect(over.errors![0].message).toContain('more than 2000');
    expect(over.errors![0].extensions).toMatchObject({ argument: 'step' });
    // One series may have the single read's 10,000.
    expect((await ask(['many/0'], 10_000)).errors).toBeUndefined();
    expect(codes(await ask(['many/0'], 10_001))).toEqual(['BAD_USER_INPUT']);
    // A range ending at the server's clock is bounded by the script, with the same figure.
    const open = await ask(fifty, 0, false);
    expect(codes(open)).toEqual(['BAD_USER_INPUT']);
    expect(open.errors![0].message).toContain('more than 2000');
  });
});

describe('deleteCounter', () => {
  it('removes a counter at every precision and from the known counters; false the second time', async () => {
    const now = await serverNow();
    await write('doomed', [
      { at: now - 100, count: 2 },
      { at: now - 5, count: 3 },
    ]);
    await write('kept', [{ at: now - 5, count: 1 }]);
    const deleted = await post(api.url, DeleteCounterDocument, { name: 'doomed' }, api.tokens.service);
    expect(deleted.data).toEqual({ deleteCounter: true });
    for (const precision of PRECISIONS) {
      const read = await post(api.url, CounterDocument, { name: 'doomed', precision }, api.tokens.user);
      expect(read.data?.counter).toEqual([]);
    }
    const listed = await post(api.url, CountersDocument, {}, api.tokens.user);
    expect(listed.data?.counters).toEqual([{ name: 'kept', precisions: PRECISIONS }]);
    // Only the other counter's keys are left: its samples and its name in the known sets.
    expect(await api.redis.client.dbsize()).toBe(2 * PRECISIONS.length);
    const again = await post(api.url, DeleteCounterDocument, { name: 'doomed' }, api.tokens.service);
    expect(again.data).toEqual({ deleteCounter: false });
  });

  it('lets only service callers delete (FORBIDDEN for users, nothing removed)', async () => {
    await write('guarded', [{ at: (await serverNow()) - 5, count: 1 }]);
    const before = await api.redis.client.dbsize();
    const refused = await post(api.url, DeleteCounterDocument, { name: 'guarded' }, api.tokens.user);
    expect(codes(refused)).toEqual(['FORBIDDEN']);
    expect(await api.redis.client.dbsize()).toBe(before);
  });
});

describe('series arguments are checked, with BAD_USER_INPUT naming the argument', () => {
  it.each([
    ['to before from', { from: 1000, to: 999, step: 1 }, 'to', /to must not be before from/],
    ['a negative from', { from: -1, to: 10, step: 1 }, 'from', /from/],
    ['a step of 0', { from: 0, to: 10, step: 0 }, 'step', /step/],
    ['more than 10000 steps', { from: 0, to: 10_000, step: 1 }, 'step', /10001 steps, more than 10000/],
    ['a range up to now of more than 10000 steps', { from: 1, step: 1 }, 'step', /more than 10000/],
  ])('%s', async (_label, range, argument, message) => {
    const read = await post(api.url, CounterSeriesDocument, { name: 'x', ...range }, api.tokens.user);
    expect(codes(read)).toEqual(['BAD_USER_INPUT']);
    expect(read.errors?.[0].extensions?.argument).toBe(argument);
    expect(read.errors?.[0].message).toMatch(message);
  });

  it('a from after the server clock when to defaults to it', async () => {
    const read = await post(
      api.url,
      CounterSeriesDocument,
      { name: 'x', from: (await serverNow()) + 3600, step: 60 },
      api.tokens.user,
    );
    expect(codes(read)).toEqual(['BAD_USER_INPUT']);
    expect(read.errors?.[0].extensions?.argument).toBe('from');
  });

  it.each([
    ['both names and prefix', { names: ['a'], prefix: 'a' }, 'prefix'],
    ['neither names nor prefix', {}, 'names'],
    ['no names', { names: [] }, 'names'],
    ['51 names', { names: Array.from({ length: 51 }, (_, i) => `n${i}`) }, 'names'],
    ['a bad name', { names: ['ok', 'a:b'] }, 'names'],
    ['a bad prefix', { prefix: 'a{b' }, 'prefix'],
    ['a page of 51', { prefix: 'a', first: 51 }, 'first'],
  ])('many: %s', async (_label, variables, argument) => {
    const read = await post(
      api.url,
      CounterSeriesManyDocument,
      { from: 0, to: 10, step: 1, ...variables },
      api.tokens.user,
    );
    expect(codes(read)).toEqual(['BAD_USER_INPUT']);
    expect(read.errors?.[0].extensions?.argument).toBe(argument);
  });
});

describe('with other precisions and retention', () => {
  let custom: TestServer;
  beforeAll(async () => {
    custom = await startTestServer(
      { COUNTER_PRECISIONS: '5,60,300', COUNTER_SAMPLES: '10', COUNTER_RETENTION: '60:100000' },
      api.redis,
    );
  });
  afterAll(async () => {
    await custom.stop();
  });

  it('refuses a step that no precision divides', async () => {
    const read = await post(
      custom.url,
      CounterSeriesDocument,
      { name: 'x', from: 0, to: 10, step: 7 },
      api.tokens.user,
    );
    expect(codes(read)).toEqual(['BAD_USER_INPUT']);
    expect(read.errors?.[0].extensions?.argument).toBe('step');
    expect(read.errors?.[0].message).toContain('5, 60, 300');
  });

  it('chooses by the retention of each precision (COUNTER_RETENTION over COUNTER_SAMPLES)', async () => {
    const now = await serverNow();
    await post(custom.url, UpdateCounterDocument, { name: 'kept-long', at: now - 20 * 3600 }, custom.tokens.service);
    // 60 s slices are kept 100000 times (69 days), 300 s ones only 10 times: the finer wins.
    const read = await post(
      custom.url,
      CounterSeriesDocument,
      { name: 'kept-long', from: now - 21 * 3600, step: 3600, fill: 'NONE' },
      custom.tokens.user,
    );
    expect(read.data?.counterSeries.precision).toBe(60);
    const after = await serverNow();
    expect([now, after].map((t) => (Math.floor(t / 60) - 99_999) * 60)).toContain(
      read.data?.counterSeries.retainedFrom,
    );
    expect(read.data?.counterSeries.points).toEqual([{ time: Math.floor((now - 20 * 3600) / 3600) * 3600, value: 1 }]);
    // Older than the 60 s slices are kept: the coarsest precision dividing the step answers.
    const old = await post(
      custom.url,
      CounterSeriesDocument,
      { name: 'kept-long', from: now - 100 * 86400, to: now - 99 * 86400, step: 600 },
      custom.tokens.user,
    );
    expect(old.data?.counterSeries.precision).toBe(300);
  });
});
