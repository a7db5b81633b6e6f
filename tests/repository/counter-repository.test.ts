// The counter repository and its Lua scripts against a real redis-server.
import Redis from 'ioredis';
import pino from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../src/common/errors';
import { CounterRepository, type Aggregation, type SeriesQuery } from '../../src/redis/counter';
import { CounterCleanupWorker } from '../../src/workers/counter-cleanup';
import { counterBucket, counterKeys } from '../../src/redis/keys';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';

const PRECISIONS = [1, 5, 60, 300, 3600, 18000, 86400];
// Least common multiple of the precisions: a multiple of it starts a slice at every precision.
const ALIGN = 432000;

let redis: TestRedis;
let commands: Redis;

beforeAll(async () => {
  redis = await startTestRedis();
  commands = scriptClient(redis);
});
afterAll(async () => {
  commands.disconnect();
  await redis.stop();
});
beforeEach(async () => {
  await redis.client.flushdb();
});

const repo = (samples = 120, precisions = PRECISIONS) =>
  new CounterRepository(commands, { precisions, samples, maxFutureSeconds: 60 });

async function serverNow(): Promise<number> {
  const [seconds] = await redis.client.time();
  return Number(seconds);
}

describe('update', () => {
  it('adds the count to the slice containing `at` at every precision', async () => {
    const counters = repo();
    const base = Math.floor((await serverNow()) / ALIGN) * ALIGN - ALIGN;
    await counters.update('hits', 2, base + 299.5);

    const expected: Record<number, number> = {
      1: base + 299,
      5: base + 295,
      60: base + 240,
      300: base, // 299.5 is still in the first five-minute slice
      3600: base,
      18000: base,
      86400: base,
    };
    for (const precision of PRECISIONS) {
      expect(await counters.samples('hits', precision, 1000)).toEqual([{ time: expected[precision], count: 2 }]);
    }
  });

  it('puts instants on either side of each slice boundary into adjacent slices', async () => {
    const counters = repo();
    const base = Math.floor((await serverNow()) / ALIGN) * ALIGN - ALIGN;
    for (const precision of PRECISIONS) {
      await redis.client.flushdb();
      const boundary = base + precision; // start of the second slice at this precision
      await counters.update('edge', 1, boundary - 0.001);
      await counters.update('edge', 10, boundary);
      await counters.update('edge', 100, boundary + precision - 0.001);
      expect(await counters.samples('edge', precision, 1000)).toEqual([
        { time: base, count: 1 },
        { time: boundary, count: 110 },
      ]);
    }
  });

  it("uses the server's clock when no time is given and returns it", async () => {
    const counters = repo();
    const before = await serverNow();
    const time = await counters.update('clock', 1);
    const after = await serverNow();
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThan(after + 1);
    const [sample] = await counters.samples('clock', 5, 10);
    expect(sample.time).toBe(Math.floor(time / 5) * 5);
  });

  it('sums concurrent updates exactly', async () => {
    const counters = repo();
    const at = (await serverNow()) - 10;
    await Promise.all(Array.from({ length: 200 }, (_, i) => counters.update('busy', i % 2 === 0 ? 3 : -1, at)));
    expect(await counters.samples('busy', 60, 10)).toEqual([{ time: Math.floor(at / 60) * 60, count: 200 }]);
  });

  it('rejects a time too far ahead of the server clock and writes nothing', async () => {
    const counters = repo();
    const future = (await serverNow()) + 3600;
    await expect(counters.update('later', 1, future)).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await redis.client.dbsize()).toBe(0);
  });

  it('refuses a time older than the longest retention, naming at and that retention, and writes nothing', async () => {
    // Per precision, the cleanup keeps the current slice and keep - 1 before it: 1 s x 120, 60 s x 10,
    // 3600 s x 3 (COUNTER_RETENTION). The longest reaches back to the start of the hour two hours ago.
    const counters = new CounterRepository(commands, {
      precisions: [1, 60, 3600],
      samples: 120,
      retention: { 60: 10, 3600: 3 },
      maxFutureSeconds: 60,
    });
    // Away from the end of an hour, where the edge moves (polling the server clock past it).
    let now = await serverNow();
    while (now % 3600 > 3600 - 15) {
      await sleep(200);
      now = await serverNow();
    }
    const retainedFrom = (Math.floor(now / 3600) - 2) * 3600;
    const error = await counters.update('old', 1, retainedFrom - 0.001).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: { argument: 'at', retainedFrom, precision: 3600, samples: 3 },
    });
    expect((error as AppError).message).toBe(
      `at is older than the longest retention: 3 slices of 3600 seconds, from ${retainedFrom} ` +
        `(${new Date(retainedFrom * 1000).toISOString()}) by the server clock`,
    );
    // As old as the book's 2012 examples.
    await expect(counters.update('old', 1, Date.UTC(2012, 0, 1) / 1000)).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
      details: { argument: 'at', retainedFrom },
    });
    expect(await redis.client.dbsize()).toBe(0);

    // The first instant of the oldest retained hour is taken, and stays at the precision that keeps it.
    await counters.update('edge', 2, retainedFrom);
    expect(await counters.samples('edge', 3600, 10)).toEqual([{ time: retainedFrom, count: 2 }]);
    await counters.clean(1);
    await counters.clean(60);
    await counters.clean(3600);
    expect(await counters.samples('edge', 3600, 10)).toEqual([{ time: retainedFrom, count: 2 }]);
    // Finer precisions do not keep that far back: their cleanup removes it.
    expect(await counters.samples('edge', 1, 10)).toEqual([]);
    expect(await counters.samples('edge', 60, 10)).toEqual([]);
  });

  it('accepts a time within the allowed lead of the server clock', async () => {
    const counters = repo();
    const soon = (await serverNow()) + 30;
    await counters.update('soon', 1, soon);
    expect(await counters.samples('soon', 1, 10)).toEqual([{ time: Math.floor(soon), count: 1 }]);
  });

  it('refuses an update that would push a sample past 2^53 - 1, leaving every precision unchanged', async () => {
    const counters = repo();
    const at = (await serverNow()) - 5;
    const slice = String(Math.floor(at / 86400) * 86400);
    await counters.update('huge', 1, at);
    // Only the daily sample is near the limit: the script must check all before writing any.
    await redis.client.hset(counterKeys.samples('huge', 86400), slice, String(Number.MAX_SAFE_INTEGER - 1));
    const error = await counters.update('huge', 5, at).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('BAD_USER_INPUT');
    expect(await counters.samples('huge', 1, 10)).toEqual([{ time: Math.floor(at), count: 1 }]);
  });

  it('keeps every key of a counter under one hash tag', () => {
    const bucket = counterBucket('hits');
    const tags = PRECISIONS.flatMap((p) => [counterKeys.known(bucket, p), counterKeys.samples('hits', p)]).map(
      (key) => /\{[^}]*\}/.exec(key)?.[0],
    );
    expect(new Set(tags).size).toBe(1);
    expect(tags[0]).toBe(`{ctr-${bucket}}`);
  });
});

describe('samples', () => {
  it('returns the newest `limit` samples, oldest first', async () => {
    const counters = repo();
    const start = (await serverNow()) - 100;
    for (let i = 0; i < 10; i += 1) await counters.update('series', i + 1, start + i);
    const newest = await counters.samples('series', 1, 3);
    expect(newest).toEqual([
      { time: start + 7, count: 8 },
      { time: start + 8, count: 9 },
      { time: start + 9, count: 10 },
    ]);
  });

  it('returns nothing for an unknown counter', async () => {
    expect(await repo().samples('nobody', 60, 10)).toEqual([]);
  });
});

describe('list', () => {
  it('pages through counters in byte order with the precisions that hold samples', async () => {
    const counters = repo();
    const names = ['b', 'a', 'é', 'Z', 'c.d', '日本', 'a-1'];
    for (const name of names) await counters.update(name, 1);
    const sorted = [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));

    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await counters.list(after, 3);
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(3);
      for (const entry of page) expect(entry.precisions).toEqual(PRECISIONS);
      seen.push(...page.map((entry) => entry.name));
      after = page[page.length - 1].name;
    }
    expect(seen).toEqual(sorted);
  });

  it('reports only the precisions where a counter still has samples', async () => {
    const counters = repo();
    await counters.update('partial', 1);
    await redis.client.zrem(counterKeys.known(counterBucket('partial'), 1), 'partial');
    await redis.client.zrem(counterKeys.known(counterBucket('partial'), 5), 'partial');
    expect(await counters.list(undefined, 10)).toEqual([
      { name: 'partial', precisions: [60, 300, 3600, 18000, 86400] },
    ]);
  });
});

describe('clean', () => {
  it('trims each counter to the newest `samples` slices', async () => {
    const counters = repo(120);
    const now = await serverNow();
    // 160 one-second slices from now-100 to now+59 (the allowed lead): all stay inside the time
    // window however the clock ticks during the test, so only the count bound trims them.
    const times = Array.from({ length: 160 }, (_, i) => now - 100 + i);
    await Promise.all(times.map((at) => counters.update('trimmed', 1, at)));
    expect(await redis.client.hlen(counterKeys.samples('trimmed', 1))).toBe(160);

    const result = await counters.clean(1);
    const remaining = await counters.samples('trimmed', 1, 1000);
    expect(result).toEqual({ counters: 1, removedSamples: 40, removedCounters: 0 });
    // The newest 120 stay, in order.
    expect(remaining.map((sample) => sample.time)).toEqual(times.slice(-120));
    // Other precisions are not touched by a pass over precision 1.
    const fiveSecondSlices = new Set(times.map((t) => Math.floor(t / 5) * 5)).size;
    expect(await redis.client.hlen(counterKeys.samples('trimmed', 5))).toBe(fiveSecondSlices);
  });

  it('drops samples older than the window even when there are fewer than `samples`', async () => {
    const counters = repo(10);
    const now = await serverNow();
    await counters.update('sparse', 1, now - 500);
    await counters.update('sparse', 1, now - 5);
    await counters.clean(1);
    expect(await counters.samples('sparse', 1, 100)).toEqual([{ time: now - 5, count: 1 }]);
  });

  it('removes a counter from the known set once it has no samples left', async () => {
    const counters = repo(10);
    const now = await serverNow();
    await counters.update('stale', 4, now - 3600);
    await counters.update('fresh', 4, now);
    const result = await counters.clean(1);
    expect(result.removedCounters).toBe(1);
    expect(await redis.client.exists(counterKeys.samples('stale', 1))).toBe(0);
    expect(await redis.client.zrange(counterKeys.known(counterBucket('stale'), 1), 0, -1)).toEqual([]);
    // Still known at the coarser precisions, where the hour-old sample is within the window.
    const listed = await counters.list(undefined, 10);
    expect(listed).toEqual([
      { name: 'fresh', precisions: PRECISIONS },
      { name: 'stale', precisions: [5, 60, 300, 3600, 18000, 86400] },
    ]);
  });

  it('handles many counters in one bucket across several batches', async () => {
    const counters = repo(5);
    const now = await serverNow();
    const names = Array.from({ length: 450 }, (_, i) => `many-${i}`);
    await Promise.all(names.map((name) => counters.update(name, 1, now - 1000)));
    const result = await counters.clean(1);
    expect(result).toEqual({ counters: 450, removedSamples: 450, removedCounters: 450 });
    expect((await counters.list(undefined, 1000)).every((c) => !c.precisions.includes(1))).toBe(true);
  });

  it('never loses an update that races the removal of an empty counter', async () => {
    const counters = repo(3);
    const other = scriptClient(redis);
    const racing = new CounterRepository(other, { precisions: PRECISIONS, samples: 3, maxFutureSeconds: 60 });
    try {
      for (let round = 0; round < 100; round += 1) {
        await redis.client.flushdb();
        const now = await serverNow();
        await counters.update('race', 1, now - 1000); // expired at precision 1: cleanup wants it gone
        await Promise.all([counters.clean(1), racing.update('race', 7, now)]);
        const samples = await counters.samples('race', 1, 10);
        expect(samples).toEqual([{ time: now, count: 7 }]);
        const known = await redis.client.zrange(counterKeys.known(counterBucket('race'), 1), 0, -1);
        expect(known).toEqual(['race']);
      }
    } finally {
      other.disconnect();
    }
  });
});

describe('cleanup lease', () => {
  it('grants a precision to one owner at a time and reports the time left to others', async () => {
    const counters = repo();
    expect(await counters.takeCleanupLease(60, 'worker-a', 5000)).toBe(0);
    const remaining = await counters.takeCleanupLease(60, 'worker-b', 5000);
    expect(remaining).toBeGreaterThan(4000);
    expect(remaining).toBeLessThanOrEqual(5000);
    expect(await counters.takeCleanupLease(5, 'worker-b', 5000)).toBe(0);
  });
});

describe('series', () => {
  const query = (from: number, to: number, step: number, aggregation: Aggregation = 'SUM'): SeriesQuery => ({
    from,
    to,
    step,
    aggregation,
    fill: 'NONE',
    maxPoints: 10_000,
  });

  it('gives the same points whether it reads the slices of the range or the whole hash', async () => {
    const counters = repo(100_000);
    const now = await serverNow();
    const start = Math.floor((now - 5000) / 60) * 60;
    const counts = Array.from({ length: 150 }, (_, i) => ({ at: start + i * 17, count: i - 10 }));
    for (const { at, count } of counts) if (count !== 0) await counters.update('both', count, at);
    // Not a slice: only the whole-hash read meets it, and must pass it by.
    await redis.client.hset(counterKeys.samples('both', 1), 'junk', '5');
    const expected = counts
      .filter(({ count }) => count !== 0)
      .map(({ at, count }) => ({ time: Math.floor(at / 60) * 60, value: count }));
    const bySlice = new Map<number, number>();
    for (const { time, value } of expected) bySlice.set(time, (bySlice.get(time) ?? 0) + value);
    const want = [...bySlice].map(([time, value]) => ({ time, value }));

    // 3000 one-second slices against a hash of 150 fields: the whole hash is read.
    const [wide] = await counters.series(['both'], query(start, start + 2999, 60));
    expect(wide.precision).toBe(1);
    expect(wide.points).toEqual(want);
    // 60 slices at a time against 150 fields: the slices are read by name.
    for (let step = 0; step < 50; step++) {
      const from = start + step * 60;
      const [narrow] = await counters.series(['both'], query(from, from + 59, 60));
      expect(narrow.points).toEqual(want.filter((p) => p.time === from));
    }
  });

  it('reads no slice later than an update may count, however far `to` lies', async () => {
    const counters = repo(100_000);
    const now = await serverNow();
    await counters.update('ahead', 3, now + 30);
    await counters.update('ahead', 4, now - 1);
    const [series] = await counters.series(['ahead'], query(now - 1, now + 9000, 1, 'MAX'));
    expect(series.points).toEqual([
      { time: now - 1, value: 4 },
      { time: now + 30, value: 3 },
    ]);
    expect(series.end).toBe(now + 9001);
  });

  it('lists names by prefix from the known sets of the precisions dividing the step', async () => {
    const counters = repo();
    for (const name of ['p/b', 'p/a', 'p/c', 'q', 'p']) await counters.update(name, 1);
    // Known at 60 s and coarser only: no series of 5 s steps can show it.
    await counters.update('p/coarse', 1);
    for (const p of [1, 5]) await redis.client.zrem(counterKeys.known(counterBucket('p/coarse'), p), 'p/coarse');

    expect(await counters.namesWithPrefix('p/', undefined, 10, 5)).toEqual(['p/a', 'p/b', 'p/c']);
    expect(await counters.namesWithPrefix('p/', undefined, 10, 60)).toEqual(['p/a', 'p/b', 'p/c', 'p/coarse']);
    expect(await counters.namesWithPrefix('p/', 'p/a', 2, 5)).toEqual(['p/b', 'p/c']);
    // A cursor before the prefix starts at the prefix; one past it ends the list.
    expect(await counters.namesWithPrefix('p/', 'a', 10, 5)).toEqual(['p/a', 'p/b', 'p/c']);
    expect(await counters.namesWithPrefix('p/', 'p/z', 10, 5)).toEqual([]);
    expect(await counters.namesWithPrefix('', undefined, 3, 5)).toEqual(['p', 'p/a', 'p/b']);
  });
});

describe('delete', () => {
  it('removes one counter at every precision and leaves the others of its bucket', async () => {
    const counters = repo();
    const bucket = counterBucket('gone');
    const neighbour = Array.from({ length: 200 }, (_, i) => `n${i}`).find((name) => counterBucket(name) === bucket)!;
    await counters.update('gone', 1);
    await counters.update(neighbour, 1);
    expect(await counters.delete('gone')).toBe(true);
    for (const precision of PRECISIONS) {
      expect(await redis.client.exists(counterKeys.samples('gone', precision))).toBe(0);
      expect(await redis.client.zrange(counterKeys.known(bucket, precision), 0, -1)).toEqual([neighbour]);
      expect(await counters.samples(neighbour, precision, 10)).toHaveLength(1);
    }
    expect(await counters.delete('gone')).toBe(false);
    expect(await counters.delete('never')).toBe(false);
  });
});

describe('retention per precision', () => {
  it('trims each precision to its own retention', async () => {
    const counters = new CounterRepository(commands, {
      precisions: PRECISIONS,
      samples: 120,
      retention: { 1: 5 },
      maxFutureSeconds: 60,
    });
    const now = await serverNow();
    // Ahead of the clock (as far as an update may be), so only the count bounds the trim.
    const times = Array.from({ length: 20 }, (_, i) => now + 21 + i);
    for (const at of times) await counters.update('kept', 1, at);
    await counters.clean(1);
    await counters.clean(5);
    expect((await counters.samples('kept', 1, 100)).map((s) => s.time)).toEqual(times.slice(-5));
    expect(await redis.client.hlen(counterKeys.samples('kept', 5))).toBe(
      new Set(times.map((at) => Math.floor(at / 5))).size,
    );
  });

  it('paces the cleanup of each precision by its own retention', () => {
    const worker = new CounterCleanupWorker({
      repository: repo(),
      precisions: PRECISIONS,
      samples: 120,
      retention: { 60: 1440 },
      logger: pino({ level: 'silent' }),
    });
    expect(worker.intervalMs(1)).toBe(15_000);
    expect(worker.intervalMs(60)).toBe((60 * 1440 * 1000) / 8);
  });
});
