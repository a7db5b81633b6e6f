// Counters benchmark: our atomic Lua update and batched cleanup against the book's versions
// (a MULTI/EXEC pipeline per update; per-counter HKEYS/HDEL and WATCH/MULTI per cleanup), and
// our series read (counter-series.lua: the range's slices summed into steps in Redis) against
// reading the raw samples as the `counter` query does (HGETALL) and summing them in the client;
// all measured in the same run on the same redis-server, in alternating rounds after a warm-up.
// Reports ratios and round trips, not absolute targets.
import 'reflect-metadata';
import Redis from 'ioredis';
import { DEFAULT_PRECISIONS } from '../src/config';
import { CounterRepository, type SeriesPoint } from '../src/redis/counter';
import { counterKeys } from '../src/redis/keys';
import { defineScripts } from '../src/redis/client/scripts';
import { countTraffic, since, snapshot, uncounted, type Traffic } from './harness/round-trips';
import { pairedRatio, runSuite, Steps, summarize } from './harness/suite';
import { redisCpuSeconds, withBenchRedis } from './harness/support';

const IN_FLIGHT = 50;
const SAMPLES = 120;

function settings(quick: boolean) {
  return {
    updates: Number(process.env.BENCH_UPDATES ?? (quick ? 3_000 : 10_000)),
    counters: Number(process.env.BENCH_COUNTERS ?? (quick ? 500 : 2_000)),
    reads: Number(process.env.BENCH_SERIES_READS ?? (quick ? 300 : 2_000)),
    rounds: Number(process.env.BENCH_COUNTER_ROUNDS ?? (quick ? 3 : 5)),
  };
}

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

interface Timed {
  seconds: number;
  traffic: Traffic;
}

async function timed(label: string, operations: number, work: () => Promise<void>): Promise<Timed> {
  const before = snapshot();
  const started = process.hrtime.bigint();
  await work();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const traffic = since(before);
  console.log(
    `  ${label}: ${seconds.toFixed(3)} s, ${(operations / seconds).toFixed(0)}/s, ${(traffic.requests / operations).toFixed(2)} round trips per operation`,
  );
  return { seconds, traffic };
}

async function inParallel(total: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < total) await task(next++);
    }),
  );
}

/** Counters whose only sample is an hour old, in both layouts, so both cleanups remove them all. */
async function seedExpired(redis: Redis, repo: CounterRepository, counters: number): Promise<void> {
  await redis.flushdb();
  const old = Date.now() / 1000 - 3600;
  await inParallel(counters, async (i) => {
    await repo.update(`e${i}`, 1, old);
    const multi = redis.multi();
    for (const p of DEFAULT_PRECISIONS)
      multi.zadd('known:', 0, `${p}:e${i}`).hincrby(`count:${p}:e${i}`, String(Math.floor(old / p) * p), 1);
    await multi.exec();
  });
}

runSuite(
  'counters',
  "Counters (book 5.2): one script per update and batched cleanup, against the book's",
  async (report, quick) => {
    const { updates, counters, reads, rounds } = settings(quick);
    countTraffic();
    await withBenchRedis(async (url) => {
      const redis = new Redis(url);
      const admin = uncounted(new Redis(url));
      defineScripts(redis);
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
      const steps = new Steps(4 * (rounds + 1));
      try {
        console.log(
          `counters benchmark: ${updates} updates over 100 names per round, ${IN_FLIGHT} in flight, ${DEFAULT_PRECISIONS.length} precisions; ` +
            `cleanup of ${counters} expired counters at precision 1; 1 warm-up + ${rounds} rounds, book then ours in each.`,
        );
        const update = { book: [] as Timed[], ours: [] as Timed[] };
        for (let round = 0; round <= rounds; round++) {
          const warm = round === 0;
          const ops = warm ? Math.ceil(updates / 4) : updates;
          steps.step(`updates, ${warm ? 'warm-up' : `round ${round}/${rounds}`}`);
          console.log(warm ? 'updates, warm-up:' : `updates, round ${round}:`);
          const book = await timed('book (MULTI/EXEC pipeline)', ops, () =>
            inParallel(ops, (i) => bookUpdate(redis, `c${i % 100}`, 1)),
          );
          const ours = await timed('ours (one Lua script)', ops, () =>
            inParallel(ops, async (i) => void (await repo.update(`c${i % 100}`, 1))),
          );
          if (!warm) {
            update.book.push(book);
            update.ours.push(ours);
          }
        }

        const clean = { book: [] as Timed[], ours: [] as Timed[] };
        for (let round = 0; round <= rounds; round++) {
          const warm = round === 0;
          const size = warm ? Math.ceil(counters / 4) : counters;
          steps.step(`cleanup, ${warm ? 'warm-up' : `round ${round}/${rounds}`}`);
          console.log(warm ? 'cleanup, warm-up:' : `cleanup, round ${round}:`);
          await seedExpired(redis, repo, size);
          const book = await timed('book (per-counter round trips, WATCH)', size, () => bookClean(redis, 1));
          const ours = await timed('ours (batched atomic script)', size, async () => void (await repo.clean(1)));
          const leftBook = (await admin.zrange('known:', 0, -1)).filter((m) => m.startsWith('1:')).length;
          const leftOurs = (await repo.list(undefined, 1000)).filter((c) => c.precisions.includes(1)).length;
          if (leftBook !== 0 || leftOurs !== 0)
            throw new Error(`cleanup left counters at precision 1: book ${leftBook}, ours ${leftOurs}`);
          if (!warm) {
            clean.book.push(book);
            clean.ours.push(ours);
          }
        }

        await redis.flushdb();
        const [clock] = await admin.time();
        const now = Number(clock);
        await seedDay(admin, now);
        const shapes = [
          { id: 'day', label: '24 h in 5-minute sums', from: (Math.floor(now / 300) - 287) * 300, step: 300 },
          { id: 'hour', label: 'last hour in 1-minute sums', from: (Math.floor(now / 60) - 59) * 60, step: 60 },
        ];
        const series: Record<
          string,
          { ours: Timed[]; raw: Timed[]; points: number; oursCpu: number[]; rawCpu: number[] }
        > = {};
        /** Redis's CPU time per read, in microseconds, while `work` runs. */
        const cpuPerRead = async (ops: number, work: () => Promise<Timed>): Promise<[Timed, number]> => {
          const before = await redisCpuSeconds(admin);
          const run = await work();
          return [run, (((await redisCpuSeconds(admin)) - before) / ops) * 1e6];
        };
        for (const shape of shapes) {
          const query = { from: shape.from, to: now, step: shape.step, aggregation: 'SUM', fill: 'ZERO' } as const;
          // Both must give the same points, from one-minute slices.
          for (const name of SERIES_NAMES) {
            const [ours] = await dayRepo.series([name], { ...query, maxPoints: 10_000 });
            const raw = await clientSeries(dayRepo, name, shape.from, now, shape.step);
            if (ours.precision !== MINUTE || JSON.stringify(ours.points) !== JSON.stringify(raw))
              throw new Error(`${shape.label}: the series (precision ${ours.precision}) differs from the raw samples`);
          }
          const points = Math.floor(now / shape.step) - Math.floor(shape.from / shape.step) + 1;
          series[shape.id] = { ours: [], raw: [], points, oursCpu: [], rawCpu: [] };
          for (let round = 0; round <= rounds; round++) {
            const warm = round === 0;
            const ops = warm ? Math.ceil(reads / 4) : reads;
            steps.step(`series (${shape.label}), ${warm ? 'warm-up' : `round ${round}/${rounds}`}`);
            console.log(`series, ${shape.label}, ${warm ? 'warm-up' : `round ${round}`}:`);
            const [raw, rawCpu] = await cpuPerRead(ops, () =>
              timed('raw samples (HGETALL) summed in the client', ops, () =>
                inParallel(ops, async (i) => {
                  await clientSeries(dayRepo, SERIES_NAMES[i % SERIES_NAMES.length], shape.from, now, shape.step);
                }),
              ),
            );
            const [ours, oursCpu] = await cpuPerRead(ops, () =>
              timed('ours (counter-series script)', ops, () =>
                inParallel(ops, async (i) => {
                  const [read] = await dayRepo.series([SERIES_NAMES[i % SERIES_NAMES.length]], {
                    ...query,
                    maxPoints: 10_000,
                  });
                  if (read.precision !== MINUTE) throw new Error(`${shape.label}: read at precision ${read.precision}`);
                }),
              ),
            );
            if (!warm) {
              series[shape.id].ours.push(ours);
              series[shape.id].raw.push(raw);
              series[shape.id].oursCpu.push(oursCpu);
              series[shape.id].rawCpu.push(rawCpu);
            }
          }
        }

        const rates = (runs: Timed[], ops: number): number[] => runs.map((r) => ops / r.seconds);
        const perOp = (runs: Timed[], ops: number): number =>
          runs.reduce((sum, r) => sum + r.traffic.requests, 0) / (ops * runs.length);
        const updateRates = { book: rates(update.book, updates), ours: rates(update.ours, updates) };
        const cleanRates = { book: rates(clean.book, counters), ours: rates(clean.ours, counters) };
        report.figure({
          id: 'counters.update.ours_vs_book',
          label: 'updateCounter: ours / book (updates/s)',
          unit: 'x',
          ...pairedRatio(updateRates.ours, updateRates.book),
        });
        report.figure({
          id: 'counters.update.ours_rate',
          label: 'updateCounter: ours',
          unit: 'updates/s',
          ...summarize(updateRates.ours),
        });
        report.figure({
          id: 'counters.update.book_rate',
          label: "updateCounter: book's MULTI/EXEC",
          unit: 'updates/s',
          ...summarize(updateRates.book),
        });
        report.figure({
          id: 'counters.update.ours_round_trips',
          label: 'updateCounter: ours, round trips per update',
          unit: 'round trips',
          value: perOp(update.ours, updates),
          target: { op: '<=', value: 1 },
        });
        report.figure({
          id: 'counters.update.book_round_trips',
          label: 'updateCounter: book, round trips per update',
          unit: 'round trips',
          value: perOp(update.book, updates),
        });
        report.figure({
          id: 'counters.clean.ours_vs_book',
          label: 'counter cleanup: ours / book (counters/s)',
          unit: 'x',
          ...pairedRatio(cleanRates.ours, cleanRates.book),
        });
        report.figure({
          id: 'counters.clean.ours_round_trips',
          label: 'counter cleanup: ours, round trips per counter',
          unit: 'round trips',
          value: perOp(clean.ours, counters),
        });
        report.figure({
          id: 'counters.clean.book_round_trips',
          label: 'counter cleanup: book, round trips per counter',
          unit: 'round trips',
          value: perOp(clean.book, counters),
        });

        const seriesRows: string[][] = [];
        for (const shape of shapes) {
          const { ours, raw, points, oursCpu, rawCpu } = series[shape.id];
          const oursRates = rates(ours, reads);
          const rawRates = rates(raw, reads);
          report.figure({
            id: `counters.series.${shape.id}.ours_vs_raw`,
            label: `counterSeries, ${shape.label}: ours / raw samples summed by the client (reads/s)`,
            unit: 'x',
            ...pairedRatio(oursRates, rawRates),
          });
          report.figure({
            id: `counters.series.${shape.id}.ours_rate`,
            label: `counterSeries, ${shape.label}: ours`,
            unit: 'reads/s',
            ...summarize(oursRates),
          });
          report.figure({
            id: `counters.series.${shape.id}.ours_round_trips`,
            label: `counterSeries, ${shape.label}: ours, round trips per read`,
            unit: 'round trips',
            value: perOp(ours, reads),
            target: { op: '<=', value: 1 },
          });
          report.figure({
            id: `counters.series.${shape.id}.ours_redis_cpu`,
            label: `counterSeries, ${shape.label}: ours, Redis CPU per read`,
            unit: 'us',
            ...summarize(oursCpu),
          });
          report.figure({
            id: `counters.series.${shape.id}.raw_redis_cpu`,
            label: `counterSeries, ${shape.label}: raw samples, Redis CPU per read`,
            unit: 'us',
            ...summarize(rawCpu),
          });
          seriesRows.push(
            [
              `${shape.label} (${points} points)`,
              'ours (one script)',
              `${summarize(oursRates).value.toFixed(0)} (${Math.min(...oursRates).toFixed(0)}-${Math.max(...oursRates).toFixed(0)})`,
              perOp(ours, reads).toFixed(2),
            ],
            [
              `${shape.label} (${points} points)`,
              `raw samples (HGETALL of ${DAY_MINUTES}), summed by the client`,
              `${summarize(rawRates).value.toFixed(0)} (${Math.min(...rawRates).toFixed(0)}-${Math.max(...rawRates).toFixed(0)})`,
              perOp(raw, reads).toFixed(2),
            ],
          );
        }

        const row = (what: string, peer: string, runs: number[], trips: number): string[] => [
          what,
          peer,
          `${summarize(runs).value.toFixed(0)} (${Math.min(...runs).toFixed(0)}-${Math.max(...runs).toFixed(0)})`,
          trips.toFixed(2),
        ];
        report.table(
          `counters summary (medians of ${rounds} rounds, with the range)`,
          ['operation', 'peer', 'per second (min-max)', 'round trips/op'],
          [
            row(`update, ${IN_FLIGHT} in flight`, 'ours (one script)', updateRates.ours, perOp(update.ours, updates)),
            row(`update, ${IN_FLIGHT} in flight`, 'book (MULTI/EXEC)', updateRates.book, perOp(update.book, updates)),
            row(
              `cleanup of ${counters} counters`,
              'ours (batched script)',
              cleanRates.ours,
              perOp(clean.ours, counters),
            ),
            row(
              `cleanup of ${counters} counters`,
              'book (per counter, WATCH)',
              cleanRates.book,
              perOp(clean.book, counters),
            ),
            ...seriesRows,
          ],
          2,
        );
        report.note(
          `Updates: ${updates} per round over 100 names, ${IN_FLIGHT} in flight on one shared connection, ${DEFAULT_PRECISIONS.length} precisions each; 1 warm-up + ${rounds} rounds, book then ours.`,
        );
        report.note(
          'Round trips: requests the clients sent per operation (a MULTI/EXEC block sent at once counts one), counted on every connection.',
        );
        report.note(
          `Cleanup: ${counters} counters whose only sample is an hour old, removed at precision 1 by each peer; both must leave none.`,
        );
        report.note(
          `Series: ${reads} reads per round over ${SERIES_NAMES.length} counters holding a day of one-minute slices each (COUNTER_RETENTION=60:${2 * DAY_MINUTES}), ${IN_FLIGHT} in flight; ` +
            'the peer reads the raw samples as the `counter` query does (HGETALL) and sums them into the same steps; both answers are checked equal first.',
        );
      } finally {
        redis.disconnect();
        admin.disconnect();
      }
    });
  },
);
