// Location analytics (book 5.3, 6.6, issue 22): the product's ingestion (LineChunker chunks through
// LocationRepository.append into a stream, counted by LocationAggregator with one commit script)
// against the book's approach ported as it is (bench/location-book.ts), on the same deterministic
// logs. Variants, figures and method: docs/performance.md, "Method: location".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import type Redis from 'ioredis';
import pino from 'pino';
import { LineChunker } from '../src/geo/chunker';
import { lazyLocator, type IpLocator } from '../src/geo/ip-locator';
import { tallyChunk, type ChunkTally } from '../src/geo/tally';
import { closeRedis, connectRedis, type RedisClient } from '../src/redis/client/connection';
import { LOCATION_GROUP, locationKeys } from '../src/redis/keys';
import { appendWhenRoom } from '../src/redis/location/backpressure';
import {
  LocationRepository,
  type AppendResult,
  type ChunkEntry,
  type CommitOutcome,
  type LocationSettings,
} from '../src/redis/location/repository';
import { LocationAggregator } from '../src/workers/location-aggregator';
import {
  copyLogsToRedis,
  dailyCountryAggregate,
  findCityByIp,
  importRanges,
  newCounters,
  processLogsFromRedis,
} from './location-book';
import {
  checkBookCountries,
  checkProduct,
  checkSummedCountries,
  describeComparison,
  exact,
  writeLogs,
  type Comparison,
  type LogSet,
  type ProductCheck,
} from './location-logs';
import {
  adminConnection,
  countSentCommands,
  describeCounts,
  splitSentAndInternal,
  startProbe,
  total,
  type Counts,
  type Measured,
} from './location-redis';
import {
  alternate,
  bench,
  isQuick,
  median,
  medianRange,
  size,
  stepsOf,
  sumOf,
  tableOf,
  within,
  type Figure,
  type SuiteReport,
} from './harness';

type Target = Figure['target'];

const LINES = size('BENCH_LOCATION_LINES', 200_000, 2_000_000);
const FILES = size('BENCH_LOCATION_FILES', 8, 10);
const ROUNDS = size('BENCH_LOCATION_ROUNDS', 2, 2);
/** The warm-up round's log set: its own, smaller (most of a round is the book's Redis lookups). */
const WARM_LINES = Math.max(2_000, Math.round(LINES / (isQuick() ? 10 : 20)));
/** Addresses looked up one by one in Redis for the lookup-alone figure. */
const ZSET_LOOKUPS = isQuick() ? 10_000 : 20_000;
const DAYS = 7;
/** src/config.ts defaults: LOCATION_CHUNK_BYTES, LOCATION_MAX_HELD_BYTES, LOCATION_MAX_WAIT_MS. */
const CHUNK_BYTES = 1024 * 1024;
const SETTINGS: LocationSettings = {
  maxDatasets: 100,
  maxHeldBytes: 1024 * 1024 * 1024,
  maxUploadBytes: 64 * 1024 * 1024 * 1024,
  maxUploads: 10_000,
  maxSamples: 20,
};
const MAX_WAIT_MS = 120_000;
/** LOCATION_CLAIM_AFTER_MS: the product's default for in-process aggregators, low for the kill run. */
const CLAIM_AFTER_MS = 60_000;
const KILL_CLAIM_AFTER_MS = 1000;
/** Share of the lines counted before one worker process is killed. */
const KILL_AT = 0.3;
/** LocationAggregator's default sleep when no dataset had work (its idleMs). */
const IDLE_MS = 200;
const RUN_TIMEOUT_MS = 300_000;
const WORKERS = 2;

const logger = pino({ level: process.env.BENCH_LOCATION_LOG ?? 'silent' });
const WORKER_SCRIPT = path.join(__dirname, '..', 'src', 'worker.js');

// --- the product's side -------------------------------------------------------------------------

/** The repository, counting the scripts it sends: appends (chunk transfer) and commits (aggregates). */
class CountingRepository extends LocationRepository {
  appends = 0;
  commits = 0;
  /** Datasets this repository's aggregator has seen listed. */
  readonly listed = new Set<string>();

  override async datasets(): Promise<string[]> {
    const datasets = await super.datasets();
    for (const dataset of datasets) this.listed.add(dataset);
    return datasets;
  }

  override async append(...args: Parameters<LocationRepository['append']>): Promise<AppendResult> {
    this.appends += 1;
    return super.append(...args);
  }

  override async commit(dataset: string, entry: ChunkEntry, tally: ChunkTally): Promise<CommitOutcome> {
    this.commits += 1;
    return super.commit(dataset, entry, tally);
  }
}

/** One file as the HTTP upload sends it: read, gunzipped if .gz, cut by LineChunker, appended. */
async function uploadFile(
  repo: LocationRepository,
  dataset: string,
  file: { name: string; path: string },
  chunkBytes = CHUNK_BYTES,
): Promise<void> {
  const chunker = new LineChunker(chunkBytes);
  let from = 0;
  const store = async (chunk: { data: Buffer; lines: number } | undefined, last: boolean): Promise<void> => {
    from = (await appendWhenRoom(repo, [dataset, file.name, from, chunk, last], MAX_WAIT_MS)).lines;
  };
  const raw = fs.createReadStream(file.path, { highWaterMark: 64 * 1024 });
  const body = file.name.endsWith('.gz') ? raw.pipe(zlib.createGunzip()) : raw;
  for await (const bytes of body) for (const chunk of chunker.push(bytes as Buffer)) await store(chunk, false);
  const rest = chunker.end();
  if (rest.length === 0) await store(undefined, true);
  for (let i = 0; i < rest.length; i++) await store(rest[i], i === rest.length - 1);
}

async function uploadAll(repo: LocationRepository, dataset: string, logs: LogSet, chunkBytes?: number): Promise<void> {
  for (const file of logs.files) await uploadFile(repo, dataset, file, chunkBytes);
}

/** Lines of `dataset` counted so far, over the uploads of `logs`. */
async function countedLines(admin: Redis, dataset: string, logs: LogSet): Promise<number> {
  const keys = locationKeys(dataset);
  const done = await admin.pipeline(logs.files.map((file) => ['hget', keys.upload(file.name), 'doneLines'])).exec();
  return (done ?? []).reduce((sum, [, reply]) => sum + Number(reply ?? 0), 0);
}

/** Waits until every in-process aggregator has listed `dataset` (they list datasets every second). */
async function aggregatorsListing(repos: CountingRepository[], dataset: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!repos.every((repo) => repo.listed.has(dataset))) {
    if (Date.now() > deadline) throw new Error(`the aggregators did not list ${dataset}`);
    await sleep(5);
  }
}

/** Chunks of the worker processes' warm-up upload: small, so that both take some. */
const WARM_CHUNK_BYTES = 64 * 1024;

interface WorkerProcess {
  child: ChildProcess;
  consumer: string;
  output: () => string;
}

async function spawnWorker(url: string): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [WORKER_SCRIPT], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: os.tmpdir(),
      REDIS_URL: url,
      LOCATION_WORKER: 'on',
      LOCATION_CLAIM_AFTER_MS: String(KILL_CLAIM_AFTER_MS),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer): void => void (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const started = /"location":"([^"]+)"[^\n]*"msg":"worker started"/.exec(output);
    if (started) return { child, consumer: started[1], output: () => output };
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the worker process did not start:\n${output}`);
    }
    await sleep(50);
  }
}

async function stopWorker(worker: WorkerProcess): Promise<void> {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => worker.child.once('exit', () => resolve()));
  worker.child.kill('SIGTERM');
  const timer = setTimeout(() => worker.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

// --- one run of a variant -----------------------------------------------------------------------

type VariantId = 'book_redis' | 'book_local' | 'product_1' | 'product_2' | 'product_kill';
type Variant = { id: VariantId; label: string; run: (ctx: Context, logs: LogSet, warm: boolean) => Promise<RunResult> };

const VARIANTS: Variant[] = [
  { id: 'book_redis', label: "book's, Redis zset lookup, 2 workers", run: (ctx, logs) => runBook(ctx, logs, 'redis') },
  {
    id: 'book_local',
    label: "book's, local lookup (IpLocator), 2 workers",
    run: (ctx, logs) => runBook(ctx, logs, 'local'),
  },
  { id: 'product_1', label: 'product, 1 aggregator (in-process)', run: (ctx, logs) => runProduct(ctx, logs, 1) },
  { id: 'product_2', label: 'product, 2 aggregators (in-process)', run: (ctx, logs) => runProduct(ctx, logs, 2) },
  {
    id: 'product_kill',
    label: 'product, 2 worker processes, 1 SIGKILLed',
    run: (ctx, logs, warm) => runProcesses(ctx, logs, !warm),
  },
];

interface Categories {
  aggregate: number;
  lookup: number;
  transfer: number;
  housekeeping: number;
}

interface RunResult {
  variant: VariantId;
  lines: number;
  seconds: number;
  sent: Counts;
  internal: Counts;
  /** Commands sent by clients, by purpose. */
  categories: Categories;
  /** Redis-internal calls: stream commands (XADD, XACK, XDEL) and the rest (counts, progress, notifications). */
  internalStream: number;
  internalOther: number;
  peakBytes: number;
  baseBytes: number;
  countries: Comparison;
  places?: Comparison;
  totalsExact?: boolean;
  /** Book: the flushes added up (what ZINCRBY would have kept). */
  summed?: Comparison;
  notes: string[];
  /** The kill run: whether a worker was killed mid-run, and the chunks it held as it died. */
  kill?: { landed: boolean; orphaned: number; doneAtKill: number };
  /** In-process runs: from the first byte sent to the first chunk committed. */
  firstCommitMs?: number;
}

/** Connection and housekeeping commands, in no purpose's count. */
const HOUSEKEEPING = new Set([
  'smembers',
  'ping',
  'client|setname',
  'client|info',
  'select',
  'hello',
  'auth',
  'script|load',
]);
const STREAM = new Set(['xadd', 'xack', 'xdel', 'xautoclaim', 'xreadgroup', 'xclaim']);
/** Commands the worker processes send; the product's scripts call none of them. */
const WORKER_SENT = ['evalsha', 'xautoclaim', 'xreadgroup', 'smembers', 'ping', 'client|setname', 'select'];

interface Context {
  url: string;
  admin: Redis;
  locator: IpLocator;
  /** The book's connections: a publisher and one per worker. */
  bookPublisher: Redis;
  bookWorkers: Redis[];
  /** The product's: the uploader's (the API server's), and one per in-process aggregator. */
  uploader: CountingRepository;
  aggregators: CountingRepository[];
  workers: (WorkerProcess | undefined)[];
  warmLogs: LogSet;
  runs: number;
}

/** A run's commands by purpose: sent by clients (aggregate writes, lookups, transfer, housekeeping) and run in Lua. */
function commandsOf(
  { sent, internal }: { sent: Counts; internal: Counts },
  measured: Measured,
  aggregate: number,
  lookup: number,
): Pick<
  RunResult,
  'sent' | 'internal' | 'categories' | 'internalStream' | 'internalOther' | 'peakBytes' | 'baseBytes'
> {
  const housekeeping = sumOf(
    [...sent].filter(([name]) => HOUSEKEEPING.has(name)),
    ([, n]) => n,
  );
  const stream = sumOf(
    [...internal].filter(([name]) => STREAM.has(name)),
    ([, n]) => n,
  );
  return {
    sent,
    internal,
    categories: { aggregate, lookup, transfer: total(sent) - aggregate - lookup - housekeeping, housekeeping },
    internalStream: stream,
    internalOther: total(internal) - stream,
    peakBytes: measured.peakBytes,
    baseBytes: measured.baseBytes,
  };
}

async function runBook(ctx: Context, logs: LogSet, lookup: 'redis' | 'local'): Promise<RunResult> {
  await ctx.admin.flushall();
  const ranges = lookup === 'redis' ? await importRanges(ctx.admin, logs.addresses, ctx.locator) : 0;
  const counters = newCounters();
  const countryOf = (redis: Redis) =>
    lookup === 'redis'
      ? async (ip: string): Promise<string | undefined> => {
          counters.lookups += 2;
          return (await findCityByIp(redis, ip))?.[2];
        }
      : (ip: string): string | undefined => ctx.locator.lookup(ip)?.country;
  const probe = await startProbe(ctx.admin);
  const started = performance.now();
  const workers = ctx.bookWorkers.map((redis, i) =>
    processLogsFromRedis(redis, String(i), dailyCountryAggregate(redis, i, WORKERS, countryOf(redis), counters)),
  );
  const publishing = copyLogsToRedis(ctx.bookPublisher, logs.dir, 'logs:', WORKERS);
  await Promise.all(workers);
  const seconds = (performance.now() - started) / 1000;
  await publishing;
  const measured = await probe.finish();
  return {
    variant: lookup === 'redis' ? 'book_redis' : 'book_local',
    lines: logs.lines,
    seconds,
    ...commandsOf(splitSentAndInternal(measured), measured, counters.flushes, counters.lookups),
    countries: await checkBookCountries(ctx.admin, logs),
    summed: await checkSummedCountries(counters.summed, logs),
    notes: lookup === 'redis' ? [`${ranges} ranges in the lookup zsets`] : [],
  };
}

/** What a product run measured, and whether its counts equal the reference. */
async function productResult(
  ctx: Context,
  run: { variant: VariantId; dataset: string; logs: LogSet; seconds: number; commits: number },
  measured: Measured,
  sentAndInternal: { sent: Counts; internal: Counts },
  notes: (check: ProductCheck) => string[],
): Promise<RunResult> {
  const check = await checkProduct(ctx.admin, run.dataset, run.logs);
  return {
    variant: run.variant,
    lines: run.logs.lines,
    seconds: run.seconds,
    ...commandsOf(sentAndInternal, measured, run.commits, 0),
    countries: check.countries,
    places: check.places,
    totalsExact: check.totalsExact,
    notes: notes(check),
  };
}

async function runProduct(ctx: Context, logs: LogSet, aggregators: number): Promise<RunResult> {
  await ctx.admin.flushall();
  const dataset = `bench-${++ctx.runs}`;
  await ctx.uploader.createDataset(dataset);
  const repos = ctx.aggregators.slice(0, aggregators);
  for (const repo of [ctx.uploader, ...repos]) repo.appends = repo.commits = 0;
  let counted = 0;
  let lost = 0;
  let started = 0;
  let firstCommitMs: number | undefined;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const workers = repos.map(
    (repository) =>
      new LocationAggregator({
        repository,
        locator: () => ctx.locator,
        logger,
        claimAfterMs: CLAIM_AFTER_MS,
        maxSamples: SETTINGS.maxSamples,
        onChunk: (_dataset, lines, committed) => {
          firstCommitMs ??= performance.now() - started;
          if (!committed) lost += 1;
          else if ((counted += lines) >= logs.lines) finished();
        },
      }),
  );
  for (const worker of workers) worker.start();
  try {
    await aggregatorsListing(repos, dataset);
    // They found nothing yet and sleep IDLE_MS: an upload arriving at a random time finds them
    // halfway through that sleep, on average.
    await sleep(IDLE_MS / 2);
    const probe = await startProbe(ctx.admin);
    started = performance.now();
    await uploadAll(ctx.uploader, dataset, logs);
    await within(
      done,
      RUN_TIMEOUT_MS,
      () => `${dataset}: ${counted} of ${logs.lines} lines counted after ${RUN_TIMEOUT_MS} ms`,
    );
    const seconds = (performance.now() - started) / 1000;
    const measured = await probe.finish();
    const commits = repos.reduce((sum, repo) => sum + repo.commits, 0);
    const appends = ctx.uploader.appends;
    const variant = aggregators === 1 ? 'product_1' : 'product_2';
    const result = await productResult(
      ctx,
      { variant, dataset, logs, seconds, commits },
      measured,
      splitSentAndInternal(measured),
      (check) => [
        `${appends} appends, ${commits} commits${lost ? `, ${lost} lost to another aggregator` : ''}; first chunk committed after ${firstCommitMs!.toFixed(0)} ms`,
        ...check.notes,
      ],
    );
    return { ...result, firstCommitMs };
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

async function runProcesses(ctx: Context, logs: LogSet, kill: boolean): Promise<RunResult> {
  await ctx.admin.flushall();
  const dataset = `bench-${++ctx.runs}`;
  // Made before the worker processes start, so their first listing has both; the warm-up
  // dataset's chunks are waiting for them: they load the IP database and compile the hot paths.
  const warmDataset = `${dataset}-warm`;
  await ctx.uploader.createDataset(warmDataset);
  await ctx.uploader.createDataset(dataset);
  await uploadAll(ctx.uploader, warmDataset, ctx.warmLogs, WARM_CHUNK_BYTES);
  ctx.workers = await Promise.all(Array.from({ length: WORKERS }, () => spawnWorker(ctx.url)));
  try {
    return await killRun(ctx, logs, kill, dataset, warmDataset);
  } finally {
    await Promise.all(ctx.workers.filter((w): w is WorkerProcess => w !== undefined).map(stopWorker));
    ctx.workers = [];
  }
}

async function killRun(
  ctx: Context,
  logs: LogSet,
  kill: boolean,
  dataset: string,
  warmDataset: string,
): Promise<RunResult> {
  const warmUntil = Date.now() + 60_000;
  for (;;) {
    const consumers = (await ctx.admin.xinfo(
      'CONSUMERS',
      locationKeys(warmDataset).chunks,
      LOCATION_GROUP,
    )) as unknown[];
    if (consumers.length >= WORKERS && (await countedLines(ctx.admin, warmDataset, ctx.warmLogs)) >= ctx.warmLogs.lines)
      break;
    if (Date.now() > warmUntil) throw new Error('the worker processes did not count the warm-up upload');
    await sleep(20);
  }
  ctx.uploader.appends = 0;
  const keys = locationKeys(dataset);
  const probe = await startProbe(ctx.admin);
  const started = performance.now();
  let uploadError: unknown;
  const uploading = uploadAll(ctx.uploader, dataset, logs).catch((error: unknown) => (uploadError = error));
  let killed: RunResult['kill'] = kill ? { landed: false, orphaned: 0, doneAtKill: 0 } : undefined;
  for (;;) {
    if (uploadError) throw uploadError instanceof Error ? uploadError : new Error(String(uploadError));
    const counted = await countedLines(ctx.admin, dataset, logs);
    if (counted >= logs.lines) break;
    if (killed && !killed.landed && counted >= KILL_AT * logs.lines) {
      type Summary = [number, string | null, string | null, [string, string][] | null];
      const [, , , holders] = (await ctx.admin.xpending(keys.chunks, LOCATION_GROUP)) as Summary;
      const holding = new Map((holders ?? []).map(([consumer, count]) => [consumer, Number(count)]));
      const victim = ctx.workers.findIndex((worker) => (holding.get(worker!.consumer) ?? 0) > 0);
      if (victim !== -1) {
        const worker = ctx.workers[victim]!;
        const exited = new Promise<void>((resolve) => worker.child.once('exit', () => resolve()));
        worker.child.kill('SIGKILL');
        ctx.workers[victim] = undefined;
        await exited;
        // What it held as it died: chunks only another aggregator's XAUTOCLAIM can finish.
        const orphaned = await ctx.admin.xpending(keys.chunks, LOCATION_GROUP, '-', '+', 100, worker.consumer);
        killed = { landed: true, orphaned: orphaned.length, doneAtKill: counted };
      }
    }
    if (performance.now() - started > RUN_TIMEOUT_MS)
      throw new Error(`${dataset}: ${counted} of ${logs.lines} lines counted after ${RUN_TIMEOUT_MS} ms`);
    await sleep(10);
  }
  const seconds = (performance.now() - started) / 1000;
  await uploading;
  const measured = await probe.finish();
  const sentAndInternal = splitSentAndInternal(measured, WORKER_SENT);
  // Every EVALSHA not sent by this process is a worker's commit.
  const commits = (sentAndInternal.sent.get('evalsha') ?? 0) - ctx.uploader.appends;
  const appends = ctx.uploader.appends;
  const result = await productResult(
    ctx,
    { variant: 'product_kill', dataset, logs, seconds, commits },
    measured,
    sentAndInternal,
    (check) => {
      const notes = [`${appends} appends, ${commits} commits`, ...check.notes];
      if (killed?.landed)
        notes.push(
          `SIGKILL after ${killed.doneAtKill} of ${logs.lines} lines counted; the killed worker died holding ${killed.orphaned} chunk(s), left for the survivor to claim`,
        );
      else if (killed) notes.push('the kill did not land: the run ended before a worker held a chunk past 30%');
      return notes;
    },
  );
  return { ...result, kill: killed };
}

// --- lookups alone ------------------------------------------------------------------------------

interface Lookups {
  /** find_city_by_ip on one connection, one at a time (2 round trips each). */
  redis: number;
  /** IpLocator.lookup. */
  local: number;
  /** tallyChunk over a 1 MiB chunk: parse, check, look up and count (lines/s). */
  tally: number;
}

async function measureLookups(ctx: Context, logs: LogSet, zsetLookups: number): Promise<Lookups> {
  await ctx.admin.flushall();
  await importRanges(ctx.admin, logs.addresses, ctx.locator);
  const redis = ctx.bookWorkers[0];
  const some = logs.sample.slice(0, zsetLookups);
  const countries: (string | undefined)[] = [];
  let started = performance.now();
  for (const ip of some) countries.push((await findCityByIp(redis, ip))?.[2]);
  const redisRate = some.length / ((performance.now() - started) / 1000);
  const mismatched = some.filter((ip, i) => countries[i] !== ctx.locator.lookup(ip)?.country).length;
  if (mismatched > 0)
    throw new Error(`the book's lookup table placed ${mismatched} addresses elsewhere than IpLocator`);
  await ctx.admin.flushall();
  started = performance.now();
  let found = 0;
  for (const ip of logs.sample) if (ctx.locator.lookup(ip)) found += 1;
  const localRate = logs.sample.length / ((performance.now() - started) / 1000);
  if (found === 0) throw new Error('no address found');
  const first = logs.files.find((file) => !file.name.endsWith('.gz'))!;
  const data = fs.readFileSync(first.path);
  const end = data.lastIndexOf(0x0a, CHUNK_BYTES);
  const chunk = data.subarray(0, end + 1);
  started = performance.now();
  let lines = 0;
  for (let i = 0; i < 5; i++) lines += (await tallyChunk(chunk, 1, ctx.locator, SETTINGS.maxSamples)).lines;
  const tallyRate = lines / ((performance.now() - started) / 1000);
  return { redis: redisRate, local: localRate, tally: tallyRate };
}

// --- reporting ----------------------------------------------------------------------------------

const perMillion = (n: number, lines: number): number => (n * 1_000_000) / lines;
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

function roundLine(run: RunResult): string {
  const c = run.categories;
  const pm = (n: number): string => perMillion(n, run.lines).toFixed(0);
  const verdict = run.variant.startsWith('book')
    ? `countries ${describeComparison(run.countries)}; flushes summed ${describeComparison(run.summed!)}`
    : `countries ${describeComparison(run.countries)}; regions+cities ${describeComparison(run.places!)}; totals ${run.totalsExact ? 'exact' : 'WRONG'}`;
  return (
    `    ${run.variant.padEnd(13)} ${(run.lines / run.seconds).toFixed(0).padStart(8)} lines/s (${run.seconds.toFixed(2)} s); ` +
    `per M lines sent: aggregate ${pm(c.aggregate)}, lookup ${pm(c.lookup)}, transfer ${pm(c.transfer)}, other ${pm(c.housekeeping)}; ` +
    `in Lua: stream ${pm(run.internalStream)}, other ${pm(run.internalOther)}; peak used_memory ${mb(run.peakBytes)} MB ` +
    `(+${mb(run.peakBytes - run.baseBytes)}); ${verdict}` +
    (run.notes.length ? `\n      ${run.notes.join('; ')}` : '') +
    `\n      sent: ${describeCounts(run.sent)}\n      in Lua: ${describeCounts(run.internal) || 'none'}`
  );
}

const isExact = (run: RunResult): boolean =>
  run.variant.startsWith('book')
    ? exact(run.countries)
    : exact(run.countries) && exact(run.places!) && run.totalsExact === true && (!run.kill || run.kill.landed);

function report(
  suite: SuiteReport,
  results: Map<VariantId, RunResult[]>,
  lookups: Lookups[],
  logs: LogSet,
  warm: LogSet,
  rounds: number,
): void {
  const rates = (id: VariantId): number[] => results.get(id)!.map((run) => run.lines / run.seconds);
  const perM = (id: VariantId, pick: (run: RunResult) => number): number =>
    perMillion(
      sumOf(results.get(id)!, pick),
      sumOf(results.get(id)!, (run) => run.lines),
    );
  const peak = (id: VariantId): number => Math.max(...results.get(id)!.map((run) => run.peakBytes - run.baseBytes));
  const lookupRate = (id: VariantId): number[] => lookups.map((l) => (id === 'book_redis' ? l.redis : l.local));
  const verdict = ({ id }: (typeof VARIANTS)[number]): string => {
    const runs = results.get(id)!;
    const last = runs[runs.length - 1];
    const book = id.startsWith('book');
    if (runs.every(isExact)) return book ? 'exact' : 'exact (countries, regions, cities, totals)';
    return book
      ? `WRONG (${last.countries.wrong}/${last.countries.compared} day-country counts; ${last.countries.stored} of ${last.countries.expected} visits)`
      : `WRONG (${describeComparison(last.countries)}; ${describeComparison(last.places!)})`;
  };
  const perMCell = (pick: (run: RunResult) => number) => (v: (typeof VARIANTS)[number]) => perM(v.id, pick).toFixed(0);
  tableOf(
    suite,
    `location summary: ${logs.lines} lines in ${logs.files.length} files over ${logs.days.length} days (medians of ${rounds} round${rounds === 1 ? '' : 's'}, with the range; commands over all measured rounds)`,
    1,
    VARIANTS,
    [
      ['variant', (v) => v.label],
      ['lines/s end to end', (v) => medianRange(rates(v.id))],
      ['lookups/s alone', (v) => median(lookupRate(v.id)).toFixed(0)],
      ['sent: aggregate writes /M lines', perMCell((run) => run.categories.aggregate)],
      ['sent: lookups /M', perMCell((run) => run.categories.lookup)],
      ['sent: chunk transfer /M', perMCell((run) => run.categories.transfer)],
      ['in Lua: counts & progress /M', perMCell((run) => run.internalOther)],
      ['in Lua: stream /M', perMCell((run) => run.internalStream)],
      ['peak used_memory MB', (v) => mb(peak(v.id))],
      ['result against the reference', verdict],
    ],
  );

  const endToEnd = 'lines/s end to end: product';
  const bookPort = "book's port (Redis lookup, 2 workers)";
  const ratios: [string, string, VariantId, VariantId, Target?][] = [
    [
      'product2_vs_book',
      `(2 in-process aggregators) / ${bookPort}`,
      'product_2',
      'book_redis',
      { op: '>=', value: 10 },
    ],
    ['product1_vs_book', `(1 aggregator) / ${bookPort}`, 'product_1', 'book_redis'],
    ['product2_vs_book_local', "(2 aggregators) / book's with a local lookup (2 workers)", 'product_2', 'book_local'],
  ];
  for (const [id, label, ours, theirs, target] of ratios)
    suite.ratio(`location.${id}`, `${endToEnd} ${label}`, rates(ours), rates(theirs), target);
  for (const { id, label } of VARIANTS)
    suite.median(`location.${id}.rate`, `${label}: end to end`, 'lines/s', rates(id));
  const redisLookup = "the book's find_city_by_ip (ZREVRANGEBYSCORE + HGET, one connection)";
  const alone: [string, string, string, (l: Lookups) => number][] = [
    ['lookup.redis', `IP lookups alone: ${redisLookup}`, 'lookups/s', (l) => l.redis],
    [
      'lookup.local',
      'IP lookups alone: IpLocator (the product, and the book with a local lookup)',
      'lookups/s',
      (l) => l.local,
    ],
    ['tally', 'tallyChunk alone (parse, check, look up, count a 1 MiB chunk)', 'lines/s', (l) => l.tally],
  ];
  for (const [id, label, unit, pick] of alone) suite.median(`location.${id}`, label, unit, lookups.map(pick));
  const labelOf = (id: VariantId): string => VARIANTS.find((v) => v.id === id)!.label;
  const transfer = 'client-sent chunk transfer (append scripts, XREADGROUP, XAUTOCLAIM)';
  const commands: [string, string, (run: RunResult) => number, Target?][] = [
    [
      'aggregate',
      'client-sent aggregate writes (commit scripts)',
      (run) => run.categories.aggregate,
      { op: '<=', value: 1000 },
    ],
    ['transfer', transfer, (run) => run.categories.transfer],
    ['internal', 'commands run inside Lua', (run) => run.internalStream + run.internalOther],
  ];
  for (const id of ['product_1', 'product_2', 'product_kill'] as const)
    for (const [name, what, pick, target] of commands) {
      const label = `${labelOf(id)}: ${what} per million lines`;
      suite.value(`location.${id}.${name}_commands`, label, 'commands', perM(id, pick), target);
    }
  for (const id of ['book_redis', 'book_local'] as const) {
    const label = `${labelOf(id)}: client-sent commands per million lines (lookups, flushes, file transfer)`;
    suite.value(
      `location.${id}.commands`,
      label,
      'commands',
      perM(id, (run) => total(run.sent)),
    );
  }
  for (const { id, label } of VARIANTS) {
    const peakLabel = `${label}: peak used_memory above the run's start (sampled)`;
    suite.value(`location.${id}.peak_memory`, peakLabel, 'MB', Number(mb(peak(id))));
  }
  for (const { id, label } of VARIANTS) {
    const product = !id.startsWith('book');
    const what = `${label}: ${product ? 'countries, regions, cities and totals' : 'countries per day'}`;
    const exactly = results.get(id)!.every(isExact) ? 1 : 0;
    const target = product ? ({ op: '==', value: 1 } as const) : undefined;
    suite.value(`location.${id}.exact`, `${what} equal the reference (1 yes, 0 no)`, 'exact', exactly, target);
  }
  notes(suite, results, logs, warm);
}

function notes(suite: SuiteReport, results: Map<VariantId, RunResult[]>, logs: LogSet, warm: LogSet): void {
  const bookRun = results.get('book_redis')!.at(-1)!;
  suite.note(
    `Logs: the product's LogGenerator (2000 places, 10% of them carrying 90% of the lines, 10% IPv6, 0.1% malformed), ${logs.lines} lines over ${logs.days.length} days in ${logs.files.length} files, every second one gzipped, so each day runs across files; the generator's own count is the reference.`,
  );
  suite.note(
    `Book's port: ${bookRun.notes.join('')}: one range start per distinct address in the logs, the start of the DB-IP range that holds it, so every address resolves as with the full table (which has millions of ranges: memory is not comparable); IPv6 by ZREVRANGEBYLEX over hex range starts.`,
  );
  suite.note(
    `Book's ZADD flush is ${exact(bookRun.countries) ? 'exact here' : 'WRONG'}: each file, and each worker's share of it, overwrites the day's counts (${describeComparison(bookRun.countries)}); the same flushes added up (as ZINCRBY would) are ${describeComparison(bookRun.summed!)}, so the lookups are right and the ZADD is what loses counts.`,
  );
  suite.note(
    'Product: files read from disk, gunzipped, cut by LineChunker (1 MiB chunks) and sent with LocationRepository.append (appendWhenRoom) one after another on one connection, as the HTTP upload does (without its gzip hold-back); end to end until every chunk is committed.',
  );
  const inProcess = [...results.get('product_1')!, ...results.get('product_2')!];
  const firstCommit = median(inProcess.map((run) => run.firstCommitMs ?? NaN));
  const runSeconds = median(inProcess.map((run) => run.seconds));
  suite.note(
    `Product latency inside the rate: idle aggregators poll every ${IDLE_MS} ms (the product's default; the upload starts ${IDLE_MS / 2} ms into their sleep, the average case) and count a 1 MiB chunk in one go, so the first chunk was committed ${firstCommit.toFixed(0)} ms after the first byte sent (median of the in-process runs, which took ${runSeconds.toFixed(2)} s): fixed costs that weigh less the more lines a run has.`,
  );
  const kills = results.get('product_kill')!.map((run) => run.kill);
  suite.note(
    `Kill run: 2 worker processes (dist-bench/src/worker.js, LOCATION_CLAIM_AFTER_MS=${KILL_CLAIM_AFTER_MS}); one SIGKILLed while holding a chunk once ${KILL_AT * 100}% of the lines were counted (${kills.filter((k) => k?.landed).length} of ${kills.length} kills landed, leaving ${kills.map((k) => k?.orphaned ?? 0).join(', ')} chunk(s) held by the dead worker); its rate includes the ${KILL_CLAIM_AFTER_MS} ms before the survivor claims them.`,
  );
  suite.note(
    'Commands: INFO commandstats deltas over the run, less the bench\'s own INFO/XPENDING polls. "sent" is what clients sent (counted on this process\'s connections; for the worker processes, every call of the commands they send, which the scripts never call); "in Lua" is what Redis ran inside scripts (commandstats counts those too). Aggregate writes: the commit script (product), the ZADD flushes (book); chunk transfer: append scripts, XREADGROUP, XAUTOCLAIM (product), APPEND, GETRANGE and the chat messages (book).',
  );
  suite.note(
    `Warm-up: one round of every variant on a smaller log set (${warm.lines} lines, its own seed, 2 files, checked against its own reference), which loads the IP database and the scripts and compiles the hot paths; the worker processes, new for each run, first count that set in 64 KiB chunks (both must have taken some). Then the measured rounds, variants in the same order each round.`,
  );
}

bench(
  {
    id: 'location',
    title:
      "Location analytics (book 5.3, 6.6): chunk stream + one-script commit, against the book's file distribution and ZSET lookup",
  },
  async ({ url, report: suite, steps, defer }) => {
    countSentCommands();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-bench-location-'));
    defer(() => fs.rmSync(dir, { recursive: true, force: true }));
    const locator = lazyLocator([])();
    const peers = [...VARIANTS.map((v) => v.id), 'lookups'] as const;
    const progress = steps(1 + stepsOf(peers.length, ROUNDS, 'once'));
    progress.step('writing the logs');
    const began = performance.now();
    const warmLogs = writeLogs(path.join(dir, 'warm'), locator, {
      lines: WARM_LINES,
      files: 2,
      days: 2,
      seed: 2,
      prefix: 'warm',
    });
    const logs = writeLogs(path.join(dir, 'logs'), locator, {
      lines: LINES,
      files: FILES,
      days: DAYS,
      seed: 1,
      prefix: 'game',
    });
    console.log(
      `location benchmark: ${logs.lines} lines (${mb(sumOf(logs.files, (f) => f.rawBytes))} MB, ` +
        `${mb(sumOf(logs.files, (f) => f.bytes))} MB on disk) in ${logs.files.length} files over ${logs.days.length} days, ` +
        `${logs.addresses.size} distinct addresses, ${logs.reference.refused} malformed lines; written in ${((performance.now() - began) / 1000).toFixed(1)} s. ` +
        `Warm-up set: ${warmLogs.lines} lines. 1 warm-up round + ${ROUNDS} measured.`,
    );
    const admin = adminConnection(url);
    defer(() => admin.disconnect());
    const clients: RedisClient[] = [];
    for (const name of ['book-publisher', 'book-0', 'book-1', 'uploader', 'aggregator-0', 'aggregator-1']) {
      const client = await connectRedis(url, { name: `bench:${name}`, logger, commandTimeoutMs: 30_000 });
      clients.push(client);
      defer(() => closeRedis(client));
    }
    const [bookPublisher, book0, book1] = clients as Redis[];
    const ctx: Context = {
      url,
      admin,
      locator,
      bookPublisher,
      bookWorkers: [book0, book1],
      uploader: new CountingRepository(clients[3], SETTINGS),
      aggregators: [new CountingRepository(clients[4], SETTINGS), new CountingRepository(clients[5], SETTINGS)],
      workers: [],
      warmLogs,
      runs: 0,
    };
    defer(() => Promise.all(ctx.workers.filter((w): w is WorkerProcess => w !== undefined).map(stopWorker)));
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
        const run = await VARIANTS.find((v) => v.id === id)!.run(ctx, set, round.warm);
        console.log(roundLine(run));
        if (round.warm && !isExact(run) && !id.startsWith('book'))
          throw new Error(`${id} was not exact in the warm-up round: ${run.notes.join('; ')}`);
        return run;
      },
    });
    const results = new Map(VARIANTS.map((v) => [v.id, measured[v.id] as RunResult[]]));
    report(suite, results, measured.lookups as Lookups[], logs, warmLogs, ROUNDS);
  },
);
