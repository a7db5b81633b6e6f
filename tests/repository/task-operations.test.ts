// The newer task-queue scripts against a real redis-server, one step at a time: pages of a large
// finished set where the wanted state is rare, progress reports from runs that are no longer held,
// pausing as the scripts see it, retries against runs of an earlier try, and the task's own
// backoff on the lease-expiry path. What Redis recorded is read back directly.
import type Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { queueKeys } from '../../src/redis/keys';
import { TaskRepository, type ListOrder, type TaskSettings, type TaskState } from '../../src/redis/task';
import { TOPICS } from '../../src/schema/topics';
import { eventually } from '../support/graphql';
import { listen, scriptClient, startTestRedis, type TestRedis } from '../support/redis';

let redis: TestRedis;
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
  await redis.client.flushdb();
});

afterAll(async () => {
  await redis.stop();
});

/** Every page of `state` from the start; checks each page's size, cursor and hasMore as it goes. */
async function walk(tasks: TaskRepository, queue: string, state: TaskState, order: ListOrder, first: number) {
  const pages: number[][] = [];
  const short: boolean[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    const page = await tasks.list(queue, state, order, first, cursor);
    expect(page.tasks.length).toBeLessThanOrEqual(first);
    for (const task of page.tasks) expect(task.state).toBe(state);
    pages.push(page.tasks.map((task) => task.number));
    short.push(page.tasks.length < first && page.cursor !== undefined);
    if (page.cursor === undefined) return { pages, numbers: pages.flat(), shortWithMore: short.filter(Boolean).length };
    cursor = page.cursor;
  }
  throw new Error('the pages never ended');
}

/** Numbers in the finished set's order: by finish time, then (as Redis orders equal scores) by their text. */
const byFinish = (records: { number: number; finishedAt: number }[]) =>
  [...records]
    .sort((a, b) => a.finishedAt - b.finishedAt || (String(a.number) < String(b.number) ? -1 : 1))
    .map((record) => record.number);

describe('tasks() over a large finished set', () => {
  // More finished tasks than one list call looks at (2000, LIST_LOOK_LIMIT in src/redis/task.ts),
  // so a page of a rare state comes back short while more remain.
  const COUNT = 2600;
  const RARE = [3, 1700, 2599];

  async function finishAll(tasks: TaskRepository, queue: string) {
    for (let from = 0; from < COUNT; from += 1000) {
      const size = Math.min(1000, COUNT - from);
      const made = await tasks.enqueueMany(
        queue,
        Array.from({ length: size }, (_, i) => ({
          name: `t${from + i + 1}`,
          args: undefined,
          priority: 'NORMAL' as const,
          delayMs: 0,
          idempotencyKey: undefined,
        })),
      );
      expect(made.map(({ task }) => task.number)).toEqual(Array.from({ length: size }, (_, i) => from + i + 1));
    }
    const taken = [];
    while (taken.length < COUNT) taken.push(...(await tasks.take(queue, 1000, 600_000)));
    expect(taken.map((run) => run.number)).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
    // Many finish within the same millisecond: ties are ordered by member, which the cursor must follow.
    const states = await Promise.all(
      taken.map((run) =>
        tasks.settle(
          queue,
          run,
          RARE.includes(run.number)
            ? { kind: 'FAILED', error: 'rare', retry: false }
            : { kind: 'COMPLETED', result: undefined },
        ),
      ),
    );
    expect(states.filter((state) => state === 'FAILED')).toHaveLength(RARE.length);
    const records = Object.entries(await redis.client.hgetall(queueKeys(queue).meta)).map(([number, json]) => ({
      number: Number(number),
      ...(JSON.parse(json) as { state: TaskState; finishedAt: number }),
    }));
    expect(records).toHaveLength(COUNT);
    return {
      failed: byFinish(records.filter((record) => record.state === 'FAILED')),
      completed: byFinish(records.filter((record) => record.state === 'COMPLETED')),
    };
  }

  it('walks a rare state through short pages that say more, ending with exactly its tasks, in both orders', async () => {
    const tasks = repository();
    const { failed, completed } = await finishAll(tasks, 'rare');
    expect([...failed].sort((a, b) => a - b)).toEqual(RARE);
    for (const first of [1, 2, 5, 100]) {
      const oldest = await walk(tasks, 'rare', 'FAILED', 'ASC', first);
      expect(oldest.numbers).toEqual(failed);
      const newest = await walk(tasks, 'rare', 'FAILED', 'DESC', first);
      expect(newest.numbers).toEqual([...failed].reverse());
      if (first >= RARE.length) {
        // The first look stops after 2000 finished tasks with only some of the three found.
        expect(oldest.shortWithMore).toBeGreaterThanOrEqual(1);
        expect(newest.shortWithMore).toBeGreaterThanOrEqual(1);
      }
    }
    // Nothing of a state that is absent, however far it looks.
    expect((await walk(tasks, 'rare', 'CANCELLED', 'ASC', 10)).numbers).toEqual([]);
    // The common state, in full pages, equal ties and all.
    const all = await walk(tasks, 'rare', 'COMPLETED', 'ASC', 100);
    expect(all.numbers).toEqual(completed);
    expect(all.pages.slice(0, -1).every((page) => page.length === 100)).toBe(true);
    expect((await walk(tasks, 'rare', 'COMPLETED', 'DESC', 77)).numbers).toEqual([...completed].reverse());
  });
});

describe('progress', () => {
  it('records a report only from the run that holds the task: a wrong attempt, a finished or an expired run change nothing', async () => {
    const tasks = repository();
    const queue = 'prog';
    const keys = queueKeys(queue);
    const heard: string[] = [];
    await listen(redis, [TOPICS.taskChanged.channel(`${queue}:1`)], (_channel, message) => heard.push(message));
    const { task } = await tasks.enqueue({
      queue,
      name: 'p',
      args: undefined,
      priority: 'NORMAL',
      delayMs: 0,
      idempotencyKey: undefined,
      backoffMs: 0,
    });
    expect(await tasks.progress(queue, { number: task.number, attempt: 1 }, '"too soon"')).toBe(false);
    const [first] = await tasks.take(queue, 1, 60_000);
    expect(first.attempt).toBe(1);
    expect(await tasks.progress(queue, { number: 1, attempt: 2 }, '"wrong attempt"')).toBe(false);
    expect(await tasks.progress(queue, { number: 1, attempt: 0 }, '"wrong attempt"')).toBe(false);
    expect(await tasks.progress(queue, { number: 2, attempt: 1 }, '"no such task"')).toBe(false);
    expect(await redis.client.hgetall(keys.progress)).toEqual({});
    expect(await tasks.progress(queue, first, '{"step":1}')).toBe(true);
    expect((await tasks.get(queue, '1'))!.progress).toBe('{"step":1}');

    // The first run loses its lease; the task runs again as attempt 2.
    await redis.client.zadd(keys.active, 0, '1');
    expect((await tasks.promote(queue)).expired).toBe(1);
    await eventually(async () => (await tasks.promote(queue)).moved === 1, 5000, 10);
    // Until the next run starts, the task shows what the last run reported; a new run starts afresh.
    expect((await tasks.get(queue, '1'))!).toMatchObject({ state: 'WAITING', progress: '{"step":1}' });
    const [second] = await tasks.take(queue, 1, 60_000);
    expect(second.attempt).toBe(2);
    expect((await tasks.get(queue, '1'))!.progress).toBeUndefined();
    expect(await tasks.progress(queue, first, '{"step":"stale"}')).toBe(false);
    expect((await tasks.get(queue, '1'))!.progress).toBeUndefined();
    expect(await tasks.progress(queue, second, '{"step":2}')).toBe(true);
    expect(await tasks.settle(queue, second, { kind: 'COMPLETED', result: '1' })).toBe('COMPLETED');
    expect(await tasks.progress(queue, second, '{"step":3}')).toBe(false);
    const done = (await tasks.get(queue, '1'))!;
    expect([done.state, done.progress, done.result]).toEqual(['COMPLETED', '{"step":2}', '1']);

    // Subscribers heard the two accepted reports among the changes of state, in order, and nothing else.
    await eventually(async () => heard.length >= 7, 5000, 10);
    expect(heard.map((message) => JSON.parse(message) as { state: string; progress: string | null })).toEqual([
      { id: 'prog:1', state: 'ACTIVE', progress: null },
      { id: 'prog:1', state: 'ACTIVE', progress: '{"step":1}' },
      { id: 'prog:1', state: 'DELAYED', progress: null },
      { id: 'prog:1', state: 'WAITING', progress: null },
      { id: 'prog:1', state: 'ACTIVE', progress: null },
      { id: 'prog:1', state: 'ACTIVE', progress: '{"step":2}' },
      { id: 'prog:1', state: 'COMPLETED', progress: null },
    ]);
    expect(heard).toHaveLength(7);
  });

  it('forgets progress with the task beyond TASK_HISTORY, and clears it when a FAILED task is retried', async () => {
    const tasks = repository({ history: 2, maxAttempts: 1 });
    const queue = 'prog-history';
    const keys = queueKeys(queue);
    for (let i = 1; i <= 3; i++) {
      await tasks.enqueue({
        queue,
        name: 'p',
        args: undefined,
        priority: 'NORMAL',
        delayMs: 0,
        idempotencyKey: undefined,
      });
      const [run] = await tasks.take(queue, 1, 60_000);
      expect(await tasks.progress(queue, run, `{"n":${i}}`)).toBe(true);
      await tasks.settle(queue, run, { kind: 'FAILED', error: `e${i}`, retry: true });
    }
    expect(await redis.client.hgetall(keys.progress)).toEqual({ '2': '{"n":2}', '3': '{"n":3}' });
    expect(await tasks.get(queue, '1')).toBeUndefined();
    const retried = (await tasks.retry(queue, '3'))!;
    expect(retried).toMatchObject({ state: 'WAITING', attempts: 1, maxAttempts: 2, retries: 1, error: 'e3' });
    expect(retried.progress).toBeUndefined();
    expect(await redis.client.hgetall(keys.progress)).toEqual({ '2': '{"n":2}' });
  });
});

describe('pausing, as the scripts see it', () => {
  it('hands out nothing while paused, yet settles runs and ends delays; resuming wakes a worker and the line is as it was', async () => {
    const tasks = repository();
    const queue = 'paused';
    const keys = queueKeys(queue);
    await tasks.enqueueMany(queue, [
      { name: 'running', args: undefined, priority: 'NORMAL', delayMs: 0, idempotencyKey: undefined },
      { name: 'ready', args: undefined, priority: 'NORMAL', delayMs: 0, idempotencyKey: undefined },
      { name: 'delayed', args: undefined, priority: 'NORMAL', delayMs: 1, idempotencyKey: undefined },
    ]);
    const [running] = await tasks.take(queue, 1, 60_000);
    expect(running.number).toBe(1);

    expect(await tasks.setPaused(queue, true)).toBe(false);
    expect(await tasks.setPaused(queue, true)).toBe(true);
    expect((await tasks.stats(queue)).paused).toBe(true);
    expect(await tasks.take(queue, 5, 60_000)).toEqual([]);

    const settled = await tasks.settleAndTake(queue, running, { kind: 'COMPLETED', result: '"ok"' }, 5, 60_000);
    expect(settled).toEqual({ state: 'COMPLETED', taken: [] });
    await sleep(5);
    expect((await tasks.promote(queue)).moved).toBe(1);
    expect(await tasks.take(queue, 5, 60_000)).toEqual([]);
    expect(await tasks.stats(queue)).toEqual({
      paused: true,
      waiting: { HIGH: 0, NORMAL: 2, LOW: 0 },
      delayed: 0,
      active: 0,
      completed: 1,
      failed: 0,
      cancelled: 0,
    });

    await redis.client.del(keys.workerWake);
    expect(await tasks.setPaused(queue, false)).toBe(true);
    expect(await redis.client.llen(keys.workerWake)).toBe(1);
    expect((await tasks.stats(queue)).paused).toBe(false);
    // The one that came due first, then the ready one.
    expect((await tasks.take(queue, 5, 60_000)).map((run) => run.number)).toEqual([3, 2]);
    // Resuming a queue that is not paused, with nothing waiting: no change, no wake-up.
    await redis.client.del(keys.workerWake);
    expect(await tasks.setPaused(queue, false)).toBe(false);
    expect(await redis.client.llen(keys.workerWake)).toBe(0);
    expect(await redis.client.exists(keys.paused)).toBe(0);
  });
});

describe('retries', () => {
  it('never lets a run of an earlier try settle or report on a retried task', async () => {
    const tasks = repository({ maxAttempts: 1 });
    const queue = 'again';
    const keys = queueKeys(queue);
    await tasks.enqueue({ queue, name: 'r', args: undefined, priority: 'HIGH', delayMs: 0, idempotencyKey: undefined });
    const [old] = await tasks.take(queue, 1, 60_000);
    // Its worker stalls: the lease runs out, and with its one run used the task FAILS.
    await redis.client.zadd(keys.active, 0, '1');
    expect((await tasks.promote(queue)).expired).toBe(1);
    expect((await tasks.get(queue, '1'))!).toMatchObject({ state: 'FAILED', attempts: 1 });

    const retried = (await tasks.retry(queue, '1'))!;
    expect(retried).toMatchObject({ state: 'WAITING', attempts: 1, maxAttempts: 2, retries: 1 });
    expect(await redis.client.lrange(keys.lists[1], 0, -1)).toEqual(['1']);
    expect(await redis.client.zscore(keys.done, '1')).toBeNull();
    const [fresh] = await tasks.take(queue, 1, 60_000);
    expect(fresh.attempt).toBe(2);

    // The stalled worker comes back: it can neither settle nor report.
    expect(await tasks.settle(queue, old, { kind: 'COMPLETED', result: '"late"' })).toBeUndefined();
    expect(await tasks.progress(queue, old, '"late"')).toBe(false);
    expect((await tasks.get(queue, '1'))!).toMatchObject({ state: 'ACTIVE', attempts: 2 });
    expect(await tasks.settle(queue, fresh, { kind: 'COMPLETED', result: '"fresh"' })).toBe('COMPLETED');
    expect((await tasks.get(queue, '1'))!).toMatchObject({ state: 'COMPLETED', attempts: 2, result: '"fresh"' });
    expect(await tasks.stats(queue)).toMatchObject({ completed: 1, failed: 1 });
  });

  it('keeps the last error while the task waits and runs again, and clears it when a run completes', async () => {
    const tasks = repository({ maxAttempts: 2, backoffMs: 0 });
    const queue = 'cleared';
    const keys = queueKeys(queue);
    await tasks.enqueue({
      queue,
      name: 'r',
      args: undefined,
      priority: 'NORMAL',
      delayMs: 0,
      idempotencyKey: undefined,
    });
    // Within one try: run 1 fails, run 2 completes.
    const [first] = await tasks.take(queue, 1, 60_000);
    expect(await tasks.settle(queue, first, { kind: 'FAILED', error: 'run 1', retry: true })).toBe('DELAYED');
    expect((await tasks.get(queue, '1'))!).toMatchObject({ state: 'DELAYED', error: 'run 1' });
    await tasks.reschedule(queue, '1', 0);
    const [second] = await tasks.take(queue, 1, 60_000);
    expect((await tasks.get(queue, '1'))!).toMatchObject({ state: 'ACTIVE', attempts: 2, error: 'run 1' });
    expect(await tasks.settle(queue, second, { kind: 'COMPLETED', result: '"done"' })).toBe('COMPLETED');
    const done = (await tasks.get(queue, '1'))!;
    expect(done).toMatchObject({ state: 'COMPLETED', attempts: 2, result: '"done"' });
    expect(done.error).toBeUndefined();
    expect(await redis.client.hexists(keys.errors, '1')).toBe(0);

    // Across a retry: task 2's only run loses its lease (FAILED), and its retry completes; task 3,
    // taken beside it, fails for good and keeps its own error.
    const once = repository({ maxAttempts: 1 });
    const plain = {
      queue,
      name: 'r',
      args: undefined,
      priority: 'NORMAL' as const,
      delayMs: 0,
      idempotencyKey: undefined,
    };
    await once.enqueue(plain);
    await once.enqueue(plain);
    const [stalled, other] = await once.take(queue, 2, 60_000);
    expect([stalled.number, other.number]).toEqual([2, 3]);
    await redis.client.zadd(keys.active, 0, '2');
    expect((await once.promote(queue)).expired).toBe(1);
    const lease = 'the worker stopped answering: its lease ran out';
    expect((await once.get(queue, '2'))!).toMatchObject({ state: 'FAILED', error: lease });
    expect((await once.retry(queue, '2'))!).toMatchObject({ state: 'WAITING', error: lease });
    const [again] = await once.take(queue, 1, 60_000);
    expect(again).toMatchObject({ number: 2, attempt: 2 });
    expect(await once.settle(queue, other, { kind: 'FAILED', error: 'other', retry: false })).toBe('FAILED');
    expect(await once.settle(queue, again, { kind: 'COMPLETED', result: undefined })).toBe('COMPLETED');
    expect((await once.get(queue, '2'))!).toMatchObject({ state: 'COMPLETED', retries: 1 });
    expect((await once.get(queue, '2'))!.error).toBeUndefined();
    expect((await once.get(queue, '3'))!).toMatchObject({ state: 'FAILED', error: 'other' });
    expect(await redis.client.hgetall(keys.errors)).toEqual({ '3': 'other' });
  });

  it('starts the doubling backoff again after a retry: a new try waits the first backoff', async () => {
    const tasks = repository({ maxAttempts: 2 });
    const queue = 'fresh-try';
    await tasks.enqueue({
      queue,
      name: 'r',
      args: undefined,
      priority: 'NORMAL',
      delayMs: 0,
      idempotencyKey: undefined,
      backoffMs: 200,
    });
    const failOnce = async (): Promise<{ state: string | undefined; wait: number }> => {
      await tasks.reschedule(queue, '1', 0);
      const [run] = await tasks.take(queue, 1, 60_000);
      const before = Date.now();
      const state = await tasks.settle(queue, run, { kind: 'FAILED', error: `run ${run.attempt}`, retry: true });
      const task = (await tasks.get(queue, '1'))!;
      return { state, wait: task.runAt - before };
    };
    const first = await failOnce();
    expect(first.state).toBe('DELAYED');
    expect(first.wait).toBeGreaterThanOrEqual(200);
    expect(first.wait).toBeLessThan(400);
    expect((await failOnce()).state).toBe('FAILED');
    expect(await tasks.retry(queue, '1')).toMatchObject({ attempts: 2, maxAttempts: 4, retries: 1 });
    // Run 3 is the first of the new try: 200 ms again, not 200 * 2^2.
    const third = await failOnce();
    expect(third.state).toBe('DELAYED');
    expect(third.wait).toBeGreaterThanOrEqual(200);
    expect(third.wait).toBeLessThan(400);
    const fourth = await failOnce();
    expect(fourth.state).toBe('FAILED');
    expect((await tasks.get(queue, '1'))!).toMatchObject({ attempts: 4, error: 'run 4' });
  });

  it("waits the task's own backoff after a lost lease too: FIXED stays, EXPONENTIAL doubles", async () => {
    const tasks = repository({ maxAttempts: 5 });
    const queue = 'lost';
    const keys = queueKeys(queue);
    const base = { args: undefined, priority: 'NORMAL' as const, delayMs: 0, idempotencyKey: undefined };
    await tasks.enqueueMany(queue, [
      { ...base, name: 'fixed', backoffMs: 300, backoff: 'FIXED' },
      { ...base, name: 'doubling', backoffMs: 200 },
    ]);
    for (let attempt = 1; attempt <= 3; attempt++) {
      // Both due now and taken.
      for (const number of ['1', '2']) if (attempt > 1) await tasks.reschedule(queue, number, 0);
      const runs = await tasks.take(queue, 2, 60_000);
      expect(runs.map((run) => [run.number, run.attempt])).toEqual([
        [1, attempt],
        [2, attempt],
      ]);
      await redis.client.zadd(keys.active, 0, '1', 0, '2');
      const before = Date.now();
      expect((await tasks.promote(queue)).expired).toBe(2);
      const after = Date.now();
      for (const number of ['1', '2']) {
        const task = (await tasks.get(queue, number))!;
        expect(task.state).toBe('DELAYED');
        // runAt = (the server's now, between before and after) + the wait.
        const wait = number === '1' ? 300 : 200 * 2 ** (attempt - 1);
        expect(task.runAt).toBeGreaterThanOrEqual(before + wait);
        expect(task.runAt).toBeLessThanOrEqual(after + wait);
      }
    }
  });
});
