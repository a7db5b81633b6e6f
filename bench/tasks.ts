// Task queue benchmark (book section 6.4, issue 6): our TaskRepository / TaskWorker / TaskPoller
// against the npm package bullmq 6.7.0 doing the same no-op jobs, both measured in the same run
// against the same redis-server, alternately (each peer warmed up until its rate is steady, see
// warmUp, then ROUNDS measured rounds, ours then bullmq), so the machine's noise hits both alike. Every round uses a queue name
// of its own and the database is flushed after each round, so rounds do not see each other's data.
//
// 1. Tasks added per second. Ours: TaskRepository.enqueue (one task-enqueue script per task, as
//    the enqueueTask resolver calls it, without an idempotency key) on ONE shared command
//    connection made by connectRedis, as the API server has; bullmq: Queue.add on one shared ioredis
//    connection. With 1 caller (each add waits for the previous) and with ENQUEUE_CONCURRENCY
//    callers in flight at once (the API serves many callers at once). And in batches of ADD_BULK,
//    one call at a time: ours TaskRepository.enqueueMany (enqueueTasks), bullmq Queue.addBulk.
// 2. Tasks processed per second with no-op handlers at worker concurrency 1 and 16: PROCESS_TASKS
//    tasks (default 20,000: twice the history below, so both peers have to forget finished tasks
//    while timed) are added first (not timed), then one worker is started and timed until all of
//    them are recorded as completed. Ours: a TaskWorker and a TaskPoller built as
//    src/workers/task-runner.ts builds them (a command connection for the repository and one
//    blocking connection each, all by connectRedis), completion counted where TaskWorker records
//    it (TaskRepository.settleAndTake resolving COMPLETED); bullmq: a Worker with that concurrency
//    (its own connection, maxRetriesPerRequest null, plus the blocking one it makes itself),
//    completion counted on its 'completed' event, which fires once moveToCompleted returned.
// 3. Delay accuracy: the worker (concurrency 16) is started first, then DELAYED_TASKS tasks are
//    added with delays drawn uniformly from 100-2000 ms (the same seeded delays for both peers);
//    the bench takes the due time as Date.now() just before calling enqueue/add, plus the delay,
//    and the handler records Date.now() when it starts. Both run on this machine, so the clock is
//    shared; ours schedules by the Redis server's clock (TIME inside the script: the same machine's
//    clock, taken a little after the bench's), bullmq by the client's (Job.timestamp). Reported are
//    p50/p99/max lateness (start minus due), and early starts: against the bench's due time, and
//    against the due time each peer recorded itself (ours: task.runAt; bullmq: timestamp + delay).
//    Ours must never start early.
//
// Quick mode (isQuick in bench/harness/report.ts): 3 rounds, fewer tasks (and a history of 400, so the
// processing rounds still trim it), worker concurrency 16 only, delays of 50-250 ms at hz 10 only.
//
// Fairness of settings: both keep the same history of finished tasks: ours keeps TASK_HISTORY
// (default 10,000) finished tasks per queue, so bullmq gets removeOnComplete and removeOnFail
// {count: HISTORY} (its default keeps every job forever); both retry up to 5 runs with a 1 s
// exponential backoff (ours: TASK_MAX_ATTEMPTS/TASK_BACKOFF_MS defaults) and hold a run under a
// 30 s lease (ours: TASK_VISIBILITY_TIMEOUT_MS; bullmq: lockDuration, renewed every 15 s; ours
// renews every 10 s). Both trim their history as each task finishes (ours in task-next, two at a
// time at most); "kept" shows how many finished tasks each still held when the last task of a
// round completed.
//
// Also reported per task: requests the clients sent (each a request and a reply: a round trip; a
// pipeline or MULTI block sent at once counts one; counted on every ioredis connection of the
// peer, blocking ones included), commands Redis executed (INFO commandstats deltas, those inside scripts included),
// redis-server CPU (used_cpu_user+sys) and this Node process's CPU (process.cpuUsage): where the
// time goes. Callers, workers and redis-server share this machine's cores, so rates are a property
// of this machine; ratios, commands and CPU per task carry over.
import { performance } from 'node:perf_hooks';
import { Queue, Worker, type DefaultJobOptions, type Job } from 'bullmq';
import Redis from 'ioredis';
import pino from 'pino';
import { closeRedis, connectRedis } from '../src/redis/client/connection';
import { queueKeys } from '../src/redis/keys';
import {
  TaskRepository,
  type EnqueueRequest,
  type Outcome,
  type TakenTask,
  type TaskSettings,
  type TaskState,
} from '../src/redis/task';
import type { TaskHandlers } from '../src/workers/task-handlers';
import { TaskPoller } from '../src/workers/task-poller';
import { TaskWorker } from '../src/workers/task-worker';
import { isQuick } from './harness/report';
import { countTraffic, since, snapshot, uncounted, type Traffic } from './harness/round-trips';
import { pairedRatio, runSuite, Steps, type SuiteReport } from './harness/suite';
import { commandCount, median, percentile, seeded, withBenchRedis } from './harness/support';

const QUICK = isQuick();

/** Tasks added per measured enqueue round (a warm-up round adds a quarter). */
const ENQUEUE_TASKS = Number(process.env.BENCH_TASK_ENQUEUE ?? (QUICK ? 800 : 20_000));
/** Tasks in the queue when a measured processing round starts the worker. */
const PROCESS_TASKS = Number(process.env.BENCH_TASK_PROCESS ?? (QUICK ? 800 : 20_000));
/** Delayed tasks per measured delay round. */
const DELAYED_TASKS = Number(process.env.BENCH_TASK_DELAYED ?? (QUICK ? 100 : 1_000));
const ROUNDS = Number(process.env.BENCH_TASK_ROUNDS ?? (QUICK ? 3 : 5));
const ENQUEUE_CONCURRENCY = Number(process.env.BENCH_TASK_ENQUEUE_CONCURRENCY ?? 16);
const WORKER_CONCURRENCIES = (process.env.BENCH_TASK_WORKER_CONCURRENCY ?? (QUICK ? '16' : '1,16'))
  .split(',')
  .map(Number);
const DELAY_WORKER_CONCURRENCY = 16;
/**
 * Redis `hz` for the delay rounds. 10 is Redis's default; a blocked client's timeout (a BLPOP with
 * a timeout, as bullmq's worker blocks) is only noticed when the event loop wakes, which an idle
 * server does every 1000/hz ms. Our poller times its own wake-up and ends its pop with CLIENT
 * UNBLOCK, so it should not depend on hz; the second setting shows whether that holds.
 */
const DELAY_HZ = (process.env.BENCH_TASK_DELAY_HZ ?? (QUICK ? '10' : '10,100')).split(',').map(Number);
const MIN_DELAY_MS = QUICK ? 50 : 100;
const MAX_DELAY_MS = QUICK ? 250 : 2_000;
/** Tasks per enqueueMany / addBulk call in the batch scenario. */
const ADD_BULK = Number(process.env.BENCH_TASK_ADD_BULK ?? 100);
/** Finished tasks kept per queue: TASK_HISTORY's default, and bullmq's removeOnComplete count. */
const HISTORY = Number(process.env.BENCH_TASK_HISTORY ?? (QUICK ? 400 : 10_000));
/**
 * Warm-up: each peer runs warm-up rounds (unmeasured) until its rate is steady, in quick mode too:
 * until the last WARM_WINDOW rounds' rates are within WARM_TOLERANCE of their highest and it has
 * handled at least WARM_MIN_TASKS tasks (rate scenarios; delay rounds need only the steadiness), or
 * WARM_MAX_ROUNDS. Two rounds agreeing was not enough: rates still climbed by half after such a pair.
 */
const WARM_TOLERANCE = Number(process.env.BENCH_TASK_WARM_TOLERANCE ?? 0.1);
const WARM_WINDOW = Number(process.env.BENCH_TASK_WARM_WINDOW ?? 3);
const WARM_MIN_TASKS = Number(process.env.BENCH_TASK_WARM_MIN ?? 5_000);
const WARM_MAX_ROUNDS = Number(process.env.BENCH_TASK_WARM_MAX_ROUNDS ?? 20);
/** A round that has not finished after this long has lost tasks: the bench fails. */
const ROUND_TIMEOUT_MS = Number(process.env.BENCH_TASK_ROUND_TIMEOUT_MS ?? 120_000);

/** src/config.ts defaults: TASK_MAX_ATTEMPTS, TASK_BACKOFF_MS, TASK_MAX_BACKOFF_MS, TASK_MAX_PER_QUEUE. */
const SETTINGS: TaskSettings = {
  maxAttempts: 5,
  backoffMs: 1000,
  maxBackoffMs: 600_000,
  history: HISTORY,
  maxTasksPerQueue: 1_000_000,
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

// --- counting what the clients send -------------------------------------------------------------

/**
 * Every ioredis command goes through Redis.prototype.sendCommand (pipelines and scripts too), so
 * counting there sees the requests of every connection, bullmq's blocking ones included. Only one
 * peer is active at a time; the admin connection's INFO and CONFIG are left out.
 */
countTraffic();

interface Probe {
  finish(tasks: number): Promise<RoundResult>;
}

interface RoundResult {
  tasks: number;
  seconds: number;
  sent: number;
  executed: number;
  redisCpuMs: number;
  nodeCpuMs: number;
  /** Finished tasks the queue still kept when the last one completed (processing rounds). */
  kept?: number;
  /** Lateness of each start in ms (delay rounds), against the bench's and the peer's own due time. */
  lateness?: number[];
  ownLateness?: number[];
}

async function redisCpuMs(admin: Redis): Promise<number> {
  const info = await admin.info('cpu');
  const value = (name: string): number => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return (value('used_cpu_user') + value('used_cpu_sys')) * 1000;
}

async function startProbe(admin: Redis): Promise<Probe> {
  await admin.config('RESETSTAT');
  const cpu0 = await redisCpuMs(admin);
  const node0 = process.cpuUsage();
  const sent0: Traffic = snapshot();
  const t0 = performance.now();
  return {
    async finish(tasks) {
      const seconds = (performance.now() - t0) / 1000;
      const sentNow = since(sent0).requests;
      const node = process.cpuUsage(node0);
      const executed = await commandCount(admin);
      const cpu = (await redisCpuMs(admin)) - cpu0;
      return { tasks, seconds, sent: sentNow, executed, redisCpuMs: cpu, nodeCpuMs: (node.user + node.system) / 1000 };
    },
  };
}

/** Resolves once `tick` was called `target` times; fails after ROUND_TIMEOUT_MS. */
class Countdown {
  count = 0;
  private resolve!: () => void;
  readonly done: Promise<void>;

  constructor(readonly target: number) {
    this.done = new Promise((resolve) => (this.resolve = resolve));
    if (target === 0) this.resolve();
  }

  tick(): void {
    if (++this.count === this.target) this.resolve();
  }

  async wait(what: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(`${what}: only ${this.count} of ${this.target} tasks completed after ${ROUND_TIMEOUT_MS} ms`),
          ),
        ROUND_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([this.done, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Runs `count` calls of `call(i)` with `concurrency` of them in flight. */
async function inFlight(count: number, concurrency: number, call: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await call(next++);
    }),
  );
}

const delaysFor = (round: number, count: number): number[] => {
  const random = seeded(1000 + round);
  return Array.from({ length: count }, () => MIN_DELAY_MS + Math.floor(random() * (MAX_DELAY_MS - MIN_DELAY_MS + 1)));
};

// --- ours ---------------------------------------------------------------------------------------

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
    queue: string,
    run: Pick<TakenTask, 'number' | 'attempt'>,
    outcome: Outcome,
    count: number,
    leaseMs: number,
  ): Promise<{ state: TaskState | undefined; taken: TakenTask[] }> {
    const result = await super.settleAndTake(queue, run, outcome, count, leaseMs);
    if (result.state === 'COMPLETED') this.completed?.tick();
    else this.lost++;
    return result;
  }
}

/** One worker and one poller on one queue, as startTaskRunner makes them for a queue. */
async function startOurs(
  url: string,
  queue: string,
  concurrency: number,
  handlers: TaskHandlers,
  completed: Countdown,
) {
  const commands = await connectRedis(url, { name: 'bench:task-commands', logger, commandTimeoutMs: 5000 });
  const repository = new CountingRepository(commands, SETTINGS);
  repository.completed = completed;
  const worker = new TaskWorker({
    queue,
    repository,
    blocking: await connectRedis(url, { name: `bench:task-worker:${queue}`, logger }),
    handlers,
    concurrency,
    leaseMs: LEASE_MS,
    runTimeoutMs: RUN_TIMEOUT_MS,
    maxResultBytes: MAX_RESULT_BYTES,
    logger,
  });
  const poller = new TaskPoller({
    queue,
    repository,
    blocking: await connectRedis(url, { name: `bench:task-poller:${queue}`, logger }),
    control: commands,
    logger,
  });
  return {
    repository,
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
}

// --- bullmq -------------------------------------------------------------------------------------

const bullConnection = (url: string): Redis => new Redis(url, { maxRetriesPerRequest: null });

async function bullQueue(connection: Redis, name: string): Promise<Queue> {
  const queue = new Queue(name, { connection, defaultJobOptions: BULL_JOB_OPTIONS });
  await queue.waitUntilReady();
  return queue;
}

async function startBull(
  url: string,
  name: string,
  concurrency: number,
  processor: (job: Job) => Promise<void>,
  completed: Countdown,
) {
  const connection = bullConnection(url);
  let failed = 0;
  const worker = new Worker(name, processor, { connection, concurrency, autorun: false });
  worker.on('completed', () => completed.tick());
  worker.on('failed', () => failed++);
  worker.on('error', (error) => console.error('bullmq worker error:', error));
  await worker.waitUntilReady();
  let running: Promise<void> | undefined;
  return {
    start: () => {
      running = worker.run();
    },
    stop: async () => {
      await worker.close();
      await running;
      connection.disconnect();
      if (failed > 0) throw new Error(`bullmq: ${failed} jobs failed`);
    },
  };
}

// --- scenarios ----------------------------------------------------------------------------------

interface Context {
  url: string;
  admin: Redis;
  /** Producer connections, kept over the run as an API process keeps its own. */
  ourProducer: TaskRepository;
  bullProducer: Redis;
}

interface PeerRun {
  label: string;
  /** Runs one round on a queue of its own; `tasks` is smaller in the warm-up round. */
  round(ctx: Context, queue: string, round: number, tasks: number): Promise<RoundResult>;
}

interface Scenario {
  section: 'enqueue' | 'process' | 'delay';
  /** For figure ids, e.g. `process.concurrency16`. */
  id: string;
  title: string;
  tasks: number;
  peers: PeerRun[];
  /** Redis `hz` during the scenario's rounds (CONFIG SET, restored afterwards). */
  hz?: number;
}

function enqueueScenario(concurrency: number): Scenario {
  const peers: PeerRun[] = [
    {
      label: 'ours',
      async round(ctx, queue, _round, tasks) {
        const probe = await startProbe(ctx.admin);
        await inFlight(tasks, concurrency, (i) => ctx.ourProducer.enqueue(enqueueRequest(queue, i)));
        return probe.finish(tasks);
      },
    },
    {
      label: 'bullmq',
      async round(ctx, queue, _round, tasks) {
        const bull = await bullQueue(ctx.bullProducer, queue);
        const probe = await startProbe(ctx.admin);
        await inFlight(tasks, concurrency, (i) => bull.add('noop', { i }));
        const result = await probe.finish(tasks);
        await bull.close();
        return result;
      },
    },
  ];
  return {
    section: 'enqueue',
    id: concurrency === 1 ? 'add.1caller' : `add.${concurrency}inflight`,
    title: concurrency === 1 ? 'add, 1 caller' : `add, ${concurrency} in flight`,
    tasks: ENQUEUE_TASKS,
    peers,
  };
}

/**
 * Adds in batches of ADD_BULK, one call at a time: ours TaskRepository.enqueueMany (one
 * task-enqueue script per batch, as enqueueTasks calls it), bullmq Queue.addBulk.
 */
function bulkScenario(): Scenario {
  const inBatches = async (tasks: number, add: (first: number, count: number) => Promise<unknown>): Promise<void> => {
    for (let first = 0; first < tasks; first += ADD_BULK) await add(first, Math.min(ADD_BULK, tasks - first));
  };
  return {
    section: 'enqueue',
    id: `add.bulk${ADD_BULK}`,
    title: `add in batches of ${ADD_BULK}`,
    tasks: ENQUEUE_TASKS,
    peers: [
      {
        label: 'ours',
        async round(ctx, queue, _round, tasks) {
          const probe = await startProbe(ctx.admin);
          await inBatches(tasks, (first, count) =>
            ctx.ourProducer.enqueueMany(
              queue,
              Array.from({ length: count }, (_, k) => enqueueRequest(queue, first + k)),
            ),
          );
          return probe.finish(tasks);
        },
      },
      {
        label: 'bullmq',
        async round(ctx, queue, _round, tasks) {
          const bull = await bullQueue(ctx.bullProducer, queue);
          const probe = await startProbe(ctx.admin);
          await inBatches(tasks, (first, count) =>
            bull.addBulk(Array.from({ length: count }, (_, k) => ({ name: 'noop', data: { i: first + k } }))),
          );
          const result = await probe.finish(tasks);
          await bull.close();
          return result;
        },
      },
    ],
  };
}

/** Fills a queue (not timed) with `count` tasks, 16 adds in flight (bullmq: addBulk). */
async function prefill(ctx: Context, peer: 'ours' | 'bullmq', queue: string, count: number): Promise<void> {
  if (peer === 'ours') {
    await inFlight(count, 16, (i) => ctx.ourProducer.enqueue(enqueueRequest(queue, i)));
    return;
  }
  const bull = await bullQueue(ctx.bullProducer, queue);
  for (let first = 0; first < count; first += 1000) {
    await bull.addBulk(
      Array.from({ length: Math.min(1000, count - first) }, (_, k) => ({ name: 'noop', data: { i: first + k } })),
    );
  }
  await bull.close();
}

function processScenario(concurrency: number): Scenario {
  return {
    section: 'process',
    id: `process.concurrency${concurrency}`,
    title: `process, worker concurrency ${concurrency}`,
    tasks: PROCESS_TASKS,
    peers: [
      {
        label: 'ours',
        async round(ctx, queue, _round, tasks) {
          await prefill(ctx, 'ours', queue, tasks);
          const completed = new Countdown(tasks);
          const runner = await startOurs(ctx.url, queue, concurrency, { noop: () => undefined }, completed);
          const probe = await startProbe(ctx.admin);
          runner.start();
          await completed.wait(`ours, ${queue}`);
          const result = await probe.finish(tasks);
          result.kept = await ctx.admin.zcard(queueKeys(queue).done);
          await runner.stop();
          return result;
        },
      },
      {
        label: 'bullmq',
        async round(ctx, queue, _round, tasks) {
          await prefill(ctx, 'bullmq', queue, tasks);
          const completed = new Countdown(tasks);
          const runner = await startBull(ctx.url, queue, concurrency, async () => undefined, completed);
          const probe = await startProbe(ctx.admin);
          runner.start();
          await completed.wait(`bullmq, ${queue}`);
          const result = await probe.finish(tasks);
          result.kept = await ctx.admin.zcard(`bull:${queue}:completed`);
          await runner.stop();
          return result;
        },
      },
    ],
  };
}

interface DelayPlan {
  delays: number[];
  /** The bench's due time (Date.now() before the call, plus the delay) and the peer's own. */
  due: number[];
  ownDue: number[];
  started: number[];
}

const newPlan = (round: number, tasks: number): DelayPlan => ({
  delays: delaysFor(round, tasks),
  due: new Array<number>(tasks).fill(NaN),
  ownDue: new Array<number>(tasks).fill(NaN),
  started: new Array<number>(tasks).fill(NaN),
});

function latenessOf(result: RoundResult, plan: DelayPlan): RoundResult {
  result.lateness = plan.started.map((start, i) => start - plan.due[i]);
  result.ownLateness = plan.started.map((start, i) => start - plan.ownDue[i]);
  if (result.lateness.some((value) => Number.isNaN(value))) throw new Error('a delayed task has no start or due time');
  return result;
}

function delayScenario(hz: number): Scenario {
  return {
    section: 'delay',
    id: `delay.hz${hz}`,
    title: `delayed ${MIN_DELAY_MS}-${MAX_DELAY_MS} ms, worker concurrency ${DELAY_WORKER_CONCURRENCY}, redis hz ${hz}${hz === 10 ? ' (default)' : ''}`,
    tasks: DELAYED_TASKS,
    hz,
    peers: [
      {
        label: 'ours',
        async round(ctx, queue, round, tasks) {
          const plan = newPlan(round, tasks);
          const completed = new Countdown(tasks);
          const handlers: TaskHandlers = {
            noop: (args) => {
              plan.started[(args as { i: number }).i] = Date.now();
            },
          };
          const runner = await startOurs(ctx.url, queue, DELAY_WORKER_CONCURRENCY, handlers, completed);
          runner.start();
          const probe = await startProbe(ctx.admin);
          await inFlight(tasks, ENQUEUE_CONCURRENCY, async (i) => {
            const delay = plan.delays[i];
            plan.due[i] = Date.now() + delay;
            const { task } = await ctx.ourProducer.enqueue(enqueueRequest(queue, i, delay));
            plan.ownDue[i] = task.runAt;
          });
          await completed.wait(`ours, ${queue}`);
          const result = await probe.finish(tasks);
          await runner.stop();
          return latenessOf(result, plan);
        },
      },
      {
        label: 'bullmq',
        async round(ctx, queue, round, tasks) {
          const plan = newPlan(round, tasks);
          const completed = new Countdown(tasks);
          const bull = await bullQueue(ctx.bullProducer, queue);
          const runner = await startBull(
            ctx.url,
            queue,
            DELAY_WORKER_CONCURRENCY,
            async (job) => {
              plan.started[(job.data as { i: number }).i] = Date.now();
            },
            completed,
          );
          runner.start();
          const probe = await startProbe(ctx.admin);
          await inFlight(tasks, ENQUEUE_CONCURRENCY, async (i) => {
            const delay = plan.delays[i];
            plan.due[i] = Date.now() + delay;
            const job = await bull.add('noop', { i }, { delay });
            plan.ownDue[i] = job.timestamp + delay;
          });
          await completed.wait(`bullmq, ${queue}`);
          const result = await probe.finish(tasks);
          await runner.stop();
          await bull.close();
          return latenessOf(result, plan);
        },
      },
    ],
  };
}

// --- warm-up ------------------------------------------------------------------------------------

interface WarmUp {
  rates: number[];
  tasks: number;
  steady: boolean;
}

/**
 * Runs unmeasured rounds until the peer's rate is steady. A warm-up round has at least 1,000 tasks
 * (or the measured round's count, if smaller) so its rate is not one timer tick's noise.
 */
async function warmUp(
  scenario: Scenario,
  round: (index: number, tasks: number) => Promise<RoundResult>,
): Promise<WarmUp> {
  const size = Math.max(Math.ceil(scenario.tasks / 4), Math.min(scenario.tasks, 1_000));
  const minTasks = scenario.section === 'delay' ? 0 : WARM_MIN_TASKS;
  const rates: number[] = [];
  let tasks = 0;
  while (rates.length < WARM_MAX_ROUNDS) {
    const result = await round(rates.length, size);
    rates.push(result.tasks / result.seconds);
    tasks += result.tasks;
    const window = rates.slice(-WARM_WINDOW);
    const steady =
      window.length === WARM_WINDOW &&
      Math.max(...window) - Math.min(...window) <= WARM_TOLERANCE * Math.max(...window);
    if (steady && tasks >= minTasks) return { rates, tasks, steady };
  }
  return { rates, tasks, steady: false };
}

// --- reporting ----------------------------------------------------------------------------------

interface Summary {
  section: Scenario['section'];
  id: string;
  scenario: string;
  peer: string;
  rate: number;
  rateMin: number;
  rateMax: number;
  sentPerTask: number;
  executedPerTask: number;
  redisCpuUs: number;
  nodeCpuUs: number;
  kept: number[];
  lateness: number[];
  ownLateness: number[];
  /** Per measured round, for paired ratios. */
  rates: number[];
  p99s: number[];
}

function summarize(scenario: Scenario, peer: PeerRun, rounds: RoundResult[]): Summary {
  const rates = rounds.map((r) => r.tasks / r.seconds);
  const tasks = rounds.reduce((sum, r) => sum + r.tasks, 0);
  const total = (pick: (r: RoundResult) => number): number => rounds.reduce((sum, r) => sum + pick(r), 0);
  return {
    section: scenario.section,
    id: scenario.id,
    scenario: scenario.title,
    peer: peer.label,
    rate: median(rates),
    rateMin: Math.min(...rates),
    rateMax: Math.max(...rates),
    sentPerTask: total((r) => r.sent) / tasks,
    executedPerTask: total((r) => r.executed) / tasks,
    redisCpuUs: (total((r) => r.redisCpuMs) * 1000) / tasks,
    nodeCpuUs: (total((r) => r.nodeCpuMs) * 1000) / tasks,
    kept: rounds.flatMap((r) => (r.kept === undefined ? [] : [r.kept])),
    lateness: rounds.flatMap((r) => r.lateness ?? []).sort((a, b) => a - b),
    ownLateness: rounds.flatMap((r) => r.ownLateness ?? []).sort((a, b) => a - b),
    rates,
    p99s: rounds.map((r) =>
      percentile(
        [...(r.lateness ?? [])].sort((a, b) => a - b),
        99,
      ),
    ),
  };
}

function roundLine(scenario: Scenario, label: string, result: RoundResult): string {
  let line =
    `    ${label.padEnd(20)} ${(result.tasks / result.seconds).toFixed(0).padStart(6)} tasks/s (${result.seconds.toFixed(2)} s)  ` +
    `${(result.sent / result.tasks).toFixed(2)} round trips/task, ${(result.executed / result.tasks).toFixed(1)} redis cmds/task, ` +
    `redis CPU ${((result.redisCpuMs * 1000) / result.tasks).toFixed(0)} us/task, node CPU ${((result.nodeCpuMs * 1000) / result.tasks).toFixed(0)} us/task`;
  if (result.kept !== undefined) line += `, finished kept ${result.kept}`;
  if (scenario.section === 'delay' && result.lateness) {
    const sorted = [...result.lateness].sort((a, b) => a - b);
    line += `; late p50 ${percentile(sorted, 50)} ms p99 ${percentile(sorted, 99)} ms max ${sorted[sorted.length - 1]} ms, ${sorted.filter((v) => v < 0).length} early`;
  }
  return line;
}

function ratesTable(report: SuiteReport, summaries: Summary[], seconds: number): void {
  const rows: string[][] = [];
  for (const s of summaries.filter((one) => one.section !== 'delay')) {
    const same = summaries.filter((o) => o.scenario === s.scenario);
    const bull = same.find((o) => o.peer === 'bullmq');
    const ratio = s.peer === 'ours' && bull ? (s.rate / bull.rate).toFixed(2) : '';
    rows.push([
      s.scenario,
      s.peer,
      `${s.rate.toFixed(0)} (${s.rateMin.toFixed(0)}-${s.rateMax.toFixed(0)})`,
      ratio,
      s.sentPerTask.toFixed(2),
      s.executedPerTask.toFixed(1),
      s.redisCpuUs.toFixed(0),
      s.nodeCpuUs.toFixed(0),
      s.kept.length === 0 ? '-' : s.kept.join('/'),
    ]);
  }
  report.table(
    `tasks summary: rates (medians of ${ROUNDS} rounds, with the range; per-task figures over all measured rounds; ${seconds.toFixed(1)} s)`,
    [
      'scenario',
      'peer',
      'tasks/s (min-max)',
      'ours/bullmq',
      'round trips/task',
      'redis cmds/task',
      'redis CPU us/task',
      'node CPU us/task',
      'finished kept',
    ],
    rows,
    2,
  );
}

function delayTable(report: SuiteReport, summaries: Summary[]): void {
  const rows: string[][] = [];
  for (const s of summaries.filter((one) => one.section === 'delay')) {
    const bull = summaries.find((o) => o.scenario === s.scenario && o.peer === 'bullmq');
    const l = s.lateness;
    rows.push([
      s.scenario,
      s.peer,
      String(l.length),
      String(percentile(l, 50)),
      String(percentile(l, 99)),
      s.peer === 'ours' && bull ? (percentile(l, 99) / percentile(bull.lateness, 99)).toFixed(2) : '',
      String(l[l.length - 1]),
      String(l.filter((v) => v < 0).length),
      `${s.ownLateness.filter((v) => v < 0).length} (min ${s.ownLateness[0]} ms)`,
      `${percentile(s.ownLateness, 50)} / ${percentile(s.ownLateness, 99)}`,
      s.sentPerTask.toFixed(2),
      s.executedPerTask.toFixed(1),
    ]);
  }
  report.table(
    'tasks summary: delay accuracy (start minus due time, all measured rounds pooled)',
    [
      'scenario',
      'peer',
      'tasks',
      'late p50 ms',
      'p99 ms',
      'p99 ours/bullmq',
      'max ms',
      'early',
      'early vs own due',
      'own p50/p99 ms',
      'round trips/task',
      'redis cmds/task',
    ],
    rows,
    2,
  );
}

/** The issue's targets (ahead of bullmq on both rates; never early) and the ratios, as figures. */
function figures(report: SuiteReport, summaries: Summary[]): void {
  for (const ours of summaries.filter((s) => s.peer === 'ours')) {
    const same = summaries.filter((s) => s.scenario === ours.scenario);
    const bull = same.find((s) => s.peer === 'bullmq')!;
    if (ours.section !== 'delay') {
      report.figure({
        id: `tasks.${ours.id}.ours_vs_bullmq`,
        label: `${ours.scenario}: ours / bullmq (tasks/s)`,
        unit: 'x',
        ...pairedRatio(ours.rates, bull.rates),
        target: { op: '>=', value: 1 },
      });
      report.figure({
        id: `tasks.${ours.id}.ours_round_trips`,
        label: `${ours.scenario}: ours, round trips per task`,
        unit: 'round trips',
        value: ours.sentPerTask,
        ...(ours.section === 'enqueue' ? { target: { op: '<=' as const, value: 1 } } : {}),
      });
      report.figure({
        id: `tasks.${ours.id}.bullmq_round_trips`,
        label: `${ours.scenario}: bullmq, round trips per task`,
        unit: 'round trips',
        value: bull.sentPerTask,
      });
    } else {
      report.figure({
        id: `tasks.${ours.id}.ours_p99_late`,
        label: `${ours.scenario}: ours, p99 lateness`,
        unit: 'ms',
        value: percentile(ours.lateness, 99),
        spread: { min: Math.min(...ours.p99s), max: Math.max(...ours.p99s) },
      });
      report.figure({
        id: `tasks.${ours.id}.p99_late_ours_vs_bullmq`,
        label: `${ours.scenario}: p99 lateness, ours / bullmq`,
        unit: 'x',
        ...pairedRatio(ours.p99s, bull.p99s),
      });
    }
  }
  const early = summaries
    .filter((s) => s.peer === 'ours' && s.section === 'delay')
    .reduce((sum, s) => sum + s.lateness.filter((v) => v < 0).length, 0);
  report.figure({
    id: 'tasks.delay.ours_early',
    label: 'delayed tasks: ours, starts before the due time',
    unit: 'tasks',
    value: early,
    target: { op: '==', value: 0 },
  });
}

runSuite('tasks', 'Task queues (book 6.4): ours beside bullmq 6.7.0', async (report) => {
  await withBenchRedis(async (url) => {
    const admin = uncounted(new Redis(url));
    const ourCommands = await connectRedis(url, { name: 'bench:producer', logger, commandTimeoutMs: 5000 });
    const bullProducer = bullConnection(url);
    const ctx: Context = { url, admin, ourProducer: new TaskRepository(ourCommands, SETTINGS), bullProducer };
    const scenarios: Scenario[] = [
      enqueueScenario(1),
      enqueueScenario(ENQUEUE_CONCURRENCY),
      bulkScenario(),
      ...WORKER_CONCURRENCIES.map((concurrency) => processScenario(concurrency)),
      ...DELAY_HZ.map((hz) => delayScenario(hz)),
    ];
    const summaries: Summary[] = [];
    const warmUps: (WarmUp & { scenario: string; peer: string })[] = [];
    const [, defaultHz] = (await admin.config('GET', 'hz')) as [string, string];
    const benchStarted = performance.now();
    const steps = new Steps(scenarios.length * (ROUNDS + 1));
    try {
      const version = (await admin.info('server')).match(/^redis_version:(\S+)/m)?.[1];
      console.log(
        `tasks benchmark: ours (TaskRepository, TaskWorker + TaskPoller) against bullmq 6.7.0 (Queue, Worker), same redis-server ${version}, ` +
          `alternately: warm-up rounds until steady, then ${ROUNDS} rounds each, a queue of its own per round, FLUSHALL after each round.`,
      );
      console.log(
        `  both keep ${HISTORY} finished tasks per queue (ours TASK_HISTORY, bullmq removeOnComplete/removeOnFail count), ` +
          `${SETTINGS.maxAttempts} runs with ${SETTINGS.backoffMs} ms exponential backoff, ${LEASE_MS} ms lease/lock; no-op handlers; ` +
          'producers on one shared connection each; workers on connections of their own.',
      );
      console.log(
        '  "round trips" counts requests the clients sent (a pipeline or MULTI block counts one; blocking pops included); "redis cmds" what Redis executed (INFO commandstats, inside scripts too).',
      );
      for (const scenario of scenarios) {
        console.log(`${scenario.title}: ${scenario.tasks} tasks per round`);
        await admin.config('SET', 'hz', String(scenario.hz ?? defaultHz));
        const queueName = (peer: PeerRun, round: string): string =>
          `bench-${scenario.title.replace(/[^a-z0-9]+/gi, '-')}-${peer.label.replace(/[^a-z0-9]+/gi, '-')}-${round}`;
        steps.step(`${scenario.title}, warm-up`);
        for (const peer of scenario.peers) {
          const warm = await warmUp(scenario, async (round, tasks) => {
            const result = await peer.round(ctx, queueName(peer, `warm${round}`), -1 - round, tasks);
            await admin.flushall('SYNC');
            return result;
          });
          console.log(
            `    ${peer.label.padEnd(20)} warmed: ${warm.rates.length} rounds, ${warm.tasks} tasks, rates ${warm.rates.map((r) => r.toFixed(0)).join(' ')}${warm.steady ? '' : ' (NOT steady at the cap)'}`,
          );
          warmUps.push({ scenario: scenario.title, peer: peer.label, ...warm });
        }
        const results = new Map<PeerRun, RoundResult[]>(scenario.peers.map((peer) => [peer, []]));
        for (let round = 0; round < ROUNDS; round++) {
          steps.step(`${scenario.title}, round ${round + 1}/${ROUNDS}`);
          for (const peer of scenario.peers) {
            const result = await peer.round(ctx, queueName(peer, String(round)), round, scenario.tasks);
            results.get(peer)!.push(result);
            console.log(roundLine(scenario, peer.label, result));
            await admin.flushall('SYNC');
          }
        }
        for (const peer of scenario.peers) summaries.push(summarize(scenario, peer, results.get(peer)!));
      }
      await admin.config('SET', 'hz', defaultHz);
      ratesTable(report, summaries, (performance.now() - benchStarted) / 1000);
      report.note(
        `ours/bullmq: ours' rate over bullmq's (Queue.add, Queue.addBulk(${ADD_BULK}) / Worker), the issue's target is > 1. ` +
          'finished kept: finished tasks the queue still held as the last one completed, per round ' +
          `(history ${HISTORY}).`,
      );
      const behind = summaries
        .filter((one) => one.peer === 'ours' && one.section !== 'delay')
        .flatMap((ours) => {
          const bull = summaries.find((o) => o.scenario === ours.scenario && o.peer === 'bullmq');
          return bull && ours.rate < bull.rate
            ? [
                `${ours.scenario} (${(ours.rate / bull.rate).toFixed(2)}; ${ours.sentPerTask.toFixed(2)} vs ${bull.sentPerTask.toFixed(2)} round trips per task)`,
              ]
            : [];
        });
      report.note(
        `Target, ahead of bullmq on both rates: ${behind.length === 0 ? 'met in every scenario' : `NOT met in: ${behind.join('; ')}`}.`,
      );
      const unsteady = warmUps.filter((w) => !w.steady).map((w) => `${w.scenario} / ${w.peer}`);
      report.note(
        `Warm-up: each peer ran unmeasured rounds until ${WARM_WINDOW} successive rounds' rates were within ${WARM_TOLERANCE * 100}% of their highest and it had ` +
          `handled at least ${WARM_MIN_TASKS} tasks (delay rounds: steadiness only), at most ${WARM_MAX_ROUNDS} rounds; ` +
          `rounds per peer ${Math.min(...warmUps.map((w) => w.rates.length))}-${Math.max(...warmUps.map((w) => w.rates.length))}` +
          `${unsteady.length === 0 ? ', every peer steady' : `; NOT steady at the cap: ${unsteady.join(', ')}`}.`,
      );
      delayTable(report, summaries);
      report.note(
        'Delays: due = Date.now() just before enqueue/add + the delay; early: starts before that; early vs own due: starts before the due time the peer recorded ' +
          '(ours task.runAt by the Redis clock, bullmq job.timestamp + delay); own p50/p99: lateness against that own due time.',
      );
      figures(report, summaries);
    } finally {
      await closeRedis(ourCommands);
      bullProducer.disconnect();
      admin.disconnect();
    }
  });
});
