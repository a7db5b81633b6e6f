// Task queues through the real server: enqueueing (ids, states, times, arguments of every JSON
// shape), idempotency keys, queue statistics, cancelling and rescheduling, bad input, who may
// use them, notifications over WebSocket, and tasks run by workers inside an API process
// (TASK_WORKER=on) with retries, backoff and unknown task names.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'graphql';
import { queueKeys } from '../../src/redis/keys';
import { TOPICS } from '../../src/schema/topics';
import {
  CancelTaskDocument,
  EnqueueTaskDocument,
  QueueStatsDocument,
  RescheduleTaskDocument,
  TaskChangedDocument,
  TaskDocument,
  type EnqueueTaskMutationVariables,
  type QueueStatsQuery,
} from '../../src/generated/client/graphql';
import { serverForThisFile } from '../support/fixture';
import { codes, eventually, post, wsOperation } from '../support/graphql';
import { cleanUpProcesses, startApiWithWorkers, type ServerProcess } from '../support/process';
import { TEST_SECRET, type TestServer } from '../support/server';
import { runsIn } from '../support/task-runs';

const HANDLERS = path.join(__dirname, '..', 'support', 'task-handlers.cjs');
const MAX_ARGS_BYTES = 1024;
const MAX_DELAY_MS = 60_000;
const TASK_ENV = {
  TASK_MAX_ARGS_BYTES: String(MAX_ARGS_BYTES),
  TASK_MAX_DELAY_MS: String(MAX_DELAY_MS),
  TASK_MAX_ATTEMPTS: '3',
  TASK_BACKOFF_MS: '200',
  TASK_MAX_PER_QUEUE: '10',
  TASK_HISTORY: '5',
};

const fixture = serverForThisFile(TASK_ENV);
let api: TestServer;
let scratch: string;

beforeAll(() => {
  api = fixture.api;
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-tasks-api-'));
});
afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

const enqueue = (variables: EnqueueTaskMutationVariables, url = api.url) =>
  post(url, EnqueueTaskDocument, variables, api.tokens.service);
const enqueued = async (variables: EnqueueTaskMutationVariables, url = api.url) => {
  const result = await enqueue(variables, url);
  expect(result.errors).toBeUndefined();
  return result.data!.enqueueTask;
};
const readTask = async (id: string, url = api.url) => {
  const result = await post(url, TaskDocument, { id }, api.tokens.service);
  expect(result.errors).toBeUndefined();
  return result.data!.task;
};
const queueStats = async (name: string, url = api.url) => {
  const result = await post(url, QueueStatsDocument, { name }, api.tokens.service);
  expect(result.errors).toBeUndefined();
  return result.data!.queue;
};
const cancel = (id: string) => post(api.url, CancelTaskDocument, { id }, api.tokens.service);
const reschedule = (id: string, delayMs: number) =>
  post(api.url, RescheduleTaskDocument, { id, delayMs }, api.tokens.service);

const EMPTY_STATS: Omit<QueueStatsQuery['queue'], 'name'> = {
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

/** Every key with its type and full content, to show that a refused request wrote nothing. */
async function snapshot(): Promise<Record<string, unknown>> {
  const redis = api.redis.client;
  const keys = (await redis.keys('*')).sort();
  const contents: Record<string, unknown> = {};
  for (const key of keys) {
    const type = await redis.type(key);
    if (type === 'hash') contents[key] = await redis.hgetall(key);
    else if (type === 'list') contents[key] = await redis.lrange(key, 0, -1);
    else if (type === 'zset') contents[key] = await redis.zrange(key, 0, -1, 'WITHSCORES');
    else if (type === 'string') contents[key] = await redis.get(key);
    else contents[key] = type;
  }
  return contents;
}

/**
 * Subscribes to taskChanged over WebSocket (through this file's server) and waits until the
 * server listens on the task's channel. Ids repeat from test to test (each starts on an empty
 * database), so it first waits for a previous test's subscription to the same id to be gone.
 */
async function watch(id: string) {
  const subscribers = async () => api.redis.subscribers(TOPICS.taskChanged.channel(id));
  await eventually(async () => (await subscribers()) === 0, 5000, 20);
  const socket = fixture.connect(api.tokens.service);
  const subscription = wsOperation(socket.client, TaskChangedDocument, { id });
  await eventually(async () => (await subscribers()) === 1, 5000, 20);
  return subscription;
}

describe('enqueueing and reading tasks', () => {
  it('records a waiting task numbered per queue, with its times, and reads it back', async () => {
    const first = await enqueued({ queue: 'mail', name: 'send', args: { to: 'bob@example.com' } });
    expect(first).toEqual({
      id: 'mail:1',
      queue: 'mail',
      name: 'send',
      args: { to: 'bob@example.com' },
      priority: 'NORMAL',
      state: 'WAITING',
      runAt: first.createdAt,
      attempts: 0,
      maxAttempts: 3,
      result: null,
      error: null,
      createdAt: expect.any(Number),
      startedAt: null,
      finishedAt: null,
      progress: null,
      backoffMs: null,
      backoff: 'EXPONENTIAL',
      timeoutMs: null,
      retries: 0,
    });
    // Unix seconds by Redis's clock, which is this machine's here.
    expect(Math.abs(first.createdAt - Date.now() / 1000)).toBeLessThan(60);

    const second = await enqueued({ queue: 'mail', name: 'send', args: { to: 'carol@example.com' }, priority: 'HIGH' });
    const elsewhere = await enqueued({ queue: 'sms', name: 'send' });
    expect([second.id, second.priority, elsewhere.id]).toEqual(['mail:2', 'HIGH', 'sms:1']);
    expect(second.createdAt).toBeGreaterThanOrEqual(first.createdAt);

    expect(await readTask('mail:1')).toEqual(first);
    expect(await readTask('mail:2')).toEqual(second);
    expect(await readTask('sms:1')).toEqual(elsewhere);
    expect(await readTask('mail:3')).toBeNull();
    expect(await readTask('nowhere:1')).toBeNull();
    expect(await queueStats('mail')).toEqual(statsOf('mail', { waitingHigh: 1, waitingNormal: 1 }));
    expect(await queueStats('sms')).toEqual(statsOf('sms', { waitingNormal: 1 }));
  });

  it('records a delayed task as DELAYED with runAt = createdAt + delayMs, and reads it back', async () => {
    const task = await enqueued({ queue: 'later', name: 'remind', delayMs: 5000, priority: 'LOW' });
    expect(task).toMatchObject({
      id: 'later:1',
      state: 'DELAYED',
      priority: 'LOW',
      attempts: 0,
      startedAt: null,
      finishedAt: null,
    });
    expect(msBetween(task.createdAt, task.runAt)).toBe(5000);
    expect(await readTask('later:1')).toEqual(task);
    // Due time in the delayed zset, in unix ms, and in no waiting list.
    const keys = queueKeys('later');
    expect(Number(await api.redis.client.zscore(keys.delayed, '1'))).toBe(Math.round(task.runAt * 1000));
    for (const list of keys.lists) expect(await api.redis.client.llen(list)).toBe(0);
    expect(await queueStats('later')).toEqual(statsOf('later', { delayed: 1 }));
  });

  it('a delayMs of 0 is not a delay: the task is WAITING', async () => {
    const task = await enqueued({ queue: 'now', name: 'go', delayMs: 0 });
    expect(task.state).toBe('WAITING');
    expect(task.runAt).toBe(task.createdAt);
  });

  it.each([
    [
      'a nested object',
      { user: { id: 7, tags: ['a', 'b'], prefs: { deep: { deeper: [1, { x: null, y: [true, false] }] } } } },
    ],
    ['unicode strings and keys', { text: '任务队列 — naïve café 🚀 👩‍👩‍👧', 键: 'значение', emoji: '🇫🇷' }],
    ['an array of mixed values', [1, 'two', true, null, { three: 3 }, [4.5, -6e-7]]],
    ['a bare string', 'just a string'],
    ['a string with a lone surrogate', 'half \ud800 a pair'],
    ['an empty string', ''],
    ['a number', 42.5],
    ['zero', 0],
    ['false', false],
    ['an empty object', {}],
    ['an empty array', []],
    ['the largest safe integer', { n: Number.MAX_SAFE_INTEGER, negative: -Number.MAX_SAFE_INTEGER }],
  ])('round-trips args that are %s', async (_case, args) => {
    const task = await enqueued({ queue: 'shapes', name: 'keep', args });
    expect(task.args).toEqual(args);
    expect((await readTask(task.id))!.args).toEqual(args);
    // Stored as the JSON text of what the client sent.
    expect(JSON.parse((await api.redis.client.hget(queueKeys('shapes').args, '1'))!)).toEqual(args);
  });

  it.each([
    ['null', { args: null }],
    ['absent', {}],
  ])('stores no arguments when args are %s, and reads them back as null', async (_case, extra) => {
    const task = await enqueued({ queue: 'shapes', name: 'bare', ...extra });
    expect(task.args).toBeNull();
    expect((await readTask(task.id))!.args).toBeNull();
    expect(await api.redis.client.hexists(queueKeys('shapes').args, '1')).toBe(0);
  });

  it('counts waiting tasks per priority and delayed tasks in queue(name)', async () => {
    const plan: EnqueueTaskMutationVariables[] = [
      { queue: 'jobs', name: 'a', priority: 'HIGH' },
      { queue: 'jobs', name: 'b', priority: 'LOW' },
      { queue: 'jobs', name: 'c' },
      { queue: 'jobs', name: 'd', priority: 'HIGH' },
      { queue: 'jobs', name: 'e', priority: 'NORMAL' },
      { queue: 'jobs', name: 'f', priority: 'NORMAL' },
      { queue: 'jobs', name: 'g', priority: 'HIGH', delayMs: 30_000 },
      { queue: 'jobs', name: 'h', priority: 'LOW', delayMs: 1000 },
      { queue: 'other', name: 'x', priority: 'HIGH' },
    ];
    for (const variables of plan) await enqueued(variables);
    expect(await queueStats('jobs')).toEqual(
      statsOf('jobs', { waitingHigh: 2, waitingNormal: 3, waitingLow: 1, delayed: 2 }),
    );
    expect(await queueStats('other')).toEqual(statsOf('other', { waitingHigh: 1 }));
  });

  it('reports an unknown queue as empty without creating anything', async () => {
    expect(await queueStats('never-used')).toEqual(statsOf('never-used', {}));
    expect(await api.redis.client.dbsize()).toBe(0);
  });

  it('refuses a task to a queue holding TASK_MAX_PER_QUEUE tasks with CONFLICT, storing nothing, yet replays a known idempotency key', async () => {
    const first = await enqueued({ queue: 'full', name: 'n', idempotencyKey: 'first' });
    for (let i = 2; i <= 9; i++) await enqueued({ queue: 'full', name: 'n' });
    // Cancelled tasks are still held (until forgotten beyond TASK_HISTORY).
    await cancel((await enqueued({ queue: 'full', name: 'n' })).id);
    const before = await snapshot();
    const refused = await enqueue({ queue: 'full', name: 'n' });
    expect(codes(refused)).toEqual(['CONFLICT']);
    expect(refused.errors![0].extensions!.argument).toBe('queue');
    expect(await snapshot()).toEqual(before);
    expect(await enqueued({ queue: 'full', name: 'n', idempotencyKey: 'first' })).toEqual(first);
    expect(await queueStats('full')).toEqual(statsOf('full', { waitingNormal: 9, cancelled: 1 }));
    expect((await enqueued({ queue: 'not-full', name: 'n' })).id).toBe('not-full:1');
  });

  it('treats a queue name in decomposed Unicode as the same queue (NFC)', async () => {
    const composed = await enqueued({ queue: 'caf\u00e9', name: 'brew' });
    const decomposed = await enqueued({ queue: 'cafe\u0301', name: 'brew' });
    expect([composed.id, decomposed.id]).toEqual(['caf\u00e9:1', 'caf\u00e9:2']);
    expect(decomposed.queue).toBe('caf\u00e9');
    expect((await readTask('cafe\u0301:1'))!.id).toBe('caf\u00e9:1');
    expect((await queueStats('cafe\u0301')).waitingNormal).toBe(2);
  });

  it('accepts the limits themselves: 128-character names, delayMs = TASK_MAX_DELAY_MS, args of exactly TASK_MAX_ARGS_BYTES, nested 32 deep', async () => {
    const queue = '队'.repeat(128);
    const name = '🚀'.repeat(128);
    const atMaxDelay = await enqueued({ queue, name, delayMs: MAX_DELAY_MS });
    expect(atMaxDelay).toMatchObject({ id: `${queue}:1`, queue, name, state: 'DELAYED' });
    expect(msBetween(atMaxDelay.createdAt, atMaxDelay.runAt)).toBe(MAX_DELAY_MS);

    // 'é' is two bytes in UTF-8: 511 of them and the quotes are 1024 bytes of JSON.
    const largest = 'é'.repeat(511);
    expect(Buffer.byteLength(JSON.stringify(largest))).toBe(MAX_ARGS_BYTES);
    expect((await enqueued({ queue: 'limits', name: 'big', args: largest })).args).toBe(largest);

    let deep: unknown = [];
    for (let depth = 1; depth < 32; depth++) deep = [deep];
    expect((await enqueued({ queue: 'limits', name: 'deep', args: deep })).args).toEqual(deep);
    expect(await queueStats('limits')).toEqual(statsOf('limits', { waitingNormal: 2 }));
  });
});

describe('idempotency keys', () => {
  const request = {
    queue: 'pay',
    name: 'charge',
    args: { order: 17, cents: 1999 },
    priority: 'HIGH',
    delayMs: 0,
    idempotencyKey: 'order-17',
  } as const;

  it('returns the first task for the same key and request, enqueueing nothing more', async () => {
    const first = await enqueued(request);
    expect(first).toMatchObject({ id: 'pay:1', state: 'WAITING', args: request.args });
    const again = await enqueued(request);
    expect(again).toEqual(first);
    const third = await enqueued(request);
    expect(third).toEqual(first);
    expect(await queueStats('pay')).toEqual(statsOf('pay', { waitingHigh: 1 }));
    expect(await api.redis.client.get(queueKeys('pay').seq)).toBe('1');
    expect(await api.redis.client.lrange(queueKeys('pay').lists[1], 0, -1)).toEqual(['1']);
  });

  it('returns the first task for a delayed request too, with its first runAt', async () => {
    const delayed = { ...request, delayMs: 20_000 };
    const first = await enqueued(delayed);
    const again = await enqueued(delayed);
    expect(again).toEqual(first);
    expect(again.state).toBe('DELAYED');
    expect(await queueStats('pay')).toEqual(statsOf('pay', { delayed: 1 }));
  });

  it.each([
    ['different args', { args: { order: 17, cents: 2999 } }],
    ['no args', { args: null }],
    ['a different name', { name: 'refund' }],
    ['a different priority', { priority: 'LOW' as const }],
    ['a different delay', { delayMs: 1000 }],
  ])('refuses the same key with %s as CONFLICT, enqueueing nothing', async (_case, change) => {
    const first = await enqueued(request);
    const before = await snapshot();
    const reused = await enqueue({ ...request, ...change });
    expect(codes(reused)).toEqual(['CONFLICT']);
    expect(reused.errors![0].extensions!.argument).toBe('idempotencyKey');
    expect(reused.data).toBeNull();
    expect(await snapshot()).toEqual(before);
    expect(await queueStats('pay')).toEqual(statsOf('pay', { waitingHigh: 1 }));
    expect(await readTask(first.id)).toEqual(first);
  });

  it('keeps keys per queue, and without a key the same request is two tasks', async () => {
    const first = await enqueued(request);
    const otherQueue = await enqueued({ ...request, queue: 'pay-eu' });
    expect([first.id, otherQueue.id]).toEqual(['pay:1', 'pay-eu:1']);
    const { idempotencyKey: _unused, ...keyless } = request;
    const twice = [await enqueued(keyless), await enqueued(keyless)];
    expect(twice.map((task) => task.id)).toEqual(['pay:2', 'pay:3']);
    expect((await queueStats('pay')).waitingHigh).toBe(3);
  });

  it('returns the first task even once it is cancelled, and does not enqueue it again', async () => {
    const first = await enqueued(request);
    expect((await cancel(first.id)).data).toEqual({ cancelTask: true });
    const again = await enqueued(request);
    expect(again).toMatchObject({ id: 'pay:1', state: 'CANCELLED' });
    expect(again.finishedAt).not.toBeNull();
    expect(await queueStats('pay')).toEqual(statsOf('pay', { cancelled: 1 }));
  });
});

describe('cancelTask', () => {
  it('cancels a WAITING and a DELAYED task, counts them, and leaves the others waiting', async () => {
    const waiting = await enqueued({ queue: 'c', name: 'w' });
    const delayed = await enqueued({ queue: 'c', name: 'd', delayMs: 10_000 });
    const kept = await enqueued({ queue: 'c', name: 'k' });
    expect(await queueStats('c')).toEqual(statsOf('c', { waitingNormal: 2, delayed: 1 }));

    expect((await cancel(waiting.id)).data).toEqual({ cancelTask: true });
    const cancelled = (await readTask(waiting.id))!;
    expect(cancelled).toMatchObject({ id: 'c:1', state: 'CANCELLED', attempts: 0, startedAt: null });
    expect(cancelled.finishedAt).toBeGreaterThanOrEqual(cancelled.createdAt);
    expect(await queueStats('c')).toEqual(statsOf('c', { waitingNormal: 1, delayed: 1, cancelled: 1 }));

    expect((await cancel(delayed.id)).data).toEqual({ cancelTask: true });
    expect((await readTask(delayed.id))!.state).toBe('CANCELLED');
    expect(await queueStats('c')).toEqual(statsOf('c', { waitingNormal: 1, cancelled: 2 }));

    const keys = queueKeys('c');
    expect(await api.redis.client.lrange(keys.lists[3], 0, -1)).toEqual(['3']);
    expect(await api.redis.client.zcard(keys.delayed)).toBe(0);
    expect(await readTask(kept.id)).toEqual(kept);
  });

  it('returns false for an unknown task and for one already cancelled, changing nothing', async () => {
    const task = await enqueued({ queue: 'c', name: 'once' });
    expect((await cancel(task.id)).data).toEqual({ cancelTask: true });
    const before = await snapshot();
    expect((await cancel(task.id)).data).toEqual({ cancelTask: false });
    expect((await cancel('c:2')).data).toEqual({ cancelTask: false });
    expect((await cancel('unknown-queue:1')).data).toEqual({ cancelTask: false });
    expect(await snapshot()).toEqual(before);
    expect(await queueStats('c')).toEqual(statsOf('c', { cancelled: 1 }));
  });

  it('refuses to reschedule a cancelled task with CONFLICT', async () => {
    const task = await enqueued({ queue: 'c', name: 'gone' });
    await cancel(task.id);
    const result = await reschedule(task.id, 1000);
    expect(codes(result)).toEqual(['CONFLICT']);
    expect(result.errors![0].extensions!.argument).toBe('id');
    expect(result.errors![0].message).toContain('CANCELLED');
    expect((await readTask(task.id))!.state).toBe('CANCELLED');
    expect(await queueStats('c')).toEqual(statsOf('c', { cancelled: 1 }));
  });
});

describe('rescheduleTask', () => {
  it('moves a DELAYED task to a new runAt from now', async () => {
    const task = await enqueued({ queue: 'r', name: 'x', delayMs: 30_000 });
    const moved = (await reschedule(task.id, 5000)).data!.rescheduleTask!;
    expect(moved).toMatchObject({ id: 'r:1', state: 'DELAYED', attempts: 0, createdAt: task.createdAt });
    expect(msBetween(task.createdAt, moved.runAt)).toBeGreaterThanOrEqual(5000);
    expect(moved.runAt).toBeLessThan(task.runAt);
    expect(await readTask(task.id)).toEqual(moved);
    expect(Number(await api.redis.client.zscore(queueKeys('r').delayed, '1'))).toBe(Math.round(moved.runAt * 1000));
    expect(await queueStats('r')).toEqual(statsOf('r', { delayed: 1 }));
  });

  it('delays a WAITING task, and makes a DELAYED task WAITING with delayMs 0, keeping its priority', async () => {
    const task = await enqueued({ queue: 'r', name: 'x', priority: 'HIGH' });
    const delayed = (await reschedule(task.id, 10_000)).data!.rescheduleTask!;
    expect(delayed.state).toBe('DELAYED');
    expect(msBetween(task.createdAt, delayed.runAt)).toBeGreaterThanOrEqual(10_000);
    expect(await queueStats('r')).toEqual(statsOf('r', { delayed: 1 }));

    const now = (await reschedule(task.id, 0)).data!.rescheduleTask!;
    expect(now).toMatchObject({ state: 'WAITING', priority: 'HIGH', attempts: 0 });
    expect(now.runAt).toBeGreaterThanOrEqual(task.createdAt);
    expect(now.runAt).toBeLessThan(delayed.runAt);
    expect(await queueStats('r')).toEqual(statsOf('r', { waitingHigh: 1 }));
    expect(await api.redis.client.lrange(queueKeys('r').lists[1], 0, -1)).toEqual(['1']);
  });

  it('returns null for a task that does not exist, creating nothing', async () => {
    const result = await reschedule('r:1', 1000);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ rescheduleTask: null });
    expect(await api.redis.client.dbsize()).toBe(0);
  });
});

describe('bad input is refused with BAD_USER_INPUT and nothing enqueued', () => {
  const long = 'q'.repeat(129);
  let deep: unknown = [];
  for (let depth = 1; depth < 33; depth++) deep = [deep];

  it.each([
    ['an empty queue name', { queue: '', name: 'n' }, 'queue'],
    ['a queue name of 129 characters', { queue: long, name: 'n' }, 'queue'],
    ['a queue name with a colon', { queue: 'q:1', name: 'n' }, 'queue'],
    ['a queue name with a brace', { queue: '{q}', name: 'n' }, 'queue'],
    ['a queue name with a space', { queue: 'my queue', name: 'n' }, 'queue'],
    ['an empty task name', { queue: 'q', name: '' }, 'name'],
    ['a task name of 129 characters', { queue: 'q', name: 'n'.repeat(129) }, 'name'],
    ['a task name with a colon', { queue: 'q', name: 'send:mail' }, 'name'],
    ['a task name with a brace', { queue: 'q', name: 'a{b' }, 'name'],
    ['a task name with a space', { queue: 'q', name: 'send mail' }, 'name'],
    ['a negative delayMs', { queue: 'q', name: 'n', delayMs: -1 }, 'delayMs'],
    ['a delayMs over TASK_MAX_DELAY_MS', { queue: 'q', name: 'n', delayMs: MAX_DELAY_MS + 1 }, 'delayMs'],
    [
      'args over TASK_MAX_ARGS_BYTES (counted in UTF-8 bytes)',
      { queue: 'q', name: 'n', args: 'é'.repeat(512) },
      'args',
    ],
    ['args nested 33 deep', { queue: 'q', name: 'n', args: deep }, 'args'],
    ['an idempotencyKey with a space', { queue: 'q', name: 'n', idempotencyKey: 'a b' }, 'idempotencyKey'],
    ['an empty idempotencyKey', { queue: 'q', name: 'n', idempotencyKey: '' }, 'idempotencyKey'],
  ] as [string, EnqueueTaskMutationVariables, string][])('enqueueTask with %s', async (_case, variables, argument) => {
    await enqueued({ queue: 'q', name: 'existing' });
    const before = await snapshot();
    const result = await enqueue(variables);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0].extensions!.argument).toBe(argument);
    expect(result.data).toBeNull();
    expect(await snapshot()).toEqual(before);
    expect(await queueStats('q')).toEqual(statsOf('q', { waitingNormal: 1 }));
  });

  it.each([
    ['an unknown priority', { queue: 'q', name: 'n', priority: 'URGENT' }],
    ['a lower-case priority', { queue: 'q', name: 'n', priority: 'high' }],
    ['a delayMs that is not an integer', { queue: 'q', name: 'n', delayMs: 1.5 }],
    ['a delayMs beyond 32 bits', { queue: 'q', name: 'n', delayMs: 2 ** 31 }],
  ])('enqueueTask with %s in variables (refused by GraphQL itself)', async (_case, variables) => {
    await enqueued({ queue: 'q', name: 'existing' });
    const before = await snapshot();
    const result = await enqueue(variables as never);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.status).toBe(400);
    expect(result.data).toBeUndefined();
    expect(await snapshot()).toEqual(before);
  });

  // The typed operation declares $priority and $delayMs nullable (the arguments have defaults),
  // so a client may send an explicit null: that is the client's mistake, not the server's.
  it.each([
    ['priority', { queue: 'q', name: 'n', priority: null }],
    ['delayMs', { queue: 'q', name: 'n', delayMs: null }],
  ])('enqueueTask with an explicit null %s', async (_argument, variables) => {
    await enqueued({ queue: 'q', name: 'existing' });
    const before = await snapshot();
    const result = await enqueue(variables);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(await snapshot()).toEqual(before);
  });

  it('enqueueTask with an unknown priority written in the query (GraphQL validation)', async () => {
    const document = parse('mutation { enqueueTask(queue: "q", name: "n", priority: URGENT) { id } }');
    const result = await post(api.url, document as never, {}, api.tokens.service);
    expect(codes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(result.errors![0].message).toContain('URGENT');
    expect(await api.redis.client.dbsize()).toBe(0);
  });

  it.each([
    'x',
    'q:0',
    'q:01',
    ':1',
    'q:abc',
    'q:',
    'q:-1',
    'q:1.5',
    'q: 1',
    'a b:1',
    '{q}:1',
    'q:12345678901234567',
    '',
  ])('task, cancelTask and rescheduleTask with the malformed id %j', async (id) => {
    await enqueued({ queue: 'q', name: 'existing' });
    const before = await snapshot();
    const results = [
      await post(api.url, TaskDocument, { id }, api.tokens.service),
      await post(api.url, CancelTaskDocument, { id }, api.tokens.service),
      await post(api.url, RescheduleTaskDocument, { id, delayMs: 0 }, api.tokens.service),
    ];
    expect(results.map(codes)).toEqual([['BAD_USER_INPUT'], ['BAD_USER_INPUT'], ['BAD_USER_INPUT']]);
    expect(results.map((result) => result.errors![0].extensions!.argument)).toEqual(['id', 'id', 'id']);
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['a negative delayMs', -1],
    ['a delayMs over TASK_MAX_DELAY_MS', MAX_DELAY_MS + 1],
  ])('rescheduleTask with %s, leaving the task as it was', async (_case, delayMs) => {
    const task = await enqueued({ queue: 'q', name: 'existing', delayMs: 1000 });
    const before = await snapshot();
    const result = await reschedule(task.id, delayMs);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0].extensions!.argument).toBe('delayMs');
    expect(await snapshot()).toEqual(before);
    expect(await readTask(task.id)).toEqual(task);
  });

  it.each([
    ['empty', ''],
    ['of 129 characters', long],
    ['with a colon', 'a:b'],
  ])('queue(name) with a name %s', async (_case, name) => {
    const result = await post(api.url, QueueStatsDocument, { name }, api.tokens.service);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0].extensions!.argument).toBe('name');
    expect(await api.redis.client.dbsize()).toBe(0);
  });

  it('taskChanged with a malformed id, over WebSocket', async () => {
    const socket = fixture.connect(api.tokens.service);
    const results = await wsOperation(socket.client, TaskChangedDocument, { id: 'q:01' }).completion();
    expect(results.map((result) => codes(result))).toEqual([['BAD_USER_INPUT']]);
  });
});

describe('who may use task queues', () => {
  const operations = [
    ['enqueueTask', EnqueueTaskDocument, { queue: 'q', name: 'n', args: { x: 1 } }],
    ['task', TaskDocument, { id: 'q:1' }],
    ['queue', QueueStatsDocument, { name: 'q' }],
    ['cancelTask', CancelTaskDocument, { id: 'q:1' }],
    ['rescheduleTask', RescheduleTaskDocument, { id: 'q:1', delayMs: 5000 }],
    ['taskChanged', TaskChangedDocument, { id: 'q:1' }],
  ] as const;

  it.each(operations)(
    '%s is FORBIDDEN to a user over HTTP and WebSocket, UNAUTHENTICATED without a token, and changes nothing',
    async (field, document, variables) => {
      const existing = await enqueued({ queue: 'q', name: 'existing' });
      const before = await snapshot();
      if (field !== 'taskChanged') {
        const http = await post(api.url, document as never, variables as never, api.tokens.user);
        expect(codes(http)).toEqual(['FORBIDDEN']);
        expect((http.data as Record<string, unknown> | null | undefined)?.[field] ?? null).toBeNull();
        const anonymous = await post(api.url, document as never, variables as never);
        expect(codes(anonymous)).toEqual(['UNAUTHENTICATED']);
      }
      const socket = fixture.connect(api.tokens.user);
      const results = await wsOperation(socket.client, document as never, variables as never).completion();
      expect(results.map((result) => codes(result))).toEqual([['FORBIDDEN']]);
      expect(await snapshot()).toEqual(before);
      expect(await readTask(existing.id)).toEqual(existing);
    },
  );
});

describe('taskChanged', () => {
  it('tells a service subscriber each state change of its task only, in order', async () => {
    for (let i = 1; i <= 10; i++) await enqueued({ queue: 'n', name: 'tick', delayMs: 30_000 });
    const subscription = await watch('n:1');
    await reschedule('n:10', 0); // task 10 is on another channel, though its id starts the same way
    await cancel('n:2');
    await reschedule('n:1', 0);
    await reschedule('n:1', 20_000);
    await cancel('n:1');
    const events = await subscription.take(3, 10_000);
    expect(events.map((event) => event.data?.taskChanged)).toEqual([
      { id: 'n:1', state: 'WAITING', progress: null },
      { id: 'n:1', state: 'DELAYED', progress: null },
      { id: 'n:1', state: 'CANCELLED', progress: null },
    ]);
    // The task read after the last notice agrees with it.
    expect((await readTask('n:1'))!.state).toBe('CANCELLED');
    expect(subscription.results).toHaveLength(3);
    subscription.unsubscribe();
  });
});

// The API process runs the workers itself here: `node dist/main.js` with TASK_WORKER=on, on the
// same Redis as this file's server. (An in-process server cannot load the handlers module under
// jest: loadHandlers uses import(), which jest's VM refuses without --experimental-vm-modules.)
// The queue "worked" is the only one with workers; the tests above use other queues so that
// their tasks stay as they were put.
describe('with workers inside an API process (TASK_WORKER=on)', () => {
  let worker: ServerProcess;
  let url: string;
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
    url = started.url;
  }, 60_000);

  afterAll(async () => {
    if (worker && worker.proc.exitCode === null) {
      worker.proc.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    }
    cleanUpProcesses();
  });

  const newLog = (): string => path.join(scratch, `runs-${++logs}.jsonl`);

  const statesOf = (events: { data?: { taskChanged: { id: string; state: string } } | null }[], id: string) =>
    events.map((event) => {
      expect(event.data?.taskChanged.id).toBe(id);
      return event.data!.taskChanged.state;
    });

  it('runs a task; a subscriber sees ACTIVE then COMPLETED, and task(id) shows the result and times', async () => {
    const log = newLog();
    const subscription = await watch('worked:1');
    const task = await enqueued({ queue: 'worked', name: 'work', args: { ms: 100, log } }, url);
    expect(task.id).toBe('worked:1');
    const events = await subscription.take(2, 20_000);
    expect(statesOf(events, 'worked:1')).toEqual(['ACTIVE', 'COMPLETED']);

    const done = (await readTask('worked:1', url))!;
    expect(done).toMatchObject({
      state: 'COMPLETED',
      attempts: 1,
      result: { id: 'worked:1', attempt: 1 },
      error: null,
      args: { ms: 100, log },
    });
    expect(done.startedAt).toBeGreaterThanOrEqual(done.createdAt);
    expect(done.finishedAt).toBeGreaterThanOrEqual(done.startedAt!);
    expect(await queueStats('worked', url)).toEqual(statsOf('worked', { completed: 1 }));
    // Run once, inside the API process.
    expect(runsIn(log).map((run) => [run.event, run.id, run.attempt, run.pid])).toEqual([
      ['start', 'worked:1', 1, worker.proc.pid],
      ['end', 'worked:1', 1, worker.proc.pid],
    ]);
    expect(subscription.results).toHaveLength(2);
    subscription.unsubscribe();
  });

  it('retries a failing handler with doubling backoff, then FAILS it with the last error after TASK_MAX_ATTEMPTS', async () => {
    const log = newLog();
    const subscription = await watch('worked:1');
    await enqueued({ queue: 'worked', name: 'fail', args: { log } });
    const events = await subscription.take(8, 30_000);
    expect(statesOf(events, 'worked:1')).toEqual([
      'ACTIVE',
      'DELAYED',
      'WAITING',
      'ACTIVE',
      'DELAYED',
      'WAITING',
      'ACTIVE',
      'FAILED',
    ]);

    const failed = (await readTask('worked:1'))!;
    expect(failed).toMatchObject({
      state: 'FAILED',
      attempts: 3,
      maxAttempts: 3,
      error: 'boom on attempt 3',
      result: null,
    });
    expect(failed.finishedAt).toBeGreaterThanOrEqual(failed.startedAt!);
    expect(await queueStats('worked')).toEqual(statsOf('worked', { failed: 1 }));

    const runs = runsIn(log);
    const starts = runs.filter((run) => run.event === 'start');
    const ends = runs.filter((run) => run.event === 'end');
    expect(starts.map((run) => run.attempt)).toEqual([1, 2, 3]);
    // TASK_BACKOFF_MS=200, doubled: no retry starts sooner than 200 ms, then 400 ms, after a failure.
    expect(starts[1].at - ends[0].at).toBeGreaterThanOrEqual(200);
    expect(starts[2].at - ends[1].at).toBeGreaterThanOrEqual(400);
    subscription.unsubscribe();
  });

  it('FAILS a task with an unknown name at once, naming it, after one attempt', async () => {
    const subscription = await watch('worked:1');
    await enqueued({ queue: 'worked', name: 'no-such-handler', args: { x: 1 } });
    const events = await subscription.take(2, 20_000);
    expect(statesOf(events, 'worked:1')).toEqual(['ACTIVE', 'FAILED']);
    const failed = (await readTask('worked:1'))!;
    expect(failed).toMatchObject({ state: 'FAILED', attempts: 1, result: null });
    expect(failed.error).toContain('"no-such-handler"');
    expect(failed.error).toMatch(/no handler/);
    expect(await queueStats('worked')).toEqual(statsOf('worked', { failed: 1 }));
    subscription.unsubscribe();
  });

  it('FAILS a task whose result is over TASK_MAX_ARGS_BYTES at once, without retrying it', async () => {
    // echo returns its args and more: 1000 bytes of args make a result over the 1024-byte limit.
    const task = await enqueued({ queue: 'worked', name: 'echo', args: 'x'.repeat(998) });
    await eventually(async () => (await readTask(task.id))!.state === 'FAILED', 20_000);
    expect((await readTask(task.id))!).toMatchObject({
      attempts: 1,
      result: null,
      error: `the result is larger than ${MAX_ARGS_BYTES} bytes of JSON`,
    });
  });

  it('does not run a task named after an Object.prototype member', async () => {
    await enqueued({ queue: 'worked', name: 'constructor' });
    await eventually(async () => (await readTask('worked:1'))!.state === 'FAILED', 20_000);
    expect((await readTask('worked:1'))!).toMatchObject({
      attempts: 1,
      error: expect.stringContaining('"constructor"'),
    });
  });

  it('runs a delayed task no sooner than its runAt', async () => {
    const log = newLog();
    const subscription = await watch('worked:1');
    const task = await enqueued({ queue: 'worked', name: 'work', args: { log }, delayMs: 700 });
    expect(task.state).toBe('DELAYED');
    const events = await subscription.take(3, 20_000);
    expect(statesOf(events, 'worked:1')).toEqual(['WAITING', 'ACTIVE', 'COMPLETED']);
    const [start] = runsIn(log);
    expect(start.at).toBeGreaterThanOrEqual(Math.round(task.runAt * 1000));
    const done = (await readTask('worked:1'))!;
    expect(done.startedAt).toBeGreaterThanOrEqual(task.runAt);
    subscription.unsubscribe();
  });

  it('never runs a delayed task cancelled before it was due, while one due after it runs', async () => {
    const log = newLog();
    const cancelled = await enqueued({ queue: 'worked', name: 'work', args: { log }, delayMs: 300 });
    const later = await enqueued({ queue: 'worked', name: 'work', args: { log }, delayMs: 800 });
    expect((await cancel(cancelled.id)).data).toEqual({ cancelTask: true });
    await eventually(async () => (await readTask(later.id))!.state === 'COMPLETED', 20_000);
    expect(runsIn(log).map((run) => run.id)).toEqual([later.id, later.id]);
    expect((await readTask(cancelled.id))!).toMatchObject({ state: 'CANCELLED', attempts: 0, startedAt: null });
    expect(await queueStats('worked')).toEqual(statsOf('worked', { completed: 1, cancelled: 1 }));
  });

  it('runs a task at once when its delay is rescheduled to 0', async () => {
    const task = await enqueued({ queue: 'worked', name: 'echo', args: ['hi'], delayMs: MAX_DELAY_MS });
    const rescheduled = await reschedule(task.id, 0);
    expect(rescheduled.errors).toBeUndefined();
    // The reply is the task as read just after: a worker may already have taken it.
    expect(['WAITING', 'ACTIVE', 'COMPLETED']).toContain(rescheduled.data!.rescheduleTask!.state);
    await eventually(async () => (await readTask(task.id))!.state === 'COMPLETED', 20_000);
    expect((await readTask(task.id))!.result).toEqual({ args: ['hi'], id: task.id, name: 'echo', attempt: 1 });
  });

  it('neither cancels nor reschedules a running or finished task', async () => {
    const release = path.join(scratch, `release-${++logs}`);
    const task = await enqueued({ queue: 'worked', name: 'hold', args: { release } });
    await eventually(async () => (await readTask(task.id))!.state === 'ACTIVE', 20_000);

    expect((await cancel(task.id)).data).toEqual({ cancelTask: false });
    const rescheduled = await reschedule(task.id, 1000);
    expect(codes(rescheduled)).toEqual(['CONFLICT']);
    expect(rescheduled.errors![0].message).toContain('ACTIVE');
    expect((await readTask(task.id))!).toMatchObject({ state: 'ACTIVE', attempts: 1 });
    expect(await queueStats('worked')).toEqual(statsOf('worked', { active: 1 }));

    fs.writeFileSync(release, '');
    await eventually(async () => (await readTask(task.id))!.state === 'COMPLETED', 20_000);
    expect((await cancel(task.id)).data).toEqual({ cancelTask: false });
    expect(codes(await reschedule(task.id, 0))).toEqual(['CONFLICT']);
    expect((await readTask(task.id))!).toMatchObject({
      state: 'COMPLETED',
      attempts: 1,
      result: { released: true, attempt: 1 },
    });
    expect(await queueStats('worked')).toEqual(statsOf('worked', { completed: 1 }));
  });

  it('returns the first task, with its result, for a reused idempotency key once it has COMPLETED', async () => {
    const request = { queue: 'worked', name: 'echo', args: { n: 1 }, idempotencyKey: 'run-once' };
    const first = await enqueued(request);
    await eventually(async () => (await readTask(first.id))!.state === 'COMPLETED', 20_000);
    const again = await enqueued(request);
    expect(again).toMatchObject({ id: first.id, state: 'COMPLETED', attempts: 1 });
    expect(again.result).toEqual({ args: { n: 1 }, id: first.id, name: 'echo', attempt: 1 });
    expect(again).toEqual(await readTask(first.id));
    expect(await queueStats('worked')).toEqual(statsOf('worked', { completed: 1 }));
  });

  it('returns the first task, with its error, for a reused idempotency key once it has FAILED', async () => {
    const request = { queue: 'worked', name: 'no-such-handler', idempotencyKey: 'fail-once' };
    const first = await enqueued(request);
    await eventually(async () => (await readTask(first.id))!.state === 'FAILED', 20_000);
    const again = await enqueued(request);
    expect(again).toMatchObject({ id: first.id, state: 'FAILED', attempts: 1 });
    expect(again.error).toContain('"no-such-handler"');
    expect(again).toEqual(await readTask(first.id));
    expect(await queueStats('worked')).toEqual(statsOf('worked', { failed: 1 }));
  });
});
