// Task queues (book 6.4): our TaskRepository / TaskWorker / TaskPoller beside bullmq 6.7.0 on one
// redis-server, no-op jobs: adds per second, processing until every task completed, and how late
// delayed tasks start (ours never early). Method: docs/performance.md, "Method: tasks".
import { Queue, Worker, type DefaultJobOptions, type Job } from 'bullmq';
import Redis from 'ioredis';
import pino from 'pino';
import { closeRedis, connectRedis } from '../src/redis/client/connection';
import { queueKeys } from '../src/redis/keys';
import { SettingsReader } from '../src/common/settings';
import { TaskRepository, type EnqueueRequest } from '../src/redis/task';
import { readTasks } from '../src/redis/task.settings';
import { TaskPoller } from '../src/workers/task-poller';
import { TaskWorker } from '../src/workers/task-worker';
import { alternate, bench, inParallel, isQuick, size, stepsOf, within, type Bench } from './harness';
import { measure, medianRange, perOp, rates, type Sample } from './harness/measure';
import { ascending, median, percentile, seeded } from './harness/support';

const QUICK = isQuick();
/** Tasks per measured round: added, in the queue when the worker starts, delayed. */
const ENQUEUE_TASKS = size('BENCH_TASK_ENQUEUE', 800, 20_000);
const PROCESS_TASKS = size('BENCH_TASK_PROCESS', 800, 20_000);
const DELAYED_TASKS = size('BENCH_TASK_DELAYED', 100, 1_000);
const ROUNDS = size('BENCH_TASK_ROUNDS', 3, 5);
const IN_FLIGHT = 16;
const list = (env: string, quick: string, full: string): number[] =>
  (process.env[env] ?? (QUICK ? quick : full)).split(',').map(Number);
const WORKER_CONCURRENCIES = list('BENCH_TASK_WORKER_CONCURRENCY', '16', '1,16');
const DELAY_WORKER_CONCURRENCY = 16;
/** Redis `hz` for the delay rounds (10 is Redis's default). */
const DELAY_HZ = list('BENCH_TASK_DELAY_HZ', '10', '10,100');
const [MIN_DELAY_MS, MAX_DELAY_MS] = QUICK ? [50, 250] : [100, 2_000];
/** Tasks per enqueueMany / addBulk call in the batch scenario. */
const ADD_BULK = 100;
/** Finished tasks kept per queue: TASK_HISTORY's default, and bullmq's removeOnComplete count. */
const HISTORY = size('BENCH_TASK_HISTORY', 400, 10_000);
/** Warm-up until steady (docs/performance.md); two rounds agreeing was not enough: rates still climbed by half. */
const WARM = { agree: 0.1, window: 3, minWork: size('BENCH_TASK_WARM_MIN', 5_000, 5_000), maxRounds: 20 };
/** A round that has not finished after this long has lost tasks: the bench fails. */
const ROUND_TIMEOUT_MS = 120_000;

/** The product's task settings (their defaults), the history kept at HISTORY. */
const SETTINGS = readTasks(new SettingsReader({ TASK_HISTORY: String(HISTORY) }));
/** The equivalent bullmq job options (its own defaults: 1 attempt, keep every finished job). */
const BULL_JOB_OPTIONS: DefaultJobOptions = {
  attempts: SETTINGS.maxAttempts,
  backoff: { type: 'exponential', delay: SETTINGS.backoffMs },
  removeOnComplete: { count: HISTORY },
  removeOnFail: { count: HISTORY },
};

const logger = pino({ level: 'silent' });

/** Counts completed tasks: wait() resolves at `target`, or fails after ROUND_TIMEOUT_MS. */
function countdown(target: number, queue: string) {
  let count = 0;
  let resolve!: () => void;
  const done = new Promise<void>((settle) => (resolve = settle));
  const failure = (): string => `${queue}: ${count} of ${target} tasks completed after ${ROUND_TIMEOUT_MS} ms`;
  return {
    tick(): void {
      if (++count === target) resolve();
    },
    wait: (): Promise<void> => within(done, ROUND_TIMEOUT_MS, failure),
  };
}
type Countdown = ReturnType<typeof countdown>;

/** Task number `i`'s request, for `queue`, due in `delayMs`. */
const requestTo =
  (queue: string, delayMs = 0) =>
  (i: number): EnqueueRequest => ({
    queue,
    name: 'noop',
    // The resolver hands the repository the client's JSON as text.
    args: JSON.stringify({ i }),
    priority: 'NORMAL',
    delayMs,
    idempotencyKey: undefined,
  });

/** The worker's repository, counting completed runs (settleAndTake records each outcome and takes the next task). */
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

// Ours: a producer connection kept over the run, as an API process keeps its own; per round one
// worker and one poller, as startTaskRunner makes them for a queue. `onTask` gets a task's number
// as its handler starts; `add` resolves with the due time the peer recorded itself.
async function ours(url: string, defer: Bench['defer']) {
  const producerCommands = await connectRedis(url, { name: 'bench:producer', logger, commandTimeoutMs: 5000 });
  defer(() => closeRedis(producerCommands));
  const producer = new TaskRepository(producerCommands, SETTINGS);
  return {
    producer: async (queue: string) => ({
      add: async (i: number, delayMs?: number): Promise<number> =>
        (await producer.enqueue(requestTo(queue, delayMs)(i))).task.runAt,
      addBatch: (numbers: number[]): Promise<unknown> => producer.enqueueMany(queue, numbers.map(requestTo(queue))),
      close: async (): Promise<void> => undefined,
    }),
    async start(queue: string, concurrency: number, onTask: (i: number) => void, completed: Countdown) {
      const commands = await connectRedis(url, { name: 'bench:task-commands', logger, commandTimeoutMs: 5000 });
      const repository = Object.assign(new CountingRepository(commands, SETTINGS), { completed });
      const worker = new TaskWorker({
        queue,
        repository,
        blocking: await connectRedis(url, { name: `bench:task-worker:${queue}`, logger }),
        handlers: { noop: (args) => onTask((args as { i: number }).i) },
        concurrency,
        leaseMs: SETTINGS.visibilityMs,
        runTimeoutMs: SETTINGS.runTimeoutMs,
        maxResultBytes: SETTINGS.maxArgsBytes,
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
const PEERS = ['ours', 'bullmq'] as const;

/** bullmq: a Queue per round on one shared producer connection, and a Worker. */
function bullmq(url: string, defer: Bench['defer']): Side {
  const connect = (): Redis => new Redis(url, { maxRetriesPerRequest: null });
  const connection = connect();
  defer(() => connection.disconnect());
  return {
    async producer(name) {
      const queue = new Queue(name, { connection, defaultJobOptions: BULL_JOB_OPTIONS });
      await queue.waitUntilReady();
      return {
        add: async (i, delay) => {
          const job = await queue.add('noop', { i }, delay === undefined ? undefined : { delay });
          return job.timestamp + (delay ?? 0);
        },
        addBatch: (numbers) => queue.addBulk(numbers.map((i) => ({ name: 'noop', data: { i } }))),
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

const TASKS = { enqueue: ENQUEUE_TASKS, process: PROCESS_TASKS, delay: DELAYED_TASKS };
type More = { batch?: number; hz?: number };
/** What a section times: docs/performance.md, "Method: tasks"; `hz` is set for the delay rounds. */
function scenario(section: keyof typeof TASKS, id: string, title: string, concurrency: number, more: More = {}) {
  return { section, id, title, tasks: TASKS[section], concurrency, ...more };
}
type Scenario = ReturnType<typeof scenario>;

/** Finished tasks kept (process); each start's lateness in ms, to the bench's and own due time (delay). */
type RoundResult = Sample & { kept?: number; lateness?: number[]; ownLateness?: number[] };

/** One round of `side` on a queue of its own; `tasks` is smaller in warm-up rounds. */
async function round(scenario: Scenario, side: Side, admin: Redis, queue: string, index: number, tasks: number) {
  const { section, concurrency, batch = 0 } = scenario;
  const producer = await side.producer(queue);
  const batchOf = (b: number, size: number) =>
    Array.from({ length: Math.min(size, tasks - b * size) }, (_, k) => b * size + k);
  const inBatches = (size: number) =>
    inParallel(Math.ceil(tasks / size), 1, (b) => producer.addBatch(batchOf(b, size)));
  if (section === 'enqueue') {
    const work = () => (batch === 0 ? inParallel(tasks, concurrency, (i) => producer.add(i)) : inBatches(batch));
    const result: RoundResult = await measure(tasks, work, { admin });
    await producer.close();
    return result;
  }
  const completed = countdown(tasks, queue);
  if (section === 'process') {
    await inBatches(1000); // the fill, unmeasured
    await producer.close();
    const runner = await side.start(queue, concurrency, () => undefined, completed);
    const work = (): Promise<void> => {
      runner.start();
      return completed.wait();
    };
    const result: RoundResult = await measure(tasks, work, { admin });
    result.kept = await admin.zcard(side.doneKey(queue));
    await runner.stop();
    return result;
  }
  const random = seeded(1000 + index);
  const [due, ownDue, started] = [0, 1, 2].map(() => new Array<number>(tasks).fill(NaN));
  const runner = await side.start(queue, concurrency, (i) => void (started[i] = Date.now()), completed);
  runner.start();
  const add = async (i: number): Promise<void> => {
    const delay = MIN_DELAY_MS + Math.floor(random() * (MAX_DELAY_MS - MIN_DELAY_MS + 1));
    due[i] = Date.now() + delay;
    ownDue[i] = await producer.add(i, delay);
  };
  const work = async (): Promise<void> => {
    await inParallel(tasks, IN_FLIGHT, add);
    await completed.wait();
  };
  const result: RoundResult = await measure(tasks, work, { admin });
  await runner.stop();
  await producer.close();
  result.lateness = started.map((start, i) => start - due[i]);
  result.ownLateness = started.map((start, i) => start - ownDue[i]);
  if (result.lateness.some(Number.isNaN)) throw new Error('a delayed task has no start or due time');
  return result;
}

/** A peer's measured rounds of a scenario: per task over all of them, rates and p99s per round; its warm-up. */
type Warm = { results: unknown[]; steady: boolean };
const summarize = (scenario: Scenario, peer: string, rounds: RoundResult[], warm: Warm) => ({
  scenario,
  peer,
  sentPerTask: perOp(rounds),
  executedPerTask: perOp(rounds, (r) => r.executed),
  rounds,
  lateness: ascending(rounds.flatMap((r) => r.lateness ?? [])),
  ownLateness: ascending(rounds.flatMap((r) => r.ownLateness ?? [])),
  rates: rates(rounds),
  p99s: rounds.map((r) => percentile(ascending(r.lateness ?? []), 99)),
  warmRounds: warm.results.length,
  steady: warm.steady,
});
type Summary = ReturnType<typeof summarize>;

function publish(report: Bench['report'], summaries: Summary[], seconds: number): void {
  const bullOf = (s: Summary): Summary => summaries.find((o) => o.scenario === s.scenario && o.peer === 'bullmq')!;
  const early = (values: number[]): number => values.filter((v) => v < 0).length;
  const p = (values: number[], at: number): string => String(percentile(values, at));
  const delayed = summaries.filter((s) => s.scenario.section === 'delay');
  const added = summaries.filter((s) => s.scenario.section !== 'delay');
  const versus = (s: Summary, pick: (one: Summary) => number): string =>
    s.peer === 'ours' ? (pick(s) / pick(bullOf(s))).toFixed(2) : '';
  // The issue's targets (ahead of bullmq on both rates; never early) and the ratios, as figures.
  const behind: string[] = [];
  for (const ours of summaries.filter((s) => s.peer === 'ours')) {
    const bull = bullOf(ours);
    const { id, title, section } = ours.scenario;
    const [at, of] = [(name: string) => `tasks.${id}.${name}`, (label: string) => `${title}: ${label}`];
    if (section !== 'delay') {
      report.ratio(at('ours_vs_bullmq'), of('ours / bullmq (tasks/s)'), ours.rates, bull.rates, { op: '>=', value: 1 });
      const trips = section === 'enqueue' ? ({ op: '<=', value: 1 } as const) : undefined;
      report.value(at('ours_round_trips'), of('ours, round trips per task'), 'round trips', ours.sentPerTask, trips);
      report.value(at('bullmq_round_trips'), of('bullmq, round trips per task'), 'round trips', bull.sentPerTask);
      const ratio = median(ours.rates) / median(bull.rates);
      const perTask = `${ours.sentPerTask.toFixed(2)} vs ${bull.sentPerTask.toFixed(2)} round trips per task`;
      if (ratio < 1) behind.push(`${title} (${ratio.toFixed(2)}; ${perTask})`);
    } else {
      report.pooled(at('ours_p99_late'), of('ours, p99 lateness'), 'ms', percentile(ours.lateness, 99), ours.p99s);
      report.ratio(at('p99_late_ours_vs_bullmq'), of('p99 lateness, ours / bullmq'), ours.p99s, bull.p99s);
    }
  }
  const oursEarly = early(delayed.flatMap((s) => (s.peer === 'ours' ? s.lateness : [])));
  const earlyLabel = 'delayed tasks: ours, starts before the due time';
  report.value('tasks.delay.ours_early', earlyLabel, 'tasks', oursEarly, { op: '==', value: 0 });

  const rounds = `medians of ${ROUNDS} rounds, with the range; per-task figures over all measured rounds`;
  report.tableOf(`tasks summary: rates (${rounds}; ${seconds.toFixed(1)} s)`, 2, added, [
    ['scenario', (s) => s.scenario.title],
    ['peer', (s) => s.peer],
    ['tasks/s (min-max)', (s) => medianRange(s.rates)],
    ['ours/bullmq', (s) => versus(s, (one) => median(one.rates))],
    ['round trips/task', (s) => s.sentPerTask.toFixed(2)],
    ['redis cmds/task', (s) => s.executedPerTask.toFixed(1)],
    ['redis CPU us/task', (s) => (perOp(s.rounds, (r) => r.redisCpu) * 1e6).toFixed(0)],
    ['node CPU us/task', (s) => (perOp(s.rounds, (r) => r.nodeCpuMs) * 1e3).toFixed(0)],
    ['finished kept', (s) => s.rounds.flatMap((r) => r.kept ?? []).join('/') || '-'],
  ]);
  report.tableOf('tasks summary: delay accuracy (start minus due time, all measured rounds pooled)', 2, delayed, [
    ['scenario', (s) => s.scenario.title],
    ['peer', (s) => s.peer],
    ['tasks', (s) => String(s.lateness.length)],
    ['late p50 ms', (s) => p(s.lateness, 50)],
    ['p99 ms', (s) => p(s.lateness, 99)],
    ['p99 ours/bullmq', (s) => versus(s, (one) => percentile(one.lateness, 99))],
    ['max ms', (s) => String(s.lateness[s.lateness.length - 1])],
    ['early', (s) => String(early(s.lateness))],
    ['early vs own due', (s) => `${early(s.ownLateness)} (min ${s.ownLateness[0]} ms)`],
    ['own p50/p99 ms', (s) => `${p(s.ownLateness, 50)} / ${p(s.ownLateness, 99)}`],
    ['round trips/task', (s) => s.sentPerTask.toFixed(2)],
    ['redis cmds/task', (s) => s.executedPerTask.toFixed(1)],
  ]);
  const unsteady = summaries.filter((s) => !s.steady).map((s) => `${s.scenario.title} / ${s.peer}`);
  const counts = summaries.map((s) => s.warmRounds);
  report.note(
    `ours/bullmq: ours' rate over bullmq's (Queue.add, Queue.addBulk(${ADD_BULK}) / Worker), the issue's target is > 1. ` +
      `finished kept: finished tasks the queue still held as the last one completed, per round (history ${HISTORY}).`,
    `Target, ahead of bullmq on both rates: ${behind.length === 0 ? 'met in every scenario' : `NOT met in: ${behind.join('; ')}`}.`,
    `Warm-up: each peer ran unmeasured rounds until ${WARM.window} successive rounds' rates were within ${WARM.agree * 100}% of their highest and it had ` +
      `handled at least ${WARM.minWork} tasks (delay rounds: steadiness only), at most ${WARM.maxRounds} rounds; ` +
      `rounds per peer ${Math.min(...counts)}-${Math.max(...counts)}` +
      `${unsteady.length === 0 ? ', every peer steady' : `; NOT steady at the cap: ${unsteady.join(', ')}`}.`,
    'Delays: due = Date.now() just before enqueue/add + the delay; early: starts before that; early vs own due: starts before the due time the peer recorded ' +
      '(ours task.runAt by the Redis clock, bullmq job.timestamp + delay); own p50/p99: lateness against that own due time.',
  );
}

const TITLE = 'Task queues (book 6.4): ours beside bullmq 6.7.0';

bench({ id: 'tasks', title: TITLE }, async ({ url, admin, report, steps, defer }) => {
  const sides = { ours: await ours(url, defer), bullmq: bullmq(url, defer) };
  const delayed = (hz: number): string =>
    `delayed ${MIN_DELAY_MS}-${MAX_DELAY_MS} ms, worker concurrency ${DELAY_WORKER_CONCURRENCY}, redis hz ${hz}${hz === 10 ? ' (default)' : ''}`;
  const scenarios = [
    scenario('enqueue', 'add.1caller', 'add, 1 caller', 1),
    scenario('enqueue', `add.${IN_FLIGHT}inflight`, `add, ${IN_FLIGHT} in flight`, IN_FLIGHT),
    scenario('enqueue', `add.bulk${ADD_BULK}`, `add in batches of ${ADD_BULK}`, 1, { batch: ADD_BULK }),
    ...WORKER_CONCURRENCIES.map((workers) =>
      scenario('process', `process.concurrency${workers}`, `process, worker concurrency ${workers}`, workers),
    ),
    ...DELAY_HZ.map((hz) => scenario('delay', `delay.hz${hz}`, delayed(hz), DELAY_WORKER_CONCURRENCY, { hz })),
  ];
  const summaries: Summary[] = [];
  const [, defaultHz] = (await admin.config('GET', 'hz')) as [string, string];
  const benchStarted = Date.now();
  const progress = steps(scenarios.length * stepsOf(PEERS.length, ROUNDS, 'steady'));
  for (const scenario of scenarios) {
    await admin.config('SET', 'hz', String(scenario.hz ?? defaultHz));
    // A warm-up round has at least 1,000 tasks (or the measured count, if smaller): not one timer tick's noise.
    const warmSize = Math.max(Math.ceil(scenario.tasks / 4), Math.min(scenario.tasks, 1_000));
    let warmRounds = 0;
    const minWork = scenario.section === 'delay' ? 0 : WARM.minWork;
    const { measured, warm } = await alternate({
      peers: PEERS,
      rounds: ROUNDS,
      steps: progress,
      label: scenario.title,
      quiet: true,
      warmUp: { ...WARM, minWork, rate: (r: RoundResult) => r.rate, work: (r) => r.ops },
      async run(peer, at) {
        // Measured rounds 0..ROUNDS-1 (their delays' seeds), warm rounds -1, -2, ...
        const index = at.warm ? -1 - warmRounds++ : at.index - 1;
        const queue = `bench-${scenario.title.replace(/[^a-z0-9]+/gi, '-')}-${peer}-${at.warm ? `warm${-1 - index}` : index}`;
        const result = await round(scenario, sides[peer], admin, queue, index, at.warm ? warmSize : scenario.tasks);
        await admin.flushall('SYNC');
        return result;
      },
    });
    summaries.push(...PEERS.map((peer) => summarize(scenario, peer, measured[peer], warm[peer])));
  }
  await admin.config('SET', 'hz', defaultHz);
  publish(report, summaries, (Date.now() - benchStarted) / 1000);
});
