// Task queues (book 6.4): our TaskRepository / TaskWorker / TaskPoller beside bullmq 6.7.0 on one
// redis-server, no-op jobs: adds per second, processing until every task completed, and how late
// delayed tasks start (ours never early). Method: docs/performance.md, "Method: tasks".
import { performance } from 'node:perf_hooks';
import { Queue, Worker, type DefaultJobOptions, type Job } from 'bullmq';
import Redis from 'ioredis';
import pino from 'pino';
import { closeRedis, connectRedis } from '../src/redis/client/connection';
import { queueKeys } from '../src/redis/keys';
import { TaskRepository, type EnqueueRequest, type TaskSettings } from '../src/redis/task';
import { TaskPoller } from '../src/workers/task-poller';
import { TaskWorker } from '../src/workers/task-worker';
import {
  alternate,
  bench,
  inParallel,
  isQuick,
  measure,
  median,
  medianRange,
  percentile,
  perOp,
  rates,
  seeded,
  size,
  stepsOf,
  sumOf,
  tableOf,
  within,
  type Sample,
  type Bench,
  type SuiteReport,
} from './harness';

const QUICK = isQuick();
/** Tasks per measured round: added, in the queue when the worker starts, delayed. */
const ENQUEUE_TASKS = size('BENCH_TASK_ENQUEUE', 800, 20_000);
const PROCESS_TASKS = size('BENCH_TASK_PROCESS', 800, 20_000);
const DELAYED_TASKS = size('BENCH_TASK_DELAYED', 100, 1_000);
const ROUNDS = size('BENCH_TASK_ROUNDS', 3, 5);
const ENQUEUE_CONCURRENCY = size('BENCH_TASK_ENQUEUE_CONCURRENCY', 16, 16);
const list = (env: string, quick: string, full: string): number[] =>
  (process.env[env] ?? (QUICK ? quick : full)).split(',').map(Number);
const WORKER_CONCURRENCIES = list('BENCH_TASK_WORKER_CONCURRENCY', '16', '1,16');
const DELAY_WORKER_CONCURRENCY = 16;
/** Redis `hz` for the delay rounds (10 is Redis's default). */
const DELAY_HZ = list('BENCH_TASK_DELAY_HZ', '10', '10,100');
const MIN_DELAY_MS = QUICK ? 50 : 100;
const MAX_DELAY_MS = QUICK ? 250 : 2_000;
/** Tasks per enqueueMany / addBulk call in the batch scenario. */
const ADD_BULK = size('BENCH_TASK_ADD_BULK', 100, 100);
/** Finished tasks kept per queue: TASK_HISTORY's default, and bullmq's removeOnComplete count. */
const HISTORY = size('BENCH_TASK_HISTORY', 400, 10_000);
/** Warm-up until steady (docs/performance.md); two rounds agreeing was not enough: rates still climbed by half. */
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
/** The equivalent bullmq job options (its own defaults: 1 attempt, keep every finished job). */
const BULL_JOB_OPTIONS: DefaultJobOptions = {
  attempts: SETTINGS.maxAttempts,
  backoff: { type: 'exponential', delay: SETTINGS.backoffMs },
  removeOnComplete: { count: HISTORY },
  removeOnFail: { count: HISTORY },
};

const logger = pino({ level: 'silent' });

/** Counts completed tasks: wait() resolves at `target`, or fails after ROUND_TIMEOUT_MS. */
function countdown(target: number) {
  let count = 0;
  let resolve!: () => void;
  const done = new Promise<void>((settle) => (resolve = settle));
  const failure = (what: string) => (): string =>
    `${what}: ${count} of ${target} tasks completed after ${ROUND_TIMEOUT_MS} ms`;
  return {
    tick(): void {
      if (++count === target) resolve();
    },
    wait: (what: string): Promise<void> => within(done, ROUND_TIMEOUT_MS, failure(what)),
  };
}
type Countdown = ReturnType<typeof countdown>;

const enqueueRequest = (queue: string, i: number, delayMs = 0): EnqueueRequest => ({
  queue,
  name: 'noop',
  // The resolver hands the repository the client's JSON as text.
  args: JSON.stringify({ i }),
  priority: 'NORMAL',
  delayMs,
  idempotencyKey: undefined,
});

/**
 * The repository the worker uses, counting runs recorded as completed: the worker records each
 * outcome in settleAndTake, taking its next task in the same round trip.
 */
class CountingRepository extends TaskRepository {
  completed: Countdown | undefined;
  lost = 0;

  override async settleAndTake(...args: Parameters<TaskRepository['settleAndTake']>) {
    const result = await super.settleAndTake(...args);
    if (result.state === 'COMPLETED') this.completed?.tick();
    else this.lost++;
    return result;
  }
}

/**
 * Ours: a producer connection kept over the run, as an API process keeps its own; per round one
 * worker and one poller, as startTaskRunner makes them for a queue. `onTask` gets a task's number
 * as its handler starts; `add` resolves with the due time the peer recorded itself.
 */
async function ours(url: string, defer: Bench['defer']) {
  const producerCommands = await connectRedis(url, { name: 'bench:producer', logger, commandTimeoutMs: 5000 });
  defer(() => closeRedis(producerCommands));
  const producer = new TaskRepository(producerCommands, SETTINGS);
  return {
    label: 'ours' as 'ours' | 'bullmq',
    producer: async (queue: string) => {
      const add = async (i: number, delayMs?: number): Promise<number> =>
        (await producer.enqueue(enqueueRequest(queue, i, delayMs))).task.runAt;
      const batch = (first: number, count: number) =>
        Array.from({ length: count }, (_, k) => enqueueRequest(queue, first + k));
      return {
        add,
        addBatch: (first: number, count: number): Promise<unknown> => producer.enqueueMany(queue, batch(first, count)),
        /** Fills the queue before a timed round. */
        fill: (count: number): Promise<unknown> => inParallel(count, 16, (i) => add(i)),
        close: async (): Promise<void> => undefined,
      };
    },
    async start(queue: string, concurrency: number, onTask: (i: number) => void, completed: Countdown) {
      const commands = await connectRedis(url, { name: 'bench:task-commands', logger, commandTimeoutMs: 5000 });
      const repository = new CountingRepository(commands, SETTINGS);
      repository.completed = completed;
      const worker = new TaskWorker({
        queue,
        repository,
        blocking: await connectRedis(url, { name: `bench:task-worker:${queue}`, logger }),
        handlers: { noop: (args) => onTask((args as { i: number }).i) },
        concurrency,
        // TASK_VISIBILITY_TIMEOUT_MS, TASK_RUN_TIMEOUT_MS and TASK_MAX_ARGS_BYTES defaults.
        leaseMs: 30_000,
        runTimeoutMs: 300_000,
        maxResultBytes: 64 * 1024,
        logger,
      });
      const blocking = await connectRedis(url, { name: `bench:task-poller:${queue}`, logger });
      const poller = new TaskPoller({ queue, repository, blocking, control: commands, logger });
      return {
        start: (): void => {
          poller.start();
          worker.start();
        },
        stop: async (): Promise<void> => {
          await Promise.all([worker.stop(5000), poller.stop()]);
          await closeRedis(commands);
          if (repository.lost > 0) throw new Error(`ours: ${repository.lost} runs were not recorded as completed`);
        },
      };
    },
    /** The key of the queue's finished tasks. */
    doneKey: (queue: string): string => queueKeys(queue).done,
  };
}
type Side = Awaited<ReturnType<typeof ours>>;

/** bullmq: a Queue per round on one shared producer connection, and a Worker. */
function bullmq(url: string, defer: Bench['defer']): Side {
  const connect = (): Redis => new Redis(url, { maxRetriesPerRequest: null });
  const connection = connect();
  defer(() => connection.disconnect());
  return {
    label: 'bullmq',
    async producer(name) {
      const queue = new Queue(name, { connection, defaultJobOptions: BULL_JOB_OPTIONS });
      await queue.waitUntilReady();
      const addBatch = (first: number, count: number) =>
        queue.addBulk(Array.from({ length: count }, (_, k) => ({ name: 'noop', data: { i: first + k } })));
      return {
        add: async (i, delay) => {
          const job = await queue.add('noop', { i }, delay === undefined ? undefined : { delay });
          return job.timestamp + (delay ?? 0);
        },
        addBatch,
        async fill(count) {
          for (let first = 0; first < count; first += 1000) await addBatch(first, Math.min(1000, count - first));
        },
        close: () => queue.close(),
      };
    },
    async start(name, concurrency, onTask, completed) {
      const workerConnection = connect();
      let failed = 0;
      const processor = async (job: Job): Promise<void> => onTask((job.data as { i: number }).i);
      const worker = new Worker(name, processor, { connection: workerConnection, concurrency, autorun: false });
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
          workerConnection.disconnect();
          if (failed > 0) throw new Error(`bullmq: ${failed} jobs failed`);
        },
      };
    },
    doneKey: (queue) => `bull:${queue}:completed`,
  };
}

/** What a section times: docs/performance.md, "Method: tasks"; `hz` is set for the delay rounds. */
interface Scenario {
  section: 'enqueue' | 'process' | 'delay';
  /** For figure ids, e.g. `process.concurrency16`. */
  id: string;
  title: string;
  tasks: number;
  concurrency: number;
  batch?: number;
  hz?: number;
}
const TASKS = { enqueue: ENQUEUE_TASKS, process: PROCESS_TASKS, delay: DELAYED_TASKS };
const scenario = (
  section: Scenario['section'],
  id: string,
  title: string,
  concurrency: number,
  more: { batch?: number; hz?: number } = {},
): Scenario => ({ section, id, title, tasks: TASKS[section], concurrency, ...more });

/** Finished tasks kept (process); each start's lateness in ms, to the bench's and own due time (delay). */
type RoundResult = Sample & { kept?: number; lateness?: number[]; ownLateness?: number[] };

/** One round of `side` on a queue of its own; `tasks` is smaller in warm-up rounds. */
async function round(scenario: Scenario, side: Side, admin: Redis, queue: string, index: number, tasks: number) {
  const { section, concurrency, batch = 0 } = scenario;
  const producer = await side.producer(queue);
  if (section === 'enqueue') {
    const added = (b: number) => producer.addBatch(b * batch, Math.min(batch, tasks - b * batch));
    const work = (): Promise<void> =>
      batch === 0
        ? inParallel(tasks, concurrency, (i) => producer.add(i))
        : inParallel(Math.ceil(tasks / batch), 1, added);
    const result: RoundResult = await measure(tasks, work, { admin });
    await producer.close();
    return result;
  }
  if (section === 'process') {
    await producer.fill(tasks);
    await producer.close();
  }
  const completed = countdown(tasks);
  const wait = () => completed.wait(`${side.label}, ${queue}`);
  if (section === 'process') {
    const runner = await side.start(queue, concurrency, () => undefined, completed);
    const work = (): Promise<void> => {
      runner.start();
      return wait();
    };
    const result: RoundResult = await measure(tasks, work, { admin });
    result.kept = await admin.zcard(side.doneKey(queue));
    await runner.stop();
    return result;
  }
  const random = seeded(1000 + index);
  const delays = Array.from(
    { length: tasks },
    () => MIN_DELAY_MS + Math.floor(random() * (MAX_DELAY_MS - MIN_DELAY_MS + 1)),
  );
  const [due, ownDue, started] = [0, 1, 2].map(() => new Array<number>(tasks).fill(NaN));
  const runner = await side.start(queue, concurrency, (i) => void (started[i] = Date.now()), completed);
  runner.start();
  const add = async (i: number): Promise<void> => {
    due[i] = Date.now() + delays[i];
    ownDue[i] = await producer.add(i, delays[i]);
  };
  const work = async (): Promise<void> => {
    await inParallel(tasks, ENQUEUE_CONCURRENCY, add);
    await wait();
  };
  const result: RoundResult = await measure(tasks, work, { admin });
  await runner.stop();
  await producer.close();
  result.lateness = started.map((start, i) => start - due[i]);
  result.ownLateness = started.map((start, i) => start - ownDue[i]);
  if (result.lateness.some(Number.isNaN)) throw new Error('a delayed task has no start or due time');
  return result;
}

const ascending = (values: number[]): number[] => [...values].sort((a, b) => a - b);

/** A peer's measured rounds of a scenario: per task over all of them, rates and p99s per round. */
const summarize = (scenario: Scenario, peer: string, rounds: RoundResult[]) => ({
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
});
type Summary = ReturnType<typeof summarize>;
type Warmed = { name: string; rounds: number; steady: boolean };

function publish(report: SuiteReport, summaries: Summary[], warmUps: Warmed[], seconds: number): void {
  const bullOf = (s: Summary): Summary => summaries.find((o) => o.scenario === s.scenario && o.peer === 'bullmq')!;
  const early = (values: number[]): number => values.filter((v) => v < 0).length;
  const p = (values: number[], at: number): string => String(percentile(values, at));
  const delayed = summaries.filter((s) => s.scenario.section === 'delay');
  const added = summaries.filter((s) => s.scenario.section !== 'delay');
  const oursOnly = (s: Summary, cell: (bull: Summary) => string): string => (s.peer === 'ours' ? cell(bullOf(s)) : '');
  const rounds = `medians of ${ROUNDS} rounds, with the range; per-task figures over all measured rounds`;
  tableOf(report, `tasks summary: rates (${rounds}; ${seconds.toFixed(1)} s)`, 2, added, [
    ['scenario', (s) => s.scenario.title],
    ['peer', (s) => s.peer],
    ['tasks/s (min-max)', (s) => medianRange(s.rates)],
    ['ours/bullmq', (s) => oursOnly(s, (bull) => (median(s.rates) / median(bull.rates)).toFixed(2))],
    ['round trips/task', (s) => s.sentPerTask.toFixed(2)],
    ['redis cmds/task', (s) => s.executedPerTask.toFixed(1)],
    ['redis CPU us/task', (s) => s.redisCpuUs.toFixed(0)],
    ['node CPU us/task', (s) => s.nodeCpuUs.toFixed(0)],
    ['finished kept', (s) => (s.kept.length === 0 ? '-' : s.kept.join('/'))],
  ]);
  report.note(
    `ours/bullmq: ours' rate over bullmq's (Queue.add, Queue.addBulk(${ADD_BULK}) / Worker), the issue's target is > 1. ` +
      `finished kept: finished tasks the queue still held as the last one completed, per round (history ${HISTORY}).`,
  );
  const behind = added
    .filter((s) => s.peer === 'ours')
    .flatMap((ours) => {
      const bull = bullOf(ours);
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
  tableOf(report, 'tasks summary: delay accuracy (start minus due time, all measured rounds pooled)', 2, delayed, [
    ['scenario', (s) => s.scenario.title],
    ['peer', (s) => s.peer],
    ['tasks', (s) => String(s.lateness.length)],
    ['late p50 ms', (s) => p(s.lateness, 50)],
    ['p99 ms', (s) => p(s.lateness, 99)],
    [
      'p99 ours/bullmq',
      (s) => oursOnly(s, (bull) => (percentile(s.lateness, 99) / percentile(bull.lateness, 99)).toFixed(2)),
    ],
    ['max ms', (s) => String(s.lateness[s.lateness.length - 1])],
    ['early', (s) => String(early(s.lateness))],
    ['early vs own due', (s) => `${early(s.ownLateness)} (min ${s.ownLateness[0]} ms)`],
    ['own p50/p99 ms', (s) => `${p(s.ownLateness, 50)} / ${p(s.ownLateness, 99)}`],
    ['round trips/task', (s) => s.sentPerTask.toFixed(2)],
    ['redis cmds/task', (s) => s.executedPerTask.toFixed(1)],
  ]);
  report.note(
    'Delays: due = Date.now() just before enqueue/add + the delay; early: starts before that; early vs own due: starts before the due time the peer recorded ' +
      '(ours task.runAt by the Redis clock, bullmq job.timestamp + delay); own p50/p99: lateness against that own due time.',
  );
  // The issue's targets (ahead of bullmq on both rates; never early) and the ratios, as figures.
  for (const ours of summaries.filter((s) => s.peer === 'ours')) {
    const bull = bullOf(ours);
    const { id, title, section } = ours.scenario;
    const [at, of] = [(name: string) => `tasks.${id}.${name}`, (label: string) => `${title}: ${label}`];
    if (section !== 'delay') {
      report.ratio(at('ours_vs_bullmq'), of('ours / bullmq (tasks/s)'), ours.rates, bull.rates, { op: '>=', value: 1 });
      const trips = section === 'enqueue' ? ({ op: '<=', value: 1 } as const) : undefined;
      report.value(at('ours_round_trips'), of('ours, round trips per task'), 'round trips', ours.sentPerTask, trips);
      report.value(at('bullmq_round_trips'), of('bullmq, round trips per task'), 'round trips', bull.sentPerTask);
    } else {
      const spread = { min: Math.min(...ours.p99s), max: Math.max(...ours.p99s) };
      const value = percentile(ours.lateness, 99);
      report.figure({ id: at('ours_p99_late'), label: of('ours, p99 lateness'), unit: 'ms', value, spread });
      report.ratio(at('p99_late_ours_vs_bullmq'), of('p99 lateness, ours / bullmq'), ours.p99s, bull.p99s);
    }
  }
  const oursEarly = sumOf(delayed, (s) => (s.peer === 'ours' ? early(s.lateness) : 0));
  const earlyLabel = 'delayed tasks: ours, starts before the due time';
  report.value('tasks.delay.ours_early', earlyLabel, 'tasks', oursEarly, { op: '==', value: 0 });
}

bench(
  { id: 'tasks', title: 'Task queues (book 6.4): ours beside bullmq 6.7.0' },
  async ({ url, admin, report, steps, defer }) => {
    const sides = [await ours(url, defer), bullmq(url, defer)];
    const delayed = (hz: number): string =>
      `delayed ${MIN_DELAY_MS}-${MAX_DELAY_MS} ms, worker concurrency ${DELAY_WORKER_CONCURRENCY}, redis hz ${hz}${hz === 10 ? ' (default)' : ''}`;
    const scenarios = [
      scenario('enqueue', 'add.1caller', 'add, 1 caller', 1),
      scenario(
        'enqueue',
        `add.${ENQUEUE_CONCURRENCY}inflight`,
        `add, ${ENQUEUE_CONCURRENCY} in flight`,
        ENQUEUE_CONCURRENCY,
      ),
      scenario('enqueue', `add.bulk${ADD_BULK}`, `add in batches of ${ADD_BULK}`, 1, { batch: ADD_BULK }),
      ...WORKER_CONCURRENCIES.map((workers) =>
        scenario('process', `process.concurrency${workers}`, `process, worker concurrency ${workers}`, workers),
      ),
      ...DELAY_HZ.map((hz) => scenario('delay', `delay.hz${hz}`, delayed(hz), DELAY_WORKER_CONCURRENCY, { hz })),
    ];
    const summaries: Summary[] = [];
    const warmUps: Warmed[] = [];
    const [, defaultHz] = (await admin.config('GET', 'hz')) as [string, string];
    const benchStarted = performance.now();
    const progress = steps(scenarios.length * stepsOf(sides.length, ROUNDS, 'steady'));
    for (const scenario of scenarios) {
      await admin.config('SET', 'hz', String(scenario.hz ?? defaultHz));
      // A warm-up round has at least 1,000 tasks (or the measured count, if smaller): not one timer tick's noise.
      const warmSize = Math.max(Math.ceil(scenario.tasks / 4), Math.min(scenario.tasks, 1_000));
      let warmRounds = 0;
      const { measured, warm } = await alternate({
        peers: sides.map((side) => side.label),
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
        async run(label, at) {
          // Measured rounds 0..ROUNDS-1 (their delays' seeds), warm rounds -1, -2, ...
          const index = at.warm ? -1 - warmRounds++ : at.index - 1;
          const queue = `bench-${scenario.title.replace(/[^a-z0-9]+/gi, '-')}-${label}-${at.warm ? `warm${-1 - index}` : index}`;
          const side = sides.find((one) => one.label === label)!;
          const result = await round(scenario, side, admin, queue, index, at.warm ? warmSize : scenario.tasks);
          await admin.flushall('SYNC');
          return result;
        },
      });
      for (const side of sides) {
        const { results, steady } = warm[side.label];
        warmUps.push({ name: `${scenario.title} / ${side.label}`, rounds: results.length, steady });
        summaries.push(summarize(scenario, side.label, measured[side.label]));
      }
    }
    await admin.config('SET', 'hz', defaultHz);
    publish(report, summaries, warmUps, (performance.now() - benchStarted) / 1000);
  },
);
