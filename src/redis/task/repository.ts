// Task queues (book section 6.4): FIFO lists per priority, delayed tasks in a zset moved by a
// poller, and, beyond the book, leases: a task taken by a worker stays recorded as ACTIVE until
// the worker settles it, and runs again if the worker stops renewing its lease. Every change is
// one script on the queue's slot; the repository only builds keys and decodes replies. This
// class is the one entry; the work is in enqueue.ts, operations.ts and runs.ts.
import type { RedisClient } from '../client/connection';
import { enqueueMany, type Enqueued } from './enqueue';
import * as operations from './operations';
import * as runs from './runs';
import { TaskStore } from './store';
import type {
  EnqueueRequest,
  ListOrder,
  Outcome,
  QueueDepth,
  QueueStats,
  TakenTask,
  TaskPage,
  TaskRecord,
  TaskSettings,
  TaskState,
} from './types';

type Run = Pick<TakenTask, 'number' | 'attempt'>;

export class TaskRepository {
  private readonly store: TaskStore;

  constructor(redis: RedisClient, settings: TaskSettings) {
    this.store = new TaskStore(redis, settings);
  }

  /** Records a task; with a known idempotency key, returns the first task instead (`created: false`). */
  async enqueue(request: EnqueueRequest): Promise<Enqueued> {
    const [one] = await enqueueMany(this.store, request.queue, [request]);
    return one;
  }

  /**
   * Records tasks of one queue in one atomic step: all of them, or none when one is refused (a
   * reused idempotency key, a full queue). Each comes back as enqueue() returns it, in order.
   */
  enqueueMany(queue: string, requests: Omit<EnqueueRequest, 'queue'>[]): Promise<Enqueued[]> {
    return enqueueMany(this.store, queue, requests);
  }

  get(queue: string, number: string): Promise<TaskRecord | undefined> {
    return this.store.get(queue, number);
  }

  stats(queue: string): Promise<QueueStats> {
    return operations.stats(this.store, queue);
  }

  /** One round trip that reads a fixed number of entries, however many tasks the queue holds. */
  depth(queue: string): Promise<QueueDepth> {
    return operations.depth(this.store, queue);
  }

  /** Cancels a task that has not started; false when it had started, finished or does not exist. */
  cancel(queue: string, number: string): Promise<boolean> {
    return operations.cancel(this.store, queue, number);
  }

  /** Runs a task that has not started after `delayMs` from now; undefined when there is no such task. */
  reschedule(queue: string, number: string, delayMs: number): Promise<TaskRecord | undefined> {
    return operations.reschedule(this.store, queue, number, delayMs);
  }

  /** One page of the queue's tasks in `state` (see task-list.lua for each state's order). */
  list(
    queue: string,
    state: TaskState,
    order: ListOrder,
    first: number,
    cursor: string | undefined,
  ): Promise<TaskPage> {
    return operations.list(this.store, queue, state, order, first, cursor);
  }

  /** Gives a FAILED task another set of runs; undefined when there is no such task. */
  retry(queue: string, number: string): Promise<TaskRecord | undefined> {
    return operations.retry(this.store, queue, number);
  }

  /** Forgets a finished task; false when there is no such task. */
  remove(queue: string, number: string): Promise<boolean> {
    return operations.remove(this.store, queue, number);
  }

  /** Pauses (true) or resumes (false) the queue; returns whether it was paused before. */
  setPaused(queue: string, paused: boolean): Promise<boolean> {
    return operations.setPaused(this.store, queue, paused);
  }

  // --- for workers and pollers -------------------------------------------------------------

  /** Records the progress a run reports (JSON text); false when the run is no longer held. */
  progress(queue: string, run: Run, json: string): Promise<boolean> {
    return runs.progress(this.store, queue, run, json);
  }

  /** Takes up to `count` waiting tasks, each under a lease of `leaseMs`. */
  async take(queue: string, count: number, leaseMs: number): Promise<TakenTask[]> {
    return (await runs.next(this.store, queue, undefined, count, leaseMs)).taken;
  }

  /** Renews the leases of runs a worker holds; returns the runs it has lost. */
  extend<R extends Run>(queue: string, held: R[], leaseMs: number): Promise<R[]> {
    return runs.extend(this.store, queue, held, leaseMs);
  }

  /** Records how a run ended; returns the new state, or undefined when the run was no longer held. */
  async settle(queue: string, run: Run, outcome: Outcome): Promise<TaskState | undefined> {
    return (await runs.next(this.store, queue, { run, outcome }, 0, 0)).state;
  }

  /** Records how a run ended and takes up to `count` more tasks, in one round trip. */
  settleAndTake(
    queue: string,
    run: Run,
    outcome: Outcome,
    count: number,
    leaseMs: number,
  ): Promise<{ state: TaskState | undefined; taken: TakenTask[] }> {
    return runs.next(this.store, queue, { run, outcome }, count, leaseMs);
  }

  /** The poller's step; `nextInMs` is how long until the next delay or lease ends (-1: none). */
  promote(queue: string): Promise<{ moved: number; expired: number; nextInMs: number; full: boolean }> {
    return runs.promote(this.store, queue);
  }
}
