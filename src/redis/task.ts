// Task queues (book section 6.4): FIFO lists per priority, delayed tasks in a zset moved by a
// poller, and, beyond the book, leases: a task taken by a worker stays recorded as ACTIVE until
// the worker settles it, and runs again if the worker stops renewing its lease. Every change is
// one script on the queue's slot; the repository only builds keys and decodes replies.
import { createHash } from 'node:crypto';
import type { RedisClient } from './client/connection';
import { queueKeys, taskId, type TaskPriority } from './keys';
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
  /** The last failed run's error, kept while the task runs again; a run that completes clears it. */
  error?: string;
  /** What the handler last reported of its progress (JSON text), or undefined. */
  progress?: string;
  /** The task's own first backoff and its kind, when it set them (else the queue's, doubling). */
  backoffMs?: number;
  backoff?: BackoffKind;
  /** The task's own run timeout, when it set one (else the workers' TASK_RUN_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Times retryTask gave it another set of runs. */
  retries?: number;
}

export const BACKOFF_KINDS = ['EXPONENTIAL', 'FIXED'] as const;
export type BackoffKind = (typeof BACKOFF_KINDS)[number];

/** A run handed to a worker: `attempt` identifies it when renewing and settling. */
export interface TakenTask {
  id: string;
  number: number;
  name: string;
  attempt: number;
  args: string | undefined;
  /** The task's own run timeout, if it set one. */
  timeoutMs?: number;
}

export interface QueueStats {
  paused: boolean;
  waiting: Record<TaskPriority, number>;
  delayed: number;
  active: number;
  completed: number;
  failed: number;
  cancelled: number;
}

/** What a queue holds undone, for the metrics scrape (task-depth.lua). */
export interface QueueDepth {
  waiting: number;
  delayed: number;
  active: number;
  paused: boolean;
  /** How long the longest-due task not yet taken has been due, by Redis's clock; 0 for none. */
  lagMs: number;
}

export interface EnqueueRequest {
  queue: string;
  name: string;
  /** JSON text, or undefined for no arguments. */
  args: string | undefined;
  priority: TaskPriority;
  delayMs: number;
  idempotencyKey: string | undefined;
  /** Runs before it is FAILED; the queue's TASK_MAX_ATTEMPTS when undefined. */
  maxAttempts?: number;
  /** First wait before a retry; the queue's TASK_BACKOFF_MS when undefined. */
  backoffMs?: number;
  /** EXPONENTIAL (doubling per run, the default) or FIXED. */
  backoff?: BackoffKind;
  /** Longest run; the workers' TASK_RUN_TIMEOUT_MS when undefined. */
  timeoutMs?: number;
}

/** One page of a queue's tasks in one state. */
export interface TaskPage {
  tasks: TaskRecord[];
  /** Where the next page starts; undefined when there is no next page. */
  cursor: string | undefined;
}

/** The orders task-list.lua knows: oldest first (ASC) or newest first (DESC). */
export type ListOrder = 'ASC' | 'DESC';

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

/** Most finished tasks one list call looks at to fill a page of one finished state. */
const LIST_LOOK_LIMIT = 2000;

/** The record as task scripts keep it (JSON), with the idempotency key it was enqueued under. */
type StoredFields = Omit<TaskRecord, 'id' | 'queue' | 'number' | 'args' | 'result' | 'error'> & {
  idempotencyKey?: string;
};

function decode(queue: string, number: number | string, json: string, extra: Partial<TaskRecord> = {}): TaskRecord {
  // The idempotency key stays inside: the scripts keep it so the history trim can forget it.
  const { idempotencyKey: _internal, ...fields } = JSON.parse(json) as StoredFields;
  return { id: taskId(queue, number), queue, number: Number(number), ...fields, ...extra };
}

/**
 * What a repeated idempotency key must match: the same name, arguments, priority, delay and run
 * settings. The run settings join the digest only when set, so keys recorded before they existed
 * still match the same request.
 */
function requestDigest(request: EnqueueRequest): string {
  const parts: unknown[] = [request.name, request.args ?? null, request.priority, request.delayMs];
  // EXPONENTIAL is what an unset backoff means (and what is stored for it): the same request either way.
  const backoff = request.backoff === 'FIXED' ? 'FIXED' : undefined;
  const own = [request.maxAttempts, request.backoffMs, backoff, request.timeoutMs];
  if (own.some((value) => value !== undefined)) parts.push(own.map((value) => value ?? null));
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

const optional = (value: string | number | undefined): string | number => value ?? '';

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
    const [one] = await this.enqueueMany(request.queue, [request]);
    return one;
  }

  /**
   * Records tasks of one queue in one atomic step: all of them, or none when one is refused (a
   * reused idempotency key, a full queue). Each comes back as enqueue() returns it, in order.
   */
  async enqueueMany(
    queue: string,
    requests: Omit<EnqueueRequest, 'queue'>[],
  ): Promise<{ task: TaskRecord; created: boolean }[]> {
    const keys = this.keysOf(queue);
    const args: (string | number)[] = [this.settings.maxTasksPerQueue, this.settings.maxAttempts];
    for (const request of requests) {
      const key = request.idempotencyKey;
      args.push(
        request.name,
        request.args ?? '',
        request.priority,
        request.delayMs,
        key ?? '',
        // Only a repeated idempotency key is compared with the request it was first used for.
        key === undefined ? '' : requestDigest({ ...request, queue }),
        optional(request.maxAttempts),
        optional(request.backoffMs),
        request.backoff === 'FIXED' ? 'FIXED' : '',
        optional(request.timeoutMs),
      );
    }
    const replies = (await runScript(
      this.redis,
      'task-enqueue',
      [
        keys.seq,
        keys.meta,
        keys.args,
        keys.delayed,
        keys.pollerWake,
        keys.workerWake,
        keys.idempotency,
        keys.lists[1],
        keys.lists[3],
        keys.lists[5],
      ],
      args,
    )) as [number, number, number | string][];
    return Promise.all(
      replies.map(async ([created, number, timeOrJson], i) => {
        const request = requests[i];
        if (created === 1) return { task: this.recordOf(queue, request, number, Number(timeOrJson)), created: true };
        // The first task with this key, as it is now (it may have finished, with a result or error).
        const first = await this.get(queue, String(number));
        return { task: first ?? decode(queue, number, String(timeOrJson)), created: false };
      }),
    );
  }

  /**
   * The record as task-enqueue.lua stored it, from the request and the time it was recorded: the
   * script does not send back what the caller already has. A test compares this with get().
   */
  private recordOf(queue: string, request: Omit<EnqueueRequest, 'queue'>, number: number, now: number): TaskRecord {
    const task: TaskRecord = {
      id: taskId(queue, number),
      queue,
      number,
      name: request.name,
      priority: request.priority,
      state: request.delayMs > 0 ? 'DELAYED' : 'WAITING',
      runAt: now + request.delayMs,
      attempts: 0,
      maxAttempts: request.maxAttempts ?? this.settings.maxAttempts,
      createdAt: now,
      args: request.args === '' ? undefined : request.args,
    };
    if (request.backoffMs !== undefined) task.backoffMs = request.backoffMs;
    if (request.backoff === 'FIXED') task.backoff = 'FIXED';
    if (request.timeoutMs !== undefined) task.timeoutMs = request.timeoutMs;
    return task;
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
    const [json, args, result, error, progress] = (await repliesOf(
      this.redis
        .multi()
        .hget(keys.meta, number)
        .hget(keys.args, number)
        .hget(keys.results, number)
        .hget(keys.errors, number)
        .hget(keys.progress, number)
        .exec(),
    )) as (string | null)[];
    if (json === null || json === undefined) return undefined;
    return decode(queue, number, json, {
      args: orUndefined(args),
      result: orUndefined(result),
      error: orUndefined(error),
      progress: orUndefined(progress),
    });
  }

  async stats(queue: string): Promise<QueueStats> {
    const keys = this.keysOf(queue);
    const transaction = this.redis.multi();
    for (const list of keys.lists) transaction.llen(list);
    transaction
      .zcard(keys.delayed)
      .zcard(keys.active)
      .hmget(keys.counts, 'COMPLETED', 'FAILED', 'CANCELLED')
      .exists(keys.paused);
    const values = await repliesOf(transaction.exec());
    const lengths = values.slice(0, 6) as number[];
    const [delayed, active, counts, paused] = values.slice(6) as [number, number, (string | null)[], number];
    return {
      paused: paused === 1,
      waiting: { HIGH: lengths[0] + lengths[1], NORMAL: lengths[2] + lengths[3], LOW: lengths[4] + lengths[5] },
      delayed,
      active,
      completed: Number(counts[0] ?? 0),
      failed: Number(counts[1] ?? 0),
      cancelled: Number(counts[2] ?? 0),
    };
  }

  /** One round trip that reads a fixed number of entries, however many tasks the queue holds. */
  async depth(queue: string): Promise<QueueDepth> {
    const keys = this.keysOf(queue);
    const [waiting, delayed, active, paused, oldest, now] = (await runScript(
      this.redis,
      'task-depth',
      [keys.meta, keys.delayed, keys.active, ...keys.lists, keys.paused],
      [],
    )) as number[];
    return { waiting, delayed, active, paused: paused === 1, lagMs: oldest < 0 ? 0 : Math.max(0, now - oldest) };
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

  /** One page of the queue's tasks in `state` (see task-list.lua for each state's order). */
  async list(
    queue: string,
    state: TaskState,
    order: ListOrder,
    first: number,
    cursor: string | undefined,
  ): Promise<TaskPage> {
    const keys = this.keysOf(queue);
    const [more, next, ...rest] = (await runScript(
      this.redis,
      'task-list',
      [
        keys.meta,
        keys.args,
        keys.results,
        keys.errors,
        keys.progress,
        keys.delayed,
        keys.active,
        keys.done,
        ...keys.lists,
      ],
      [state, order, cursor ?? '', first, LIST_LOOK_LIMIT],
    )) as [number, string, ...string[]];
    const tasks: TaskRecord[] = [];
    for (let i = 0; i < rest.length; i += 6) {
      tasks.push(
        decode(queue, rest[i], rest[i + 1], {
          args: orUndefined(rest[i + 2]),
          result: orUndefined(rest[i + 3]),
          error: orUndefined(rest[i + 4]),
          progress: orUndefined(rest[i + 5]),
        }),
      );
    }
    return { tasks, cursor: more === 1 ? next : undefined };
  }

  /** Gives a FAILED task another set of runs; undefined when there is no such task. */
  async retry(queue: string, number: string): Promise<TaskRecord | undefined> {
    const keys = this.keysOf(queue);
    const json = (await runScript(
      this.redis,
      'task-retry',
      [keys.meta, keys.done, keys.progress, keys.lists[1], keys.lists[3], keys.lists[5], keys.workerWake],
      [queue, number],
    )) as string;
    if (json === '') return undefined;
    const task = await this.get(queue, number);
    return task && { ...task, ...decode(queue, number, json) };
  }

  /** Forgets a finished task; false when there is no such task. */
  async remove(queue: string, number: string): Promise<boolean> {
    const keys = this.keysOf(queue);
    const removed = await runScript(
      this.redis,
      'task-remove',
      [keys.meta, keys.args, keys.results, keys.errors, keys.progress, keys.done, keys.idempotency],
      [number],
    );
    return Number(removed) === 1;
  }

  /** Pauses (true) or resumes (false) the queue; returns whether it was paused before. */
  async setPaused(queue: string, paused: boolean): Promise<boolean> {
    const keys = this.keysOf(queue);
    const was = await runScript(
      this.redis,
      'task-pause',
      [keys.paused, keys.workerWake, ...keys.lists],
      [paused ? '1' : '0'],
    );
    return Number(was) === 1;
  }

  // --- for workers and pollers -------------------------------------------------------------

  /** Records the progress a run reports (JSON text); false when the run is no longer held. */
  async progress(queue: string, run: Pick<TakenTask, 'number' | 'attempt'>, json: string): Promise<boolean> {
    const keys = this.keysOf(queue);
    const recorded = await runScript(
      this.redis,
      'task-progress',
      [keys.meta, keys.progress],
      [queue, run.number, run.attempt, json],
    );
    return Number(recorded) === 1;
  }

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
        keys.progress,
        keys.paused,
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
      const run: TakenTask = {
        id: record.id,
        number: record.number,
        name: record.name,
        attempt: record.attempts,
        args: orUndefined(String(rest[i + 2])),
      };
      if (record.timeoutMs !== undefined) run.timeoutMs = record.timeoutMs;
      taken.push(run);
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
        keys.progress,
      ],
      [queue, PROMOTE_BATCH, this.settings.backoffMs, this.settings.maxBackoffMs, this.settings.history],
    )) as [number, number, number, number];
    return { moved, expired, nextInMs, full: [moved, expired, forgotten].includes(PROMOTE_BATCH) };
  }
}
