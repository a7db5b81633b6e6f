// What operators do to a queue and its tasks: look (stats, depth, list), and change a task that
// is not running (cancel, reschedule, retry, remove) or the whole queue (pause). Each change is
// one script on the queue's slot.
import { repliesOf } from '../client/replies';
import { runScript } from '../client/scripts';
import { decode, orUndefined, type TaskStore } from './store';
import type { ListOrder, QueueDepth, QueueStats, TaskPage, TaskRecord, TaskState } from './types';

/** Most finished tasks one list call looks at to fill a page of one finished state. */
const LIST_LOOK_LIMIT = 2000;

export async function stats(store: TaskStore, queue: string): Promise<QueueStats> {
  const keys = store.keysOf(queue);
  const transaction = store.redis.multi();
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

export async function depth(store: TaskStore, queue: string): Promise<QueueDepth> {
  const keys = store.keysOf(queue);
  const [waiting, delayed, active, paused, oldest, now] = (await runScript(
    store.redis,
    'task-depth',
    [keys.meta, keys.delayed, keys.active, ...keys.lists, keys.paused],
    [],
  )) as number[];
  return { waiting, delayed, active, paused: paused === 1, lagMs: oldest < 0 ? 0 : Math.max(0, now - oldest) };
}

export async function cancel(store: TaskStore, queue: string, number: string): Promise<boolean> {
  const keys = store.keysOf(queue);
  const cancelled = await runScript(
    store.redis,
    'task-cancel',
    [keys.meta, keys.delayed, ...keys.lists, keys.done, keys.counts],
    [queue, number],
  );
  return Number(cancelled) === 1;
}

export async function reschedule(
  store: TaskStore,
  queue: string,
  number: string,
  delayMs: number,
): Promise<TaskRecord | undefined> {
  const keys = store.keysOf(queue);
  const json = (await runScript(
    store.redis,
    'task-reschedule',
    [keys.meta, keys.delayed, ...keys.lists, keys.workerWake, keys.pollerWake],
    [queue, number, delayMs],
  )) as string;
  if (json === '') return undefined;
  // The record as this step left it (a worker may take the task at once), with its texts.
  const task = await store.get(queue, number);
  return task && { ...task, ...decode(queue, number, json) };
}

export async function list(
  store: TaskStore,
  queue: string,
  state: TaskState,
  order: ListOrder,
  first: number,
  cursor: string | undefined,
): Promise<TaskPage> {
  const keys = store.keysOf(queue);
  const [more, next, ...rest] = (await runScript(
    store.redis,
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

export async function retry(store: TaskStore, queue: string, number: string): Promise<TaskRecord | undefined> {
  const keys = store.keysOf(queue);
  const json = (await runScript(
    store.redis,
    'task-retry',
    [keys.meta, keys.done, keys.progress, keys.lists[1], keys.lists[3], keys.lists[5], keys.workerWake],
    [queue, number],
  )) as string;
  if (json === '') return undefined;
  const task = await store.get(queue, number);
  return task && { ...task, ...decode(queue, number, json) };
}

export async function remove(store: TaskStore, queue: string, number: string): Promise<boolean> {
  const keys = store.keysOf(queue);
  const removed = await runScript(
    store.redis,
    'task-remove',
    [keys.meta, keys.args, keys.results, keys.errors, keys.progress, keys.done, keys.idempotency],
    [number],
  );
  return Number(removed) === 1;
}

export async function setPaused(store: TaskStore, queue: string, paused: boolean): Promise<boolean> {
  const keys = store.keysOf(queue);
  const was = await runScript(
    store.redis,
    'task-pause',
    [keys.paused, keys.workerWake, ...keys.lists],
    [paused ? '1' : '0'],
  );
  return Number(was) === 1;
}
