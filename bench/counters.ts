// Counters: our one-script update, batched cleanup and in-Redis series read against the book's
// update and cleanup and a client summing raw samples, alternately on one redis-server.
// Method: docs/performance.md, "Method: graphql, subscribers, leases, counters".
import 'reflect-metadata';
import type Redis from 'ioredis';
import { DEFAULT_PRECISIONS } from '../src/config';
import { CounterRepository, type SeriesPoint } from '../src/redis/counter';
import { counterKeys } from '../src/redis/keys';
import { alternate, bench, inParallel, measure, medianRange, perOp, rates, size, type Sample } from './harness';

const IN_FLIGHT = 50;
const SAMPLES = 120;
const UPDATES = size('BENCH_UPDATES', 3_000, 10_000);
const COUNTERS = size('BENCH_COUNTERS', 500, 2_000);
const READS = size('BENCH_SERIES_READS', 300, 2_000);
const ROUNDS = size('BENCH_COUNTER_ROUNDS', 3, 5);

/** Counters read as series: each holds a day of one-minute slices. */
const SERIES_NAMES = Array.from({ length: 20 }, (_, i) => `series-${i}`);
const MINUTE = 60;
const DAY_MINUTES = 1440;

/** The peer: the raw one-minute samples as the `counter` query reads them (HGETALL), summed into steps here. */
async function clientSeries(repo: CounterRepository, name: string, from: number, to: number, step: number) {
  const samples = await repo.samples(name, MINUTE, DAY_MINUTES);
  const first = Math.floor(from / step) * step;
  const points: SeriesPoint[] = [];
  for (let time = first; time <= Math.floor(to / step) * step; time += step) points.push({ time, value: 0 });
  for (const { time, count } of samples) {
    const i = Math.floor((time - first) / step);
    if (i >= 0 && i < points.length) points[i].value += count;
  }
  return points;
}

/** The book's update_counter: one transaction of ZADD + HINCRBY per precision, client clock. */
async function bookUpdate(redis: Redis, name: string, now = Date.now() / 1000): Promise<void> {
  const multi = redis.multi();
  for (const precision of DEFAULT_PRECISIONS) {
    const hash = `${precision}:${name}`;
    multi.zadd('known:', 0, hash);
    multi.hincrby(`count:${hash}`, String(Math.floor(now / precision) * precision), 1);
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

const TITLE = "Counters (book 5.2): one script per update and batched cleanup, against the book's";

bench({ id: 'counters', title: TITLE }, async ({ admin, connect, report, steps: progress }) => {
  const redis = connect();
  const settings = { precisions: DEFAULT_PRECISIONS, samples: SAMPLES, maxFutureSeconds: 60 };
  const repo = new CounterRepository(redis, settings);
  // One-minute slices kept for a day and more (COUNTER_RETENTION=60:2880), so that a day's
  // series is read at 60 s for the whole run, while the clock moves on.
  const dayRepo = new CounterRepository(redis, { ...settings, retention: { [MINUTE]: 2 * DAY_MINUTES } });
  const steps = progress(8 * (ROUNDS + 1));
  /** Warm-up and ROUNDS rounds, the two peers taking turns; `sized(n)` is n, a quarter of it in the warm-up. */
  type Run<P> = (peer: P, sized: (n: number) => number) => Promise<Sample>;
  const duel = async <P extends string>(label: string, peers: [P, P], run: Run<P>) =>
    (await alternate({ peers, rounds: ROUNDS, steps, label, run: (peer, round) => run(peer, round.size) })).measured;
  // Rows of the summary table: operation, peer, the peer's rounds.
  const rows: [string, string, Sample[]][] = [];

  const update = await duel('updates', ['book', 'ours'], (peer, sized) => {
    const ops = sized(UPDATES);
    const add = (name: string) => (peer === 'book' ? bookUpdate(redis, name) : repo.update(name, 1));
    return measure(ops, () => inParallel(ops, IN_FLIGHT, (i) => add(`c${i % 100}`)));
  });
  const clean = await duel('cleanup', ['book', 'ours'], async (peer, sized) => {
    const ops = sized(COUNTERS);
    if (peer === 'book') {
      // Counters whose only sample is an hour old, in both layouts, so both cleanups remove them all;
      // seeded before the book's turn, ours cleans what is left for it.
      await redis.flushdb();
      const old = Date.now() / 1000 - 3600;
      const seed = (i: number) => Promise.all([repo.update(`e${i}`, 1, old), bookUpdate(redis, `e${i}`, old)]);
      await inParallel(ops, IN_FLIGHT, seed);
      return measure(ops, () => bookClean(redis, 1));
    }
    const sample = await measure(ops, () => repo.clean(1));
    const leftBook = (await admin.zrange('known:', 0, -1)).filter((m) => m.startsWith('1:')).length;
    const leftOurs = (await repo.list(undefined, 1000)).filter((c) => c.precisions.includes(1)).length;
    if (leftBook !== 0 || leftOurs !== 0)
      throw new Error(`cleanup left counters at precision 1: book ${leftBook}, ours ${leftOurs}`);
    return sample;
  });
  const atMostOne = { op: '<=', value: 1 } as const;
  const trips = (id: string, label: string, samples: Sample[], target?: typeof atMostOne) =>
    report.value(id, label, 'round trips', perOp(samples), target);
  const updateRates = [rates(update.ours), rates(update.book)] as const;
  report.ratio('counters.update.ours_vs_book', 'updateCounter: ours / book (updates/s)', ...updateRates);
  report.median('counters.update.ours_rate', 'updateCounter: ours', 'updates/s', updateRates[0]);
  report.median('counters.update.book_rate', "updateCounter: book's MULTI/EXEC", 'updates/s', updateRates[1]);
  trips('counters.update.ours_round_trips', 'updateCounter: ours, round trips per update', update.ours, atMostOne);
  trips('counters.update.book_round_trips', 'updateCounter: book, round trips per update', update.book);
  const cleanLabel = 'counter cleanup: ours / book (counters/s)';
  report.ratio('counters.clean.ours_vs_book', cleanLabel, rates(clean.ours), rates(clean.book));
  trips('counters.clean.ours_round_trips', 'counter cleanup: ours, round trips per counter', clean.ours);
  trips('counters.clean.book_round_trips', 'counter cleanup: book, round trips per counter', clean.book);
  const [updating, cleaning] = [`update, ${IN_FLIGHT} in flight`, `cleanup of ${COUNTERS} counters`];
  rows.push([updating, 'ours (one script)', update.ours], [updating, 'book (MULTI/EXEC)', update.book]);
  rows.push([cleaning, 'ours (batched script)', clean.ours], [cleaning, 'book (per counter, WATCH)', clean.book]);

  await redis.flushdb();
  const now = Number((await admin.time())[0]);
  // A day of one-minute samples per counter, as a day of updates leaves them at precision 60.
  const minute = Math.floor(now / MINUTE) * MINUTE;
  const day = Array.from({ length: DAY_MINUTES }, (_, i) => [minute - i * MINUTE, 1 + ((i * 7) % 13)]);
  for (const name of SERIES_NAMES) await admin.hset(counterKeys.samples(name, MINUTE), ...day.flat());
  for (const { id: shapeId, label, from, step } of [
    { id: 'day', label: '24 h in 5-minute sums', from: (Math.floor(now / 300) - 287) * 300, step: 300 },
    { id: 'hour', label: 'last hour in 1-minute sums', from: (Math.floor(now / 60) - 59) * 60, step: 60 },
  ]) {
    const query = { from, to: now, step, aggregation: 'SUM', fill: 'ZERO', maxPoints: 10_000 } as const;
    const ours = async (name: string) => {
      const [read] = await dayRepo.series([name], query);
      if (read.precision !== MINUTE) throw new Error(`${label}: read at precision ${read.precision}`);
      return read.points;
    };
    const raw = (name: string) => clientSeries(dayRepo, name, from, now, step);
    // Both must give the same points, from one-minute slices.
    for (const name of SERIES_NAMES)
      if (JSON.stringify(await ours(name)) !== JSON.stringify(await raw(name)))
        throw new Error(`${label}: the series differs from the raw samples`);
    const measured = await duel(`series (${label})`, ['raw', 'ours'], (peer, sized) => {
      const [ops, read] = [sized(READS), peer === 'raw' ? raw : ours];
      const reads = () => inParallel(ops, IN_FLIGHT, (i) => read(SERIES_NAMES[i % SERIES_NAMES.length]));
      return measure(ops, reads, { admin });
    });
    const [what, id] = [`counterSeries, ${label}`, `counters.series.${shapeId}`];
    const cpu = (samples: Sample[]): number[] => samples.map((s) => (s.redisCpu / s.ops) * 1e6);
    const ratioLabel = `${what}: ours / raw samples summed by the client (reads/s)`;
    report.ratio(`${id}.ours_vs_raw`, ratioLabel, rates(measured.ours), rates(measured.raw));
    report.median(`${id}.ours_rate`, `${what}: ours`, 'reads/s', rates(measured.ours));
    trips(`${id}.ours_round_trips`, `${what}: ours, round trips per read`, measured.ours, atMostOne);
    report.median(`${id}.ours_redis_cpu`, `${what}: ours, Redis CPU per read`, 'us', cpu(measured.ours));
    report.median(`${id}.raw_redis_cpu`, `${what}: raw samples, Redis CPU per read`, 'us', cpu(measured.raw));
    const at = `${label} (${Math.floor(now / step) - Math.floor(from / step) + 1} points)`;
    rows.push([at, 'ours (one script)', measured.ours]);
    rows.push([at, `raw samples (HGETALL of ${DAY_MINUTES}), summed by the client`, measured.raw]);
  }

  report.table(
    `counters summary (medians of ${ROUNDS} rounds, with the range)`,
    ['operation', 'peer', 'per second (min-max)', 'round trips/op'],
    rows.map(([what, peer, samples]) => [what, peer, medianRange(rates(samples)), perOp(samples).toFixed(2)]),
    2,
  );
  report.note(
    `Updates: ${UPDATES} per round over 100 names, ${IN_FLIGHT} in flight on one shared connection, ${DEFAULT_PRECISIONS.length} precisions each; 1 warm-up + ${ROUNDS} rounds, book then ours.`,
    'Round trips: requests the clients sent per operation (a MULTI/EXEC block sent at once counts one), counted on every connection.',
    `Cleanup: ${COUNTERS} counters whose only sample is an hour old, removed at precision 1 by each peer; both must leave none.`,
    `Series: ${READS} reads per round over ${SERIES_NAMES.length} counters holding a day of one-minute slices each (COUNTER_RETENTION=60:${2 * DAY_MINUTES}), ${IN_FLIGHT} in flight; ` +
      'the peer reads the raw samples as the `counter` query does (HGETALL) and sums them into the same steps; both answers are checked equal first.',
  );
});
