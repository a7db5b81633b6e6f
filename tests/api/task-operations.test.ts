// The task-queue operations beyond enqueue/read/cancel/reschedule, through the real server:
// enqueueTasks (numbers, order, all or nothing, idempotency, limits), tasks() pages for every
// state in both orders, retryTask, removeTask, pauseQueue/resumeQueue, per-task runs, backoff
// and timeout, and progress reports. Runs and outcomes are arranged with a repository on the
// same Redis (as a worker would record them) where that is more direct; the last part runs real
// workers inside an API process (TASK_WORKER=on), as tasks-api.test.ts does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { queueKeys } from '../../src/redis/keys';
import { TaskRepository, type TaskSettings } from '../../src/redis/task';
import { TOPICS } from '../../src/schema/topics';
import { MAX_PROGRESS_BYTES } from '../../src/workers/task-worker';
import {
  EnqueueTaskDocument,
  EnqueueTasksDocument,
  PauseQueueDocument,
  QueueStateDocument,
  RemoveTaskDocument,
  ResumeQueueDocument,
  RetryTaskDocument,
  TaskChangedDocument,
  TaskDocument,
  TasksDocument,
  type EnqueueTaskMutationVariables,
  type QueueStateQuery,
  type TaskFieldsFragment,
  type TaskInput,
  type TaskOrder,
  type TaskState,
} from '../../src/generated/client/graphql';
import { serverForThisFile } from '../support/fixture';
import { codes, eventually, post, wsOperation } from '../support/graphql';
import { cleanUpProcesses, startApiWithWorkers, type ServerProcess } from '../support/process';
import { scriptClient } from '../support/redis';
import { TEST_SECRET, type TestServer } from '../support/server';
import { snapshotRedis } from '../support/snapshot';
import { runsIn } from '../support/task-runs';

const HANDLERS = path.join(__dirname, '..', 'support', 'task-handlers.cjs');
const MAX_PER_QUEUE = 60;
const MAX_BATCH = 20;
const MAX_BACKOFF_MS = 5000;
const TASK_ENV = {
  TASK_MAX_ATTEMPTS: '3',
  TASK_BACKOFF_MS: '200',
  TASK_MAX_BACKOFF_MS: String(MAX_BACKOFF_MS),
  TASK_MAX_PER_QUEUE: String(MAX_PER_QUEUE),
  TASK_MAX_BATCH: String(MAX_BATCH),
  TASK_HISTORY: '50',
  TASK_MAX_ARGS_BYTES: '1024',
  TASK_MAX_DELAY_MS: '60000',
};
/** As the server reads TASK_ENV: the repository that arranges runs records them as a worker would. */
const SETTINGS: TaskSettings = {
  maxAttempts: 3,
  backoffMs: 200,
  maxBackoffMs: MAX_BACKOFF_MS,
  history: 50,
  maxTasksPerQueue: MAX_PER_QUEUE,
};

const fixture = serverForThisFile(TASK_ENV);
let api: TestServer;
let scratch: string;
/** Plays the worker for tests without one: takes tasks and records how their runs ended. */
let arrange: TaskRepository;

beforeAll(() => {
  api = fixture.api;
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-task-ops-'));
  const client = scriptClient(api.redis);
  arrange = new TaskRepository(client, SETTINGS);
});
afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

type Task = TaskFieldsFragment;

const service = () => api.tokens.service;
const enqueue = (variables: EnqueueTaskMutationVariables, url = api.url) =>
  post(url, EnqueueTaskDocument, variables, service());
const enqueued = async (variables: EnqueueTaskMutationVariables, url = api.url): Promise<Task> => {
  const result = await enqueue(variables, url);
  expect(result.errors).toBeUndefined();
  return result.data!.enqueueTask;
};
const enqueueMany = (queue: string, tasks: TaskInput[], url = api.url) =>
  post(url, EnqueueTasksDocument, { queue, tasks }, service());
const enqueuedMany = async (queue: string, tasks: TaskInput[], url = api.url): Promise<Task[]> => {
  const result = await enqueueMany(queue, tasks, url);
  expect(result.errors).toBeUndefined();
  return result.data!.enqueueTasks;
};
const readTask = async (id: string, url = api.url): Promise<Task | null> => {
  const result = await post(url, TaskDocument, { id }, service());
  expect(result.errors).toBeUndefined();
  return result.data!.task;
};
const stateOf = async (id: string, url = api.url) => (await readTask(id, url))?.state;
const queueState = async (name: string, url = api.url) => {
  const result = await post(url, QueueStateDocument, { name }, service());
  expect(result.errors).toBeUndefined();
  return result.data!.queue;
};
const listPage = (
  queue: string,
  state: TaskState,
  order: TaskOrder,
  first: number,
  after: string | null = null,
  url = api.url,
) => post(url, TasksDocument, { queue, state, order, first, after }, service());
const retry = (id: string, url = api.url) => post(url, RetryTaskDocument, { id }, service());
const remove = (id: string, url = api.url) => post(url, RemoveTaskDocument, { id }, service());
const pause = (name: string, url = api.url) => post(url, PauseQueueDocument, { name }, service());
const resume = (name: string, url = api.url) => post(url, ResumeQueueDocument, { name }, service());

const EMPTY_STATS: Omit<QueueStateQuery['queue'], 'name'> = {
  paused: false,
  waitingHigh: 0,
  waitingNormal: 0,
  waitingLow: 0,
  delayed: 0,
  active: 0,
  completed: 0,
  failed: 0,
  cancelled: 0,
};
const statsOf = (name: string, counts: Partial<typeof EMPTY_STATS>) => ({ name, ...EMPTY_STATS, ...counts });

/** Milliseconds between two API times (unix seconds with millisecond precision). */
const msBetween = (from: number, to: number): number => Math.round((to - from) * 1000);

const snapshot = () => snapshotRedis(api.redis.client);

/**
 * Every page of `state` from the start, `first` at a time: the pages as they came, each checked
 * to be no longer than `first`, to say hasMore with a cursor until the last, and the last to say
 * neither.
 */
async function walk(queue: string, state: TaskState, order: TaskOrder, first: number, url = api.url) {
  const pages: { ids: string[]; hasMore: boolean; cursor: string | null }[] = [];
  let after: string | null = null;
  for (let guard = 0; guard < 1000; guard++) {
    const result = await listPage(queue, state, order, first, after, url);
    expect(result.errors).toBeUndefined();
    const page = result.data!.tasks;
    expect(page.tasks.length).toBeLessThanOrEqual(first);
    for (const task of page.tasks) expect(task.state).toBe(state);
    pages.push({ ids: page.tasks.map((task) => task.id), hasMore: page.hasMore, cursor: page.cursor });
    if (!page.hasMore) {
      expect(page.cursor).toBeNull();
      return { pages, ids: pages.flatMap((one) => one.ids) };
    }
    expect(typeof page.cursor).toBe('string');
    after = page.cursor;
  }
  throw new Error('the pages never ended');
}

/** Walks `state` in both orders with each page size; each walk must be `expected` (oldest first) exactly. */
async function expectWalks(queue: string, state: TaskState, expected: string[], sizes = [1, 2, 3, 100]) {
  for (const first of sizes) {
    const oldest = await walk(queue, state, 'OLDEST_FIRST', first);
    expect(oldest.ids).toEqual(expected);
    expect(new Set(oldest.ids).size).toBe(oldest.ids.length);
    const newest = await walk(queue, state, 'NEWEST_FIRST', first);
    expect(newest.ids).toEqual([...expected].reverse());
  }
}

/** Takes the next waiting task of `queue` as a worker would, and records how its run ended. */
async function runOnce(queue: string, outcome: 'COMPLETED' | 'FAILED' | 'FAILED_FOR_GOOD', detail = '') {
  const [run] = await arrange.take(queue, 1, 60_000);
  expect(run).toBeDefined();
  const state = await arrange.settle(
    queue,
    run,
    outcome === 'COMPLETED'
      ? { kind: 'COMPLETED', result: detail || undefined }
      : { kind: 'FAILED', error: detail || `failed on attempt ${run.attempt}`, retry: outcome === 'FAILED' },
  );
  return { run, state };
}

/**
 * Subscribes to taskChanged over WebSocket and waits until the server listens on the task's
 * channel (after a previous test's subscription to the same id is gone: ids repeat per test).
 */
async function watch(id: string) {
  const subscribers = async () => api.redis.subscribers(TOPICS.taskChanged.channel(id));
  await eventually(async () => (await subscribers()) === 0, 5000, 20);
  const socket = fixture.connect(service());
  const subscription = wsOperation(socket.client, TaskChangedDocument, { id });
  await eventually(async () => (await subscribers()) === 1, 5000, 20);
  return subscription;
}

describe('enqueueTasks', () => {
  it('numbers the tasks of one call consecutively and returns them in order, each with its own fields', async () => {
    await enqueued({ queue: 'batch', name: 'before' });
    const tasks = await enqueuedMany('batch', [
      { name: 'a', args: { n: 1 } },
      { name: 'b', priority: 'HIGH' },
      { name: 'c', priority: 'LOW', delayMs: 5000, args: ['x'] },
      { name: 'd', maxAttempts: 7, backoffMs: 50, backoff: 'FIXED', timeoutMs: 1500 },
      { name: 'e', idempotencyKey: 'e-key', delayMs: 100 },
    ]);
    expect(tasks.map((task) => [task.id, task.name, task.priority, task.state])).toEqual([
      ['batch:2', 'a', 'NORMAL', 'WAITING'],
      ['batch:3', 'b', 'HIGH', 'WAITING'],
      ['batch:4', 'c', 'LOW', 'DELAYED'],
      ['batch:5', 'd', 'NORMAL', 'WAITING'],
      ['batch:6', 'e', 'NORMAL', 'DELAYED'],
    ]);
    // One step: one time for all of them.
    expect(new Set(tasks.map((task) => task.createdAt)).size).toBe(1);
    expect(tasks.map((task) => msBetween(task.createdAt, task.runAt))).toEqual([0, 0, 5000, 0, 100]);
    expect(tasks.map((task) => task.args)).toEqual([{ n: 1 }, null, ['x'], null, null]);
    expect(tasks.map((task) => [task.maxAttempts, task.backoffMs, task.backoff, task.timeoutMs])).toEqual([
      [3, null, 'EXPONENTIAL', null],
      [3, null, 'EXPONENTIAL', null],
      [3, null, 'EXPONENTIAL', null],
      [7, 50, 'FIXED', 1500],
      [3, null, 'EXPONENTIAL', null],
    ]);
    for (const task of tasks) {
      expect(task).toMatchObject({ attempts: 0, retries: 0, startedAt: null, finishedAt: null, progress: null });
      expect(await readTask(task.id)).toEqual(task);
    }
    expect(await queueState('batch')).toEqual(
      statsOf('batch', { waitingHigh: 1, waitingNormal: 3, waitingLow: 0, delayed: 2 }),
    );
    // In the ready list of its priority, in the order given.
    const keys = queueKeys('batch');
    expect(await api.redis.client.lrange(keys.lists[3], 0, -1)).toEqual(['1', '2', '5']);
    expect(await api.redis.client.lrange(keys.lists[1], 0, -1)).toEqual(['3']);
    expect(await api.redis.client.zrange(keys.delayed, 0, -1)).toEqual(['6', '4']);
  });

  it('accepts exactly TASK_MAX_BATCH tasks, and a batch that fills the queue to TASK_MAX_PER_QUEUE', async () => {
    const many = await enqueuedMany(
      'big',
      Array.from({ length: MAX_BATCH }, (_, i) => ({ name: `t${i}` })),
    );
    expect(many.map((task) => task.id)).toEqual(Array.from({ length: MAX_BATCH }, (_, i) => `big:${i + 1}`));
    await enqueuedMany(
      'big',
      Array.from({ length: MAX_BATCH }, () => ({ name: 'more' })),
    );
    const last = await enqueuedMany(
      'big',
      Array.from({ length: MAX_PER_QUEUE - 2 * MAX_BATCH }, () => ({ name: 'x' })),
    );
    expect(last.at(-1)!.id).toBe(`big:${MAX_PER_QUEUE}`);
    expect((await queueState('big')).waitingNormal).toBe(MAX_PER_QUEUE);
  });

  it('stores nothing when the batch would take the queue past TASK_MAX_PER_QUEUE (CONFLICT on queue)', async () => {
    await enqueuedMany('full', [
      ...Array.from({ length: MAX_BATCH - 1 }, () => ({ name: 'x' })),
      { name: 'kept', idempotencyKey: 'kept' },
    ]);
    await enqueuedMany(
      'full',
      Array.from({ length: MAX_BATCH }, () => ({ name: 'x' })),
    );
    await enqueuedMany(
      'full',
      Array.from({ length: MAX_PER_QUEUE - 2 * MAX_BATCH - 2 }, () => ({ name: 'x' })),
    );
    // Two places are left: three new tasks do not fit, and none of them is stored.
    const before = await snapshot();
    const refused = await enqueueMany('full', [{ name: 'y' }, { name: 'y' }, { name: 'y' }]);
    expect(codes(refused)).toEqual(['CONFLICT']);
    expect(refused.errors![0].extensions!.argument).toBe('queue');
    expect(refused.data).toBeNull();
    expect(await snapshot()).toEqual(before);
    // A repeated key takes no place: it and two new tasks fit exactly.
    const fits = await enqueuedMany('full', [{ name: 'kept', idempotencyKey: 'kept' }, { name: 'y' }, { name: 'y' }]);
    expect(fits.map((task) => task.id)).toEqual([
      `full:${MAX_BATCH}`,
      `full:${MAX_PER_QUEUE - 1}`,
      `full:${MAX_PER_QUEUE}`,
    ]);
    expect((await queueState('full')).waitingNormal).toBe(MAX_PER_QUEUE);
    // Full now: a repeat alone is still answered, a new task is not.
    expect((await enqueuedMany('full', [{ name: 'kept', idempotencyKey: 'kept' }]))[0].id).toBe(`full:${MAX_BATCH}`);
    expect(codes(await enqueueMany('full', [{ name: 'kept', idempotencyKey: 'kept' }, { name: 'z' }]))).toEqual([
      'CONFLICT',
    ]);
  });

  it.each([
    [
      'a key used earlier for a different task',
      [{ name: 'fresh' }, { name: 'other', idempotencyKey: 'k1' }, { name: 'fresh2' }],
    ],
    [
      'a key repeated within the batch for a different task',
      [
        { name: 'x', idempotencyKey: 'k2' },
        { name: 'y', idempotencyKey: 'k2' },
      ],
    ],
    [
      'a key repeated within the batch with different run settings',
      [
        { name: 'x', idempotencyKey: 'k3', maxAttempts: 2 },
        { name: 'x', idempotencyKey: 'k3', maxAttempts: 3 },
      ],
    ],
  ])('stores nothing for a batch with %s (CONFLICT on idempotencyKey)', async (_case, tasks: TaskInput[]) => {
    await enqueued({ queue: 'keys', name: 'first', idempotencyKey: 'k1' });
    const before = await snapshot();
    const refused = await enqueueMany('keys', tasks);
    expect(codes(refused)).toEqual(['CONFLICT']);
    expect(refused.errors![0].extensions!.argument).toBe('idempotencyKey');
    expect(refused.data).toBeNull();
    expect(await snapshot()).toEqual(before);
    expect(await queueState('keys')).toEqual(statsOf('keys', { waitingNormal: 1 }));
  });

  it('returns the first task for a key repeated within the batch and for one from an earlier call, creating each once', async () => {
    const earlier = await enqueued({ queue: 'once', name: 'pay', args: { order: 1 }, idempotencyKey: 'order-1' });
    const tasks = await enqueuedMany('once', [
      { name: 'pay', args: { order: 2 }, idempotencyKey: 'order-2' },
      { name: 'pay', args: { order: 1 }, idempotencyKey: 'order-1' },
      { name: 'mail' },
      { name: 'pay', args: { order: 2 }, idempotencyKey: 'order-2' },
      { name: 'pay', args: { order: 1 }, idempotencyKey: 'order-1' },
    ]);
    expect(tasks.map((task) => task.id)).toEqual(['once:2', 'once:1', 'once:3', 'once:2', 'once:1']);
    expect(tasks[1]).toEqual(earlier);
    expect(tasks[4]).toEqual(earlier);
    expect(tasks[3]).toEqual(tasks[0]);
    expect(tasks[0]).toMatchObject({ state: 'WAITING', args: { order: 2 } });
    expect(await api.redis.client.get(queueKeys('once').seq)).toBe('3');
    expect(await api.redis.client.lrange(queueKeys('once').lists[3], 0, -1)).toEqual(['1', '2', '3']);
    expect(await queueState('once')).toEqual(statsOf('once', { waitingNormal: 3 }));
    // And again, a whole batch of repeats: nothing new.
    const again = await enqueuedMany('once', [
      { name: 'pay', args: { order: 2 }, idempotencyKey: 'order-2' },
      { name: 'pay', args: { order: 1 }, idempotencyKey: 'order-1' },
    ]);
    expect(again).toEqual([tasks[0], earlier]);
    expect(await api.redis.client.get(queueKeys('once').seq)).toBe('3');
  });

  it.each([
    ['an empty list', []],
    ['more than TASK_MAX_BATCH tasks', Array.from({ length: MAX_BATCH + 1 }, () => ({ name: 'x' }))],
  ])('refuses %s with BAD_USER_INPUT on tasks, storing nothing', async (_case, tasks: TaskInput[]) => {
    const result = await enqueueMany('limits', tasks);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0].extensions!.argument).toBe('tasks');
    expect(result.data).toBeNull();
    expect(await api.redis.client.dbsize()).toBe(0);
  });

  it.each([
    ['tasks[0].name', { name: 'a b' }, 0],
    ['tasks[2].name', { name: '' }, 2],
    ['tasks[1].delayMs', { name: 'x', delayMs: -1 }, 1],
    ['tasks[1].delayMs', { name: 'x', delayMs: 60_001 }, 1],
    ['tasks[3].args', { name: 'x', args: 'é'.repeat(512) }, 3],
    ['tasks[1].idempotencyKey', { name: 'x', idempotencyKey: 'a:b' }, 1],
    ['tasks[2].maxAttempts', { name: 'x', maxAttempts: 0 }, 2],
    ['tasks[2].backoffMs', { name: 'x', backoffMs: MAX_BACKOFF_MS + 1 }, 2],
    ['tasks[0].timeoutMs', { name: 'x', timeoutMs: 99 }, 0],
  ])('names %s when that item is bad, storing none of the batch', async (argument, bad: TaskInput, at) => {
    const tasks: TaskInput[] = [{ name: 'ok' }, { name: 'ok' }, { name: 'ok' }, { name: 'ok' }];
    tasks[at] = bad;
    const result = await enqueueMany('items', tasks);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0].extensions!.argument).toBe(argument);
    expect(result.data).toBeNull();
    expect(await api.redis.client.dbsize()).toBe(0);
  });
});

describe('tasks(queue, state, order, first, after)', () => {
  it('pages WAITING tasks in the order workers take them: HIGH, NORMAL, LOW, and within each, those due after a delay first', async () => {
    // Tasks 1..3 were delayed and came due (the poller moved them); the rest were ready at once.
    await enqueuedMany('line', [
      { name: 'due-low', priority: 'LOW', delayMs: 1 },
      { name: 'due-normal', priority: 'NORMAL', delayMs: 1 },
      { name: 'due-high', priority: 'HIGH', delayMs: 1 },
    ]);
    await enqueuedMany('line', [
      { name: 'low', priority: 'LOW' },
      { name: 'normal', priority: 'NORMAL' },
      { name: 'high', priority: 'HIGH' },
      { name: 'low2', priority: 'LOW' },
      { name: 'normal2', priority: 'NORMAL' },
      { name: 'high2', priority: 'HIGH' },
    ]);
    await sleep(5);
    await eventually(
      async () => (await arrange.promote('line')).moved === 0 && (await queueState('line')).delayed === 0,
    );
    const expected = ['line:3', 'line:6', 'line:9', 'line:2', 'line:5', 'line:8', 'line:1', 'line:4', 'line:7'];
    await expectWalks('line', 'WAITING', expected);
    // It is the order workers take them in.
    const taken: string[] = [];
    for (let i = 0; i < expected.length; i++) taken.push((await arrange.take('line', 1, 60_000))[0].id);
    expect(taken).toEqual(expected);
    expect((await walk('line', 'WAITING', 'OLDEST_FIRST', 5)).ids).toEqual([]);
  });

  it('pages DELAYED tasks by when they are due, not by number', async () => {
    const delays = [9000, 3000, 6000, 1000, 8000, 2000, 7000];
    await enqueuedMany(
      'later',
      delays.map((delayMs, i) => ({ name: `d${i}`, delayMs })),
    );
    await enqueued({ queue: 'later', name: 'ready' });
    const expected = delays
      .map((delayMs, i) => ({ id: `later:${i + 1}`, delayMs }))
      .sort((a, b) => a.delayMs - b.delayMs)
      .map((task) => task.id);
    expect(expected).toEqual(['later:4', 'later:6', 'later:2', 'later:3', 'later:7', 'later:5', 'later:1']);
    await expectWalks('later', 'DELAYED', expected);
    const page = (await listPage('later', 'DELAYED', 'OLDEST_FIRST', 2)).data!.tasks;
    expect(page.tasks.map((task) => msBetween(task.createdAt, task.runAt))).toEqual([1000, 2000]);
  });

  it('pages ACTIVE tasks by when their lease ends', async () => {
    await enqueuedMany(
      'busy',
      Array.from({ length: 6 }, (_, i) => ({ name: `a${i}` })),
    );
    await enqueued({ queue: 'busy', name: 'not-taken' });
    // Leases of different lengths: task 1 ends last, task 2 first...
    const leases = [60_000, 10_000, 50_000, 20_000, 40_000, 30_000];
    for (const lease of leases) await arrange.take('busy', 1, lease);
    await expectWalks('busy', 'ACTIVE', ['busy:2', 'busy:4', 'busy:6', 'busy:5', 'busy:3', 'busy:1']);
    expect((await queueState('busy')).active).toBe(6);
  });

  it('pages COMPLETED, FAILED and CANCELLED tasks by when they finished, each from the shared finished set', async () => {
    const outcomes = ['C', 'F', 'X', 'C', 'C', 'F', 'X', 'C', 'F', 'C', 'X', 'C'] as const;
    await enqueuedMany(
      'done',
      outcomes.map((_, i) => ({ name: `t${i + 1}`, maxAttempts: 1 })),
    );
    // Finish them in an order unlike their numbers, a little apart, so finish times differ.
    const finishOrder = [5, 12, 1, 9, 3, 7, 2, 11, 4, 10, 6, 8];
    const finished: string[] = [];
    for (const number of finishOrder) {
      const id = `done:${number}`;
      const outcome = outcomes[number - 1];
      if (outcome === 'X') {
        // Cancel needs it not started: it is still waiting here.
        expect(await arrange.cancel('done', String(number))).toBe(true);
      } else {
        // Move it to the front of the line so the arranging worker takes this one.
        await api.redis.client.lrem(queueKeys('done').lists[3], 1, String(number));
        await api.redis.client.lpush(queueKeys('done').lists[3], String(number));
        const { run, state } = await runOnce('done', outcome === 'C' ? 'COMPLETED' : 'FAILED', '');
        expect(run.id).toBe(id);
        expect(state).toBe(outcome === 'C' ? 'COMPLETED' : 'FAILED');
      }
      finished.push(id);
      await sleep(3);
    }
    const of = (kind: 'C' | 'F' | 'X') => finished.filter((id) => outcomes[Number(id.split(':')[1]) - 1] === kind);
    expect(of('F')).toEqual(['done:9', 'done:2', 'done:6']);
    await expectWalks('done', 'COMPLETED', of('C'));
    await expectWalks('done', 'FAILED', of('F'));
    await expectWalks('done', 'CANCELLED', of('X'));
    // Each page's tasks carry what their runs left.
    const failed = (await listPage('done', 'FAILED', 'OLDEST_FIRST', 100)).data!.tasks.tasks;
    expect(failed.map((task) => [task.error, task.attempts, task.result])).toEqual([
      ['failed on attempt 1', 1, null],
      ['failed on attempt 1', 1, null],
      ['failed on attempt 1', 1, null],
    ]);
    const times = (await listPage('done', 'COMPLETED', 'OLDEST_FIRST', 100)).data!.tasks.tasks.map(
      (task) => task.finishedAt!,
    );
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(await queueState('done')).toEqual(statsOf('done', { completed: 6, failed: 3, cancelled: 3 }));
  });

  it('returns an empty last page for a state with no tasks and for an unknown queue', async () => {
    await enqueued({ queue: 'few', name: 'x' });
    for (const state of ['DELAYED', 'ACTIVE', 'COMPLETED', 'FAILED', 'CANCELLED'] as const) {
      expect((await listPage('few', state, 'OLDEST_FIRST', 10)).data!.tasks).toEqual({
        tasks: [],
        hasMore: false,
        cursor: null,
      });
    }
    expect((await listPage('nowhere', 'WAITING', 'NEWEST_FIRST', 10)).data!.tasks).toEqual({
      tasks: [],
      hasMore: false,
      cursor: null,
    });
  });

  it.each([
    ['WAITING', 'x'],
    ['WAITING', '-1'],
    ['WAITING', '01'],
    ['WAITING', '1 2'],
    ['DELAYED', '5'],
    ['DELAYED', 'abc def'],
    ['COMPLETED', '1.5 2'],
    ['FAILED', '100 0'],
    ['ACTIVE', ''],
  ] as [TaskState, string][])(
    'refuses a malformed cursor for %s (%j) with BAD_USER_INPUT on after',
    async (state, after) => {
      await enqueued({ queue: 'q', name: 'x' });
      const result = await listPage('q', state, 'OLDEST_FIRST', 10, after);
      expect(codes(result)).toEqual(['BAD_USER_INPUT']);
      expect(result.errors![0].extensions!.argument).toBe('after');
    },
  );

  it.each([0, 101, -1])('refuses first = %d with BAD_USER_INPUT on first, and accepts 1 and 100', async (first) => {
    await enqueuedMany(
      'sizes',
      Array.from({ length: 3 }, () => ({ name: 'x' })),
    );
    const result = await listPage('sizes', 'WAITING', 'OLDEST_FIRST', first);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0].extensions!.argument).toBe('first');
    expect((await listPage('sizes', 'WAITING', 'OLDEST_FIRST', 1)).data!.tasks.tasks).toHaveLength(1);
    expect((await listPage('sizes', 'WAITING', 'OLDEST_FIRST', 100)).data!.tasks.tasks).toHaveLength(3);
  });

  it('refuses a bad queue name with BAD_USER_INPUT on queue', async () => {
    const result = await listPage('a:b', 'WAITING', 'OLDEST_FIRST', 10);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0].extensions!.argument).toBe('queue');
  });
});

describe('retryTask', () => {
  it('gives a FAILED task another set of runs: WAITING, attempts keep counting, maxAttempts grows by its runs per try', async () => {
    const task = await enqueued({ queue: 'r', name: 'job', maxAttempts: 2, backoffMs: 0, args: { a: 1 } });
    await runOnce('r', 'FAILED');
    await eventually(async () => (await arrange.promote('r')).moved === 1);
    await runOnce('r', 'FAILED');
    const failed = (await readTask(task.id))!;
    expect(failed).toMatchObject({ state: 'FAILED', attempts: 2, maxAttempts: 2, retries: 0 });
    expect(failed.error).toBe('failed on attempt 2');

    const result = await retry(task.id);
    expect(result.errors).toBeUndefined();
    const retried = result.data!.retryTask!;
    expect(retried).toMatchObject({
      id: task.id,
      state: 'WAITING',
      attempts: 2,
      maxAttempts: 4,
      retries: 1,
      finishedAt: null,
      error: 'failed on attempt 2',
      args: { a: 1 },
      createdAt: task.createdAt,
    });
    expect(retried.runAt).toBeGreaterThanOrEqual(failed.finishedAt!);
    expect(await readTask(task.id)).toEqual(retried);
    expect(await queueState('r')).toEqual(statsOf('r', { waitingNormal: 1, failed: 1 }));
    expect((await walk('r', 'FAILED', 'OLDEST_FIRST', 10)).ids).toEqual([]);
    expect((await walk('r', 'WAITING', 'OLDEST_FIRST', 10)).ids).toEqual([task.id]);

    // It runs again as attempt 3, and fails again through attempt 4 with the new error.
    const { run } = await runOnce('r', 'FAILED');
    expect(run.attempt).toBe(3);
    await eventually(async () => (await arrange.promote('r')).moved === 1);
    expect((await runOnce('r', 'FAILED')).state).toBe('FAILED');
    expect((await readTask(task.id))!).toMatchObject({
      state: 'FAILED',
      attempts: 4,
      maxAttempts: 4,
      retries: 1,
      error: 'failed on attempt 4',
    });
    // A second retry adds the same two runs again, not four.
    expect((await retry(task.id)).data!.retryTask).toMatchObject({ maxAttempts: 6, retries: 2, state: 'WAITING' });
    const { run: fifth, state } = await runOnce('r', 'COMPLETED', '{"ok":true}');
    expect([fifth.attempt, state]).toEqual([5, 'COMPLETED']);
    expect((await readTask(task.id))!).toMatchObject({ state: 'COMPLETED', attempts: 5, result: { ok: true } });
    expect(await queueState('r')).toEqual(statsOf('r', { completed: 1, failed: 2 }));
  });

  it('refuses a task that is not FAILED with CONFLICT on id, changing nothing; null for an unknown task', async () => {
    await enqueuedMany('r', [
      { name: 'active' },
      { name: 'completed' },
      { name: 'cancelled' },
      { name: 'waiting' },
      { name: 'delayed', delayMs: 30_000 },
    ]);
    const [active] = await arrange.take('r', 1, 60_000);
    await runOnce('r', 'COMPLETED');
    expect(await arrange.cancel('r', '3')).toBe(true);
    const expectedStates = ['ACTIVE', 'COMPLETED', 'CANCELLED', 'WAITING', 'DELAYED'];
    expect(active.id).toBe('r:1');
    const before = await snapshot();
    for (const [i, state] of expectedStates.entries()) {
      const result = await retry(`r:${i + 1}`);
      expect(codes(result)).toEqual(['CONFLICT']);
      expect(result.errors![0].extensions!.argument).toBe('id');
      expect(result.errors![0].message).toContain(state);
      expect(result.data).toEqual({ retryTask: null });
    }
    expect(await snapshot()).toEqual(before);
    expect((await retry('r:99')).data).toEqual({ retryTask: null });
    expect((await retry('unknown:1')).data).toEqual({ retryTask: null });
    expect(codes(await retry('r:0'))).toEqual(['BAD_USER_INPUT']);
    expect(await snapshot()).toEqual(before);
  });
});

describe('removeTask', () => {
  it('forgets a finished task: record, args, result, error, progress and idempotency key; the key then enqueues anew', async () => {
    const [done, failed, cancelled, other] = await enqueuedMany('rm', [
      { name: 'done', args: { x: 1 }, idempotencyKey: 'done-key' },
      { name: 'failed', args: { y: 2 }, idempotencyKey: 'failed-key', maxAttempts: 1 },
      { name: 'cancelled', args: { z: 3 }, idempotencyKey: 'cancelled-key' },
      { name: 'other', args: { keep: true }, idempotencyKey: 'other-key' },
    ]);
    const [first] = await arrange.take('rm', 1, 60_000);
    expect(await arrange.progress('rm', first, '{"step":1}')).toBe(true);
    await arrange.settle('rm', first, { kind: 'COMPLETED', result: '{"r":1}' });
    const [second] = await arrange.take('rm', 1, 60_000);
    expect(await arrange.progress('rm', second, '{"step":2}')).toBe(true);
    await arrange.settle('rm', second, { kind: 'FAILED', error: 'nope', retry: true });
    expect(await arrange.cancel('rm', '3')).toBe(true);
    expect((await readTask(done.id))!).toMatchObject({ state: 'COMPLETED', result: { r: 1 }, progress: { step: 1 } });
    expect((await readTask(failed.id))!).toMatchObject({ state: 'FAILED', error: 'nope', progress: { step: 2 } });

    const keys = queueKeys('rm');
    for (const task of [done, failed, cancelled]) {
      expect((await remove(task.id)).data).toEqual({ removeTask: true });
      expect(await readTask(task.id)).toBeNull();
    }
    const number = (task: Task) => task.id.split(':')[1];
    const client = api.redis.client;
    for (const hash of [keys.meta, keys.args, keys.results, keys.errors, keys.progress]) {
      expect(await client.hkeys(hash)).toEqual(hash === keys.meta || hash === keys.args ? [number(other)] : []);
    }
    expect(await client.hkeys(keys.idempotency)).toEqual(['other-key']);
    expect(await client.zcard(keys.done)).toBe(0);
    expect((await walk('rm', 'COMPLETED', 'OLDEST_FIRST', 10)).ids).toEqual([]);
    // Totals since the queue began stay.
    expect(await queueState('rm')).toEqual(statsOf('rm', { waitingNormal: 1, completed: 1, failed: 1, cancelled: 1 }));
    // The keys are free again: the same request makes a new task.
    const again = await enqueued({ queue: 'rm', name: 'done', args: { x: 1 }, idempotencyKey: 'done-key' });
    expect(again).toMatchObject({ id: 'rm:5', state: 'WAITING', attempts: 0 });
    // Removing again, or an unknown task: false, nothing changed.
    const before = await snapshot();
    expect((await remove(done.id)).data).toEqual({ removeTask: false });
    expect((await remove('rm:99')).data).toEqual({ removeTask: false });
    expect((await remove('nowhere:1')).data).toEqual({ removeTask: false });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a WAITING, DELAYED or ACTIVE task with CONFLICT on id, changing nothing', async () => {
    await enqueuedMany('rm', [{ name: 'active' }, { name: 'waiting' }, { name: 'delayed', delayMs: 30_000 }]);
    await arrange.take('rm', 1, 60_000);
    const before = await snapshot();
    for (const [id, state] of [
      ['rm:1', 'ACTIVE'],
      ['rm:2', 'WAITING'],
      ['rm:3', 'DELAYED'],
    ]) {
      const result = await remove(id);
      expect(codes(result)).toEqual(['CONFLICT']);
      expect(result.errors![0].extensions!.argument).toBe('id');
      expect(result.errors![0].message).toContain(state);
      expect(result.data).toBeNull();
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('per-task run settings', () => {
  it.each([
    ['maxAttempts', 0],
    ['maxAttempts', 101],
    ['backoffMs', -1],
    ['backoffMs', MAX_BACKOFF_MS + 1],
    ['timeoutMs', 99],
    ['timeoutMs', 86_400_001],
  ])('refuses %s = %d with BAD_USER_INPUT naming it, storing nothing', async (argument, value) => {
    const result = await enqueue({ queue: 'bounds', name: 'x', [argument]: value });
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0].extensions!.argument).toBe(argument);
    expect(await api.redis.client.dbsize()).toBe(0);
  });

  it('accepts the bounds themselves: maxAttempts 1 and 100, backoffMs 0 and TASK_MAX_BACKOFF_MS, timeoutMs 100', async () => {
    const tasks = [
      await enqueued({ queue: 'bounds', name: 'x', maxAttempts: 1, backoffMs: 0, timeoutMs: 100 }),
      await enqueued({ queue: 'bounds', name: 'x', maxAttempts: 100, backoffMs: MAX_BACKOFF_MS, backoff: 'FIXED' }),
    ];
    expect(tasks.map((task) => [task.maxAttempts, task.backoffMs, task.backoff, task.timeoutMs])).toEqual([
      [1, 0, 'EXPONENTIAL', 100],
      [100, MAX_BACKOFF_MS, 'FIXED', null],
    ]);
    for (const task of tasks) expect(await readTask(task.id)).toEqual(task);
  });

  it('treats an idempotency key with the same run settings as the first task, and with different ones as CONFLICT', async () => {
    const request = {
      queue: 'settings',
      name: 'x',
      idempotencyKey: 'k',
      maxAttempts: 4,
      backoffMs: 300,
      backoff: 'FIXED' as const,
      timeoutMs: 2000,
    };
    const first = await enqueued(request);
    expect(await enqueued(request)).toEqual(first);
    const { queue: _queue, ...input } = request;
    expect(await enqueuedMany('settings', [input, input])).toEqual([first, first]);
    for (const change of [
      { maxAttempts: 5 },
      { backoffMs: 301 },
      { backoff: 'EXPONENTIAL' as const },
      { timeoutMs: 2001 },
      { maxAttempts: null },
    ]) {
      const before = await snapshot();
      const result = await enqueue({ ...request, ...change });
      expect(codes(result)).toEqual(['CONFLICT']);
      expect(result.errors![0].extensions!.argument).toBe('idempotencyKey');
      expect(await snapshot()).toEqual(before);
    }
    expect(await api.redis.client.get(queueKeys('settings').seq)).toBe('1');
  });

  it('treats backoff EXPONENTIAL as the default it is: with or without it, an idempotency key returns the first task', async () => {
    const explicit = await enqueued({ queue: 'same', name: 'x', idempotencyKey: 'explicit', backoff: 'EXPONENTIAL' });
    expect(await enqueued({ queue: 'same', name: 'x', idempotencyKey: 'explicit' })).toEqual(explicit);
    const implicit = await enqueued({ queue: 'same', name: 'x', idempotencyKey: 'implicit', backoffMs: 50 });
    expect(
      await enqueuedMany('same', [{ name: 'x', idempotencyKey: 'implicit', backoffMs: 50, backoff: 'EXPONENTIAL' }]),
    ).toEqual([implicit]);
    expect([explicit.backoff, implicit.backoff]).toEqual(['EXPONENTIAL', 'EXPONENTIAL']);
    expect(await api.redis.client.get(queueKeys('same').seq)).toBe('2');
    // FIXED is a different request.
    expect(codes(await enqueue({ queue: 'same', name: 'x', idempotencyKey: 'explicit', backoff: 'FIXED' }))).toEqual([
      'CONFLICT',
    ]);
  });

  it("waits the task's own backoff before each retry: FIXED the same each time, EXPONENTIAL doubling, capped by TASK_MAX_BACKOFF_MS", async () => {
    const [fixed, doubling, capped] = await enqueuedMany('backoff', [
      { name: 'fixed', maxAttempts: 4, backoffMs: 1000, backoff: 'FIXED' },
      { name: 'doubling', maxAttempts: 4, backoffMs: 1000 },
      { name: 'capped', maxAttempts: 4, backoffMs: 3000 },
    ]);
    /** Per task, per failure: runAt minus the time just before and just after the failure was recorded. */
    const waits = new Map<string, [number, number][]>([fixed, doubling, capped].map((task) => [task.id, []]));
    const list = queueKeys('backoff').lists[3];
    for (let attempt = 1; attempt <= 3; attempt++) {
      for (const task of [fixed, doubling, capped]) {
        const number = task.id.split(':')[1];
        // Due now, and first in line, so the arranging worker takes this one.
        await arrange.reschedule('backoff', number, 0);
        await api.redis.client.lrem(list, 1, number);
        await api.redis.client.lpush(list, number);
        const before = Date.now();
        const { run, state } = await runOnce('backoff', 'FAILED');
        const after = Date.now();
        expect([run.id, run.attempt, state]).toEqual([task.id, attempt, 'DELAYED']);
        const runAt = Math.round((await readTask(task.id))!.runAt * 1000);
        waits.get(task.id)!.push([runAt - before, runAt - after]);
      }
    }
    const within = (id: string, expected: number[]) => {
      const measured = waits.get(id)!;
      expect(measured).toHaveLength(expected.length);
      measured.forEach(([fromBefore, fromAfter], i) => {
        // The server recorded runAt = (its now) + wait, with its now between before and after.
        expect(fromBefore).toBeGreaterThanOrEqual(expected[i]);
        expect(fromAfter).toBeLessThanOrEqual(expected[i]);
      });
    };
    within(fixed.id, [1000, 1000, 1000]);
    within(doubling.id, [1000, 2000, 4000]);
    within(capped.id, [3000, MAX_BACKOFF_MS, MAX_BACKOFF_MS]);
  });
});

// The API process runs the workers itself: `node dist/main.js` with TASK_WORKER=on, on the same
// Redis as this file's server. Only the queue "worked" has workers.
describe('with workers inside an API process (TASK_WORKER=on)', () => {
  let worker: ServerProcess;
  let logs = 0;

  beforeAll(async () => {
    const started = await startApiWithWorkers({
      ...TASK_ENV,
      ...api.redis.env,
      JWT_SECRET: TEST_SECRET,
      DATA_DIR: scratch,
      COUNTER_CLEANUP: 'off',
      WORKER_QUEUES: 'worked',
      TASK_HANDLERS: HANDLERS,
      WORKER_CONCURRENCY: '4',
    });
    worker = started.server;
  }, 60_000);

  afterEach(async () => {
    // A test that failed while the queue was paused must not leave it paused for the next.
    await resume('worked');
  });

  afterAll(async () => {
    if (worker && worker.proc.exitCode === null) {
      worker.proc.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    }
    cleanUpProcesses();
  });

  const newLog = (): string => path.join(scratch, `runs-${++logs}.jsonl`);

  const notices = (events: { data?: { taskChanged: { id: string; state: string; progress: unknown } } | null }[]) =>
    events.map((event) => event.data!.taskChanged);

  it('runs a retried task again: a handler that failed for good completes on the retry', async () => {
    const log = newLog();
    const subscription = await watch('worked:1');
    const task = await enqueued({ queue: 'worked', name: 'flaky', args: { failAttempts: 1, log }, maxAttempts: 1 });
    expect(task.id).toBe('worked:1');
    await subscription.take(2, 20_000);
    const failed = (await readTask(task.id))!;
    expect(failed).toMatchObject({ state: 'FAILED', attempts: 1, maxAttempts: 1, error: 'flaky on attempt 1' });

    const retried = (await retry(task.id)).data!.retryTask!;
    expect(retried).toMatchObject({ state: 'WAITING', attempts: 1, maxAttempts: 2, retries: 1 });
    const events = await subscription.take(5, 20_000);
    expect(notices(events).map((notice) => notice.state)).toEqual([
      'ACTIVE',
      'FAILED',
      'WAITING',
      'ACTIVE',
      'COMPLETED',
    ]);
    expect((await readTask(task.id))!).toMatchObject({
      state: 'COMPLETED',
      attempts: 2,
      maxAttempts: 2,
      retries: 1,
      result: { attempt: 2 },
      // The completed run clears the first run's error: COMPLETED never shows one.
      error: null,
    });
    expect(runsIn(log).map((run) => [run.event, run.attempt])).toEqual([
      ['start', 1],
      ['end', 1],
      ['start', 2],
      ['end', 2],
    ]);
    expect(await queueState('worked')).toEqual(statsOf('worked', { completed: 1, failed: 1 }));
    subscription.unsubscribe();
  });

  it('clears the error of a failed run when a later run of the same try completes', async () => {
    const task = await enqueued({ queue: 'worked', name: 'flaky', args: { failAttempts: 2 }, backoffMs: 0 });
    await eventually(async () => (await stateOf(task.id)) === 'COMPLETED', 20_000);
    expect((await readTask(task.id))!).toMatchObject({
      state: 'COMPLETED',
      attempts: 3,
      retries: 0,
      result: { attempt: 3 },
      error: null,
    });
  });

  it('ends a retried task that fails again FAILED with the new error, after the runs per try', async () => {
    const task = await enqueued({ queue: 'worked', name: 'fail', maxAttempts: 2, backoffMs: 0 });
    await eventually(async () => (await stateOf(task.id)) === 'FAILED', 20_000);
    expect((await readTask(task.id))!).toMatchObject({ attempts: 2, error: 'boom on attempt 2' });
    expect((await retry(task.id)).errors).toBeUndefined();
    await eventually(
      async () => (await readTask(task.id))!.attempts === 4 && (await stateOf(task.id)) === 'FAILED',
      20_000,
    );
    expect((await readTask(task.id))!).toMatchObject({
      state: 'FAILED',
      attempts: 4,
      maxAttempts: 4,
      retries: 1,
      error: 'boom on attempt 4',
    });
    expect(await queueState('worked')).toEqual(statsOf('worked', { failed: 2 }));
  });

  it('stops taking tasks while paused, lets a run in progress finish and records it, and runs the waiting ones on resume', async () => {
    const log = newLog();
    const release = path.join(scratch, `release-${++logs}`);
    const held = await enqueued({ queue: 'worked', name: 'hold', args: { release, log } });
    await eventually(async () => (await stateOf(held.id)) === 'ACTIVE', 20_000);

    const paused = await pause('worked');
    expect(paused.data).toEqual({ pauseQueue: { name: 'worked', paused: true, waitingNormal: 0, active: 1 } });
    // Pausing twice is harmless.
    expect((await pause('worked')).data).toEqual(paused.data);
    expect(await queueState('worked')).toEqual(statsOf('worked', { paused: true, active: 1 }));

    const waiting = [
      await enqueued({ queue: 'worked', name: 'work', args: { log } }),
      ...(await enqueuedMany('worked', [
        { name: 'work', args: { log } },
        { name: 'work', args: { log }, priority: 'HIGH' },
        { name: 'work', args: { log }, delayMs: 200 },
      ])),
    ];
    const ids = waiting.map((task) => task.id);
    // For 1.5 s nothing new is taken: the delayed one comes due and waits with the rest.
    const deadline = Date.now() + 1500;
    while (Date.now() < deadline) {
      const stats = await queueState('worked');
      expect(stats.active).toBe(1);
      expect(stats.paused).toBe(true);
      expect(stats.waitingHigh + stats.waitingNormal + stats.delayed).toBe(4);
      for (const id of ids) expect(['WAITING', 'DELAYED']).toContain(await stateOf(id));
      await sleep(100);
    }
    expect(await queueState('worked')).toEqual(
      statsOf('worked', { paused: true, active: 1, waitingHigh: 1, waitingNormal: 3 }),
    );
    expect((await walk('worked', 'WAITING', 'OLDEST_FIRST', 2)).ids).toEqual([ids[2], ids[3], ids[0], ids[1]]);

    // The run in progress finishes and is recorded; its worker takes nothing after it.
    fs.writeFileSync(release, '');
    await eventually(async () => (await stateOf(held.id)) === 'COMPLETED', 20_000);
    expect((await readTask(held.id))!).toMatchObject({ result: { released: true, attempt: 1 } });
    const after = Date.now() + 500;
    while (Date.now() < after) {
      expect(await queueState('worked')).toEqual(
        statsOf('worked', { paused: true, completed: 1, waitingHigh: 1, waitingNormal: 3 }),
      );
      await sleep(100);
    }
    expect(runsIn(log).map((run) => run.id)).toEqual([held.id, held.id]);

    const resumed = await resume('worked');
    expect(resumed.data!.resumeQueue.paused).toBe(false);
    await eventually(async () => (await queueState('worked')).completed === 5, 20_000);
    expect(await queueState('worked')).toEqual(statsOf('worked', { completed: 5 }));
    for (const id of ids) expect((await readTask(id))!).toMatchObject({ state: 'COMPLETED', attempts: 1 });
    // Each ran once: nothing lost, nothing twice.
    const starts = runsIn(log)
      .filter((run) => run.event === 'start')
      .map((run) => run.id);
    expect([...starts].sort()).toEqual([held.id, ...ids].sort());
    // Resuming twice is harmless too.
    expect((await resume('worked')).data!.resumeQueue).toEqual({
      name: 'worked',
      paused: false,
      waitingNormal: 0,
      active: 0,
    });
  });

  it("waits the task's own backoff between runs: FIXED stays, EXPONENTIAL doubles", async () => {
    const fixedLog = newLog();
    const doublingLog = newLog();
    const [fixed, doubling] = await enqueuedMany('worked', [
      { name: 'fail', args: { log: fixedLog }, maxAttempts: 4, backoffMs: 300, backoff: 'FIXED' },
      { name: 'fail', args: { log: doublingLog }, maxAttempts: 4, backoffMs: 150 },
    ]);
    await eventually(
      async () => (await stateOf(fixed.id)) === 'FAILED' && (await stateOf(doubling.id)) === 'FAILED',
      30_000,
    );
    const gaps = (log: string) => {
      const runs = runsIn(log);
      const starts = runs.filter((run) => run.event === 'start');
      const ends = runs.filter((run) => run.event === 'end');
      expect(starts.map((run) => run.attempt)).toEqual([1, 2, 3, 4]);
      return starts.slice(1).map((start, i) => start.at - ends[i].at);
    };
    // No sooner than the wait; not much later either (the poller is woken for the earliest due time).
    const tolerance = 1000;
    const fixedGaps = gaps(fixedLog);
    fixedGaps.forEach((gap) => {
      expect(gap).toBeGreaterThanOrEqual(300);
      expect(gap).toBeLessThan(300 + tolerance);
    });
    const doublingGaps = gaps(doublingLog);
    [150, 300, 600].forEach((wait, i) => {
      expect(doublingGaps[i]).toBeGreaterThanOrEqual(wait);
      expect(doublingGaps[i]).toBeLessThan(wait + tolerance);
    });
    for (const task of [fixed, doubling])
      expect((await readTask(task.id))!).toMatchObject({ state: 'FAILED', attempts: 4, error: 'boom on attempt 4' });
  });

  it("fails a run slower than the task's own timeoutMs with the timeout message, though TASK_RUN_TIMEOUT_MS is larger", async () => {
    const log = newLog();
    const slow = await enqueued({
      queue: 'worked',
      name: 'work',
      args: { ms: 5000, log },
      timeoutMs: 300,
      maxAttempts: 1,
    });
    const quick = await enqueued({
      queue: 'worked',
      name: 'work',
      args: { ms: 100, log },
      timeoutMs: 3000,
      maxAttempts: 1,
    });
    await eventually(async () => (await stateOf(slow.id)) === 'FAILED', 20_000);
    await eventually(async () => (await stateOf(quick.id)) === 'COMPLETED', 20_000);
    const failed = (await readTask(slow.id))!;
    expect(failed).toMatchObject({ attempts: 1, error: 'the run took longer than 300 ms', timeoutMs: 300 });
    expect(msBetween(failed.startedAt!, failed.finishedAt!)).toBeGreaterThanOrEqual(300);
    expect(msBetween(failed.startedAt!, failed.finishedAt!)).toBeLessThan(5000);
    expect((await readTask(quick.id))!).toMatchObject({ attempts: 1, result: { id: quick.id, attempt: 1 } });
  });

  it('tells subscribers each progress report in order, the last one being the final step, then COMPLETED; task(id) keeps the last', async () => {
    const steps = 25;
    const subscription = await watch('worked:1');
    const task = await enqueued({ queue: 'worked', name: 'progress', args: { steps } });
    expect(task.id).toBe('worked:1');
    await eventually(async () => (await stateOf(task.id)) === 'COMPLETED', 20_000);
    await subscription.take(3, 10_000);
    // The COMPLETED notice comes last of all; wait for it.
    await eventually(
      async () => subscription.results.some((event) => event.data?.taskChanged.state === 'COMPLETED'),
      10_000,
      20,
    );
    const seen = notices(subscription.results);
    expect(seen[0]).toEqual({ id: task.id, state: 'ACTIVE', progress: null });
    expect(seen.at(-1)).toEqual({ id: task.id, state: 'COMPLETED', progress: null });
    const reports = seen.slice(1, -1);
    expect(reports.length).toBeGreaterThanOrEqual(1);
    expect(reports.length).toBeLessThanOrEqual(steps);
    for (const report of reports) expect(report).toMatchObject({ id: task.id, state: 'ACTIVE' });
    const values = reports.map((report) => (report.progress as { step: number }).step);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
    expect(values.at(-1)).toBe(steps);
    expect((await readTask(task.id))!).toMatchObject({
      state: 'COMPLETED',
      progress: { step: steps },
      result: { steps },
    });
    subscription.unsubscribe();
  });

  it('fails a run whose progress report is over MAX_PROGRESS_BYTES, with the documented message, and takes one of exactly that size', async () => {
    const task = await enqueued({
      queue: 'worked',
      name: 'progress',
      args: { steps: 1, bytes: MAX_PROGRESS_BYTES - 1 },
      maxAttempts: 1,
    });
    await eventually(async () => (await stateOf(task.id)) === 'FAILED', 20_000);
    expect((await readTask(task.id))!).toMatchObject({
      attempts: 1,
      progress: null,
      error: 'progress must be JSON of at most 4096 bytes, nested at most 32 deep',
    });
    // With its quotes, a string of MAX_PROGRESS_BYTES - 2 characters is exactly the limit: it is taken.
    const fits = await enqueued({
      queue: 'worked',
      name: 'progress',
      args: { steps: 1, bytes: MAX_PROGRESS_BYTES - 2 },
      maxAttempts: 1,
    });
    await eventually(async () => (await stateOf(fits.id)) === 'COMPLETED', 20_000);
    expect((await readTask(fits.id))!).toMatchObject({ attempts: 1, error: null, progress: { step: 1 } });
  });
});
