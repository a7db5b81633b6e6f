// What every part of the task repository shares: the connection, the settings, the queues' key
// names, and reading a task's record back as the scripts keep it.
import type { RedisClient } from '../client/connection';
import { repliesOf } from '../client/replies';
import { queueKeys, taskId } from '../keys';
import type { TaskRecord, TaskSettings } from './types';

export type QueueKeys = ReturnType<typeof queueKeys>;

/** Queues whose key names one repository keeps built. */
const KEY_CACHE_SIZE = 1024;

export class TaskStore {
  private readonly keyCache = new Map<string, QueueKeys>();

  constructor(
    readonly redis: RedisClient,
    readonly settings: TaskSettings,
  ) {}

  /** The queue's key names, built once per queue: an add is too cheap to build fifteen strings each time. */
  keysOf(queue: string): QueueKeys {
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
}

/** The record as task scripts keep it (JSON), with the idempotency key it was enqueued under. */
type StoredFields = Omit<TaskRecord, 'id' | 'queue' | 'number' | 'args' | 'result' | 'error'> & {
  idempotencyKey?: string;
};

export function decode(
  queue: string,
  number: number | string,
  json: string,
  extra: Partial<TaskRecord> = {},
): TaskRecord {
  // The idempotency key stays inside: the scripts keep it so the history trim can forget it.
  const { idempotencyKey: _internal, ...fields } = JSON.parse(json) as StoredFields;
  return { id: taskId(queue, number), queue, number: Number(number), ...fields, ...extra };
}

export const orUndefined = (value: string | null): string | undefined =>
  value === null || value === '' ? undefined : value;
