// Recording new tasks: one task-enqueue script per call, however many tasks it carries, and the
// idempotency key's digest that a repeated key must match.
import { createHash } from 'node:crypto';
import { taskId } from '../keys';
import { runScript } from '../client/scripts';
import { decode, type TaskStore } from './store';
import type { EnqueueRequest, TaskRecord } from './types';

/** A task as enqueue() returns it: `created: false` when a known idempotency key gave the first task. */
export interface Enqueued {
  task: TaskRecord;
  created: boolean;
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

export async function enqueueMany(
  store: TaskStore,
  queue: string,
  requests: Omit<EnqueueRequest, 'queue'>[],
): Promise<Enqueued[]> {
  const keys = store.keysOf(queue);
  const args: (string | number)[] = [store.settings.maxTasksPerQueue, store.settings.maxAttempts];
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
    store.redis,
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
      if (created === 1) return { task: recordOf(store, queue, request, number, Number(timeOrJson)), created: true };
      // The first task with this key, as it is now (it may have finished, with a result or error).
      const first = await store.get(queue, String(number));
      return { task: first ?? decode(queue, number, String(timeOrJson)), created: false };
    }),
  );
}

/**
 * The record as task-enqueue.lua stored it, from the request and the time it was recorded: the
 * script does not send back what the caller already has. A test compares this with get().
 */
function recordOf(
  store: TaskStore,
  queue: string,
  request: Omit<EnqueueRequest, 'queue'>,
  number: number,
  now: number,
): TaskRecord {
  const task: TaskRecord = {
    id: taskId(queue, number),
    queue,
    number,
    name: request.name,
    priority: request.priority,
    state: request.delayMs > 0 ? 'DELAYED' : 'WAITING',
    runAt: now + request.delayMs,
    attempts: 0,
    maxAttempts: request.maxAttempts ?? store.settings.maxAttempts,
    createdAt: now,
    args: request.args === '' ? undefined : request.args,
  };
  if (request.backoffMs !== undefined) task.backoffMs = request.backoffMs;
  if (request.backoff === 'FIXED') task.backoff = 'FIXED';
  if (request.timeoutMs !== undefined) task.timeoutMs = request.timeoutMs;
  return task;
}
