// The task worker as users run it (`node dist/worker.js`, i.e. `npm run worker`) against a real
// redis-server: a worker killed mid-task loses nothing; leases held while alive and lost while
// unresponsive; run timeouts, concurrency, several workers on one queue, bounded history;
// SIGTERM finishes the tasks in hand and takes no more; priorities; handler modules; start-up
// errors. Tasks are enqueued and inspected with the repository itself (tests/support/
// task-handlers.cjs notes each run in a file). `npm test` builds dist/ before jest runs.
import fs from 'node:fs';
import path from 'node:path';
import Redis from 'ioredis';
import { queueKeys, type TaskPriority } from '../../src/redis/keys';
import { TaskRepository, type QueueStats, type TaskRecord } from '../../src/redis/task';
import { eventually } from '../support/graphql';
import { cleanUpProcesses, ensureBuilt, spawnWorker, startWorker, tempDir } from '../support/process';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';
import { runsIn } from '../support/task-runs';

const HANDLERS = path.join(__dirname, '..', 'support', 'task-handlers.cjs');
const LEASE_ERROR = 'the worker stopped answering: its lease ran out';

let redis: TestRedis;
let commands: Redis;
let tasks: TaskRepository;

beforeAll(ensureBuilt, 120_000);
beforeAll(async () => {
  redis = await startTestRedis();
  commands = scriptClient(redis, { maxRetriesPerRequest: 1 });
  // maxAttempts is recorded on each task when it is enqueued; the rest is the workers' business.
  tasks = new TaskRepository(commands, {
    maxAttempts: 3,
    backoffMs: 100,
    maxBackoffMs: 1000,
    history: 10_000,
    maxTasksPerQueue: 100_000,
  });
});
beforeEach(async () => {
  await redis.client.flushdb();
});
afterEach(cleanUpProcesses);
afterAll(async () => {
  commands?.disconnect();
  await redis?.stop();
});

/** A worker on the queue "jobs" with short leases and backoff; `extra` overrides. */
const workerEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  ...redis.env,
  WORKER_QUEUES: 'jobs',
  TASK_HANDLERS: HANDLERS,
  TASK_VISIBILITY_TIMEOUT_MS: '1000',
  TASK_BACKOFF_MS: '100',
  WORKER_CONCURRENCY: '4',
  ...extra,
});

const enqueue = async (
  name: string,
  args: unknown,
  priority: TaskPriority = 'NORMAL',
  delayMs = 0,
): Promise<TaskRecord> =>
  (
    await tasks.enqueue({
      queue: 'jobs',
      name,
      args: args === undefined ? undefined : JSON.stringify(args),
      priority,
      delayMs,
      idempotencyKey: undefined,
    })
  ).task;
const read = async (id: string): Promise<TaskRecord | undefined> =>
  tasks.get('jobs', id.slice(id.lastIndexOf(':') + 1));
const stats = (): Promise<QueueStats> => tasks.stats('jobs');
const statsWith = (
  counts: Partial<Omit<QueueStats, 'waiting'>> & { waiting?: Partial<QueueStats['waiting']> },
): QueueStats => ({
  paused: false,
  delayed: 0,
  active: 0,
  completed: 0,
  failed: 0,
  cancelled: 0,
  ...counts,
  waiting: { HIGH: 0, NORMAL: 0, LOW: 0, ...counts.waiting },
});
const redisNowMs = async (): Promise<number> => {
  const [seconds, micros] = await commands.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
};

describe('a worker killed mid-task', () => {
  it('loses nothing: the running task runs again elsewhere (attempt 2) and every task completes exactly once in the record', async () => {
    const log = path.join(tempDir(), 'runs.jsonl');
    const slow = await enqueue('stall', { log, stallAttempts: 1 }, 'HIGH');
    const quick: TaskRecord[] = [];
    for (let i = 0; i < 50; i++) quick.push(await enqueue('work', { log, ms: 30 }));
    const all = [slow, ...quick];
    expect(all.map((task) => task.id)).toEqual(Array.from({ length: 51 }, (_, i) => `jobs:${i + 1}`));

    const first = await startWorker(workerEnv());
    const firstPid = first.proc.pid!;
    await eventually(
      async () => {
        const runs = runsIn(log);
        return (
          runs.some((run) => run.id === slow.id && run.event === 'start') &&
          runs.filter((run) => run.event === 'end').length >= 5
        );
      },
      20_000,
      20,
    );
    first.proc.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    expect(first.proc.signalCode).toBe('SIGKILL');
    // Nothing settled the run it held: the record still shows it ACTIVE.
    expect(await read(slow.id)).toMatchObject({ state: 'ACTIVE', attempts: 1 });
    expect((await stats()).completed).toBeLessThan(51);

    const second = await startWorker(workerEnv());
    await eventually(async () => (await stats()).completed === 51, 30_000);
    second.proc.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    expect(await stats()).toEqual(statsWith({ completed: 51 }));
    const records = await Promise.all(all.map((task) => read(task.id)));
    expect(records.map((record) => record!.state)).toEqual(all.map(() => 'COMPLETED'));

    // The slow task: killed with the first worker, run again by the second, and done.
    const slowRecord = records[0]!;
    expect(slowRecord).toMatchObject({ state: 'COMPLETED', attempts: 2, result: JSON.stringify({ attempt: 2 }) });
    // The lost run's lease error was cleared when the second run completed.
    expect(slowRecord.error).toBeUndefined();
    const runs = runsIn(log);
    expect(runs.filter((run) => run.id === slow.id).map((run) => [run.event, run.attempt, run.pid])).toEqual([
      ['start', 1, firstPid],
      ['start', 2, second.proc.pid],
      ['end', 2, second.proc.pid],
    ]);

    // Every quick task ran at least once and completed, without an error left; one the first
    // worker held when it died ran twice (attempt 2), any other once.
    for (const record of records.slice(1)) {
      const starts = runs.filter((run) => run.id === record!.id && run.event === 'start');
      expect(starts.length).toBeGreaterThanOrEqual(1);
      expect(starts.length).toBeLessThanOrEqual(record!.attempts);
      expect([1, 2]).toContain(record!.attempts);
      expect(record!.error).toBeUndefined();
      expect(JSON.parse(record!.result!)).toEqual({ id: record!.id, attempt: record!.attempts });
      expect(starts.at(-1)!.pid).toBe(record!.attempts === 2 ? second.proc.pid : starts[0].pid);
    }
  }, 60_000);

  it('gives a task whose worker died its last attempt as FAILED with the lease error', async () => {
    // A task enqueued with maxAttempts 3 whose first two runs were lost to dying workers.
    const log = path.join(tempDir(), 'runs.jsonl');
    const task = await enqueue('stall', { log, stallAttempts: 99 });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const worker = await startWorker(workerEnv());
      await eventually(async () => runsIn(log).filter((run) => run.event === 'start').length === attempt, 20_000, 20);
      worker.proc.kill('SIGKILL');
      await worker.exited;
    }
    const last = await startWorker(workerEnv());
    await eventually(async () => (await read(task.id))!.state === 'FAILED', 20_000);
    expect(await read(task.id)).toMatchObject({ state: 'FAILED', attempts: 3, error: LEASE_ERROR });
    expect(await stats()).toEqual(statsWith({ failed: 1 }));
    expect(runsIn(log).map((run) => run.attempt)).toEqual([1, 2, 3]);
    last.proc.kill('SIGTERM');
    expect(await last.exited).toBe(0);
  }, 60_000);
});

describe('leases, timeouts and concurrency', () => {
  it('keeps the lease of a task running longer than TASK_VISIBILITY_TIMEOUT_MS while its worker is alive', async () => {
    const log = path.join(tempDir(), 'runs.jsonl');
    const task = await enqueue('work', { log, ms: 2500 });
    // A second worker, whose poller would hand the task out again if the lease lapsed.
    const workers = await Promise.all([startWorker(workerEnv()), startWorker(workerEnv())]);
    await eventually(async () => (await stats()).completed === 1, 20_000);
    expect(await read(task.id)).toMatchObject({ state: 'COMPLETED', attempts: 1, error: undefined });
    expect(runsIn(log).map((run) => [run.event, run.attempt])).toEqual([
      ['start', 1],
      ['end', 1],
    ]);
    for (const worker of workers) worker.proc.kill('SIGTERM');
    expect(await Promise.all(workers.map((worker) => worker.exited))).toEqual([0, 0]);
  }, 30_000);

  it('does not record the outcome of a run whose lease ran out while its worker was unresponsive', async () => {
    const log = path.join(tempDir(), 'runs.jsonl');
    const task = await enqueue('spin', { log, ms: 5000, spinAttempts: 1 });
    const workers = await Promise.all([startWorker(workerEnv()), startWorker(workerEnv())]);
    await eventually(async () => (await read(task.id))!.state === 'COMPLETED', 20_000);
    const starts = runsIn(log).filter((run) => run.event === 'start');
    expect(starts.map((run) => run.attempt)).toEqual([1, 2]);
    expect(starts[1].pid).not.toBe(starts[0].pid);
    const completed = (await read(task.id))!;
    expect(completed).toMatchObject({ attempts: 2, result: JSON.stringify({ attempt: 2, pid: starts[1].pid }) });
    // The lost run's lease error went when the second run completed.
    expect(completed.error).toBeUndefined();

    // The first run ends late; its worker is told it no longer holds the run and records nothing.
    const blocked = workers.find((worker) => worker.proc.pid === starts[0].pid)!;
    await blocked.waitFor((line) => typeof line.msg === 'string' && line.msg.startsWith('run no longer held'));
    expect(await read(task.id)).toEqual(completed);
    expect(await stats()).toEqual(statsWith({ completed: 1 }));
    for (const worker of workers) worker.proc.kill('SIGTERM');
    expect(await Promise.all(workers.map((worker) => worker.exited))).toEqual([0, 0]);
  }, 40_000);

  it('stops a run that takes longer than TASK_RUN_TIMEOUT_MS and runs the task again', async () => {
    const log = path.join(tempDir(), 'runs.jsonl');
    // A long backoff holds the task DELAYED after the timed-out run, so its error can be read.
    const { task } = await tasks.enqueue({
      queue: 'jobs',
      name: 'stall',
      args: JSON.stringify({ log, stallAttempts: 1 }),
      priority: 'NORMAL',
      delayMs: 0,
      idempotencyKey: undefined,
      backoffMs: 60_000,
    });
    const worker = await startWorker(workerEnv({ TASK_RUN_TIMEOUT_MS: '300' }));
    await eventually(async () => (await read(task.id))!.state === 'DELAYED', 20_000);
    expect(await read(task.id)).toMatchObject({ attempts: 1, error: 'the run took longer than 300 ms' });
    await tasks.reschedule('jobs', String(task.number), 0);
    await eventually(async () => (await read(task.id))!.state === 'COMPLETED', 20_000);
    expect(await read(task.id)).toMatchObject({
      attempts: 2,
      error: undefined,
      result: JSON.stringify({ attempt: 2 }),
    });
    expect(runsIn(log).map((run) => [run.event, run.attempt])).toEqual([
      ['start', 1],
      ['start', 2],
      ['end', 2],
    ]);
    worker.proc.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 30_000);

  it('runs WORKER_CONCURRENCY tasks at once, and no more', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'runs.jsonl');
    const release = path.join(dir, 'release');
    for (let i = 0; i < 6; i++) await enqueue('hold', { log, release });
    const worker = await startWorker(workerEnv({ WORKER_CONCURRENCY: '3' }));
    await eventually(async () => runsIn(log).length >= 3, 20_000, 20);
    // A window in which a fourth run would start if the limit were not kept.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runsIn(log)).toHaveLength(3);
    expect(await stats()).toEqual(statsWith({ active: 3, waiting: { NORMAL: 3 } }));

    fs.writeFileSync(release, '');
    await eventually(async () => (await stats()).completed === 6, 20_000);
    let running = 0;
    let most = 0;
    for (const run of runsIn(log)) {
      running += run.event === 'start' ? 1 : -1;
      most = Math.max(most, running);
    }
    expect([running, most]).toEqual([0, 3]);
    worker.proc.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 30_000);

  it('three worker processes on one queue run each of 300 tasks exactly once', async () => {
    const log = path.join(tempDir(), 'runs.jsonl');
    const workers = await Promise.all([startWorker(workerEnv()), startWorker(workerEnv()), startWorker(workerEnv())]);
    const priorities: TaskPriority[] = ['HIGH', 'NORMAL', 'LOW'];
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push((await enqueue('work', { log }, priorities[i % 3])).id);
    await eventually(async () => (await stats()).completed === 300, 60_000);
    expect(await stats()).toEqual(statsWith({ completed: 300 }));

    const runs = runsIn(log);
    const starts = runs.filter((run) => run.event === 'start');
    expect(starts.map((run) => run.id).sort()).toEqual([...ids].sort());
    expect(starts.every((run) => run.attempt === 1)).toBe(true);
    const pids = new Set(workers.map((worker) => worker.proc.pid));
    expect(starts.every((run) => pids.has(run.pid))).toBe(true);
    const records = await Promise.all(ids.map((id) => read(id)));
    expect(records.filter((record) => record!.state === 'COMPLETED' && record!.attempts === 1)).toHaveLength(300);
    for (const worker of workers) worker.proc.kill('SIGTERM');
    expect(await Promise.all(workers.map((worker) => worker.exited))).toEqual([0, 0, 0]);
  }, 90_000);

  it('remembers only the newest TASK_HISTORY finished tasks, forgetting their args, results and idempotency keys', async () => {
    const keys = queueKeys('jobs');
    const first = await tasks.enqueue({
      queue: 'jobs',
      name: 'work',
      args: JSON.stringify({ ms: 5 }),
      priority: 'NORMAL',
      delayMs: 0,
      idempotencyKey: 'first',
    });
    for (let i = 2; i <= 10; i++) await enqueue('work', { ms: 5 });
    const worker = await startWorker(workerEnv({ TASK_HISTORY: '5', WORKER_CONCURRENCY: '1' }));
    await eventually(async () => (await stats()).completed === 10 && (await commands.hlen(keys.meta)) === 5, 20_000);

    const records = await Promise.all(Array.from({ length: 10 }, (_, i) => read(`jobs:${i + 1}`)));
    expect(records.map((record) => record?.state)).toEqual([
      ...Array(5).fill(undefined),
      ...Array(5).fill('COMPLETED'),
    ]);
    expect((await commands.hkeys(keys.args)).sort()).toEqual(['10', '6', '7', '8', '9']);
    expect((await commands.hkeys(keys.results)).sort()).toEqual(['10', '6', '7', '8', '9']);
    expect(await commands.zcard(keys.done)).toBe(5);
    expect(await commands.hlen(keys.idempotency)).toBe(0);
    // Counts are totals since the queue began.
    expect(await stats()).toEqual(statsWith({ completed: 10 }));

    worker.proc.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    const again = await tasks.enqueue({
      queue: 'jobs',
      name: 'work',
      args: JSON.stringify({ ms: 5 }),
      priority: 'NORMAL',
      delayMs: 0,
      idempotencyKey: 'first',
    });
    expect(first.task.id).toBe('jobs:1');
    expect([again.created, again.task.id]).toEqual([true, 'jobs:11']);
  }, 30_000);
});

describe('SIGTERM', () => {
  it('finishes the task in hand (about 500 ms), records it COMPLETED, and exits 0', async () => {
    const log = path.join(tempDir(), 'runs.jsonl');
    const task = await enqueue('work', { log, ms: 500 });
    const worker = await startWorker(workerEnv({ SHUTDOWN_TIMEOUT_MS: '20000' }));
    await eventually(async () => runsIn(log).some((run) => run.event === 'start'), 20_000, 20);
    worker.proc.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(await read(task.id)).toMatchObject({
      state: 'COMPLETED',
      attempts: 1,
      result: JSON.stringify({ id: task.id, attempt: 1 }),
    });
    expect((await read(task.id))!.error).toBeUndefined();
    expect(runsIn(log).map((run) => run.event)).toEqual(['start', 'end']);
    expect(await stats()).toEqual(statsWith({ completed: 1 }));
  }, 30_000);

  it('takes no new task once told to stop, though it has free slots, and exits only after the task in hand', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'runs.jsonl');
    const release = path.join(dir, 'release');
    const held = await enqueue('hold', { log, release });
    const worker = await startWorker(workerEnv({ WORKER_CONCURRENCY: '4', SHUTDOWN_TIMEOUT_MS: '30000' }));
    await eventually(async () => runsIn(log).some((run) => run.event === 'start'), 20_000, 20);

    worker.proc.kill('SIGTERM');
    await worker.waitFor((line) => line.msg === 'stopping: finishing the tasks in hand');
    const late = await enqueue('work', { log });
    // A window in which a worker still taking tasks would take this one (it has 3 free slots).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(worker.proc.exitCode).toBeNull();
    expect(await read(held.id)).toMatchObject({ state: 'ACTIVE', attempts: 1 });

    fs.writeFileSync(release, '');
    expect(await worker.exited).toBe(0);
    expect(await read(held.id)).toMatchObject({ state: 'COMPLETED', attempts: 1 });
    expect(await read(late.id)).toMatchObject({ state: 'WAITING', attempts: 0 });
    expect((await read(late.id))!.startedAt).toBeUndefined();
    expect(runsIn(log).map((run) => [run.event, run.id])).toEqual([
      ['start', held.id],
      ['end', held.id],
    ]);
    expect(await stats()).toEqual(statsWith({ completed: 1, waiting: { NORMAL: 1 } }));
  }, 30_000);

  it('abandons a task still running after SHUTDOWN_TIMEOUT_MS and exits 0; another worker then completes it', async () => {
    const log = path.join(tempDir(), 'runs.jsonl');
    const task = await enqueue('stall', { log, stallAttempts: 1 });
    const first = await startWorker(workerEnv({ SHUTDOWN_TIMEOUT_MS: '300' }));
    await eventually(async () => runsIn(log).length === 1, 20_000, 20);
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // Not lost: recorded as failed for now (to be retried) or still held under a lease that will run out.
    expect(['ACTIVE', 'DELAYED', 'WAITING']).toContain((await read(task.id))!.state);

    const second = await startWorker(workerEnv());
    await eventually(async () => (await read(task.id))!.state === 'COMPLETED', 20_000);
    expect(await read(task.id)).toMatchObject({ attempts: 2, result: JSON.stringify({ attempt: 2 }) });
    expect(
      runsIn(log)
        .filter((run) => run.event === 'start')
        .map((run) => [run.attempt, run.pid]),
    ).toEqual([
      [1, first.proc.pid],
      [2, second.proc.pid],
    ]);
    second.proc.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 30_000);
  it('stops at once with exit code 1 on a second signal, and the task in hand still runs elsewhere', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'runs.jsonl');
    const release = path.join(dir, 'release');
    const task = await enqueue('hold', { log, release });
    const first = await startWorker(workerEnv({ SHUTDOWN_TIMEOUT_MS: '30000' }));
    await eventually(async () => runsIn(log).length === 1, 20_000, 20);
    first.proc.kill('SIGTERM');
    await first.waitFor((line) => line.msg === 'stopping: finishing the tasks in hand');
    first.proc.kill('SIGINT');
    expect(await first.exited).toBe(1);
    expect(await read(task.id)).toMatchObject({ state: 'ACTIVE', attempts: 1 });

    fs.writeFileSync(release, '');
    const second = await startWorker(workerEnv());
    await eventually(async () => (await read(task.id))!.state === 'COMPLETED', 20_000);
    expect(await read(task.id)).toMatchObject({ attempts: 2, error: undefined });
    second.proc.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 30_000);
});

describe('order', () => {
  it('runs HIGH before NORMAL before LOW, FIFO within a priority, and due delayed tasks ahead of their priority in due order', async () => {
    const log = path.join(tempDir(), 'runs.jsonl');
    const plan: [string, TaskPriority, number][] = [
      ['low-1', 'LOW', 0],
      ['normal-1', 'NORMAL', 0],
      ['due-normal-late', 'NORMAL', 400],
      ['high-1', 'HIGH', 0],
      ['due-low', 'LOW', 100],
      ['normal-2', 'NORMAL', 0],
      ['due-normal-early', 'NORMAL', 200],
      ['low-2', 'LOW', 0],
      ['high-2', 'HIGH', 0],
    ];
    const byId = new Map<string, string>();
    let lastDue = 0;
    for (const [label, priority, delayMs] of plan) {
      const task = await enqueue('work', { log, label }, priority, delayMs);
      byId.set(task.id, label);
      lastDue = Math.max(lastDue, task.runAt);
    }
    // Every delay has ended before any worker (or poller) starts.
    await eventually(async () => (await redisNowMs()) > lastDue, 10_000, 20);
    expect(await stats()).toEqual(statsWith({ waiting: { HIGH: 2, NORMAL: 2, LOW: 2 }, delayed: 3 }));

    const worker = await startWorker(workerEnv({ WORKER_CONCURRENCY: '1' }));
    await eventually(async () => (await stats()).completed === plan.length, 20_000);
    const order = runsIn(log)
      .filter((run) => run.event === 'start')
      .map((run) => byId.get(run.id));
    expect(order).toEqual([
      'high-1',
      'high-2',
      'due-normal-early',
      'due-normal-late',
      'normal-1',
      'normal-2',
      'due-low',
      'low-1',
      'low-2',
    ]);
    worker.proc.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 30_000);

  it('serves only the queues in WORKER_QUEUES, several at once', async () => {
    const log = path.join(tempDir(), 'runs.jsonl');
    const onQueue = (queue: string) =>
      tasks.enqueue({
        queue,
        name: 'work',
        args: JSON.stringify({ log }),
        priority: 'NORMAL',
        delayMs: 0,
        idempotencyKey: undefined,
      });
    await onQueue('alpha');
    await onQueue('beta');
    await onQueue('gamma');
    const worker = await startWorker(workerEnv({ WORKER_QUEUES: 'alpha, beta' }));
    await eventually(
      async () => (await tasks.stats('alpha')).completed === 1 && (await tasks.stats('beta')).completed === 1,
      20_000,
    );
    worker.proc.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect((await tasks.get('gamma', '1'))!.state).toBe('WAITING');
    expect(
      runsIn(log)
        .filter((run) => run.event === 'start')
        .map((run) => run.id)
        .sort(),
    ).toEqual(['alpha:1', 'beta:1']);
  }, 30_000);
});

describe('handlers that throw or return odd values', () => {
  // Each ends as a run's outcome; the worker process stays up and takes the next task.
  const failures: [kind: string, error: string, attempts: number][] = [
    ['null-prototype', 'the handler failed (it threw a value that cannot be shown as text)', 3],
    ['message-undefined', 'the handler threw Error without a message', 3],
    ['message-number', '42', 3],
    ['to-string-throws', 'the handler failed (it threw a value that cannot be shown as text)', 3],
    ['message-getter-throws', 'the handler threw Error without a message', 3],
    ['revoked-proxy', 'the handler failed (it threw a value that cannot be shown as text)', 3],
    ['throws-null', 'the handler threw null', 3],
    ['long-message', '\u{1F600}'.repeat(2000), 3],
    ['rejects-symbol', 'Symbol(odd)', 3],
    ['then-getter-throws', 'then getter', 3],
    // The same result fails the same way every time: not retried.
    ['bigint-result', 'the result cannot be stored as JSON: Do not know how to serialize a BigInt', 1],
    ['to-json-throws', 'the result cannot be stored as JSON: cannot serialise', 1],
    ['deep-result', 'the result may be nested at most 32 deep', 1],
  ];

  it('records every odd throw or result as a FAILED or COMPLETED run, and the worker process stays up', async () => {
    const failing = await Promise.all(failures.map(async ([kind]) => enqueue('odd', { kind })));
    const cyclic = await enqueue('odd', { kind: 'cyclic-result' });
    const noResult = await enqueue('odd', { kind: 'function-result' });
    const worker = await startWorker(workerEnv());
    const finished = async (id: string): Promise<boolean> => ['FAILED', 'COMPLETED'].includes((await read(id))!.state);
    await eventually(
      async () => (await Promise.all([...failing, cyclic, noResult].map((task) => finished(task.id)))).every(Boolean),
      20_000,
    );

    for (const [index, [kind, error, attempts]] of failures.entries()) {
      const record = (await read(failing[index].id))!;
      expect({ kind, state: record.state, error: record.error, attempts: record.attempts }).toEqual({
        kind,
        state: 'FAILED',
        error,
        attempts,
      });
    }
    const cyclicRecord = (await read(cyclic.id))!;
    expect(cyclicRecord.state).toBe('FAILED');
    expect(cyclicRecord.attempts).toBe(1);
    expect(cyclicRecord.error).toMatch(/^the result cannot be stored as JSON: Converting circular structure to JSON/);
    expect(await read(noResult.id)).toMatchObject({ state: 'COMPLETED', attempts: 1 });
    expect((await read(noResult.id))!.result).toBeUndefined();

    // Still the same process, still taking tasks, nothing logged as fatal.
    expect(worker.proc.exitCode).toBeNull();
    const after = await enqueue('echo', { after: true });
    await eventually(async () => (await read(after.id))!.state === 'COMPLETED', 20_000);
    expect(worker.lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
    worker.proc.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 60_000);
});

describe('a handler that leaves a promise to reject unawaited', () => {
  it('completes its task, logs the rejection at error level and keeps the worker process up', async () => {
    const stray = await enqueue('odd', { kind: 'stray-rejection' });
    const worker = await startWorker(workerEnv());
    await eventually(async () => (await read(stray.id))!.state === 'COMPLETED', 20_000);
    const line = await worker.waitFor((l) => l.msg === 'unhandled promise rejection', 5000);
    expect(line).toMatchObject({ level: 50, err: expect.objectContaining({ message: 'stray rejection' }) });
    const after = await enqueue('echo', { after: true });
    await eventually(async () => (await read(after.id))!.state === 'COMPLETED', 20_000);
    expect(worker.proc.exitCode).toBeNull();
    expect(worker.lines.filter((l) => Number(l.level) >= 60)).toEqual([]);
    worker.proc.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 30_000);
});

describe('handler modules', () => {
  it('loads an ES module exporting `handlers`, and passes args, id, name and attempt', async () => {
    const dir = tempDir();
    const module = path.join(dir, 'handlers.mjs');
    fs.writeFileSync(
      module,
      'export const handlers = { greet: (args, ctx) => ({ hello: args.who, id: ctx.id, name: ctx.name, attempt: ctx.attempt }) };\n',
    );
    const task = await enqueue('greet', { who: 'мир 🌍' });
    const worker = await startWorker(workerEnv({ TASK_HANDLERS: module }));
    await eventually(async () => (await read(task.id))!.state === 'COMPLETED', 20_000);
    expect(JSON.parse((await read(task.id))!.result!)).toEqual({
      hello: 'мир 🌍',
      id: task.id,
      name: 'greet',
      attempt: 1,
    });
    worker.proc.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 30_000);

  it('loads a CommonJS module whose exports are the handlers themselves, relative to the working directory', async () => {
    const dir = tempDir();
    const module = path.join(dir, 'plain.cjs');
    fs.writeFileSync(module, 'module.exports = { double: (args) => args * 2 };\n');
    const task = await enqueue('double', 21);
    const worker = await startWorker(
      workerEnv({ TASK_HANDLERS: path.relative(path.resolve(__dirname, '..', '..'), module) }),
    );
    await eventually(async () => (await read(task.id))!.state === 'COMPLETED', 20_000);
    expect((await read(task.id))!.result).toBe('42');
    worker.proc.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 30_000);
});

describe('start-up errors', () => {
  const complete = (): Record<string, string> => ({
    REDIS_URL: redis.url,
    WORKER_QUEUES: 'jobs',
    TASK_HANDLERS: HANDLERS,
  });
  const without = (...names: string[]): Record<string, string> => {
    const env = complete();
    for (const name of names) delete env[name];
    return env;
  };

  it.each([
    ['REDIS_URL', ['REDIS_URL']],
    ['WORKER_QUEUES', ['WORKER_QUEUES']],
    ['TASK_HANDLERS', ['TASK_HANDLERS']],
  ])('refuses to start without %s, naming it', async (variable, missing) => {
    const worker = spawnWorker(without(...missing));
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toContain(variable);
    for (const other of ['REDIS_URL', 'WORKER_QUEUES', 'TASK_HANDLERS'].filter((name) => name !== variable)) {
      expect(worker.output()).not.toContain(`- ${other}`);
    }
    expect(await redis.client.dbsize()).toBe(0);
  });

  it('names every missing variable at once', async () => {
    const worker = spawnWorker({});
    expect(await worker.exited).toBe(1);
    const output = worker.output();
    for (const variable of ['REDIS_URL', 'WORKER_QUEUES', 'TASK_HANDLERS']) expect(output).toContain(variable);
  });

  it.each([
    ['a number', 'module.exports = 42;\n', 'must export `handlers`'],
    ['`handlers` that is a string', "exports.handlers = 'send';\n", 'must export `handlers`'],
    [
      'a handler that is not a function',
      "exports.handlers = { send: () => 1, broken: 'nope' };\n",
      'handlers broken are not functions',
    ],
  ])('refuses to start with a handlers module exporting %s, naming the module', async (_case, source, message) => {
    const module = path.join(tempDir(), 'bad-handlers.cjs');
    fs.writeFileSync(module, source);
    const worker = spawnWorker({ ...complete(), TASK_HANDLERS: module });
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toContain(message);
    expect(worker.output()).toContain(module);
  });

  it('refuses to start with a handlers module that does not exist, naming it', async () => {
    const module = path.join(tempDir(), 'missing-handlers.cjs');
    const worker = spawnWorker({ ...complete(), TASK_HANDLERS: module });
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toContain(module);
  });

  it('refuses to start with a CommonJS handlers module that exports no handlers at all, rather than failing every task for good', async () => {
    const module = path.join(tempDir(), 'empty-handlers.cjs');
    fs.writeFileSync(module, '// forgot to export the handlers\n');
    const task = await enqueue('work', {});
    const worker = spawnWorker({ ...complete(), TASK_HANDLERS: module });
    // Whichever comes first: the worker exits, or it takes the task.
    let exitCode: number | null | undefined;
    void worker.exited.then((code) => (exitCode = code));
    await eventually(async () => exitCode !== undefined || (await read(task.id))!.state !== 'WAITING', 20_000, 20);
    const record = (await read(task.id))!;
    expect({ exitCode, state: record.state, error: record.error }).toEqual({
      exitCode: 1,
      state: 'WAITING',
      error: undefined,
    });
    expect(worker.output()).toContain(module);
  });

  it.each([
    ['a bad WORKER_QUEUES', { WORKER_QUEUES: 'my queue' }, 'WORKER_QUEUES must be'],
    ['a WORKER_CONCURRENCY of 0', { WORKER_CONCURRENCY: '0' }, 'WORKER_CONCURRENCY must be an integer'],
    [
      'a TASK_VISIBILITY_TIMEOUT_MS under a second',
      { TASK_VISIBILITY_TIMEOUT_MS: '999' },
      'TASK_VISIBILITY_TIMEOUT_MS must be an integer',
    ],
    ['a REDIS_URL that is not redis://', { REDIS_URL: 'http://127.0.0.1:6379' }, 'REDIS_URL must be a redis://'],
  ])('refuses to start with %s, naming the variable', async (_case, env, message) => {
    const worker = spawnWorker({ ...complete(), ...env });
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toContain(message);
  });

  it('refuses to start when Redis cannot be reached, saying so', async () => {
    const worker = spawnWorker({ ...complete(), REDIS_URL: 'redis://127.0.0.1:1' });
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toContain('Cannot reach Redis');
  });
});
