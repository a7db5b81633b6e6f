// Moves delayed tasks to their queue when they come due and hands back runs whose worker went
// silent (task-promote). It sleeps until the next due time or lease end, capped, on a blocking
// pop of the queue's poller wake-up list, so a new task due sooner wakes it at once. Redis checks
// the timeouts of blocked clients only every 100 ms (hz 10), so the poller times its own wake-up
// and ends the pop with CLIENT UNBLOCK: tasks start within a few ms of their due time. Any number
// of pollers may run on one queue: the script is atomic, so none moves a task twice.
import { isCluster, type RedisClient } from '../redis/client/connection';
import type { Logger } from '../common/logger';
import { queueKeys } from '../redis/keys';
import type { TaskRepository } from '../redis/task';

export interface TaskPollerOptions {
  queue: string;
  repository: TaskRepository;
  /** A connection for this poller alone (it blocks there); closed on stop. */
  blocking: RedisClient;
  /** Any other connection, to end the blocking pop on time (CLIENT UNBLOCK). */
  control: RedisClient;
  logger: Logger;
  /** Longest sleep, should a wake-up be lost. */
  maxSleepMs?: number;
  retryMs?: number;
}

export class TaskPoller {
  private stopping = false;
  private loop: Promise<void> | undefined;
  /** The blocking connection's id, for CLIENT UNBLOCK; it changes when the connection is re-established. */
  private blockingId: number | undefined;
  /** Tasks this poller moved and leases it found expired, for tests and logs. */
  moved = 0;
  expired = 0;

  constructor(private readonly options: TaskPollerOptions) {}

  start(): void {
    if (!this.loop) this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    // Once only: ioredis arms a 2 s timer on every disconnect() that only an open socket's close
    // clears, so a second stop would keep the process alive 2 s for nothing.
    if (this.options.blocking.status !== 'end') this.options.blocking.disconnect();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { queue, repository } = this.options;
    const log = this.options.logger.child({ component: 'task-poller', queue });
    const maxSleepMs = this.options.maxSleepMs ?? 1000;
    this.options.blocking.on('ready', () => (this.blockingId = undefined));
    while (!this.stopping) {
      try {
        const step = await repository.promote(queue);
        this.moved += step.moved;
        this.expired += step.expired;
        if (step.expired > 0) log.warn({ expired: step.expired }, 'runs whose worker went silent will run again');
        if (step.full) continue;
        const sleepMs = step.nextInMs < 0 ? maxSleepMs : Math.min(step.nextInMs, maxSleepMs);
        if (sleepMs > 0) await this.sleep(sleepMs);
      } catch (error) {
        if (this.stopping) break;
        log.warn({ err: (error as Error).message }, 'cannot move due tasks; retrying');
        await new Promise((resolve) => setTimeout(resolve, this.options.retryMs ?? 1000));
      }
    }
  }

  /** Blocks on the wake-up list until woken, or until `ms` have passed by this process's timer. */
  private async sleep(ms: number): Promise<void> {
    const { blocking, control, queue } = this.options;
    if (isCluster(blocking)) {
      // On a cluster CLIENT ID and CLIENT UNBLOCK would reach some node, not necessarily the one
      // holding this pop: Redis's own timeout ends it instead (within its event loop's 100 ms).
      await blocking.blpop(queueKeys(queue).pollerWake, Math.max(ms, 1) / 1000);
      return;
    }
    this.blockingId ??= await blocking.client('ID');
    const id = this.blockingId;
    let woken = false;
    let timer: NodeJS.Timeout | undefined;
    let tries = 0;
    const unblock = (): void => {
      // The pop travels on another connection and may not have reached Redis yet (0 unblocked):
      // try again shortly until it has, or it has returned. Not for long, and not after the
      // connection was re-established (its id changed; the pop failed and the loop goes on).
      control.client('UNBLOCK', id, 'TIMEOUT').then(
        (unblocked) => {
          if (unblocked === 0 && !woken && this.blockingId === id && ++tries < 50) timer = setTimeout(unblock, 2);
        },
        () => undefined,
      );
    };
    timer = setTimeout(unblock, ms);
    try {
      // A second longer than the timer: Redis's own timeout is only the fallback.
      await blocking.blpop(queueKeys(queue).pollerWake, ms / 1000 + 1);
    } finally {
      woken = true;
      clearTimeout(timer);
    }
  }
}
