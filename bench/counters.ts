// Counters: our one-script update, batched cleanup and in-Redis series read against the book's
// update and cleanup and a client summing raw samples, alternately on one redis-server.
// Method: docs/performance.md, "Method: graphql, subscribers, leases, counters".
import 'reflect-metadata';
import type Redis from 'ioredis';
import { DEFAULT_PRECISIONS } from '../src/config';
import { CounterRepository, type SeriesPoint } from '../src/redis/counter';
import { counterKeys } from '../src/redis/keys';
import {
  alternate,
  bench,
  inParallel,
  measure,
  medianRange,
  perOp,
  rates,
  size,
  type Figure,
  type Sample,
} from './harness';

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

/** A day of one-minute samples per counter, as a day of updates leaves them at precision 60. */
async function seedDay(admin: Redis, now: number): Promise<void> {
  for (const name of SERIES_NAMES) {
    const fields: string[] = [];
    for (let i = 0; i < DAY_MINUTES; i++) {
      fields.push(String((Math.floor(now / MINUTE) - i) * MINUTE), String(1 + ((i * 7) % 13)));
    }
    await admin.hset(counterKeys.samples(name, MINUTE), ...fields);
  }
}

/** The peer: the raw one-minute samples as the `counter` query reads them (HGETALL), summed into steps here. */
async function clientSeries(
  repo: CounterRepository,
  name: string,
  from: number,
  to: number,
  step: number,
): Promise<SeriesPoint[]> {
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
async function bookUpdate(redis: Redis, name: string, count = 1): Promise<void> {
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

/** Counters whose only sample is an hour old, in both layouts, so both cleanups remove them all. */
async function seedExpired(redis: Redis, repo: CounterRepository, counters: number): Promise<void> {
  await redis.flushdb();
  const old = Date.now() / 1000 - 3600;
  await inParallel(counters, IN_FLIGHT, async (i) => {
    await repo.update(`e${i}`, 1, old);
    const multi = redis.multi();
    for (const p of DEFAULT_PRECISIONS)
      multi.zadd('known:', 0, `${p}:e${i}`).hincrby(`count:${p}:e${i}`, String(Math.floor(old / p) * p), 1);
    await multi.exec();
  });
}

bench(
  { id: 'counters', title: "Counters (book 5.2): one script per update and batched cleanup, against the book's" },
  async ({ admin, connect, report, steps: progress }) => {
    const redis = connect();
    const repo = new CounterRepository(redis, {
      precisions: DEFAULT_PRECISIONS,
      samples: SAMPLES,
      maxFutureSeconds: 60,
    });
    // One-minute slices kept for a day and more (COUNTER_RETENTION=60:2880), so that a day's
    // series is read at 60 s for the whole run, while the clock moves on.
    const dayRepo = new CounterRepository(redis, {
      precisions: DEFAULT_PRECISIONS,
      samples: SAMPLES,
      retention: { [MINUTE]: 2 * DAY_MINUTES },
      maxFutureSeconds: 60,
    });
    const steps = progress(8 * (ROUNDS + 1));
    const { measured: update } = await alternate({
      peers: ['book', 'ours'] as const,
      rounds: ROUNDS,
      steps,
      label: 'updates',
      run: (peer, round) => {
        const ops = round.size(UPDATES);
        const update = peer === 'book' ? bookUpdate : (_: Redis, name: string) => repo.update(name, 1);
        return measure(ops, () => inParallel(ops, IN_FLIGHT, async (i) => void (await update(redis, `c${i % 100}`))));
      },
    });

    const { measured: clean } = await alternate({
      peers: ['book', 'ours'] as const,
      rounds: ROUNDS,
      steps,
      label: 'cleanup',
      run: async (peer, round) => {
        // Both peers' counters are seeded before the book's turn; ours cleans what is left for it.
        const ops = round.size(COUNTERS);
        if (peer === 'book') {
          await seedExpired(redis, repo, ops);
          return measure(ops, () => bookClean(redis, 1));
        }
        const sample = await measure(ops, () => repo.clean(1));
        const leftBook = (await admin.zrange('known:', 0, -1)).filter((m) => m.startsWith('1:')).length;
        const leftOurs = (await repo.list(undefined, 1000)).filter((c) => c.precisions.includes(1)).length;
        if (leftBook !== 0 || leftOurs !== 0)
          throw new Error(`cleanup left counters at precision 1: book ${leftBook}, ours ${leftOurs}`);
        return sample;
      },
    });

    const perUpdate = 'updateCounter: {peer}, round trips per update';
    const perCounter = 'counter cleanup: {peer}, round trips per counter';
    const ratio = (id: string, label: string, measured: Record<'ours' | 'book', Sample[]>): void =>
      report.ratio(id, label, rates(measured.ours), rates(measured.book));
    const trips = (id: string, label: string, peer: 'ours' | 'book', samples: Sample[], target?: Figure['target']) =>
      report.value(id, label.replace('{peer}', peer), 'round trips', perOp(samples), target);
    ratio('counters.update.ours_vs_book', 'updateCounter: ours / book (updates/s)', update);
    report.median('counters.update.ours_rate', 'updateCounter: ours', 'updates/s', rates(update.ours));
    report.median('counters.update.book_rate', "updateCounter: book's MULTI/EXEC", 'updates/s', rates(update.book));
    trips('counters.update.ours_round_trips', perUpdate, 'ours', update.ours, { op: '<=', value: 1 });
    trips('counters.update.book_round_trips', perUpdate, 'book', update.book);
    ratio('counters.clean.ours_vs_book', 'counter cleanup: ours / book (counters/s)', clean);
    trips('counters.clean.ours_round_trips', perCounter, 'ours', clean.ours);
    trips('counters.clean.book_round_trips', perCounter, 'book', clean.book);

    await redis.flushdb();
    const now = Number((await admin.time())[0]);
    await seedDay(admin, now);
    const shapes = [
      { id: 'day', label: '24 h in 5-minute sums', from: (Math.floor(now / 300) - 287) * 300, step: 300 },
      { id: 'hour', label: 'last hour in 1-minute sums', from: (Math.floor(now / 60) - 59) * 60, step: 60 },
    ];
    const seriesRows: string[][] = [];
    const row = (what: string, peer: string, samples: Sample[]): string[] => [
      what,
      peer,
      medianRange(rates(samples)),
      perOp(samples).toFixed(2),
    ];
    for (const shape of shapes) {
      const query = { from: shape.from, to: now, step: shape.step, aggregation: 'SUM', fill: 'ZERO' } as const;
      const ours = async (name: string): Promise<void> => {
        const [read] = await dayRepo.series([name], { ...query, maxPoints: 10_000 });
        if (read.precision !== MINUTE) throw new Error(`${shape.label}: read at precision ${read.precision}`);
      };
      const raw = (name: string) => clientSeries(dayRepo, name, shape.from, now, shape.step);
      // Both must give the same points, from one-minute slices.
      for (const name of SERIES_NAMES) {
        const [read] = await dayRepo.series([name], { ...query, maxPoints: 10_000 });
        if (read.precision !== MINUTE || JSON.stringify(read.points) !== JSON.stringify(await raw(name)))
          throw new Error(`${shape.label}: the series (precision ${read.precision}) differs from the raw samples`);
      }
      const points = Math.floor(now / shape.step) - Math.floor(shape.from / shape.step) + 1;
      const { measured } = await alternate({
        peers: ['raw', 'ours'] as const,
        rounds: ROUNDS,
        steps,
        label: `series (${shape.label})`,
        run: (peer, round) => {
          const ops = round.size(READS);
          const read = peer === 'raw' ? raw : ours;
          const reads = () => inParallel(ops, IN_FLIGHT, (i) => read(SERIES_NAMES[i % SERIES_NAMES.length]).then());
          return measure(ops, reads, { admin });
        },
      });
      const what = `counterSeries, ${shape.label}`;
      /** Redis's CPU time per read, in microseconds. */
      const cpu = (samples: Sample[]): number[] => samples.map((s) => (s.redisCpu / s.ops) * 1e6);
      const id = `counters.series.${shape.id}`;
      const ratioLabel = `${what}: ours / raw samples summed by the client (reads/s)`;
      report.ratio(`${id}.ours_vs_raw`, ratioLabel, rates(measured.ours), rates(measured.raw));
      report.median(`${id}.ours_rate`, `${what}: ours`, 'reads/s', rates(measured.ours));
      const tripsLabel = `${what}: ours, round trips per read`;
      report.value(`${id}.ours_round_trips`, tripsLabel, 'round trips', perOp(measured.ours), { op: '<=', value: 1 });
      report.median(`${id}.ours_redis_cpu`, `${what}: ours, Redis CPU per read`, 'us', cpu(measured.ours));
      report.median(`${id}.raw_redis_cpu`, `${what}: raw samples, Redis CPU per read`, 'us', cpu(measured.raw));
      const at = `${shape.label} (${points} points)`;
      seriesRows.push(
        row(at, 'ours (one script)', measured.ours),
        row(at, `raw samples (HGETALL of ${DAY_MINUTES}), summed by the client`, measured.raw),
      );
    }

    report.table(
      `counters summary (medians of ${ROUNDS} rounds, with the range)`,
      ['operation', 'peer', 'per second (min-max)', 'round trips/op'],
      [
        row(`update, ${IN_FLIGHT} in flight`, 'ours (one script)', update.ours),
        row(`update, ${IN_FLIGHT} in flight`, 'book (MULTI/EXEC)', update.book),
        row(`cleanup of ${COUNTERS} counters`, 'ours (batched script)', clean.ours),
        row(`cleanup of ${COUNTERS} counters`, 'book (per counter, WATCH)', clean.book),
        ...seriesRows,
      ],
      2,
    );
    for (const note of [
      `Updates: ${UPDATES} per round over 100 names, ${IN_FLIGHT} in flight on one shared connection, ${DEFAULT_PRECISIONS.length} precisions each; 1 warm-up + ${ROUNDS} rounds, book then ours.`,
      'Round trips: requests the clients sent per operation (a MULTI/EXEC block sent at once counts one), counted on every connection.',
      `Cleanup: ${COUNTERS} counters whose only sample is an hour old, removed at precision 1 by each peer; both must leave none.`,
      `Series: ${READS} reads per round over ${SERIES_NAMES.length} counters holding a day of one-minute slices each (COUNTER_RETENTION=60:${2 * DAY_MINUTES}), ${IN_FLIGHT} in flight; ` +
        'the peer reads the raw samples as the `counter` query does (HGETALL) and sums them into the same steps; both answers are checked equal first.',
    ])
      report.note(note);
  },
);
