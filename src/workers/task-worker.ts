// Runs the tasks of one queue: takes as many as it has free slots (one script), waits on its own
// blocking connection while the queue is empty, renews the leases of what it runs, and records
// each outcome. A run it cannot finish (the process dies, the lease is lost) is not lost: the
// poller gives it to another worker once its lease runs out.
import type { RedisClient } from '../redis/client/connection';
import type { Logger } from '../common/logger';
import { queueKeys } from '../redis/keys';
import { isStoreUnavailable } from '../redis/client/store-errors';
import type { Outcome, TakenTask, TaskRepository } from '../redis/task';
import { JSON_MAX_DEPTH, nestedDeeperThan } from '../common/validation';
import { handlerFor, type TaskHandlers } from './task-handlers';

export interface TaskWorkerOptions {
  queue: string;
  repository: TaskRepository;
  /** A connection for this worker alone: it blocks there while the queue is empty, and is closed on stop. */
  blocking: RedisClient;
  handlers: TaskHandlers;
  concurrency: number;
  leaseMs: number;
  runTimeoutMs: number;
  maxResultBytes: number;
  logger: Logger;
  /** Longest wait on an empty queue before asking again, should a wake-up be lost. */
  idleWaitMs?: number;
  /** Delay before trying again after Redis failed. */
  retryMs?: number;
}

interface Run {
  task: TakenTask;
  controller: AbortController;
  done: Promise<void>;
}

const MAX_ERROR_LENGTH = 4000;
/** Largest progress report, as JSON in UTF-8 bytes: it is a notice, not a result. */
export const MAX_PROGRESS_BYTES = 4096;

export class TaskWorker {
  private readonly running = new Map<string, Run>();
  private readonly log: Logger;
  private stopping = false;
  private loop: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private slotFreed: (() => void) | undefined;

  constructor(private readonly options: TaskWorkerOptions) {
    this.log = options.logger.child({ component: 'task-worker', queue: options.queue });
  }

  start(): void {
    if (this.loop) return;
    this.loop = this.takeLoop();
    this.heartbeat = setInterval(() => void this.renew(), Math.max(Math.floor(this.options.leaseMs / 3), 100));
  }

  /**
   * Stops taking tasks and waits up to `graceMs` for those running. Runs still going after that
   * are abandoned; their leases run out and they run again elsewhere.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    this.slotFreed?.();
    // Once only: ioredis arms a 2 s timer on every disconnect() that only an open socket's close
    // clears, so a second stop would keep the process alive 2 s for nothing.
    if (this.options.blocking.status !== 'end') this.options.blocking.disconnect();
    await this.loop;
    // A run settling as the stop began may still bring in a task it took, so wait until none is
    // left, not only for the runs there were at the start.
    const deadline = Date.now() + graceMs;
    while (this.running.size > 0 && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadline - Date.now())));
      await Promise.race([Promise.all([...this.running.values()].map((run) => run.done)), grace]);
      clearTimeout(timer);
    }
    clearInterval(this.heartbeat);
    for (const run of this.running.values()) run.controller.abort(new Error('the worker is shutting down'));
  }

  /** Runs in progress, for tests and logs. */
  get busy(): number {
    return this.running.size;
  }

  private async takeLoop(): Promise<void> {
    const { queue, repository, blocking, concurrency, leaseMs } = this.options;
    const wake = queueKeys(queue).workerWake;
    const idleSeconds = (this.options.idleWaitMs ?? 5000) / 1000;
    while (!this.stopping) {
      try {
        const free = concurrency - this.running.size;
        if (free === 0) {
          await new Promise<void>((resolve) => (this.slotFreed = resolve));
          continue;
        }
        const tasks = await repository.take(queue, free, leaseMs);
        if (tasks.length === 0) {
          await blocking.blpop(wake, idleSeconds);
          continue;
        }
        for (const task of tasks) this.launch(task);
      } catch (error) {
        if (this.stopping) break;
        this.log.warn({ err: (error as Error).message }, 'cannot take tasks; retrying');
        await new Promise((resolve) => setTimeout(resolve, this.options.retryMs ?? 1000));
      }
    }
  }

  private launch(task: TakenTask): void {
    // A run is known by task and attempt: a run that stalled past its lease may still be ending
    // when this worker is handed the same task's next attempt.
    const key = `${task.id}#${task.attempt}`;
    const controller = new AbortController();
    // execute() settles every run itself; this catch is the last line, so that nothing a handler
    // does can become an unhandled rejection, which ends the process.
    const done = this.execute(task, controller)
      .catch((error: unknown) =>
        this.log.error(
          { err: describeThrown(error), task: task.id },
          'task run failed unexpectedly; it runs again once its lease ends',
        ),
      )
      .finally(() => {
        this.running.delete(key);
        const freed = this.slotFreed;
        this.slotFreed = undefined;
        freed?.();
      });
    this.running.set(key, { task, controller, done });
  }

  private async execute(task: TakenTask, controller: AbortController): Promise<void> {
    const outcome = await this.outcomeOf(task, controller);
    const { queue, repository, leaseMs } = this.options;
    try {
      // Record the outcome and take the next task in the same round trip, unless stopping.
      const wanted = this.stopping ? 0 : 1;
      const { state, taken } = await repository.settleAndTake(queue, task, outcome, wanted, leaseMs);
      if (state === undefined)
        this.log.warn(
          { task: task.id, attempt: task.attempt },
          'run no longer held when it ended; its outcome was not recorded',
        );
      for (const next of taken) this.launch(next);
    } catch (error) {
      // Redis away (restarting, failing over) is an outage the lease already covers: a warning.
      // Anything else is a bug worth an error line.
      const level = isStoreUnavailable(error) ? 'warn' : 'error';
      this.log[level](
        { err: describeThrown(error), task: task.id },
        'cannot record the outcome; the task runs again once its lease ends',
      );
    }
  }

  /**
   * The run's outcome, whatever the handler throws or returns: a value that is not an Error, an
   * Error whose message is not a string, a getter or toString that throws, a result JSON cannot
   * hold. None of these may escape, or the process would end on every attempt of the task.
   */
  private async outcomeOf(task: TakenTask, controller: AbortController): Promise<Outcome> {
    const handler = handlerFor(this.options.handlers, task.name);
    if (!handler)
      return { kind: 'FAILED', error: `no handler for task name "${task.name}" in this worker`, retry: false };
    let timer: NodeJS.Timeout | undefined;
    let result: unknown;
    const timeoutMs = task.timeoutMs ?? this.options.runTimeoutMs;
    const progress = this.progressReporter(task, controller.signal);
    try {
      const args: unknown = task.args === undefined ? null : JSON.parse(task.args);
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = new Error(`the run took longer than ${timeoutMs} ms`);
          // Fail the run first: a handler that returns as soon as it is aborted must not win.
          reject(error);
          controller.abort(error);
        }, timeoutMs);
      });
      const context = {
        id: task.id,
        name: task.name,
        attempt: task.attempt,
        signal: controller.signal,
        logger: this.log.child({ task: task.id }),
        progress: progress.report,
      };
      result = await Promise.race([Promise.resolve(handler(args, context)), timedOut]);
      await progress.flush();
    } catch (error) {
      // A failed run's last report is recorded too (a run that timed out or lost its lease has
      // been aborted: only the write in progress is waited for).
      await progress.flush();
      return { kind: 'FAILED', error: describeThrown(error), retry: true };
    } finally {
      clearTimeout(timer);
    }
    let json: string | undefined;
    try {
      // undefined for undefined, a function or a symbol: a run with no result.
      json = JSON.stringify(result);
    } catch (error) {
      // A BigInt, a cycle, a toJSON that throws: the same every time, so not worth a retry.
      return { kind: 'FAILED', error: `the result cannot be stored as JSON: ${describeThrown(error)}`, retry: false };
    }
    if (json !== undefined && Buffer.byteLength(json) > this.options.maxResultBytes) {
      return {
        kind: 'FAILED',
        error: `the result is larger than ${this.options.maxResultBytes} bytes of JSON`,
        retry: false,
      };
    }
    // As deep as args may be: a client reading a deeper result back would meet recursive code.
    // Checked on the JSON itself, which is what a toJSON method made of the result.
    if (json !== undefined && nestedDeeperThan(JSON.parse(json), JSON_MAX_DEPTH)) {
      return { kind: 'FAILED', error: `the result may be nested at most ${JSON_MAX_DEPTH} deep`, retry: false };
    }
    return { kind: 'COMPLETED', result: json };
  }

  /**
   * The run's progress(value): records the value and tells the task's subscribers. Reports made
   * while one is being written are coalesced: only the latest is written next, so a handler that
   * reports in a tight loop costs one write at a time. A value that is not JSON, or too large,
   * throws at once (the handler's mistake); a report that cannot be written is logged, never fails
   * the run.
   */
  private progressReporter(
    task: TakenTask,
    signal: AbortSignal,
  ): { report: (value: unknown) => Promise<void>; flush: () => Promise<void> } {
    let writing: Promise<void> | undefined;
    let pending: string | undefined;
    const write = async (): Promise<void> => {
      while (pending !== undefined && !signal.aborted) {
        const json = pending;
        pending = undefined;
        try {
          await this.options.repository.progress(this.options.queue, task, json);
        } catch (error) {
          this.log.warn({ err: (error as Error).message, task: task.id }, 'cannot record progress');
        }
      }
      writing = undefined;
    };
    const report = (value: unknown): Promise<void> => {
      const json = JSON.stringify(value ?? null) as string | undefined;
      if (
        json === undefined ||
        Buffer.byteLength(json) > MAX_PROGRESS_BYTES ||
        nestedDeeperThan(JSON.parse(json), JSON_MAX_DEPTH)
      ) {
        throw new Error(
          `progress must be JSON of at most ${MAX_PROGRESS_BYTES} bytes, nested at most ${JSON_MAX_DEPTH} deep`,
        );
      }
      pending = json;
      writing ??= write();
      return writing;
    };
    // The run's end waits for the report being written, so that the last one is recorded before
    // the outcome (a report after it is refused: the run is no longer ACTIVE).
    return { report, flush: () => writing ?? Promise.resolve() };
  }

  /** The heartbeat: renews every lease held; a run whose lease was lost is told to stop. */
  private async renew(): Promise<void> {
    const runs = [...this.running.values()];
    if (runs.length === 0) return;
    try {
      const held = runs.map((run) => ({ number: run.task.number, attempt: run.task.attempt, run }));
      const lost = await this.options.repository.extend(this.options.queue, held, this.options.leaseMs);
      for (const { run } of lost) run.controller.abort(new Error('the lease on this run was lost'));
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'cannot renew leases');
    }
  }
}

/**
 * What a handler threw, as text for the task's `error`: the message of an Error, a string as it
 * is, anything else as String() gives it, and a fixed text when even that throws (an object
 * without a prototype, a toString or message getter that throws, a revoked proxy).
 */
function describeThrown(thrown: unknown): string {
  let text: string | undefined;
  try {
    if (thrown instanceof Error) {
      const message: unknown = thrown.message;
      text =
        typeof message === 'string' ? message : message === undefined || message === null ? undefined : String(message);
    } else {
      text =
        typeof thrown === 'string'
          ? thrown
          : thrown === undefined || thrown === null
            ? `the handler threw ${thrown}`
            : String(thrown);
    }
  } catch {
    text = undefined;
  }
  if (!text) {
    let name: unknown;
    try {
      name = thrown instanceof Error ? thrown.name : undefined;
    } catch {
      name = undefined;
    }
    return typeof name === 'string' && name !== ''
      ? `the handler threw ${name.slice(0, 100)} without a message`
      : 'the handler failed (it threw a value that cannot be shown as text)';
  }
  if (text.length <= MAX_ERROR_LENGTH) return text;
  // Cut at a code point boundary, so no half of a surrogate pair is stored.
  const high = text.charCodeAt(MAX_ERROR_LENGTH - 1);
  return text.slice(0, high >= 0xd800 && high <= 0xdbff ? MAX_ERROR_LENGTH - 1 : MAX_ERROR_LENGTH);
}
