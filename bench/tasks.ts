// Task queues (book 6.4): our TaskRepository / TaskWorker / TaskPoller beside bullmq 6.7.0 on one
// redis-server, no-op jobs: adds per second, processing until every task completed, and how late
// delayed tasks start (ours never early). Method: docs/performance.md, "Method: tasks".
import { performance } from 'node:perf_hooks';
import { Queue, Worker, type DefaultJobOptions, type Job } from 'bullmq';
import Redis from 'ioredis';
import pino from 'pino';
import { closeRedis, connectRedis } from '../src/redis/client/connection';
import { queueKeys } from '../src/redis/keys';
import {
  TaskRepository,
  type EnqueueRequest,
  type TakenTask,
  type TaskSettings,
  type TaskState,
} from '../src/redis/task';
import type { TaskHandlers } from '../src/workers/task-handlers';
import { TaskPoller } from '../src/workers/task-poller';
import { TaskWorker } from '../src/workers/task-worker';
import {
  alternate,
  bench,
  measure,
  medianRange,
  median,
  pairedRatio,
  percentile,
  perOp,
  rates,
  seeded,
  size,
  stepsOf,
  isQuick,
  type Figure,
  type Sample,
  type SuiteReport,
  inParallel,
  sumOf,
  tableOf,
  within,
} from './harness';

const QUICK = isQuick();

/** Tasks added per measured enqueue round (a warm-up round adds a quarter). */
const ENQUEUE_TASKS = size('BENCH_TASK_ENQUEUE', 800, 20_000);
/** Tasks in the queue when a measured processing round starts the worker. */
const PROCESS_TASKS = size('BENCH_TASK_PROCESS', 800, 20_000);
/** Delayed tasks per measured delay round. */
const DELAYED_TASKS = size('BENCH_TASK_DELAYED', 100, 1_000);
const ROUNDS = size('BENCH_TASK_ROUNDS', 3, 5);
const ENQUEUE_CONCURRENCY = size('BENCH_TASK_ENQUEUE_CONCURRENCY', 16, 16);
const WORKER_CONCURRENCIES = (process.env.BENCH_TASK_WORKER_CONCURRENCY ?? (QUICK ? '16' : '1,16'))
  .split(',')
  .map(Number);
const DELAY_WORKER_CONCURRENCY = 16;
/** Redis `hz` for the delay rounds (10 is Redis's default). */
const DELAY_HZ = (process.env.BENCH_TASK_DELAY_HZ ?? (QUICK ? '10' : '10,100')).split(',').map(Number);
const MIN_DELAY_MS = QUICK ? 50 : 100;
const MAX_DELAY_MS = QUICK ? 250 : 2_000;
/** Tasks per enqueueMany / addBulk call in the batch scenario. */
const ADD_BULK = size('BENCH_TASK_ADD_BULK', 100, 100);
/** Finished tasks kept per queue: TASK_HISTORY's default, and bullmq's removeOnComplete count. */
const HISTORY = size('BENCH_TASK_HISTORY', 400, 10_000);
/**
 * Warm-up rounds until the last WARM_WINDOW rates are within WARM_TOLERANCE of their highest after
 * WARM_MIN_TASKS tasks (delay rounds: steadiness only), or WARM_MAX_ROUNDS. Two rounds agreeing was
 * not enough: rates still climbed by half after such a pair.
 */
const WARM_TOLERANCE = size('BENCH_TASK_WARM_TOLERANCE', 0.1, 0.1);
const WARM_WINDOW = size('BENCH_TASK_WARM_WINDOW', 3, 3);
const WARM_MIN_TASKS = size('BENCH_TASK_WARM_MIN', 5_000, 5_000);
const WARM_MAX_ROUNDS = size('BENCH_TASK_WARM_MAX_ROUNDS', 20, 20);
/** A round that has not finished after this long has lost tasks: the bench fails. */
const ROUND_TIMEOUT_MS = size('BENCH_TASK_ROUND_TIMEOUT_MS', 120_000, 120_000);

/** src/config.ts defaults: TASK_MAX_ATTEMPTS, TASK_BACKOFF_MS, TASK_MAX_BACKOFF_MS, TASK_MAX_PER_QUEUE. */
const SETTINGS: TaskSettings = {
  maxAttempts: 5,
  backoffMs: 1000,
  maxBackoffMs: 600_000,
  history: HISTORY,
  maxTasksPerQueue: 1e6,
};
/** TASK_VISIBILITY_TIMEOUT_MS, TASK_RUN_TIMEOUT_MS and TASK_MAX_ARGS_BYTES defaults. */
const LEASE_MS = 30_000;
const RUN_TIMEOUT_MS = 300_000;
const MAX_RESULT_BYTES = 64 * 1024;
/** The equivalent bullmq job options (its own defaults: 1 attempt, keep every finished job). */
const BULL_JOB_OPTIONS: DefaultJobOptions = {
  attempts: SETTINGS.maxAttempts,
  backoff: { type: 'exponential', delay: SETTINGS.backoffMs },
  removeOnComplete: { count: HISTORY },
  removeOnFail: { count: HISTORY },
};

const logger = pino({ level: 'silent' });

// --- measuring ----------------------------------------------------------------------------------

interface RoundResult extends Sample {
  /** Finished tasks the queue still kept when the last one completed (processing rounds). */
  kept?: number;
  /** Lateness of each start in ms (delay rounds), against the bench's and the peer's own due time. */
  lateness?: number[];
  ownLateness?: number[];
}

/** Resolves once `tick` was called `target` times; fails after ROUND_TIMEOUT_MS. */
class Countdown {
  count = 0;
  private resolve!: () => void;
  readonly done = new Promise<void>((resolve) => (this.resolve = resolve));

  constructor(readonly target: number) {
    if (target === 0) this.resolve();
  }

  tick(): void {
    if (++this.count === this.target) this.resolve();
  }

  wait(what: string): Promise<void> {
    const failure = (): string =>
      `${what}: ${this.count} of ${this.target} tasks completed after ${ROUND_TIMEOUT_MS} ms`;
    return within(this.done, ROUND_TIMEOUT_MS, failure);
  }
}

// --- the two peers ------------------------------------------------------------------------------

interface Context {
  url: string;
  admin: Redis;
  /** Producer connections, kept over the run as an API process keeps its own. */
  ourProducer: TaskRepository;
  bullProducer: Redis;
}

interface Runner {
  start(): void;
  stop(): Promise<void>;
}

/** A producer for one round's queue. */
interface Producer {
  /** Adds task `i` (after a delay in ms), resolving with the due time the peer recorded itself. */
  add(i: number, delayMs?: number): Promise<number>;
  addBatch(first: number, count: number): Promise<unknown>;
  close(): Promise<void>;
}

/** What a scenario asks of a peer; `onTask` gets the task's number as its handler starts. */
interface Side {
  label: 'ours' | 'bullmq';
  producer(ctx: Context, queue: string): Promise<Producer>;
  /** Fills a queue before a timed round. */
  prefill(producer: Producer, count: number): Promise<unknown>;
  start(
    ctx: Context,
    queue: string,
    concurrency: number,
    onTask: (i: number) => void,
    done: Countdown,
  ): Promise<Runner>;
  /** The key of the queue's finished tasks. */
  doneKey(queue: string): string;
}

const enqueueRequest = (queue: string, i: number, delayMs = 0): EnqueueRequest => ({
  queue,
  name: 'noop',
  // The resolver hands the repository the client's JSON as text.
  args: JSON.stringify({ i }),
  priority: 'NORMAL',
  delayMs,
  idempotencyKey: undefined,
});

/** The repository the worker uses, counting runs recorded as completed. */
class CountingRepository extends TaskRepository {
  completed: Countdown | undefined;
  lost = 0;

  /** The worker records each outcome here, taking its next task in the same round trip. */
  override async settleAndTake(
    ...args: Parameters<TaskRepository['settleAndTake']>
  ): Promise<{ state: TaskState | undefined; taken: TakenTask[] }> {
    const result = await super.settleAndTake(...args);
    if (result.state === 'COMPLETED') this.completed?.tick();
    else this.lost++;
    return result;
  }
}

const OURS: Side = {
  label: 'ours',
  producer: async (ctx, queue) => ({
    add: async (i, delayMs) => (await ctx.ourProducer.enqueue(enqueueRequest(queue, i, delayMs))).task.runAt,
    addBatch: (first, count) =>
      ctx.ourProducer.enqueueMany(
        queue,
        Array.from({ length: count }, (_, k) => enqueueRequest(queue, first + k)),
      ),
    close: async () => undefined,
  }),
  prefill: (producer, count) => inParallel(count, 16, (i) => producer.add(i)),
  /** One worker and one poller on one queue, as startTaskRunner makes them for a queue. */
  async start(ctx, queue, concurrency, onTask, completed) {
    const commands = await connectRedis(ctx.url, { name: 'bench:task-commands', logger, commandTimeoutMs: 5000 });
    const repository = new CountingRepository(commands, SETTINGS);
    repository.completed = completed;
    const handlers: TaskHandlers = { noop: (args) => onTask((args as { i: number }).i) };
    const worker = new TaskWorker({
      queue,
      repository,
      blocking: await connectRedis(ctx.url, { name: `bench:task-worker:${queue}`, logger }),
      handlers,
      concurrency,
      leaseMs: LEASE_MS,
      runTimeoutMs: RUN_TIMEOUT_MS,
      maxResultBytes: MAX_RESULT_BYTES,
      logger,
    });
    const blocking = await connectRedis(ctx.url, { name: `bench:task-poller:${queue}`, logger });
    const poller = new TaskPoller({ queue, repository, blocking, control: commands, logger });
    return {
      start: () => {
        poller.start();
        worker.start();
      },
      stop: async () => {
        await Promise.all([worker.stop(5000), poller.stop()]);
        await closeRedis(commands);
        if (repository.lost > 0) throw new Error(`ours: ${repository.lost} runs were not recorded as completed`);
      },
    };
  },
  doneKey: (queue) => queueKeys(queue).done,
};

const bullConnection = (url: string): Redis => new Redis(url, { maxRetriesPerRequest: null });

const noops = (first: number, count: number) =>
  Array.from({ length: count }, (_, k) => ({ name: 'noop', data: { i: first + k } }));

const BULL: Side = {
  label: 'bullmq',
  /** A Queue on the shared producer connection. */
  async producer(ctx, name) {
    const queue = new Queue(name, { connection: ctx.bullProducer, defaultJobOptions: BULL_JOB_OPTIONS });
    await queue.waitUntilReady();
    return {
      add: async (i, delay) => {
        const job = await queue.add('noop', { i }, delay === undefined ? undefined : { delay });
        return job.timestamp + (delay ?? 0);
      },
      addBatch: (first, count) => queue.addBulk(noops(first, count)),
      close: () => queue.close(),
    };
  },
  async prefill(producer, count) {
    for (let first = 0; first < count; first += 1000) await producer.addBatch(first, Math.min(1000, count - first));
  },
  async start(ctx, name, concurrency, onTask, completed) {
    const connection = bullConnection(ctx.url);
    let failed = 0;
    const processor = async (job: Job): Promise<void> => onTask((job.data as { i: number }).i);
    const worker = new Worker(name, processor, { connection, concurrency, autorun: false });
    worker.on('completed', () => completed.tick());
    worker.on('failed', () => failed++);
    worker.on('error', (error) => console.error('bullmq worker error:', error));
    await worker.waitUntilReady();
    let running: Promise<void> | undefined;
    return {
      start: () => void (running = worker.run()),
      stop: async () => {
        await worker.close();
        await running;
        connection.disconnect();
        if (failed > 0) throw new Error(`bullmq: ${failed} jobs failed`);
      },
    };
  },
  doneKey: (queue) => `bull:${queue}:completed`,
};

const SIDES = [OURS, BULL];

// --- scenarios ----------------------------------------------------------------------------------

interface Scenario {
  section: 'enqueue' | 'process' | 'delay';
  /** For figure ids, e.g. `process.concurrency16`. */
  id: string;
  title: string;
  tasks: number;
  /** Redis `hz` during the scenario's rounds (CONFIG SET, restored afterwards). */
  hz?: number;
  /** One round of `side` on a queue of its own; `tasks` is smaller in warm-up rounds. */
  round(side: Side, ctx: Context, queue: string, round: number, tasks: number): Promise<RoundResult>;
}

/** Adds, `concurrency` in flight, or in batches of `batch` one call at a time (enqueueMany / addBulk). */
function addScenario(id: string, title: string, concurrency: number, batch = 0): Scenario {
  return {
    section: 'enqueue',
    id,
    title,
    tasks: ENQUEUE_TASKS,
    async round(side, ctx, queue, _round, tasks) {
      const producer = await side.producer(ctx, queue);
      const result = await measure(
        tasks,
        () =>
          batch === 0
            ? inParallel(tasks, concurrency, (i) => producer.add(i))
            : inParallel(Math.ceil(tasks / batch), 1, (b) =>
                producer.addBatch(b * batch, Math.min(batch, tasks - b * batch)),
              ),
        { admin: ctx.admin },
      );
      await producer.close();
      return result;
    },
  };
}

/** The queue filled first (not timed), then one worker timed until every task completed. */
function processScenario(concurrency: number): Scenario {
  return {
    section: 'process',
    id: `process.concurrency${concurrency}`,
    title: `process, worker concurrency ${concurrency}`,
    tasks: PROCESS_TASKS,
    async round(side, ctx, queue, _round, tasks) {
      const producer = await side.producer(ctx, queue);
      await side.prefill(producer, tasks);
      await producer.close();
      const completed = new Countdown(tasks);
      const runner = await side.start(ctx, queue, concurrency, () => undefined, completed);
      const result: RoundResult = await measure(
        tasks,
        () => {
          runner.start();
          return completed.wait(`${side.label}, ${queue}`);
        },
        { admin: ctx.admin },
      );
      result.kept = await ctx.admin.zcard(side.doneKey(queue));
      await runner.stop();
      return result;
    },
  };
}

/** The worker first, then tasks with the round's seeded delays; each start against its due time. */
function delayScenario(hz: number): Scenario {
  return {
    section: 'delay',
    id: `delay.hz${hz}`,
    title: `delayed ${MIN_DELAY_MS}-${MAX_DELAY_MS} ms, worker concurrency ${DELAY_WORKER_CONCURRENCY}, redis hz ${hz}${hz === 10 ? ' (default)' : ''}`,
    tasks: DELAYED_TASKS,
    hz,
    async round(side, ctx, queue, round, tasks) {
      const random = seeded(1000 + round);
      const delays = Array.from(
        { length: tasks },
        () => MIN_DELAY_MS + Math.floor(random() * (MAX_DELAY_MS - MIN_DELAY_MS + 1)),
      );
      const [due, ownDue, started] = [0, 1, 2].map(() => new Array<number>(tasks).fill(NaN));
      const completed = new Countdown(tasks);
      const producer = await side.producer(ctx, queue);
      const onTask = (i: number): void => void (started[i] = Date.now());
      const runner = await side.start(ctx, queue, DELAY_WORKER_CONCURRENCY, onTask, completed);
      runner.start();
      const add = async (i: number): Promise<void> => {
        due[i] = Date.now() + delays[i];
        ownDue[i] = await producer.add(i, delays[i]);
      };
      const result: RoundResult = await measure(
        tasks,
        async () => {
          await inParallel(tasks, ENQUEUE_CONCURRENCY, add);
          await completed.wait(`${side.label}, ${queue}`);
        },
        { admin: ctx.admin },
      );
      await runner.stop();
      await producer.close();
      result.lateness = started.map((start, i) => start - due[i]);
      result.ownLateness = started.map((start, i) => start - ownDue[i]);
      if (result.lateness.some(Number.isNaN)) throw new Error('a delayed task has no start or due time');
      return result;
    },
  };
}

// --- reporting ----------------------------------------------------------------------------------

interface Summary {
  scenario: Scenario;
  peer: string;
  /** Per task, over all measured rounds. */
  sentPerTask: number;
  executedPerTask: number;
  redisCpuUs: number;
  nodeCpuUs: number;
  kept: number[];
  lateness: number[];
  ownLateness: number[];
  /** Per measured round, for medians and paired ratios. */
  rates: number[];
  p99s: number[];
}

const ascending = (values: number[]): number[] => [...values].sort((a, b) => a - b);

function summarize(scenario: Scenario, peer: string, rounds: RoundResult[]): Summary {
  return {
    scenario,
    peer,
    sentPerTask: perOp(rounds),
    executedPerTask: perOp(rounds, (r) => r.executed),
    redisCpuUs: perOp(rounds, (r) => r.redisCpu) * 1e6,
    nodeCpuUs: perOp(rounds, (r) => r.nodeCpuMs) * 1e3,
    kept: rounds.flatMap((r) => (r.kept === undefined ? [] : [r.kept])),
    lateness: ascending(rounds.flatMap((r) => r.lateness ?? [])),
    ownLateness: ascending(rounds.flatMap((r) => r.ownLateness ?? [])),
    rates: rates(rounds),
    p99s: rounds.map((r) => percentile(ascending(r.lateness ?? []), 99)),
  };
}

function roundLine(scenario: Scenario, label: string, result: RoundResult): string {
  const per = (n: number, digits: number): string => (n / result.ops).toFixed(digits);
  let line =
    `    ${label.padEnd(20)} ${result.rate.toFixed(0).padStart(6)} tasks/s (${result.seconds.toFixed(2)} s)  ` +
    `${per(result.requests, 2)} round trips/task, ${per(result.executed, 1)} redis cmds/task, ` +
    `redis CPU ${per(result.redisCpu * 1e6, 0)} us/task, node CPU ${per(result.nodeCpuMs * 1e3, 0)} us/task`;
  if (result.kept !== undefined) line += `, finished kept ${result.kept}`;
  if (scenario.section === 'delay' && result.lateness) {
    const sorted = ascending(result.lateness);
    line += `; late p50 ${percentile(sorted, 50)} ms p99 ${percentile(sorted, 99)} ms max ${sorted[sorted.length - 1]} ms, ${sorted.filter((v) => v < 0).length} early`;
  }
  return line;
}

const bullOf = (summaries: Summary[], s: Summary): Summary | undefined =>
  summaries.find((o) => o.scenario === s.scenario && o.peer === 'bullmq');

function ratesTable(report: SuiteReport, summaries: Summary[], seconds: number): void {
  const ratio = (s: Summary): string => {
    const bull = bullOf(summaries, s);
    return s.peer === 'ours' && bull ? (median(s.rates) / median(bull.rates)).toFixed(2) : '';
  };
  tableOf(
    report,
    `tasks summary: rates (medians of ${ROUNDS} rounds, with the range; per-task figures over all measured rounds; ${seconds.toFixed(1)} s)`,
    2,
    summaries.filter((s) => s.scenario.section !== 'delay'),
    [
      ['scenario', (s) => s.scenario.title],
      ['peer', (s) => s.peer],
      ['tasks/s (min-max)', (s) => medianRange(s.rates)],
      ['ours/bullmq', ratio],
      ['round trips/task', (s) => s.sentPerTask.toFixed(2)],
      ['redis cmds/task', (s) => s.executedPerTask.toFixed(1)],
      ['redis CPU us/task', (s) => s.redisCpuUs.toFixed(0)],
      ['node CPU us/task', (s) => s.nodeCpuUs.toFixed(0)],
      ['finished kept', (s) => (s.kept.length === 0 ? '-' : s.kept.join('/'))],
    ],
  );
}

function delayTable(report: SuiteReport, summaries: Summary[]): void {
  const p = (values: number[], at: number): string => String(percentile(values, at));
  const ratio = (s: Summary): string => {
    const bull = bullOf(summaries, s);
    return s.peer === 'ours' && bull ? (percentile(s.lateness, 99) / percentile(bull.lateness, 99)).toFixed(2) : '';
  };
  tableOf(
    report,
    'tasks summary: delay accuracy (start minus due time, all measured rounds pooled)',
    2,
    summaries.filter((s) => s.scenario.section === 'delay'),
    [
      ['scenario', (s) => s.scenario.title],
      ['peer', (s) => s.peer],
      ['tasks', (s) => String(s.lateness.length)],
      ['late p50 ms', (s) => p(s.lateness, 50)],
      ['p99 ms', (s) => p(s.lateness, 99)],
      ['p99 ours/bullmq', ratio],
      ['max ms', (s) => String(s.lateness[s.lateness.length - 1])],
      ['early', (s) => String(s.lateness.filter((v) => v < 0).length)],
      ['early vs own due', (s) => `${s.ownLateness.filter((v) => v < 0).length} (min ${s.ownLateness[0]} ms)`],
      ['own p50/p99 ms', (s) => `${p(s.ownLateness, 50)} / ${p(s.ownLateness, 99)}`],
      ['round trips/task', (s) => s.sentPerTask.toFixed(2)],
      ['redis cmds/task', (s) => s.executedPerTask.toFixed(1)],
    ],
  );
}

/** The issue's targets (ahead of bullmq on both rates; never early) and the ratios, as figures. */
function figures(report: SuiteReport, summaries: Summary[]): void {
  for (const ours of summaries.filter((s) => s.peer === 'ours')) {
    const bull = bullOf(summaries, ours)!;
    const { id, title, section } = ours.scenario;
    const fig = (name: string, label: string, unit: string, value: Omit<Figure, 'id' | 'label' | 'unit'>): void =>
      report.figure({ id: `tasks.${id}.${name}`, label: `${title}: ${label}`, unit, ...value });
    if (section !== 'delay') {
      const target = { op: '>=', value: 1 } as const;
      fig('ours_vs_bullmq', 'ours / bullmq (tasks/s)', 'x', { ...pairedRatio(ours.rates, bull.rates), target });
      const trips = section === 'enqueue' ? { target: { op: '<=', value: 1 } as const } : {};
      fig('ours_round_trips', 'ours, round trips per task', 'round trips', { value: ours.sentPerTask, ...trips });
      fig('bullmq_round_trips', 'bullmq, round trips per task', 'round trips', { value: bull.sentPerTask });
    } else {
      const spread = { min: Math.min(...ours.p99s), max: Math.max(...ours.p99s) };
      fig('ours_p99_late', 'ours, p99 lateness', 'ms', { value: percentile(ours.lateness, 99), spread });
      fig('p99_late_ours_vs_bullmq', 'p99 lateness, ours / bullmq', 'x', pairedRatio(ours.p99s, bull.p99s));
    }
  }
  const delayed = summaries.filter((s) => s.peer === 'ours' && s.scenario.section === 'delay');
  report.figure({
    id: 'tasks.delay.ours_early',
    label: 'delayed tasks: ours, starts before the due time',
    unit: 'tasks',
    value: sumOf(delayed, (s) => s.lateness.filter((v) => v < 0).length),
    target: { op: '==', value: 0 },
  });
}

type Warmed = { name: string; rounds: number; steady: boolean };

function notes(report: SuiteReport, summaries: Summary[], warmUps: Warmed[]): void {
  report.note(
    `ours/bullmq: ours' rate over bullmq's (Queue.add, Queue.addBulk(${ADD_BULK}) / Worker), the issue's target is > 1. ` +
      `finished kept: finished tasks the queue still held as the last one completed, per round (history ${HISTORY}).`,
  );
  const behind = summaries
    .filter((s) => s.peer === 'ours' && s.scenario.section !== 'delay')
    .flatMap((ours) => {
      const bull = bullOf(summaries, ours)!;
      const ratio = median(ours.rates) / median(bull.rates);
      const trips = `${ours.sentPerTask.toFixed(2)} vs ${bull.sentPerTask.toFixed(2)} round trips per task`;
      return ratio < 1 ? [`${ours.scenario.title} (${ratio.toFixed(2)}; ${trips})`] : [];
    });
  report.note(
    `Target, ahead of bullmq on both rates: ${behind.length === 0 ? 'met in every scenario' : `NOT met in: ${behind.join('; ')}`}.`,
  );
  const unsteady = warmUps.filter((w) => !w.steady).map((w) => w.name);
  const counts = warmUps.map((w) => w.rounds);
  report.note(
    `Warm-up: each peer ran unmeasured rounds until ${WARM_WINDOW} successive rounds' rates were within ${WARM_TOLERANCE * 100}% of their highest and it had ` +
      `handled at least ${WARM_MIN_TASKS} tasks (delay rounds: steadiness only), at most ${WARM_MAX_ROUNDS} rounds; ` +
      `rounds per peer ${Math.min(...counts)}-${Math.max(...counts)}` +
      `${unsteady.length === 0 ? ', every peer steady' : `; NOT steady at the cap: ${unsteady.join(', ')}`}.`,
  );
}

bench(
  { id: 'tasks', title: 'Task queues (book 6.4): ours beside bullmq 6.7.0' },
  async ({ url, admin, report, steps, defer }) => {
    const ourCommands = await connectRedis(url, { name: 'bench:producer', logger, commandTimeoutMs: 5000 });
    defer(() => closeRedis(ourCommands));
    const bullProducer = bullConnection(url);
    defer(() => bullProducer.disconnect());
    const ctx: Context = { url, admin, ourProducer: new TaskRepository(ourCommands, SETTINGS), bullProducer };
    const scenarios: Scenario[] = [
      addScenario('add.1caller', 'add, 1 caller', 1),
      addScenario(`add.${ENQUEUE_CONCURRENCY}inflight`, `add, ${ENQUEUE_CONCURRENCY} in flight`, ENQUEUE_CONCURRENCY),
      addScenario(`add.bulk${ADD_BULK}`, `add in batches of ${ADD_BULK}`, 1, ADD_BULK),
      ...WORKER_CONCURRENCIES.map(processScenario),
      ...DELAY_HZ.map(delayScenario),
    ];
    const summaries: Summary[] = [];
    const warmUps: Warmed[] = [];
    const [, defaultHz] = (await admin.config('GET', 'hz')) as [string, string];
    const benchStarted = performance.now();
    const progress = steps(scenarios.length * stepsOf(SIDES.length, ROUNDS, 'steady'));
    for (const scenario of scenarios) {
      console.log(`${scenario.title}: ${scenario.tasks} tasks per round`);
      await admin.config('SET', 'hz', String(scenario.hz ?? defaultHz));
      // A warm-up round has at least 1,000 tasks (or the measured count, if smaller): not one timer tick's noise.
      const warmSize = Math.max(Math.ceil(scenario.tasks / 4), Math.min(scenario.tasks, 1_000));
      let warmRounds = 0;
      const { measured, warm } = await alternate({
        peers: SIDES.map((side) => side.label),
        rounds: ROUNDS,
        steps: progress,
        label: scenario.title,
        quiet: true,
        warmUp: {
          rate: (r: RoundResult) => r.rate,
          agree: WARM_TOLERANCE,
          window: WARM_WINDOW,
          work: (r) => r.ops,
          minWork: scenario.section === 'delay' ? 0 : WARM_MIN_TASKS,
          maxRounds: WARM_MAX_ROUNDS,
        },
        async run(label, round) {
          const side = SIDES.find((one) => one.label === label)!;
          // Measured rounds 0..ROUNDS-1 (their delays' seeds), warm rounds -1, -2, ...
          const index = round.warm ? -1 - warmRounds++ : round.index - 1;
          const queue = `bench-${scenario.title.replace(/[^a-z0-9]+/gi, '-')}-${label}-${round.warm ? `warm${-1 - index}` : index}`;
          const result = await scenario.round(side, ctx, queue, index, round.warm ? warmSize : scenario.tasks);
          await admin.flushall('SYNC');
          if (!round.warm) console.log(roundLine(scenario, label, result));
          return result;
        },
      });
      for (const side of SIDES) {
        const { results, steady } = warm[side.label];
        const rates = results.map((r) => r.rate.toFixed(0)).join(' ');
        const tasks = sumOf(results, (r) => r.ops);
        console.log(
          `    ${side.label.padEnd(20)} warmed: ${results.length} rounds, ${tasks} tasks, rates ${rates}${steady ? '' : ' (NOT steady at the cap)'}`,
        );
        warmUps.push({ name: `${scenario.title} / ${side.label}`, rounds: results.length, steady });
        summaries.push(summarize(scenario, side.label, measured[side.label]));
      }
    }
    await admin.config('SET', 'hz', defaultHz);
    ratesTable(report, summaries, (performance.now() - benchStarted) / 1000);
    notes(report, summaries, warmUps);
    delayTable(report, summaries);
    report.note(
      'Delays: due = Date.now() just before enqueue/add + the delay; early: starts before that; early vs own due: starts before the due time the peer recorded ' +
        '(ours task.runAt by the Redis clock, bullmq job.timestamp + delay); own p50/p99: lateness against that own due time.',
    );
    figures(report, summaries);
  },
);
