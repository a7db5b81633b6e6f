// Keeps counters bounded (the cleanup the book's section 5.2.1 ends on). Each precision is
// visited eight times per retention window (samples kept at it x precision): often enough that a counter
// never holds more than 1/8 over its bound, and a daily counter is not scanned every minute like
// a per-second one. A lease in Redis makes one instance at a time do a precision's pass, and
// remembers when the last pass ran across restarts.
import { randomUUID } from 'node:crypto';
import type { Logger } from '../common/logger';
import { retentionAt, type CounterRepository } from '../redis/counter';

export interface CounterCleanupOptions {
  repository: CounterRepository;
  precisions: number[];
  samples: number;
  /** Samples kept at some precisions instead of `samples`. */
  retention?: Readonly<Record<number, number>>;
  logger: Logger;
  /** Floor on how often one precision is visited. */
  minIntervalMs?: number;
  /** Ceiling on one sleep, so a stalled clock or lost lease never parks the worker for long. */
  maxSleepMs?: number;
  /** Delay before retrying after Redis failed. */
  retryMs?: number;
}

const PASSES_PER_WINDOW = 8;

export class CounterCleanupWorker {
  private readonly owner = randomUUID();
  private readonly nextDue = new Map<number, number>();
  private readonly abort = new AbortController();
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: CounterCleanupOptions) {}

  intervalMs(precision: number): number {
    const window = precision * retentionAt(this.options, precision) * 1000;
    return Math.max(this.options.minIntervalMs ?? 1000, Math.floor(window / PASSES_PER_WINDOW));
  }

  start(): void {
    if (this.loop) return;
    for (const precision of this.options.precisions) this.nextDue.set(precision, 0);
    this.loop = this.run();
  }

  /** Waits for the batch in progress; the rest of a pass is picked up by the next run. */
  async stop(): Promise<void> {
    this.abort.abort();
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const log = this.options.logger.child({ component: 'counter-cleanup' });
    while (!this.abort.signal.aborted) {
      for (const precision of this.options.precisions) {
        if (this.abort.signal.aborted) break;
        if (this.nextDue.get(precision)! > Date.now()) continue;
        this.nextDue.set(precision, Date.now() + (await this.visit(precision, log)));
      }
      const soonest = Math.min(...this.nextDue.values());
      await this.sleep(Math.min(Math.max(soonest - Date.now(), 10), this.options.maxSleepMs ?? 60_000));
    }
  }

  /** Runs one precision's pass if this instance gets the lease; returns the delay until the next try. */
  private async visit(precision: number, log: Logger): Promise<number> {
    const interval = this.intervalMs(precision);
    try {
      const remaining = await this.options.repository.takeCleanupLease(precision, this.owner, interval);
      if (remaining > 0) return remaining;
      const started = Date.now();
      const result = await this.options.repository.clean(precision, this.abort.signal);
      const entry = { precision, ...result, ms: Date.now() - started };
      if (result.removedSamples > 0 || result.removedCounters > 0) log.info(entry, 'counter cleanup pass');
      else log.debug(entry, 'counter cleanup pass');
      return interval;
    } catch (error) {
      log.warn({ precision, err: (error as Error).message }, 'counter cleanup failed; will retry');
      return this.options.retryMs ?? 5000;
    }
  }

  private sleep(ms: number): Promise<void> {
    // A stop that came during a pass has already called wake(): there is no sleep to cut short.
    if (this.abort.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
