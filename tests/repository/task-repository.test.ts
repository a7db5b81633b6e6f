// Task queues against a real redis-server: the scripts one step at a time (order, delays,
// leases, retries, history), then workers and pollers together on 1,000 tasks. Orders and
// times are checked from what Redis recorded, never from what the code under test reports.
import Redis from 'ioredis';
import pino from 'pino';
import { queueKeys } from '../../src/redis/keys';
import { TaskRepository, type TakenTask, type TaskSettings } from '../../src/redis/task';
import type { TaskHandlers } from '../../src/workers/task-handlers';
import { TaskPoller } from '../../src/workers/task-poller';
import { TaskWorker } from '../../src/workers/task-worker';
import { eventually } from '../support/graphql';
import { captureLogs } from '../support/logs';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';
import { setTimeout as sleep } from 'node:timers/promises';

let redis: TestRedis;
const stoppers: (() => Promise<void>)[] = [];
const logger = pino({ level: 'silent' });
const SETTINGS: TaskSettings = {
  maxAttempts: 3,
  backoffMs: 100,
  maxBackoffMs: 1000,
  history: 10_000,
  maxTasksPerQueue: 100_000,
};

const connection = (): Redis => scriptClient(redis);

const repository = (settings: Partial<TaskSettings> = {}) =>
  new TaskRepository(connection(), { ...SETTINGS, ...settings });
beforeAll(async () => {
  redis = await startTestRedis();
});

afterEach(async () => {
  await Promise.all(stoppers.splice(0).map((stop) => stop()));
  await redis.client.flushdb();
});

afterAll(async () => {
  await redis.stop();
});

function startPoller(tasks: TaskRepository, queue: string): TaskPoller {
  const poller = new TaskPoller({
    queue,
    repository: tasks,
    blocking: redis.newClient(),
    control: connection(),
    logger,
    maxSleepMs: 200,
  });
  poller.start();
  stoppers.push(() => poller.stop());
  return poller;
}

function startWorker(
  tasks: TaskRepository,
  queue: string,
  handlers: TaskHandlers,
  options: { concurrency?: number; leaseMs?: number; runTimeoutMs?: number } = {},
): TaskWorker {
  const worker = new TaskWorker({
    queue,
    repository: tasks,
    blocking: redis.newClient(),
    handlers,
    concurrency: options.concurrency ?? 4,
    leaseMs: options.leaseMs ?? 5000,
    runTimeoutMs: options.runTimeoutMs ?? 10_000,
    maxResultBytes: 1000,
    logger,
    idleWaitMs: 500,
  });
  worker.start();
  stoppers.push(() => worker.stop(2000));
  return worker;
}

const enqueue = (
  tasks: TaskRepository,
  queue: string,
  name: string,
  priority: 'HIGH' | 'NORMAL' | 'LOW' = 'NORMAL',
  delayMs = 0,
  idempotencyKey?: string,
  args?: string,
) => tasks.enqueue({ queue, name, args, priority, delayMs, idempotencyKey }).then(({ task }) => task);

/**
 * Takes the first run's lease away (as when it stalls past it) until the task has been given out
 * again: the worker's heartbeat may renew the lease between this and the reclaim, so it is
 * repeated, and only ever on the first run (one script: never on the second run's lease).
 */
async function takeFirstLeaseAway(
  queue: string,
  number: number,
  reclaim: () => Promise<unknown> = async () => undefined,
): Promise<void> {
  const keys = queueKeys(queue);
  const expireFirstRun = `
    local record = cjson.decode(redis.call('HGET', KEYS[1], ARGV[1]))
    if record.state == 'ACTIVE' and record.attempts == 1 then
      redis.call('ZADD', KEYS[2], 0, ARGV[1])
      return 1
    end
    return 0`;
  await eventually(
    async () => {
      if ((await redis.client.eval(expireFirstRun, 2, keys.meta, keys.active, String(number))) === 0) return true;
      await reclaim();
      return false;
    },
    30_000,
    50,
  );
}

async function takeAll(tasks: TaskRepository, queue: string): Promise<TakenTask[]> {
  const taken: TakenTask[] = [];
  for (;;) {
    const [one] = await tasks.take(queue, 1, 10_000);
    if (!one) return taken;
    taken.push(one);
  }
}

describe('task scripts, step by step', () => {
  it('returns from enqueue the record exactly as it was stored, for waiting and delayed tasks, with and without arguments or a key', async () => {
    const tasks = repository({ maxAttempts: 4 });
    const requests = [
      { priority: 'HIGH' as const, delayMs: 0, args: '{"to":"a"}', idempotencyKey: undefined },
      { priority: 'LOW' as const, delayMs: 0, args: undefined, idempotencyKey: 'once' },
      { priority: 'NORMAL' as const, delayMs: 5000, args: '[1,2]', idempotencyKey: 'later' },
      { priority: 'LOW' as const, delayMs: 1, args: undefined, idempotencyKey: undefined },
    ];
    for (const [i, request] of requests.entries()) {
      const before = Date.now();
      const { task, created } = await tasks.enqueue({ queue: 'shape', name: `job-${i}`, ...request });
      expect(created).toBe(true);
      expect(task).toEqual(await tasks.get('shape', String(task.number)));
      expect(task).toMatchObject({
        id: `shape:${i + 1}`,
        number: i + 1,
        name: `job-${i}`,
        priority: request.priority,
        state: request.delayMs > 0 ? 'DELAYED' : 'WAITING',
        attempts: 0,
        maxAttempts: 4,
      });
      expect(task.runAt - task.createdAt).toBe(request.delayMs);
      // The Redis server's clock, on this machine: within the test's own reading of it.
      expect(task.createdAt).toBeGreaterThanOrEqual(before - 1000);
      expect(task.createdAt).toBeLessThanOrEqual(Date.now() + 1000);
    }
  });

  it('wakes a worker for a task that can run now and a poller only for a delay sooner than any it knew, and writes only the keys it needs', async () => {
    const tasks = repository();
    const keys = queueKeys('wake');
    await enqueue(tasks, 'wake', 'now', 'LOW');
    await enqueue(tasks, 'wake', 'now-too', 'LOW');
    expect(await redis.client.lrange(keys.lists[5], 0, -1)).toEqual(['1', '2']);
    expect(await redis.client.llen(keys.workerWake)).toBe(1);
    expect(await redis.client.exists(keys.pollerWake, keys.delayed, keys.idempotency)).toBe(0);

    await enqueue(tasks, 'wake', 'later', 'HIGH', 60_000);
    expect(await redis.client.llen(keys.pollerWake)).toBe(1);
    await redis.client.del(keys.pollerWake);
    await enqueue(tasks, 'wake', 'even-later', 'HIGH', 120_000);
    expect(await redis.client.llen(keys.pollerWake)).toBe(0);
    await enqueue(tasks, 'wake', 'sooner', 'HIGH', 30_000, 'k-sooner');
    expect(await redis.client.llen(keys.pollerWake)).toBe(1);
    expect(await redis.client.zrange(keys.delayed, 0, -1)).toEqual(['5', '3', '4']);
    expect(await redis.client.llen(keys.lists[1])).toBe(0);
    expect(await redis.client.hgetall(keys.idempotency)).toEqual({ 'k-sooner': expect.stringMatching(/^5 \S+$/) });
    expect(await redis.client.hlen(keys.args)).toBe(0);
    expect(await redis.client.get(keys.seq)).toBe('5');
  });

  it('keeps each queue apart when it uses more queues than it keeps key names for', async () => {
    const tasks = repository();
    const queues = Array.from({ length: 1100 }, (_, i) => `many-${i}`);
    for (const queue of queues) await enqueue(tasks, queue, queue);
    for (const queue of [queues[0], queues[1023], queues[1024], queues[1099]]) {
      expect((await tasks.stats(queue)).waiting.NORMAL).toBe(1);
      const [taken] = await tasks.take(queue, 2, 1000);
      expect(taken).toMatchObject({ id: `${queue}:1`, name: queue });
    }
  });

  it('hands out HIGH before NORMAL before LOW, and tasks that came due ahead of the others of their priority, in due order', async () => {
    const tasks = repository();
    const q = 'order';
    const readyH = await enqueue(tasks, q, 'ready-high', 'HIGH');
    const readyN1 = await enqueue(tasks, q, 'ready-normal-1');
    const readyL = await enqueue(tasks, q, 'ready-low', 'LOW');
    const readyN2 = await enqueue(tasks, q, 'ready-normal-2');
    const dueN30 = await enqueue(tasks, q, 'due-normal-30', 'NORMAL', 30);
    const dueN10 = await enqueue(tasks, q, 'due-normal-10', 'NORMAL', 10);
    const dueL = await enqueue(tasks, q, 'due-low', 'LOW', 10);
    const dueH = await enqueue(tasks, q, 'due-high', 'HIGH', 40);
    const notYet = await enqueue(tasks, q, 'not-yet', 'HIGH', 60_000);
    await sleep(60);
    const step = await tasks.promote(q);
    expect(step.moved).toBe(4);
    expect(step.nextInMs).toBeGreaterThan(50_000);
    const order = (await takeAll(tasks, q)).map((task) => task.id);
    expect(order).toEqual([dueH, readyH, dueN10, dueN30, readyN1, readyN2, dueL, readyL].map((task) => task.id));
    expect(order).not.toContain(notYet.id);
    expect((await tasks.get(q, String(notYet.number)))!.state).toBe('DELAYED');
  });

  it('never hands out a delayed task before its time, and reports when the next one is due', async () => {
    const tasks = repository();
    const delayed = await enqueue(tasks, 'later', 'x', 'HIGH', 300);
    expect(delayed.state).toBe('DELAYED');
    expect(delayed.runAt - delayed.createdAt).toBe(300);
    const early = await tasks.promote('later');
    expect(early.moved).toBe(0);
    expect(early.nextInMs).toBeGreaterThan(150);
    expect(early.nextInMs).toBeLessThanOrEqual(300);
    expect(await tasks.take('later', 10, 1000)).toEqual([]);
    await sleep(early.nextInMs + 20);
    expect((await tasks.promote('later')).moved).toBe(1);
    const [taken] = await tasks.take('later', 10, 1000);
    expect(taken.id).toBe(delayed.id);
    const record = (await tasks.get('later', String(delayed.number)))!;
    expect(record.startedAt!).toBeGreaterThanOrEqual(record.runAt);
  });

  it('gives a run whose worker went silent to another worker after a backoff, and ignores the silent worker afterwards', async () => {
    const tasks = repository({ backoffMs: 50 });
    const task = await enqueue(tasks, 'lease', 'x');
    const [first] = await tasks.take('lease', 1, 100);
    expect(first.attempt).toBe(1);
    await sleep(150);
    const step = await tasks.promote('lease');
    expect(step.expired).toBe(1);
    let record = (await tasks.get('lease', String(task.number)))!;
    expect(record.state).toBe('DELAYED');
    expect(record.error).toMatch(/stopped answering/);
    expect(record.runAt).toBeGreaterThanOrEqual(record.startedAt! + 100 + 50);
    await sleep(80);
    expect((await tasks.promote('lease')).moved).toBe(1);
    const [second] = await tasks.take('lease', 1, 5000);
    expect(second).toMatchObject({ id: task.id, attempt: 2 });

    // The first worker wakes up: it can neither renew nor settle the run it lost.
    expect(await tasks.extend('lease', [first], 5000)).toEqual([first]);
    expect(await tasks.settle('lease', first, { kind: 'COMPLETED', result: '"late"' })).toBeUndefined();
    expect(await tasks.extend('lease', [second], 5000)).toEqual([]);
    expect(await tasks.settle('lease', second, { kind: 'COMPLETED', result: '"on time"' })).toBe('COMPLETED');
    record = (await tasks.get('lease', String(task.number)))!;
    expect(record).toMatchObject({ state: 'COMPLETED', attempts: 2, result: '"on time"' });
    expect(await tasks.stats('lease')).toMatchObject({ active: 0, completed: 1, failed: 0 });
  });

  it('keeps a run whose worker renews its lease', async () => {
    const tasks = repository();
    await enqueue(tasks, 'renewed', 'x');
    const [run] = await tasks.take('renewed', 1, 200);
    for (let i = 0; i < 4; i++) {
      await sleep(100);
      expect(await tasks.extend('renewed', [run], 200)).toEqual([]);
    }
    expect((await tasks.promote('renewed')).expired).toBe(0);
    expect(await tasks.stats('renewed')).toMatchObject({ active: 1 });
  });

  it('retries a failed run with doubling backoff, then FAILS it with the last error', async () => {
    // A second's backoff: each wait below also holds the time from take to settle, which on a
    // loaded machine differed between attempts by more than a 40 ms backoff's doubling.
    const tasks = repository({ maxAttempts: 3, backoffMs: 1000, maxBackoffMs: 10_000 });
    const task = await enqueue(tasks, 'retry', 'x');
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [run] = await tasks.take('retry', 1, 5000);
      expect(run.attempt).toBe(attempt);
      const state = await tasks.settle('retry', run, { kind: 'FAILED', error: `boom ${attempt}`, retry: true });
      const record = (await tasks.get('retry', String(task.number)))!;
      expect(record.error).toBe(`boom ${attempt}`);
      if (attempt < 3) {
        expect(state).toBe('DELAYED');
        waits.push(record.runAt - record.startedAt!);
        await eventually(async () => (await tasks.promote('retry')).moved === 1, 30_000, 20);
      } else {
        expect(state).toBe('FAILED');
        expect(record.finishedAt).toBeDefined();
      }
    }
    expect(waits[0]).toBeGreaterThanOrEqual(1000);
    expect(waits[1]).toBeGreaterThanOrEqual(2000);
    expect(waits[1] - waits[0]).toBeGreaterThanOrEqual(500);
    expect(await tasks.stats('retry')).toMatchObject({ failed: 1, completed: 0, delayed: 0, active: 0 });
  });

  it('fails a run for good at once when another run cannot help', async () => {
    const tasks = repository();
    const task = await enqueue(tasks, 'permanent', 'x');
    const [run] = await tasks.take('permanent', 1, 5000);
    expect(await tasks.settle('permanent', run, { kind: 'FAILED', error: 'no handler', retry: false })).toBe('FAILED');
    expect(await tasks.get('permanent', String(task.number))).toMatchObject({
      state: 'FAILED',
      attempts: 1,
      error: 'no handler',
    });
  });

  it('cancels only tasks that have not started, and a cancelled task is never handed out', async () => {
    const tasks = repository();
    const waiting = await enqueue(tasks, 'cancel', 'w', 'LOW');
    const delayed = await enqueue(tasks, 'cancel', 'd', 'HIGH', 10);
    const running = await enqueue(tasks, 'cancel', 'r', 'HIGH');
    const kept = await enqueue(tasks, 'cancel', 'k', 'LOW');
    const [run] = await tasks.take('cancel', 1, 5000);
    expect(run.id).toBe(running.id);
    expect(await tasks.cancel('cancel', String(waiting.number))).toBe(true);
    expect(await tasks.cancel('cancel', String(delayed.number))).toBe(true);
    expect(await tasks.cancel('cancel', String(running.number))).toBe(false);
    expect(await tasks.cancel('cancel', String(waiting.number))).toBe(false);
    expect(await tasks.cancel('cancel', '999')).toBe(false);
    await sleep(20);
    await tasks.promote('cancel');
    expect((await takeAll(tasks, 'cancel')).map((task) => task.id)).toEqual([kept.id]);
    expect(await tasks.stats('cancel')).toMatchObject({ cancelled: 2, delayed: 0, active: 2 });
    expect(await tasks.get('cancel', String(waiting.number))).toMatchObject({ state: 'CANCELLED' });
  });

  it('reschedules a task that has not started, and refuses one that has', async () => {
    const tasks = repository();
    const task = await enqueue(tasks, 'move', 'x', 'NORMAL', 60_000);
    const moved = (await tasks.reschedule('move', String(task.number), 0))!;
    expect(moved.state).toBe('WAITING');
    const later = (await tasks.reschedule('move', String(task.number), 5000))!;
    expect(later.state).toBe('DELAYED');
    expect(later.runAt).toBeGreaterThanOrEqual(moved.runAt + 4900);
    expect(await tasks.take('move', 1, 5000)).toEqual([]);
    await tasks.reschedule('move', String(task.number), 0);
    await tasks.take('move', 1, 5000);
    await expect(tasks.reschedule('move', String(task.number), 0)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await tasks.reschedule('move', '12345', 0)).toBeUndefined();
  });

  it('returns the first task for a repeated idempotency key, refuses it for a different task, and frees it with the history', async () => {
    const tasks = repository({ history: 2 });
    const first = await tasks.enqueue({
      queue: 'idem',
      name: 'mail',
      args: '{"to":"a"}',
      priority: 'NORMAL',
      delayMs: 0,
      idempotencyKey: 'k1',
    });
    const again = await tasks.enqueue({
      queue: 'idem',
      name: 'mail',
      args: '{"to":"a"}',
      priority: 'NORMAL',
      delayMs: 0,
      idempotencyKey: 'k1',
    });
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ created: false, task: { id: first.task.id, args: '{"to":"a"}' } });
    await expect(
      tasks.enqueue({
        queue: 'idem',
        name: 'mail',
        args: '{"to":"b"}',
        priority: 'NORMAL',
        delayMs: 0,
        idempotencyKey: 'k1',
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await tasks.stats('idem')).waiting.NORMAL).toBe(1);

    // Finish it and two more; the history keeps two, so the first is forgotten with its key.
    for (const key of ['k2', 'k3'])
      await tasks.enqueue({
        queue: 'idem',
        name: 'mail',
        args: undefined,
        priority: 'NORMAL',
        delayMs: 0,
        idempotencyKey: key,
      });
    for (const run of await tasks.take('idem', 3, 5000))
      await tasks.settle('idem', run, { kind: 'COMPLETED', result: undefined });
    await tasks.promote('idem');
    const keys = queueKeys('idem');
    expect(await redis.client.zcard(keys.done)).toBe(2);
    expect(await redis.client.hlen(keys.meta)).toBe(2);
    expect(await redis.client.hexists(keys.args, String(first.task.number))).toBe(0);
    expect(await tasks.get('idem', String(first.task.number))).toBeUndefined();
    const reused = await tasks.enqueue({
      queue: 'idem',
      name: 'mail',
      args: '{"to":"b"}',
      priority: 'NORMAL',
      delayMs: 0,
      idempotencyKey: 'k1',
    });
    expect(reused.created).toBe(true);
    expect(reused.task.id).not.toBe(first.task.id);
  });

  it('refuses a repeated idempotency key for another name, priority or delay, and returns the first task for the same request', async () => {
    const tasks = repository();
    const request = {
      queue: 'idem-fields',
      name: 'mail',
      args: '{"to":"a"}',
      priority: 'NORMAL' as const,
      delayMs: 1000,
      idempotencyKey: 'k',
    };
    const first = await tasks.enqueue(request);
    for (const change of [{ name: 'other' }, { priority: 'HIGH' as const }, { delayMs: 0 }, { args: undefined }])
      await expect(tasks.enqueue({ ...request, ...change })).rejects.toMatchObject({ code: 'CONFLICT' });
    const again = await tasks.enqueue(request);
    expect(again).toEqual({ created: false, task: first.task });
    expect(await redis.client.zcard(queueKeys('idem-fields').delayed)).toBe(1);
  });

  it('keeps the history at its bound as tasks finish, without waiting for a poller', async () => {
    const tasks = repository({ history: 5 });
    for (let i = 0; i < 20; i++) await enqueue(tasks, 'bounded', 'x', 'NORMAL', 0, `key-${i}`, String(i));
    for (const run of await tasks.take('bounded', 20, 5000)) {
      await tasks.settle('bounded', run, { kind: 'COMPLETED', result: '1' });
      expect(await redis.client.zcard(queueKeys('bounded').done)).toBeLessThanOrEqual(5);
      await sleep(2); // the history is ordered by finishing time, to the millisecond
    }
    const keys = queueKeys('bounded');
    expect(await redis.client.hlen(keys.meta)).toBe(5);
    expect(await redis.client.hlen(keys.args)).toBe(5);
    expect(await redis.client.hlen(keys.results)).toBe(5);
    expect(await redis.client.hlen(keys.idempotency)).toBe(5);
    expect(await redis.client.zrange(keys.done, 0, -1)).toEqual(['16', '17', '18', '19', '20']);
    expect((await tasks.stats('bounded')).completed).toBe(20);
  });

  it('refuses a task to a full queue with CONFLICT, storing nothing', async () => {
    const tasks = repository({ maxTasksPerQueue: 3 });
    for (let i = 0; i < 3; i++) await enqueue(tasks, 'full', 'x');
    const keys = (await redis.client.keys('*')).sort();
    await expect(enqueue(tasks, 'full', 'x')).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await redis.client.keys('*')).sort()).toEqual(keys);
    expect((await tasks.stats('full')).waiting.NORMAL).toBe(3);
  });
});

describe('depth, for the metrics', () => {
  it('counts waiting, delayed and active tasks, and measures lag from the oldest due task, overdue delayed ones included', async () => {
    const tasks = repository();
    expect(await tasks.depth('empty')).toEqual({ waiting: 0, delayed: 0, active: 0, paused: false, lagMs: 0 });
    const first = await enqueue(tasks, 'depth', 'a');
    await enqueue(tasks, 'depth', 'b', 'HIGH');
    await enqueue(tasks, 'depth', 'c', 'LOW', 100);
    await enqueue(tasks, 'depth', 'd', 'NORMAL', 60_000);
    await tasks.take('depth', 1, 10_000); // the HIGH one
    await sleep(150);
    const depth = await tasks.depth('depth');
    expect(depth).toMatchObject({ waiting: 1, delayed: 2, active: 1, paused: false });
    // The oldest due task is `a`, waiting since it was enqueued (`c`, due later, has not been moved yet).
    const [now] = await redis.client.time();
    expect(depth.lagMs).toBeGreaterThanOrEqual(150);
    expect(depth.lagMs).toBeLessThanOrEqual(Number(now) * 1000 + 1000 - first.runAt);

    // With no task waiting, an overdue delayed task is the lag: the poller is behind.
    await tasks.take('depth', 1, 10_000);
    const overdue = await tasks.depth('depth');
    expect(overdue).toMatchObject({ waiting: 0, delayed: 2, active: 2 });
    expect(overdue.lagMs).toBeGreaterThanOrEqual(40);
    expect(overdue.lagMs).toBeLessThan(1000);
    await tasks.promote('depth');
    await tasks.take('depth', 1, 10_000);
    await tasks.setPaused('depth', true);
    expect(await tasks.depth('depth')).toEqual({ waiting: 0, delayed: 1, active: 3, paused: true, lagMs: 0 });
  });
});

describe('pollers and workers', () => {
  it('moves each delayed task exactly once with two pollers running', async () => {
    const tasks = repository();
    const queue = 'two-pollers';
    const numbers = new Set<string>();
    for (let i = 0; i < 500; i++)
      numbers.add(String((await enqueue(tasks, queue, 'x', 'NORMAL', 1 + ((i * 7) % 300))).number));
    const pollers = [startPoller(repository(), queue), startPoller(repository(), queue)];
    await eventually(async () => pollers[0].moved + pollers[1].moved >= 500, 10_000, 20);
    expect((await tasks.stats(queue)).delayed).toBe(0);
    const keys = queueKeys(queue);
    const listed = (await Promise.all(keys.lists.map((list) => redis.client.lrange(list, 0, -1)))).flat();
    expect(listed).toHaveLength(500);
    expect(new Set(listed)).toEqual(numbers);
    expect(pollers[0].moved + pollers[1].moved).toBe(500);
  });

  it('runs 1,000 tasks of three priorities with delays on several workers: each completes once, by priority, none early', async () => {
    const tasks = repository({ history: 5000 });
    const queue = 'thousand';
    const runs = new Map<string, number>();
    const handlers: TaskHandlers = {
      work: async (args) => {
        const { id } = args as { id: number };
        runs.set(String(id), (runs.get(String(id)) ?? 0) + 1);
        await sleep(id % 3);
        return id;
      },
    };
    const priorities = ['HIGH', 'NORMAL', 'LOW'] as const;
    const enqueued: { id: string; number: number; priority: string; delayed: boolean }[] = [];
    for (let i = 0; i < 1000; i++) {
      const priority = priorities[(i * 7) % 3];
      const delayMs = i % 4 === 0 ? 50 + ((i * 37) % 700) : 0;
      const task = await enqueue(tasks, queue, 'work', priority, delayMs, undefined, JSON.stringify({ id: i }));
      enqueued.push({ id: task.id, number: task.number, priority, delayed: delayMs > 0 });
    }
    // Every take goes through one connection, so the order of the log is the order in Redis.
    const shared = repository({ history: 5000 });
    const takeLog: string[] = [];
    const take = shared.take.bind(shared);
    shared.take = async (...args) => {
      const taken = await take(...args);
      takeLog.push(...taken.map((task) => task.id));
      return taken;
    };
    const settleAndTake = shared.settleAndTake.bind(shared);
    shared.settleAndTake = async (...args) => {
      const result = await settleAndTake(...args);
      takeLog.push(...result.taken.map((task) => task.id));
      return result;
    };
    for (let i = 0; i < 3; i++) startWorker(shared, queue, handlers, { concurrency: 4 });
    startPoller(repository({ history: 5000 }), queue);
    startPoller(repository({ history: 5000 }), queue);
    // A safety net only: 1,000 tasks on a loaded machine's cluster took more than the minute this
    // test had in all (run beside stress-ng --cpu 2 by npm run test:busy).
    await eventually(async () => (await tasks.stats(queue)).completed === 1000, 150_000, 50);

    expect(runs.size).toBe(1000);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(takeLog).toHaveLength(1000);
    expect(new Set(takeLog).size).toBe(1000);
    expect(await tasks.stats(queue)).toMatchObject({ completed: 1000, failed: 0, active: 0, delayed: 0 });
    for (const task of enqueued) {
      const record = (await tasks.get(queue, String(task.number)))!;
      expect(record.state).toBe('COMPLETED');
      expect(record.attempts).toBe(1);
      expect(record.startedAt!).toBeGreaterThanOrEqual(record.runAt); // never early
    }
    // All tasks without a delay were waiting before any worker started: they were taken by
    // priority, and in order within a priority.
    const rank = { HIGH: 0, NORMAL: 1, LOW: 2 } as Record<string, number>;
    const byId = new Map(enqueued.map((task) => [task.id, task]));
    const immediate = takeLog.map((id) => byId.get(id)!).filter((task) => !task.delayed);
    for (let i = 1; i < immediate.length; i++) {
      const [before, after] = [immediate[i - 1], immediate[i]];
      expect(rank[before.priority] * 1e6 + before.number).toBeLessThan(rank[after.priority] * 1e6 + after.number);
    }
  }, 240_000);

  it('records an unknown task name as FAILED with a clear error, without retrying', async () => {
    const tasks = repository();
    const task = await enqueue(tasks, 'unknown', 'no-such-task');
    startWorker(tasks, 'unknown', { known: () => 1 });
    await eventually(async () => (await tasks.get('unknown', String(task.number)))!.state === 'FAILED', 5000, 20);
    expect(await tasks.get('unknown', String(task.number))).toMatchObject({
      attempts: 1,
      error: 'no handler for task name "no-such-task" in this worker',
    });
  });

  it('stops a run that takes too long and counts it as a failed run', async () => {
    const tasks = repository({ maxAttempts: 1 });
    const task = await enqueue(tasks, 'slow', 'hang');
    let aborted: unknown;
    startWorker(
      tasks,
      'slow',
      {
        hang: (_args, context) =>
          new Promise((resolve) => {
            context.signal.addEventListener('abort', () => {
              aborted = context.signal.reason;
              resolve('too late');
            });
          }),
      },
      { runTimeoutMs: 200 },
    );
    await eventually(async () => (await tasks.get('slow', String(task.number)))!.state === 'FAILED', 5000, 20);
    expect((await tasks.get('slow', String(task.number)))!.error).toBe('the run took longer than 200 ms');
    expect(String(aborted)).toMatch(/longer than 200 ms/);
  });

  it('tells a handler that has lost its lease to stop', async () => {
    const tasks = repository();
    const task = await enqueue(tasks, 'lost', 'wait');
    let signal: AbortSignal | undefined;
    startWorker(
      tasks,
      'lost',
      {
        wait: (_args, context) => {
          signal = context.signal;
          return new Promise((resolve) => context.signal.addEventListener('abort', () => resolve(null)));
        },
      },
      // Renewed every second: a renewal landing between the expiry and the promote below undoes
      // the expiry and the take-away retries; with a 300 ms lease that race was lost for 5 s once
      // on a loaded machine.
      { leaseMs: 3000 },
    );
    await eventually(async () => signal !== undefined, 30_000, 10);
    // Another party takes the run away (as the poller does when a lease has run out).
    await takeFirstLeaseAway('lost', task.number, () => tasks.promote('lost'));
    await eventually(async () => signal!.aborted, 30_000, 20);
    expect(String(signal!.reason)).toMatch(/lease/);
  });

  it('keeps renewing the next attempt of a task it is handed while the stalled attempt is still ending', async () => {
    // Renewals every third of a lease. The lease is long enough that a late renewal on a busy
    // machine still comes in time; the second run lasts until it has seen renewals, not a time.
    const lease = 6000;
    const tasks = repository({ backoffMs: 0, maxAttempts: 5 });
    const task = await enqueue(tasks, 'again', 'stall');
    // What Redis answered: the first run's settling (refused, its lease gone), then each renewal
    // of the second run after that.
    let firstSettled = false;
    let renewedAfter = 0;
    const settleAndTake = tasks.settleAndTake.bind(tasks);
    tasks.settleAndTake = async (queue, run, ...rest) => {
      const result = await settleAndTake(queue, run, ...rest);
      if (run.attempt === 1) firstSettled = true;
      return result;
    };
    const extend = tasks.extend.bind(tasks);
    tasks.extend = async (queue, runs, leaseMs) => {
      const after = firstSettled;
      const lost = await extend(queue, runs, leaseMs);
      if (after && runs.some((run) => run.attempt === 2) && !lost.some((run) => run.attempt === 2)) renewedAfter += 1;
      return lost;
    };
    const attempts: number[] = [];
    startWorker(
      tasks,
      'again',
      {
        stall: async (_args, context) => {
          attempts.push(context.attempt);
          if (context.attempt === 1) {
            // Stalls until told its lease is gone, then takes a while to wind down.
            await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
            await sleep(100);
            return 'stale';
          }
          // Only renewals keep this run: without them it loses its lease (and is told so).
          await eventually(async () => renewedAfter >= 2 || context.signal.aborted, 30_000, 20);
          return context.signal.aborted ? 'lost' : 'done';
        },
      },
      { concurrency: 1, leaseMs: lease },
    );
    await eventually(async () => attempts.length === 1, 10_000, 10);
    // The first run's lease is taken away (as when it stalls past it); the poller gives the task out again.
    startPoller(repository({ backoffMs: 0, maxAttempts: 5 }), 'again');
    await takeFirstLeaseAway('again', task.number);
    await eventually(async () => (await tasks.get('again', String(task.number)))!.state === 'COMPLETED', 30_000, 20);
    expect(await tasks.get('again', String(task.number))).toMatchObject({ attempts: 2, result: '"done"' });
    expect(attempts).toEqual([1, 2]);
    expect(renewedAfter).toBe(2);
  }, 60_000);

  it('leaves no task ACTIVE when stopped while busy, even one taken as the stop began', async () => {
    const tasks = repository();
    for (let i = 0; i < 300; i++) await enqueue(tasks, 'busy', 'quick');
    // Replies that take a while (a busy Redis, a long way off): a stop lands while tasks are being taken.
    const settleAndTake = tasks.settleAndTake.bind(tasks);
    tasks.settleAndTake = async (...args) => {
      const result = await settleAndTake(...args);
      await sleep(30);
      return result;
    };
    const worker = startWorker(tasks, 'busy', { quick: () => sleep(3) }, { concurrency: 4 });
    await eventually(async () => (await tasks.stats('busy')).completed >= 40, 10_000, 5);
    await worker.stop(5000);
    // The process may exit now: nothing may still be running, nor be left ACTIVE in Redis.
    expect(worker.busy).toBe(0);
    const stats = await tasks.stats('busy');
    expect(stats.active).toBe(0);
    expect(stats.completed + stats.waiting.NORMAL).toBe(300);
  });

  it('finishes the runs in hand when stopped, and takes no more', async () => {
    const tasks = repository();
    const finished: number[] = [];
    const worker = startWorker(
      tasks,
      'stop',
      {
        slow: async (args) => {
          await sleep(300);
          finished.push(args as number);
        },
      },
      { concurrency: 2 },
    );
    for (let i = 0; i < 4; i++) await enqueue(tasks, 'stop', 'slow', 'NORMAL', 0, undefined, String(i));
    await eventually(async () => worker.busy === 2, 5000, 10);
    await worker.stop(5000);
    expect(finished.sort()).toEqual([0, 1]);
    expect(await tasks.stats('stop')).toMatchObject({ completed: 2, active: 0, waiting: { NORMAL: 2 } });
  });
});

describe('a worker that cannot record an outcome', () => {
  it('says so as a warning when Redis is away (the lease covers it), not as an error', async () => {
    const client = connection();
    const tasks = new TaskRepository(client, SETTINGS);
    const logs = captureLogs('info');
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    await enqueue(tasks, 'away', 'hold');
    const worker = new TaskWorker({
      queue: 'away',
      repository: tasks,
      blocking: redis.newClient(),
      handlers: {
        hold: async () => {
          started();
          await held;
          return { done: true };
        },
      },
      concurrency: 1,
      leaseMs: 5000,
      runTimeoutMs: 10_000,
      maxResultBytes: 1000,
      logger: logs.logger,
      idleWaitMs: 500,
    });
    worker.start();
    stoppers.push(() => worker.stop(2000));
    await running;
    // The connection the outcome goes out on is gone when the handler ends.
    client.disconnect();
    finish();
    await eventually(
      async () =>
        logs.lines.some((line) => line.msg === 'cannot record the outcome; the task runs again once its lease ends'),
      5000,
      20,
    );
    const line = logs.lines.find(
      (l) => l.msg === 'cannot record the outcome; the task runs again once its lease ends',
    )!;
    expect(line).toMatchObject({ level: 40, task: 'away:1' });
    // One Redis: the closed connection; a cluster client: no node left to ask.
    expect(String(line.err)).toMatch(/^Connection is closed|^None of startup nodes is available/);
  });
});
