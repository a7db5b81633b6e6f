// Counters benchmark: our atomic Lua update and batched cleanup against the book's versions
// (a MULTI/EXEC pipeline per update; per-counter HKEYS/HDEL and WATCH/MULTI per cleanup), both
// measured in the same run on the same redis-server. Reports ratios, not absolute targets.
import 'reflect-metadata';
import Redis from 'ioredis';
import { DEFAULT_PRECISIONS } from '../src/config';
import { CounterRepository } from '../src/redis/counter';
import { defineScripts } from '../src/redis/scripts';
import { runBenchmark, withBenchRedis } from './support';

const UPDATES = Number(process.env.BENCH_UPDATES ?? 20_000);
const COUNTERS = Number(process.env.BENCH_COUNTERS ?? 2_000);
const IN_FLIGHT = 50;
const SAMPLES = 120;

/** The book's update_counter: one transaction of ZADD + HINCRBY per precision, client clock. */
async function bookUpdate(redis: Redis, name: string, count: number): Promise<void> {
  const now = Date.now() / 1000;
  const multi = redis.multi();
  for (const precision of DEFAULT_PRECISIONS) {
    const hash = `${precision}:${name}`;
    multi.zadd('known:', 0, hash);
    multi.hincrby(`count:${hash}`, String(Math.floor(now / precision) * precision), count);
  }
  const results = await multi.exec();
  for (const [error] of results ?? []) if (error) throw error;
}

/** The book's clean_counters for one precision: round trips per counter, WATCH to drop empties. */
async function bookClean(redis: Redis, precision: number): Promise<void> {
  const cutoff = Date.now() / 1000 - SAMPLES * precision;
  const members = await redis.zrange('known:', 0, -1);
  // WATCH needs a connection of its own (as a pooled redis-py pipeline has); one, reused.
  const watcher = redis.duplicate();
  try {
    for (const hash of members.filter((m) => m.startsWith(`${precision}:`))) {
      const key = `count:${hash}`;
      const samples = (await redis.hkeys(key)).map(Number).sort((a, b) => a - b);
      const remove = samples.filter((s) => s <= cutoff);
      if (remove.length > 0) await redis.hdel(key, ...remove.map(String));
      if (remove.length === samples.length) {
        await watcher.watch(key);
        if ((await watcher.hlen(key)) === 0) await watcher.multi().zrem('known:', hash).exec();
        else await watcher.unwatch();
      }
    }
  } finally {
    watcher.disconnect();
  }
}

async function timed(label: string, work: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(`  ${label}: ${seconds.toFixed(3)} s`);
  return seconds;
}

async function inParallel(total: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < total) await task(next++);
    }),
  );
}

async function main(): Promise<void> {
  await withBenchRedis(async (url) => {
    const redis = new Redis(url);
    defineScripts(redis);
    const repo = new CounterRepository(redis, { precisions: DEFAULT_PRECISIONS, samples: SAMPLES, maxFutureSeconds: 60 });
    try {
      console.log(`counters benchmark: ${UPDATES} updates over 100 names, ${IN_FLIGHT} in flight, ${DEFAULT_PRECISIONS.length} precisions`);
      const book = await timed('book (MULTI/EXEC pipeline)', () => inParallel(UPDATES, (i) => bookUpdate(redis, `c${i % 100}`, 1)));
      const ours = await timed('ours (one Lua script)', () => inParallel(UPDATES, async (i) => void (await repo.update(`c${i % 100}`, 1))));
      console.log(`  updates/s: book ${(UPDATES / book).toFixed(0)}, ours ${(UPDATES / ours).toFixed(0)}; ours/book speed ratio ${(book / ours).toFixed(2)}`);

      await redis.flushdb();
      console.log(`cleanup benchmark: ${COUNTERS} expired counters at precision 1`);
      const old = Date.now() / 1000 - 3600;
      await inParallel(COUNTERS, async (i) => {
        await repo.update(`e${i}`, 1, old);
        const multi = redis.multi();
        for (const p of DEFAULT_PRECISIONS) multi.zadd('known:', 0, `${p}:e${i}`).hincrby(`count:${p}:e${i}`, String(Math.floor(old / p) * p), 1);
        await multi.exec();
      });
      const bookCleanup = await timed('book (per-counter round trips, WATCH)', () => bookClean(redis, 1));
      const ourCleanup = await timed('ours (batched atomic script)', async () => void (await repo.clean(1)));
      console.log(`  ours/book cleanup speed ratio ${(bookCleanup / ourCleanup).toFixed(2)}`);
      const leftBook = (await redis.zrange('known:', 0, -1)).filter((m) => m.startsWith('1:')).length;
      const leftOurs = (await repo.list(undefined, 1000)).filter((c) => c.precisions.includes(1)).length;
      console.log(`  counters left at precision 1: book ${leftBook}, ours ${leftOurs}`);
    } finally {
      redis.disconnect();
    }
  });
}

runBenchmark(main);
