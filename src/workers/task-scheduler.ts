// Enqueues the tasks of repeating schedules (src/redis/task-schedule.ts) for the queues of one
// process: wherever task pollers run (the worker process, or the API with TASK_WORKER=on). It
// looks at each queue's due schedules, computes each one's following tick from the tick it
// expects (cron-parser for cron), and hands both to task-schedule-tick, which enqueues only if no
// other scheduler took that tick. Then it sleeps until the earliest next run, at most
// `maxSleepMs`, so a schedule created or changed elsewhere is seen within that time.
import type { Logger } from '../common/logger';
import { followingTick, type TaskScheduleRepository } from '../redis/task-schedule';

export interface TaskSchedulerOptions {
  queues: string[];
  repository: TaskScheduleRepository;
  logger: Logger;
  /** Longest sleep: how soon a schedule created or changed by another process is seen. */
  maxSleepMs?: number;
  /** Wait after a Redis error before looking again. */
  retryMs?: number;
}

/** Due schedules taken per look at a queue, so one read stays short. */
const DUE_BATCH = 100;

/** Wait before looking again at a queue where another scheduler took a tick. */
const STALE_LOOK_MS = 10;

export class TaskScheduler {
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** Tasks this scheduler enqueued, and ticks it found the queue full for, for tests and logs. */
  enqueued = 0;
  full = 0;

  constructor(private readonly options: TaskSchedulerOptions) {}

  start(): void {
    if (!this.loop) this.loop = this.run();
  }

  /** Ends the sleep at once; a tick in progress finishes first. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const log = this.options.logger.child({ component: 'task-scheduler' });
    const maxSleepMs = this.options.maxSleepMs ?? 1000;
    while (!this.stopping) {
      try {
        let sleepMs = maxSleepMs;
        for (const queue of this.options.queues) {
          if (this.stopping) return;
          sleepMs = Math.min(sleepMs, await this.step(queue, log));
        }
        if (sleepMs > 0) await this.sleep(sleepMs);
      } catch (error) {
        if (this.stopping) break;
        log.warn({ err: (error as Error).message }, 'cannot enqueue repeating tasks; retrying');
        await this.sleep(this.options.retryMs ?? 1000);
      }
    }
  }

  /** Enqueues what is due on `queue`; returns how long it may wait before looking again (ms). */
  private async step(queue: string, log: Logger): Promise<number> {
    const { repository } = this.options;
    const look = await repository.due(queue, DUE_BATCH);
    let moved = 0;
    let stale = 0;
    for (const schedule of look.due) {
      if (this.stopping) return 0;
      let following: { next: number; skipped: number };
      try {
        following = followingTick(schedule.definition, queue, schedule.name, schedule.tick, look.now);
      } catch (error) {
        // Validated when it was set; a cron that has no later time (a date past its end) stays put.
        log.error({ queue, schedule: schedule.name, err: (error as Error).message }, 'schedule has no next run');
        continue;
      }
      const result = await repository.tick(queue, schedule, following.next, following.skipped);
      if (result.status === 'STALE') stale++;
      if (result.status === 'ENQUEUED' || result.status === 'FULL') moved++;
      if (result.status === 'ENQUEUED') {
        this.enqueued++;
        if (following.skipped > 0) {
          log.warn(
            { queue, schedule: schedule.name, skipped: following.skipped },
            'runs missed while no scheduler ran: enqueued one for them all',
          );
        }
      } else if (result.status === 'FULL') {
        this.full++;
        log.warn({ queue, schedule: schedule.name }, 'the queue is full (TASK_MAX_PER_QUEUE): run skipped');
      }
    }
    // Schedules moved on: look again at once, as others may be due by now.
    if (moved > 0) return 0;
    const wait = look.nextAt < 0 ? Number.POSITIVE_INFINITY : Math.max(look.nextAt - look.now, 1);
    // Another scheduler took a tick (or the schedule changed): look again soon for its next
    // run, which this look did not see, without spinning should that repeat. (EARLY happens
    // only if Redis's clock went back; schedules without a next run were logged.)
    return stale > 0 ? Math.min(wait, STALE_LOOK_MS) : wait;
  }

  private async sleep(ms: number): Promise<void> {
    if (this.stopping) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = undefined;
  }
}
