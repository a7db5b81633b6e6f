// Location analytics (book 5.3, 6.6, issue 22): the product's ingestion (LineChunker chunks through
// LocationRepository.append into a stream, counted by LocationAggregator with one commit script)
// against the book's approach ported as it is (bench/location-book.ts), on the same deterministic
// logs. Variants, figures and method: docs/performance.md, "Method: location".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import type Redis from 'ioredis';
import pino from 'pino';
import { LineChunker } from '../src/geo/chunker';
import { lazyLocator, type IpLocator } from '../src/geo/ip-locator';
import { tallyChunk } from '../src/geo/tally';
import { closeRedis, connectRedis } from '../src/redis/client/connection';
import { LOCATION_GROUP, locationKeys } from '../src/redis/keys';
import { appendWhenRoom } from '../src/redis/location/backpressure';
import { LocationRepository } from '../src/redis/location/repository';
import { readLocation } from '../src/redis/location/settings';
import { SettingsReader } from '../src/common/settings';
import { LocationAggregator } from '../src/workers/location-aggregator';
import * as book from './location-book';
import { checkBookCountries, checkProduct, describeComparison, exact, writeLogs } from './location-logs';
import type { Comparison, LogSet, ProductCheck } from './location-logs';
import * as stats from './location-redis';
import { alternate, bench, isQuick, size, stepsOf, until, within, type Figure, type SuiteReport } from './harness';
import { medianRange } from './harness/measure';
import { startNodeProcess } from './harness/server-process';
import { median, sumOf } from './harness/support';

const LINES = size('BENCH_LOCATION_LINES', 200_000, 2_000_000);
const FILES = size('BENCH_LOCATION_FILES', 8, 10);
const ROUNDS = size('BENCH_LOCATION_ROUNDS', 2, 2);
/** The warm-up round's log set: its own, smaller (most of a round is the book's Redis lookups). */
const WARM_LINES = Math.max(2_000, Math.round(LINES / (isQuick() ? 10 : 20)));
/** Addresses looked up one by one in Redis for the lookup-alone figure. */
const ZSET_LOOKUPS = isQuick() ? 10_000 : 20_000;
/** The product's defaults (chunk bytes, claim-after, wait for room, limits); the kill run claims after 1 s. */
const SETTINGS = readLocation(new SettingsReader({}), false);
const KILL_CLAIM_AFTER_MS = 1000;
/** Share of the lines counted before one worker process is killed. */
const KILL_AT = 0.3;
/** LocationAggregator's default sleep when no dataset had work (its idleMs). */
const IDLE_MS = 200;
const RUN_TIMEOUT_MS = 300_000;
const WORKERS = 2;

const logger = pino({ level: process.env.BENCH_LOCATION_LOG ?? 'silent' });

/** The repository, counting its appends (chunk transfer); the in-process aggregators count commits. */
class CountingRepository extends LocationRepository {
  appends = 0;
  /** Datasets this repository's aggregator has seen listed. */
  readonly listed = new Set<string>();

  override async datasets(): Promise<string[]> {
    const datasets = await super.datasets();
    for (const dataset of datasets) this.listed.add(dataset);
    return datasets;
  }

  override append(...args: Parameters<LocationRepository['append']>): ReturnType<LocationRepository['append']> {
    this.appends += 1;
    return super.append(...args);
  }
}

/** Each file as the HTTP upload sends it: read, gunzipped if .gz, cut by LineChunker, appended. */
async function uploadAll(repo: LocationRepository, dataset: string, logs: LogSet, chunkBytes = SETTINGS.chunkBytes) {
  for (const file of logs.files) {
    const chunker = new LineChunker(chunkBytes);
    let from = 0;
    const store = async (chunk: { data: Buffer; lines: number } | undefined, last: boolean): Promise<void> => {
      from = (await appendWhenRoom(repo, [dataset, file.name, from, chunk, last], SETTINGS.maxWaitForRoomMs)).lines;
    };
    const raw = fs.createReadStream(file.path, { highWaterMark: 64 * 1024 });
    const body = file.name.endsWith('.gz') ? raw.pipe(zlib.createGunzip()) : raw;
    for await (const bytes of body) for (const chunk of chunker.push(bytes as Buffer)) await store(chunk, false);
    const rest = chunker.end();
    if (rest.length === 0) await store(undefined, true);
    for (let i = 0; i < rest.length; i++) await store(rest[i], i === rest.length - 1);
  }
}

/** Lines of `dataset` counted so far, over the uploads of `logs`. */
async function countedLines(admin: Redis, dataset: string, logs: LogSet): Promise<number> {
  const keys = locationKeys(dataset);
  const done = await admin.pipeline(logs.files.map((file) => ['hget', keys.upload(file.name), 'doneLines'])).exec();
  return (done ?? []).reduce((sum, [, reply]) => sum + Number(reply ?? 0), 0);
}

/** A worker process (dist-bench's src/worker.js) counting locations, and its aggregator's consumer name. */
async function spawnWorker(url: string) {
  const worker = startNodeProcess(path.join(__dirname, '..', 'src', 'worker.js'), {
    PATH: process.env.PATH ?? '',
    HOME: os.tmpdir(),
    REDIS_URL: url,
    LOCATION_WORKER: 'on',
    LOCATION_CLAIM_AFTER_MS: String(KILL_CLAIM_AFTER_MS),
    LOG_LEVEL: 'info',
  });
  const started = () => /"location":"([^"]+)"[^\n]*"msg":"worker started"/.exec(worker.output())?.[1];
  const failure = () => `the worker process did not start:\n${worker.output()}`;
  await until(() => started() !== undefined || worker.child.exitCode !== null, failure, 30_000, 50).catch((error) => {
    worker.child.kill('SIGKILL');
    throw error;
  });
  const consumer = started();
  if (consumer === undefined) throw new Error(failure());
  return { ...worker, consumer };
}
type WorkerProcess = Awaited<ReturnType<typeof spawnWorker>>;

const VARIANTS = [
  { id: 'book_redis', label: "book's, Redis zset lookup, 2 workers" },
  { id: 'book_local', label: "book's, local lookup (IpLocator), 2 workers" },
  { id: 'product_1', label: 'product, 1 aggregator (in-process)' },
  { id: 'product_2', label: 'product, 2 aggregators (in-process)' },
  { id: 'product_kill', label: 'product, 2 worker processes, 1 SIGKILLed' },
] as const;
type VariantId = (typeof VARIANTS)[number]['id'];

const RUNS: Record<VariantId, (ctx: Context, logs: LogSet, warm: boolean) => Promise<RunResult>> = {
  book_redis: (ctx, logs) => runBook(ctx, logs, 'redis'),
  book_local: (ctx, logs) => runBook(ctx, logs, 'local'),
  product_1: (ctx, logs) => runProduct(ctx, logs, 1),
  product_2: (ctx, logs) => runProduct(ctx, logs, 2),
  product_kill: (ctx, logs, warm) => runProcesses(ctx, logs, !warm),
};

type RunResult = ReturnType<typeof measuresOf> &
  Partial<Omit<ProductCheck, 'countries' | 'notes'>> & {
    lines: number;
    seconds: number;
    countries: Comparison;
    /** Book: the flushes added up (what ZINCRBY would have kept). */
    summed?: Comparison;
    notes: string[];
    /** The kill run: whether a worker was killed mid-run, and the chunks it held as it died. */
    kill?: { landed: boolean; orphaned: number; doneAtKill: number };
    /** In-process runs: from the first byte sent to the first chunk committed. */
    firstCommitMs?: number;
  };

/** Connection and housekeeping commands, in no purpose's count. */
const HOUSEKEEPING = ['smembers', 'ping', 'client|setname', 'client|info', 'select', 'hello', 'auth', 'script|load'];
const STREAM = ['xadd', 'xack', 'xdel', 'xautoclaim', 'xreadgroup', 'xclaim'];
/** Commands the worker processes send; the product's scripts call none of them. */
const WORKER_SENT = ['evalsha', 'xautoclaim', 'xreadgroup', 'smembers', 'ping', 'client|setname', 'select'];

type Context = Awaited<ReturnType<typeof connectAll>>;
type Shared = { url: string; admin: Redis; locator: IpLocator; warmLogs: LogSet };

/** The book's connections (a publisher, one per worker) and the product's (the uploader's, as the API server's, one per in-process aggregator). */
async function connectAll(shared: Shared, defer: (cleanup: () => unknown) => void) {
  const connect = async (name: string): Promise<Redis> => {
    const client = await connectRedis(shared.url, { name: `bench:${name}`, logger, commandTimeoutMs: 30_000 });
    defer(() => closeRedis(client));
    return client as Redis;
  };
  const repository = async (name: string) => new CountingRepository(await connect(name), SETTINGS);
  return {
    ...shared,
    bookPublisher: await connect('book-publisher'),
    bookWorkers: [await connect('book-0'), await connect('book-1')],
    uploader: await repository('uploader'),
    aggregators: [await repository('aggregator-0'), await repository('aggregator-1')],
    workers: [] as WorkerProcess[],
    runs: 0,
  };
}

// A run's commands by purpose: sent by clients (aggregate writes, lookups, chunk transfer,
// housekeeping) and run in Lua (stream commands: XADD, XACK, XDEL; the rest: counts, progress).
function measuresOf(measured: stats.Measured, aggregate: number, lookup: number, other = 0) {
  const { sent, internal } = measured;
  const sumNamed = (counts: stats.Counts, names: string[]): number => sumOf(names, (name) => counts.get(name) ?? 0);
  const housekeeping = sumNamed(sent, HOUSEKEEPING) + other;
  const stream = sumNamed(internal, STREAM);
  const transfer = stats.total(sent) - aggregate - lookup - housekeeping;
  const luaOther = stats.total(internal) - stream;
  return { ...measured, aggregate, lookup, transfer, housekeeping, stream, luaOther };
}

async function runBook(ctx: Context, logs: LogSet, lookup: 'redis' | 'local'): Promise<RunResult> {
  await ctx.admin.flushall();
  const ranges = lookup === 'redis' ? await book.importRanges(ctx.admin, logs.addresses, ctx.locator) : 0;
  const counters = book.newCounters();
  const countryOf = (redis: Redis) =>
    lookup === 'redis'
      ? async (ip: string): Promise<string | undefined> => {
          counters.lookups += 2;
          return (await book.findCityByIp(redis, ip))?.[2];
        }
      : (ip: string): string | undefined => ctx.locator.lookup(ip)?.country;
  const probe = await stats.startProbe(ctx.admin);
  const started = performance.now();
  const workers = ctx.bookWorkers.map((redis, i) => {
    const callback = book.dailyCountryAggregate(redis, i, WORKERS, countryOf(redis), counters);
    return book.processLogsFromRedis(redis, String(i), callback);
  });
  const publishing = book.copyLogsToRedis(ctx.bookPublisher, logs.dir, 'logs:', WORKERS);
  await Promise.all(workers);
  const seconds = (performance.now() - started) / 1000;
  await publishing;
  const measured = await probe();
  return {
    lines: logs.lines,
    seconds,
    ...measuresOf(measured, counters.flushes, counters.lookups),
    countries: await checkBookCountries(ctx.admin, logs),
    summed: await checkBookCountries(ctx.admin, logs, counters.summed),
    notes: lookup === 'redis' ? [`${ranges} ranges in the lookup zsets`] : [],
  };
}

type Until = { outside?: string[]; onPoll?: (counted: number) => Promise<void>; counted?: Promise<void> };

// Uploads `logs` into `dataset` until every line is counted: `counted` says so when given (the
// in-process aggregators' callback, at the moment it happens), else a poll every 10 ms (which
// `onPoll` sees). The seconds from the first byte, the Redis measures (`outside`: see
// startProbe), the check of the counts.
async function uploadRun(ctx: Context, dataset: string, logs: LogSet, { outside, onPoll, counted: done }: Until = {}) {
  const probe = await stats.startProbe(ctx.admin, outside);
  const started = performance.now();
  let counted = 0;
  const allCounted = async (): Promise<boolean> => {
    counted = await countedLines(ctx.admin, dataset, logs);
    await onPoll?.(counted);
    return counted >= logs.lines;
  };
  const failure = () => `${dataset}: ${counted} of ${logs.lines} lines counted after ${RUN_TIMEOUT_MS} ms`;
  const waited = done ? within(done, RUN_TIMEOUT_MS, failure) : until(allCounted, failure, RUN_TIMEOUT_MS, 10);
  await Promise.all([waited, uploadAll(ctx.uploader, dataset, logs)]);
  const seconds = (performance.now() - started) / 1000;
  const measured = await probe();
  const check = await checkProduct(ctx.admin, dataset, logs);
  /** The run's result: its aggregate writes are the `commits` (commit scripts), `other` more housekeeping. */
  const result = (commits: number, notes: string[], other = 0): RunResult => ({
    lines: logs.lines,
    seconds,
    ...measuresOf(measured, commits, 0, other),
    ...check,
    notes: [...notes, ...check.notes],
  });
  return { started, measured, result };
}

async function runProduct(ctx: Context, logs: LogSet, aggregators: number): Promise<RunResult> {
  await ctx.admin.flushall();
  const dataset = `bench-${++ctx.runs}`;
  await ctx.uploader.createDataset(dataset);
  const repos = ctx.aggregators.slice(0, aggregators);
  ctx.uploader.appends = 0;
  let commits = 0;
  let lost = 0;
  let firstCommitAt = NaN;
  let committedLines = 0;
  let allCommitted = (): void => undefined;
  const counted = new Promise<void>((resolve) => (allCommitted = resolve));
  const workers = repos.map(
    (repository) =>
      new LocationAggregator({
        repository,
        locator: () => ctx.locator,
        logger,
        ...SETTINGS,
        onChunk: (_dataset, lines, committed) => {
          commits += 1;
          if (Number.isNaN(firstCommitAt)) firstCommitAt = performance.now();
          if (!committed) lost += 1;
          else if ((committedLines += lines) >= logs.lines) allCommitted();
        },
      }),
  );
  for (const worker of workers) worker.start();
  try {
    const listing = () => repos.every((repo) => repo.listed.has(dataset));
    await until(listing, `the aggregators did not list ${dataset}`, 15_000, 5);
    // They found nothing yet and sleep IDLE_MS: an upload arriving at a random time finds them
    // halfway through that sleep, on average.
    await sleep(IDLE_MS / 2);
    const run = await uploadRun(ctx, dataset, logs, { counted });
    const firstCommitMs = firstCommitAt - run.started;
    const notes = [
      `${ctx.uploader.appends} appends, ${commits} commits${lost ? `, ${lost} lost to another aggregator` : ''}; first chunk committed after ${firstCommitMs.toFixed(0)} ms`,
    ];
    return { ...run.result(commits, notes), firstCommitMs };
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

async function runProcesses(ctx: Context, logs: LogSet, kill: boolean): Promise<RunResult> {
  await ctx.admin.flushall();
  const dataset = `bench-${++ctx.runs}`;
  const keys = locationKeys(dataset);
  // Made before the worker processes start, so their first listing has both; the warm-up dataset's
  // chunks (64 KiB: both take some) wait for them: they load the IP database, compile the hot paths.
  const warm = `${dataset}-warm`;
  for (const name of [warm, dataset]) await ctx.uploader.createDataset(name);
  await uploadAll(ctx.uploader, warm, ctx.warmLogs, 64 * 1024);
  ctx.workers = await Promise.all(Array.from({ length: WORKERS }, () => spawnWorker(ctx.url)));
  try {
    const warmed = async () =>
      ((await ctx.admin.xinfo('CONSUMERS', locationKeys(warm).chunks, LOCATION_GROUP)) as unknown[]).length >=
        WORKERS && (await countedLines(ctx.admin, warm, ctx.warmLogs)) >= ctx.warmLogs.lines;
    await until(warmed, 'the worker processes did not count the warm-up upload', 60_000, 20);
    ctx.uploader.appends = 0;
    let killed: RunResult['kill'] = kill ? { landed: false, orphaned: 0, doneAtKill: 0 } : undefined;
    /** Past KILL_AT, kills a worker holding a chunk, if one does. */
    const killHolder = async (counted: number): Promise<void> => {
      if (!killed || killed.landed || counted < KILL_AT * logs.lines || counted >= logs.lines) return;
      const held = (await ctx.admin.xpending(keys.chunks, LOCATION_GROUP, '-', '+', 100)) as [string, string][];
      const victim = ctx.workers.find((worker) => held.some(([, consumer]) => consumer === worker.consumer));
      if (!victim) return;
      await victim.stop('SIGKILL');
      // What it held as it died: chunks only another aggregator's XAUTOCLAIM can finish.
      const orphaned = await ctx.admin.xpending(keys.chunks, LOCATION_GROUP, '-', '+', 100, victim.consumer);
      killed = { landed: true, orphaned: orphaned.length, doneAtKill: counted };
    };
    const run = await uploadRun(ctx, dataset, logs, { outside: WORKER_SENT, onPoll: killHolder });
    const { sent, internal } = run.measured;
    // Every EVALSHA not sent by this process is a worker's; a commit script XACKs first (no other
    // script does), the rest are the workers' prune-consumers scripts: housekeeping.
    const commits = internal.get('xack') ?? 0;
    const other = (sent.get('evalsha') ?? 0) - ctx.uploader.appends - commits;
    const notes = [`${ctx.uploader.appends} appends, ${commits} commits, ${other} prune scripts`];
    if (killed?.landed)
      notes.push(
        `SIGKILL after ${killed.doneAtKill} of ${logs.lines} lines counted; the killed worker died holding ${killed.orphaned} chunk(s), left for the survivor to claim`,
      );
    else if (killed) notes.push('the kill did not land: the run ended before a worker held a chunk past 30%');
    return { ...run.result(commits, notes, other), kill: killed };
  } finally {
    await Promise.all(ctx.workers.map((worker) => worker.stop()));
    ctx.workers = [];
  }
}

/** Rates of find_city_by_ip (one connection, one at a time), IpLocator.lookup, tallyChunk (lines/s, 1 MiB chunk). */
async function measureLookups(ctx: Context, logs: LogSet, zsetLookups: number) {
  const secondsOf = async (work: () => Promise<void> | void): Promise<number> => {
    const started = performance.now();
    await work();
    return (performance.now() - started) / 1000;
  };
  await ctx.admin.flushall();
  await book.importRanges(ctx.admin, logs.addresses, ctx.locator);
  const some = logs.sample.slice(0, zsetLookups);
  const countries: (string | undefined)[] = [];
  const redisSeconds = await secondsOf(async () => {
    for (const ip of some) countries.push((await book.findCityByIp(ctx.bookWorkers[0], ip))?.[2]);
  });
  const mismatched = some.filter((ip, i) => countries[i] !== ctx.locator.lookup(ip)?.country).length;
  if (mismatched > 0)
    throw new Error(`the book's lookup table placed ${mismatched} addresses elsewhere than IpLocator`);
  await ctx.admin.flushall();
  let found = 0;
  const localSeconds = await secondsOf(() => {
    for (const ip of logs.sample) if (ctx.locator.lookup(ip)) found += 1;
  });
  if (found === 0) throw new Error('no address found');
  const data = fs.readFileSync(logs.files.find((file) => !file.name.endsWith('.gz'))!.path);
  const chunk = data.subarray(0, data.lastIndexOf(0x0a, SETTINGS.chunkBytes) + 1);
  let lines = 0;
  const tallySeconds = await secondsOf(async () => {
    for (let i = 0; i < 5; i++) lines += (await tallyChunk(chunk, 1, ctx.locator, SETTINGS.maxSamples)).lines;
  });
  return { redis: some.length / redisSeconds, local: logs.sample.length / localSeconds, tally: lines / tallySeconds };
}
type Lookups = Awaited<ReturnType<typeof measureLookups>>;

const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

/** The round's rate and check, its notes, and the commands by name (sent, and run inside Lua). */
function roundLine(id: VariantId, run: RunResult): string {
  const verdict = [
    `countries ${describeComparison(run.countries)}`,
    run.summed && `flushes summed ${describeComparison(run.summed)}`,
    run.places && `regions+cities ${describeComparison(run.places)}`,
    run.places && `totals ${run.totalsExact ? 'exact' : 'WRONG'}`,
  ];
  return [
    `    ${id}: ${(run.lines / run.seconds).toFixed(0)} lines/s (${run.seconds.toFixed(2)} s), peak used_memory +${mb(run.peakBytes - run.baseBytes)} MB; ${verdict.filter(Boolean).join('; ')}`,
    ...run.notes,
    `sent: ${stats.describeCounts(run.sent)}`,
    `in Lua: ${stats.describeCounts(run.internal) || 'none'}`,
  ].join('\n      ');
}

/** Book: the countries; product: countries, regions, cities and totals, and the kill landed. */
const isExact = (run: RunResult): boolean =>
  exact(run.countries) &&
  (!run.places || (exact(run.places) && run.totalsExact === true)) &&
  run.kill?.landed !== false;

type Pick = (run: RunResult) => number;
type Results = Record<VariantId, RunResult[]>;

function report(suite: SuiteReport, results: Results, lookups: Lookups[], logs: LogSet, warm: LogSet) {
  const rates = (id: VariantId): number[] => results[id].map((run) => run.lines / run.seconds);
  const perM = (id: VariantId, pick: Pick): number =>
    (sumOf(results[id], pick) * 1_000_000) / sumOf(results[id], (run) => run.lines);
  const peak = (id: VariantId): string => mb(Math.max(...results[id].map((run) => run.peakBytes - run.baseBytes)));
  const verdict = (id: VariantId): string => {
    const last = results[id].at(-1)!;
    const book = id.startsWith('book');
    if (results[id].every(isExact)) return book ? 'exact' : 'exact (countries, regions, cities, totals)';
    return book
      ? `WRONG (${last.countries.wrong}/${last.countries.compared} day-country counts; ${last.countries.stored} of ${last.countries.expected} visits)`
      : `WRONG (${describeComparison(last.countries)}; ${describeComparison(last.places!)})`;
  };
  const aloneRates = (key: keyof Lookups): number[] => lookups.map((l) => l[key]);
  const perMCell = (pick: Pick) => (v: (typeof VARIANTS)[number]) => perM(v.id, pick).toFixed(0);
  const title = `location summary: ${logs.lines} lines in ${logs.files.length} files over ${logs.days.length} days (medians of ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}, with the range; commands over all measured rounds)`;
  suite.tableOf(title, 1, VARIANTS, [
    ['variant', (v) => v.label],
    ['lines/s end to end', (v) => medianRange(rates(v.id))],
    ['lookups/s alone', (v) => median(aloneRates(v.id === 'book_redis' ? 'redis' : 'local')).toFixed(0)],
    ['sent: aggregate writes /M lines', perMCell((run) => run.aggregate)],
    ['sent: lookups /M', perMCell((run) => run.lookup)],
    ['sent: chunk transfer /M', perMCell((run) => run.transfer)],
    ['in Lua: counts & progress /M', perMCell((run) => run.luaOther)],
    ['in Lua: stream /M', perMCell((run) => run.stream)],
    ['peak used_memory MB', (v) => peak(v.id)],
    ['result against the reference', (v) => verdict(v.id)],
  ]);

  const ported = "book's port (Redis lookup, 2 workers)";
  const ratios: [string, string, VariantId, VariantId, Figure['target']?][] = [
    ['product2_vs_book', `(2 in-process aggregators) / ${ported}`, 'product_2', 'book_redis', { op: '>=', value: 10 }],
    ['product1_vs_book', `(1 aggregator) / ${ported}`, 'product_1', 'book_redis'],
    ['product2_vs_book_local', "(2 aggregators) / book's with a local lookup (2 workers)", 'product_2', 'book_local'],
  ];
  for (const [id, label, ours, theirs, target] of ratios)
    suite.ratio(`location.${id}`, `lines/s end to end: product ${label}`, rates(ours), rates(theirs), target);
  const alone: Record<keyof Lookups, string> = {
    redis: "IP lookups alone: the book's find_city_by_ip (ZREVRANGEBYSCORE + HGET, one connection)",
    local: 'IP lookups alone: IpLocator (the product, and the book with a local lookup)',
    tally: 'tallyChunk alone (parse, check, look up, count a 1 MiB chunk)',
  };
  for (const [key, label] of Object.entries(alone) as [keyof Lookups, string][]) {
    const [id, unit] = key === 'tally' ? [key, 'lines/s'] : [`lookup.${key}`, 'lookups/s'];
    suite.median(`location.${id}`, label, unit, aloneRates(key));
  }
  const commands: [string, string, Pick, Figure['target']?][] = [
    ['aggregate', 'client-sent aggregate writes (commit scripts)', (run) => run.aggregate, { op: '<=', value: 1000 }],
    ['transfer', 'client-sent chunk transfer (append scripts, XREADGROUP, XAUTOCLAIM)', (run) => run.transfer],
    ['internal', 'commands run inside Lua', (run) => run.stream + run.luaOther],
  ];
  const sentAll: Pick = (run) => stats.total(run.sent);
  const bookCommands = 'client-sent commands per million lines (lookups, flushes, file transfer)';
  for (const { id, label } of VARIANTS) {
    const product = !id.startsWith('book');
    const value = (name: string, what: string, unit: string, n: number, target?: Figure['target']) =>
      suite.value(`location.${id}.${name}`, `${label}: ${what}`, unit, n, target);
    suite.median(`location.${id}.rate`, `${label}: end to end`, 'lines/s', rates(id));
    if (!product) value('commands', bookCommands, 'commands', perM(id, sentAll));
    else
      for (const [name, what, pick, target] of commands)
        value(`${name}_commands`, `${what} per million lines`, 'commands', perM(id, pick), target);
    value('peak_memory', "peak used_memory above the run's start (sampled)", 'MB', Number(peak(id)));
    const what = product ? 'countries, regions, cities and totals' : 'countries per day';
    const target = product ? ({ op: '==', value: 1 } as const) : undefined;
    value('exact', `${what} equal the reference (1 yes, 0 no)`, 'exact', results[id].every(isExact) ? 1 : 0, target);
  }

  const bookRun = results.book_redis.at(-1)!;
  const inProcess = [...results.product_1, ...results.product_2];
  const firstCommit = median(inProcess.map((run) => run.firstCommitMs ?? NaN));
  const runSeconds = median(inProcess.map((run) => run.seconds));
  const kills = results.product_kill.map((run) => run.kill);
  suite.note(
    `Logs: the product's LogGenerator (2000 places, 10% of them carrying 90% of the lines, 10% IPv6, 0.1% malformed), ${logs.lines} lines over ${logs.days.length} days in ${logs.files.length} files, every second one gzipped, so each day runs across files; the generator's own count is the reference.`,
    `Book's port: ${bookRun.notes.join('')}: one range start per distinct address in the logs, the start of the DB-IP range that holds it, so every address resolves as with the full table (which has millions of ranges: memory is not comparable); IPv6 by ZREVRANGEBYLEX over hex range starts.`,
    `Book's ZADD flush is ${exact(bookRun.countries) ? 'exact here' : 'WRONG'}: each file, and each worker's share of it, overwrites the day's counts (${describeComparison(bookRun.countries)}); the same flushes added up (as ZINCRBY would) are ${describeComparison(bookRun.summed!)}, so the lookups are right and the ZADD is what loses counts.`,
    'Product: files read from disk, gunzipped, cut by LineChunker (1 MiB chunks) and sent with LocationRepository.append (appendWhenRoom) one after another on one connection, as the HTTP upload does (without its gzip hold-back); end to end until every chunk is committed.',
    `Product latency inside the rate: idle aggregators poll every ${IDLE_MS} ms (the product's default; the upload starts ${IDLE_MS / 2} ms into their sleep, the average case) and count a 1 MiB chunk in one go, so the first chunk was committed ${firstCommit.toFixed(0)} ms after the first byte sent (median of the in-process runs, which took ${runSeconds.toFixed(2)} s): fixed costs that weigh less the more lines a run has.`,
    `Kill run: 2 worker processes (dist-bench/src/worker.js, LOCATION_CLAIM_AFTER_MS=${KILL_CLAIM_AFTER_MS}); one SIGKILLed while holding a chunk once ${KILL_AT * 100}% of the lines were counted (${kills.filter((k) => k?.landed).length} of ${kills.length} kills landed, leaving ${kills.map((k) => k?.orphaned ?? 0).join(', ')} chunk(s) held by the dead worker); its rate includes the ${KILL_CLAIM_AFTER_MS} ms before the survivor claims them.`,
    'Commands: INFO commandstats deltas over the run, less the bench\'s own INFO/XPENDING polls. "sent" is what clients sent (counted on this process\'s connections; for the worker processes, every call of the commands they send, which the scripts never call); "in Lua" is what Redis ran inside scripts (commandstats counts those too). Aggregate writes: the commit script (product), the ZADD flushes (book); chunk transfer: append scripts, XREADGROUP, XAUTOCLAIM (product), APPEND, GETRANGE and the chat messages (book).',
    `Warm-up: one round of every variant on a smaller log set (${warm.lines} lines, its own seed, 2 files, checked against its own reference), which loads the IP database and the scripts and compiles the hot paths; the worker processes, new for each run, first count that set in 64 KiB chunks (both must have taken some). Then the measured rounds, variants in the same order each round.`,
  );
}

const TITLE =
  "Location analytics (book 5.3, 6.6): chunk stream + one-script commit, against the book's file distribution and ZSET lookup";

bench({ id: 'location', title: TITLE }, async ({ url, report: suite, steps, defer }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-bench-location-'));
  defer(() => fs.rmSync(dir, { recursive: true, force: true }));
  const locator = lazyLocator([])();
  const peers = [...VARIANTS.map((v) => v.id), 'lookups'] as const;
  const progress = steps(1 + stepsOf(peers.length, ROUNDS, 'once'));
  progress.step('writing the logs');
  const began = performance.now();
  const write = (name: string, lines: number, files: number, days: number, seed: number, prefix: string) =>
    writeLogs(path.join(dir, name), locator, { lines, files, days, seed, prefix });
  const warmLogs = write('warm', WARM_LINES, 2, 2, 2, 'warm');
  const logs = write('logs', LINES, FILES, 7, 1, 'game');
  console.log(
    `location benchmark: ${logs.lines} lines (${mb(sumOf(logs.files, (f) => f.rawBytes))} MB, ` +
      `${mb(sumOf(logs.files, (f) => f.bytes))} MB on disk) in ${logs.files.length} files over ${logs.days.length} days, ` +
      `${logs.addresses.size} distinct addresses, ${logs.reference.refused} malformed lines; written in ${((performance.now() - began) / 1000).toFixed(1)} s. ` +
      `Warm-up set: ${warmLogs.lines} lines. 1 warm-up round + ${ROUNDS} measured.`,
  );
  const admin = stats.countingAdmin(url);
  defer(() => admin.disconnect());
  const ctx = await connectAll({ url, admin, locator, warmLogs }, defer);
  defer(() => Promise.all(ctx.workers.map((worker) => worker.stop())));
  const { measured } = await alternate<(typeof peers)[number], RunResult | Lookups>({
    peers,
    rounds: ROUNDS,
    steps: progress,
    async run(id, round) {
      const set = round.warm ? warmLogs : logs;
      if (id === 'lookups') {
        const alone = await measureLookups(ctx, set, round.size(ZSET_LOOKUPS));
        console.log(
          `    lookups alone: find_city_by_ip ${alone.redis.toFixed(0)}/s, IpLocator ${alone.local.toFixed(0)}/s, tallyChunk ${alone.tally.toFixed(0)} lines/s`,
        );
        return alone;
      }
      const run = await RUNS[id](ctx, set, round.warm);
      console.log(roundLine(id, run));
      if (round.warm && !isExact(run) && !id.startsWith('book'))
        throw new Error(`${id} was not exact in the warm-up round: ${run.notes.join('; ')}`);
      return run;
    },
  });
  report(suite, measured as Results, measured.lookups as Lookups[], logs, warmLogs);
});
