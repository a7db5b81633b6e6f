// Task queues (book section 6.4): FIFO lists per priority, delayed tasks in a zset moved by a
// poller, and, beyond the book, leases: a task taken by a worker stays recorded as ACTIVE until
// the worker settles it, and runs again if the worker stops renewing its lease. Every change is
// one script on the queue's slot; the repository only builds keys and decodes replies.
import { createHash } from 'node:crypto';
import type { RedisClient } from './client/connection';
import { queueKeys, taskId, TASK_PRIORITIES, type TaskPriority } from './keys';
import { repliesOf } from './client/replies';
import { runScript } from './client/scripts';

export const TASK_STATES = ['DELAYED', 'WAITING', 'ACTIVE', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** A task as stored; times are unix ms by the Redis server's clock. */
export interface TaskRecord {
  id: string;
  queue: string;
  number: number;
  name: string;
  priority: TaskPriority;
  state: TaskState;
  runAt: number;
  attempts: number;
  maxAttempts: number;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  /** JSON text as the client sent it, or undefined. */
  args?: string;
  /** JSON text of the handler's result, or undefined. */
  result?: string;
  /** The last error, kept across retries. */
  error?: string;
}

/** A run handed to a worker: `attempt` identifies it when renewing and settling. */
export interface TakenTask {
  id: string;
  number: number;
  name: string;
  attempt: number;
  args: string | undefined;
}

export interface QueueStats {
  waiting: Record<TaskPriority, number>;
  delayed: number;
  active: number;
  completed: number;
  failed: number;
  cancelled: number;
}

export interface EnqueueRequest {
  queue: string;
  name: string;
  /** JSON text, or undefined for no arguments. */
  args: string | undefined;
  priority: TaskPriority;
  delayMs: number;
  idempotencyKey: string | undefined;
}

export type Outcome =
  | { kind: 'COMPLETED'; result: string | undefined }
  /** `retry: false` for errors that another run cannot fix (no handler for the name). */
  | { kind: 'FAILED'; error: string; retry: boolean };

export interface TaskSettings {
  /** Runs of a task before it is FAILED for good (the first run included). */
  maxAttempts: number;
  /** Wait before the first retry; doubled for each further one, up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Finished (completed, failed, cancelled) tasks remembered per queue. */
  history: number;
  /** Most tasks one queue may hold, waiting, delayed, active and remembered together. */
  maxTasksPerQueue: number;
}

/** Most tasks one poller step moves, expires or forgets, so one script never runs long. */
const PROMOTE_BATCH = 1000;

/** The record as task scripts keep it (JSON), with the idempotency key it was enqueued under. */
type StoredFields = Omit<TaskRecord, 'id' | 'queue' | 'number' | 'args' | 'result' | 'error'> & {
  idempotencyKey?: string;
};

function decode(queue: string, number: number | string, json: string, extra: Partial<TaskRecord> = {}): TaskRecord {
  // The idempotency key stays inside: the scripts keep it so the history trim can forget it.
  const { idempotencyKey: _internal, ...fields } = JSON.parse(json) as StoredFields;
  return { id: taskId(queue, number), queue, number: Number(number), ...fields, ...extra };
}

/** What a repeated idempotency key must match: the same name, arguments, priority and delay. */
const requestDigest = (request: EnqueueRequest): string =>
  createHash('sha256')
    .update(JSON.stringify([request.name, request.args ?? null, request.priority, request.delayMs]))
    .digest('base64url');

type QueueKeys = ReturnType<typeof queueKeys>;

/** Queues whose key names one repository keeps built. */
const KEY_CACHE_SIZE = 1024;

const orUndefined = (value: string | null): string | undefined => (value === null || value === '' ? undefined : value);

export class TaskRepository {
  private readonly keyCache = new Map<string, QueueKeys>();

  constructor(
    private readonly redis: RedisClient,
    private readonly settings: TaskSettings,
  ) {}

  /** Records a task; with a known idempotency key, returns the first task instead (`created: false`). */
  async enqueue(request: EnqueueRequest): Promise<{ task: TaskRecord; created: boolean }> {
    const keys = this.keysOf(request.queue);
    const delayed = request.delayMs > 0;
    const key = request.idempotencyKey;
    const scriptKeys = [
      keys.seq,
      keys.meta,
      keys.args,
      delayed ? keys.delayed : keys.lists[TASK_PRIORITIES.indexOf(request.priority) * 2 + 1],
      delayed ? keys.pollerWake : keys.workerWake,
    ];
    if (key !== undefined) scriptKeys.push(keys.idempotency);
    const [created, number, timeOrJson] = (await runScript(this.redis, 'task-enqueue', scriptKeys, [
      request.name,
      request.args ?? '',
      request.priority,
      request.delayMs,
      key ?? '',
      // Only a repeated idempotency key is compared with the request it was first used for.
      key === undefined ? '' : requestDigest(request),
      this.settings.maxAttempts,
      this.settings.maxTasksPerQueue,
    ])) as [number, number, number | string];
    if (created === 1) {
      // The record as the script stored it, from the request and the time it was recorded: the
      // script does not send back what the caller already has. task-enqueue.lua builds the same
      // fields; a test compares this with get().
      const now = Number(timeOrJson);
      const task: TaskRecord = {
        id: taskId(request.queue, number),
        queue: request.queue,
        number,
        name: request.name,
        priority: request.priority,
        state: delayed ? 'DELAYED' : 'WAITING',
        runAt: now + request.delayMs,
        attempts: 0,
        maxAttempts: this.settings.maxAttempts,
        createdAt: now,
        args: request.args === '' ? undefined : request.args,
      };
      return { task, created: true };
    }
    // The first task with this key, as it is now (it may have finished, with a result or error).
    const first = await this.get(request.queue, String(number));
    return { task: first ?? decode(request.queue, number, String(timeOrJson)), created: false };
  }

  /** The queue's key names, built once per queue: an add is too cheap to build fifteen strings each time. */
  private keysOf(queue: string): QueueKeys {
    let keys = this.keyCache.get(queue);
    if (keys === undefined) {
      // Queue names come from callers: the cache is bounded, and simply starts over when full.
      if (this.keyCache.size >= KEY_CACHE_SIZE) this.keyCache.clear();
      keys = queueKeys(queue);
      this.keyCache.set(queue, keys);
    }
    return keys;
  }

  async get(queue: string, number: string): Promise<TaskRecord | undefined> {
    const keys = this.keysOf(queue);
    const [json, args, result, error] = (await repliesOf(
      this.redis
        .multi()
        .hget(keys.meta, number)
        .hget(keys.args, number)
        .hget(keys.results, number)
        .hget(keys.errors, number)
        .exec(),
    )) as (string | null)[];
    if (json === null || json === undefined) return undefined;
    return decode(queue, number, json, {
      args: orUndefined(args),
      result: orUndefined(result),
      error: orUndefined(error),
    });
  }

  async stats(queue: string): Promise<QueueStats> {
    const keys = this.keysOf(queue);
    const transaction = this.redis.multi();
    for (const list of keys.lists) transaction.llen(list);
    transaction.zcard(keys.delayed).zcard(keys.active).hmget(keys.counts, 'COMPLETED', 'FAILED', 'CANCELLED');
    const values = await repliesOf(transaction.exec());
    const lengths = values.slice(0, 6) as number[];
    const [delayed, active, counts] = values.slice(6) as [number, number, (string | null)[]];
    return {
      waiting: { HIGH: lengths[0] + lengths[1], NORMAL: lengths[2] + lengths[3], LOW: lengths[4] + lengths[5] },
      delayed,
      active,
      completed: Number(counts[0] ?? 0),
      failed: Number(counts[1] ?? 0),
      cancelled: Number(counts[2] ?? 0),
    };
  }

  /** Cancels a task that has not started; false when it had started, finished or does not exist. */
  async cancel(queue: string, number: string): Promise<boolean> {
    const keys = this.keysOf(queue);
    const cancelled = await runScript(
      this.redis,
      'task-cancel',
      [keys.meta, keys.delayed, ...keys.lists, keys.done, keys.counts],
      [queue, number],
    );
    return Number(cancelled) === 1;
  }

  /** Runs a task that has not started after `delayMs` from now; undefined when there is no such task. */
  async reschedule(queue: string, number: string, delayMs: number): Promise<TaskRecord | undefined> {
    const keys = this.keysOf(queue);
    const json = (await runScript(
      this.redis,
      'task-reschedule',
      [keys.meta, keys.delayed, ...keys.lists, keys.workerWake, keys.pollerWake],
      [queue, number, delayMs],
    )) as string;
    if (json === '') return undefined;
    // The record as this step left it (a worker may take the task at once), with its texts.
    const task = await this.get(queue, number);
    return task && { ...task, ...decode(queue, number, json) };
  }

  // --- for workers and pollers -------------------------------------------------------------

  /** Takes up to `count` waiting tasks, each under a lease of `leaseMs`. */
  async take(queue: string, count: number, leaseMs: number): Promise<TakenTask[]> {
    return (await this.next(queue, undefined, count, leaseMs)).taken;
  }

  /** Renews the leases of runs a worker holds; returns the runs it has lost. */
  async extend<R extends Pick<TakenTask, 'number' | 'attempt'>>(
    queue: string,
    runs: R[],
    leaseMs: number,
  ): Promise<R[]> {
    if (runs.length === 0) return [];
    const keys = this.keysOf(queue);
    const held = (await runScript(
      this.redis,
      'task-extend',
      [keys.meta, keys.active],
      [leaseMs, ...runs.flatMap((run) => [run.number, run.attempt])],
    )) as number[];
    return runs.filter((_, i) => held[i] !== 1);
  }

  /** Records how a run ended; returns the new state, or undefined when the run was no longer held. */
  async settle(
    queue: string,
    run: Pick<TakenTask, 'number' | 'attempt'>,
    outcome: Outcome,
  ): Promise<TaskState | undefined> {
    return (await this.next(queue, { run, outcome }, 0, 0)).state;
  }

  /** Records how a run ended and takes up to `count` more tasks, in one round trip. */
  async settleAndTake(
    queue: string,
    run: Pick<TakenTask, 'number' | 'attempt'>,
    outcome: Outcome,
    count: number,
    leaseMs: number,
  ): Promise<{ state: TaskState | undefined; taken: TakenTask[] }> {
    return this.next(queue, { run, outcome }, count, leaseMs);
  }

  private async next(
    queue: string,
    ended: { run: Pick<TakenTask, 'number' | 'attempt'>; outcome: Outcome } | undefined,
    count: number,
    leaseMs: number,
  ): Promise<{ state: TaskState | undefined; taken: TakenTask[] }> {
    const keys = this.keysOf(queue);
    const outcome = ended?.outcome;
    const kind =
      outcome === undefined
        ? ''
        : outcome.kind === 'COMPLETED'
          ? 'COMPLETED'
          : outcome.retry
            ? 'FAILED'
            : 'FAILED_FOR_GOOD';
    const detail = outcome === undefined ? '' : outcome.kind === 'COMPLETED' ? (outcome.result ?? '') : outcome.error;
    const [state, ...rest] = (await runScript(
      this.redis,
      'task-next',
      [
        keys.meta,
        keys.args,
        keys.results,
        keys.errors,
        keys.active,
        keys.delayed,
        keys.done,
        keys.counts,
        keys.idempotency,
        keys.pollerWake,
        keys.workerWake,
        ...keys.lists,
      ],
      [
        queue,
        ended === undefined ? '' : ended.run.number,
        ended === undefined ? 0 : ended.run.attempt,
        kind,
        detail,
        this.settings.backoffMs,
        this.settings.maxBackoffMs,
        this.settings.history,
        count,
        leaseMs,
      ],
    )) as [string, ...(string | number)[]];
    const taken: TakenTask[] = [];
    for (let i = 0; i < rest.length; i += 3) {
      const record = decode(queue, rest[i], String(rest[i + 1]));
      taken.push({
        id: record.id,
        number: record.number,
        name: record.name,
        attempt: record.attempts,
        args: orUndefined(String(rest[i + 2])),
      });
    }
    return { state: state === '' ? undefined : (state as TaskState), taken };
  }

  /** The poller's step; `nextInMs` is how long until the next delay or lease ends (-1: none). */
  async promote(queue: string): Promise<{ moved: number; expired: number; nextInMs: number; full: boolean }> {
    const keys = this.keysOf(queue);
    const [moved, expired, nextInMs, forgotten] = (await runScript(
      this.redis,
      'task-promote',
      [
        keys.meta,
        keys.delayed,
        keys.active,
        ...keys.lists,
        keys.workerWake,
        keys.errors,
        keys.done,
        keys.counts,
        keys.idempotency,
        keys.args,
        keys.results,
      ],
      [queue, PROMOTE_BATCH, this.settings.backoffMs, this.settings.maxBackoffMs, this.settings.history],
    )) as [number, number, number, number];
    return { moved, expired, nextInMs, full: [moved, expired, forgotten].includes(PROMOTE_BATCH) };
  }
}
