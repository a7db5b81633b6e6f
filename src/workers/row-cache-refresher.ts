// The row cache's daemon (the book's cache_rows): claims the due rows, reads them in one query per
// batch and stores the copies that changed. Any number may run on one Redis: a claim leases a row
// atomically, so each due time is refreshed once; while the database is down the last copies
// stay, and claimed rows are tried again after a growing backoff.
import { performance } from 'node:perf_hooks';
import type { RowSource } from '../db/row-source';
import type { Logger } from '../common/logger';
import type { RowCacheRepository, RowClaim } from '../redis/row-cache';

export interface RowCacheRefresherOptions {
  repository: RowCacheRepository;
  source: RowSource;
  logger: Logger;
  /** Most rows claimed and read at once. */
  batchSize: number;
  /** Longest sleep, so rows scheduled through other processes are seen within it. */
  maxSleepMs: number;
  /** Wait before a row whose read failed is tried again; doubled per failed batch, up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
}

export class RowCacheRefresher {
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** Set by a schedule while the loop is busy, so that its next sleep ends at once. */
  private nudged = false;
  private stopListening: (() => void) | undefined;
  /** Failed database reads in a row, and since when (performance.now()). */
  private failures = 0;
  private outageSince = 0;
  private redisFailing = false;
  /** For tests and logs: claim steps taken, rows read, copies changed. */
  claims = 0;
  rowsRead = 0;
  rowsChanged = 0;

  constructor(private readonly options: RowCacheRefresherOptions) {}

  start(): void {
    if (this.loop) return;
    this.stopListening = this.options.repository.onScheduled(() => {
      this.nudged = true;
      this.wake?.();
    });
    this.loop = this.run();
  }

  /** Waits for the batch in hand; its rows' next due times are already set. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.stopListening?.();
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { repository, batchSize, maxSleepMs } = this.options;
    const log = this.options.logger.child({ component: 'row-cache', table: repository.table });
    while (!this.stopping) {
      this.nudged = false;
      const claimedAt = performance.now();
      let rows: RowClaim[];
      let nextInMs: number;
      try {
        ({ rows, nextInMs } = await repository.claim(batchSize));
        this.claims++;
        if (this.redisFailing) log.info('row cache refresher reaches Redis again');
        this.redisFailing = false;
      } catch (error) {
        if (this.stopping) break;
        if (!this.redisFailing)
          log.warn({ err: (error as Error).message }, 'row cache refresher cannot reach Redis; retrying');
        this.redisFailing = true;
        await this.sleep(this.options.retryMs ?? 1000);
        continue;
      }
      const pause = rows.length > 0 ? await this.refresh(rows, log) : 0;
      if (this.stopping) break;
      const untilDue = nextInMs < 0 ? maxSleepMs : nextInMs - (performance.now() - claimedAt);
      await this.sleep(Math.max(pause, Math.min(untilDue, maxSleepMs)));
    }
  }

  /** Reads and stores one batch; returns how long to pause at least before the next claim. */
  private async refresh(rows: RowClaim[], log: Logger): Promise<number> {
    const { repository, source } = this.options;
    const ids = rows.map((row) => row.rowId);
    const started = performance.now();
    let found: Map<string, string>;
    try {
      found = await source.fetchRows(ids);
    } catch (error) {
      return this.failed(ids, error, log);
    }
    if (this.failures > 0) {
      log.info(
        { failedBatches: this.failures, outageMs: Math.round(performance.now() - this.outageSince) },
        'row cache database reachable again',
      );
      this.failures = 0;
    }
    this.rowsRead += rows.length;
    try {
      const changed = await repository.store(rows.map((row) => ({ ...row, json: found.get(row.rowId) })));
      this.rowsChanged += changed.length;
      log.debug(
        { rows: rows.length, found: found.size, changed: changed.length, ms: Math.round(performance.now() - started) },
        'row cache batch',
      );
    } catch (error) {
      // The copies are as they were, and the rows would wait for their lease to end: try sooner.
      log.warn({ err: (error as Error).message, rows: rows.length }, 'cannot store refreshed rows in Redis; retrying');
      await repository.retryLater(ids, this.options.retryMs ?? 1000).catch(() => undefined);
    }
    return 0;
  }

  private async failed(ids: string[], error: unknown, log: Logger): Promise<number> {
    const { retryMs = 1000, maxRetryMs = 30_000, maxSleepMs } = this.options;
    this.failures++;
    const backoff = Math.min(retryMs * 2 ** Math.min(this.failures - 1, 30), maxRetryMs);
    if (this.failures === 1) {
      this.outageSince = performance.now();
      log.warn(
        { err: (error as Error).message, rows: ids.length },
        'cannot read rows from the row cache database; the cached copies stay as they are, retrying',
      );
    } else {
      log.debug(
        { err: (error as Error).message, rows: ids.length, backoffMs: backoff },
        'row cache database still failing',
      );
    }
    try {
      await this.options.repository.retryLater(ids, backoff);
    } catch (redisError) {
      log.warn(
        { err: (redisError as Error).message },
        'cannot reschedule rows whose read failed; they wait for their usual time',
      );
    }
    // Rows due sooner than the backoff wait a little too, so an outage is not hammered.
    return Math.min(backoff, maxSleepMs);
  }

  /** Waits `ms`, or less if a schedule or stop() wakes it. */
  private sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.nudged || this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }
}
