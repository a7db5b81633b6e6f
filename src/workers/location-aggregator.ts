// Counts log chunks as they arrive: takes a chunk of any dataset from its stream (the consumer
// group gives it to one aggregator only), looks each line's address up locally, tallies per day
// and place in memory, and commits the tally and the chunk's "done" in one script. Several run
// at once, in worker processes and API processes alike; one that dies leaves its chunk pending,
// and another claims it after LOCATION_CLAIM_AFTER_MS. The group's consumers that dead ones
// leave behind are removed once they hold nothing and have been idle for ten claim times.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../common/logger';
import { tallyChunk } from '../geo/tally';
import type { IpLocator } from '../geo/ip-locator';
import type { LocationRepository } from '../redis/location/repository';

export interface LocationAggregatorOptions {
  repository: LocationRepository;
  /** Opened on the first chunk: the IP database takes a moment and about 130 MB to load. */
  locator: () => IpLocator;
  logger: Logger;
  /** How long a chunk may stay taken but not done before another aggregator claims it. */
  claimAfterMs: number;
  maxSamples: number;
  /** First sleep when no dataset had work; doubled while none has, up to maxIdleMs. */
  idleMs?: number;
  maxIdleMs?: number;
  /** How often the list of datasets is read again. */
  refreshMs?: number;
  /**
   * How long a consumer of the group must have been idle, holding no chunk, before it is removed
   * (a dead aggregator's); 10 x claimAfterMs by default, looked for a few times in that span.
   */
  forgetIdleAfterMs?: number;
  /** Called after each chunk committed (tests and the bench watch progress with it). */
  onChunk?: (dataset: string, lines: number, committed: boolean) => void;
}

export class LocationAggregator {
  readonly consumer = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;
  /** When each dataset was last looked at for chunks another consumer left (unix ms). */
  private readonly claimedAt = new Map<string, number>();
  /** When each dataset's group was last looked at for consumers dead aggregators left (unix ms). */
  private readonly prunedAt = new Map<string, number>();

  constructor(private readonly options: LocationAggregatorOptions) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Finishes the chunk in hand; anything taken and not finished is claimed by another later. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
    if (!this.loop) return;
    // The group forgets this consumer where it holds nothing (best effort: Redis may be gone).
    await Promise.all(
      [...this.claimedAt.keys()].map((dataset) =>
        this.options.repository.forgetConsumer(dataset, this.consumer).catch(() => undefined),
      ),
    );
  }

  /** Counts one chunk of `dataset` if there is one; true when it found work. */
  async step(dataset: string): Promise<boolean> {
    const { repository, claimAfterMs, maxSamples } = this.options;
    // Left chunks can be claimed only claimAfterMs after they were taken: looking for them a few
    // times in that span, not on every step, keeps an idle aggregator at one command per look.
    const claimEveryMs = Math.min(Math.max(claimAfterMs / 4, 100), 15_000);
    const claim = Date.now() - (this.claimedAt.get(dataset) ?? 0) >= claimEveryMs;
    if (claim) this.claimedAt.set(dataset, Date.now());
    await this.prune(dataset);
    const entries = await repository.take(dataset, this.consumer, 1, claimAfterMs, claim);
    for (const entry of entries) {
      const tally = await tallyChunk(entry.data, entry.firstLine, this.options.locator(), maxSamples);
      if (tally.lines !== entry.lines) {
        // The sender and the chunker agree on what a line is; this would be a bug in one of them.
        this.options.logger.error(
          { dataset, upload: entry.upload, expected: entry.lines, found: tally.lines },
          'chunk line count differs from what was stored',
        );
      }
      const outcome = await repository.commit(dataset, entry, tally);
      const committed = outcome !== 'DONE_ALREADY';
      this.options.logger.debug({ dataset, upload: entry.upload, lines: entry.lines, committed }, 'chunk counted');
      if (outcome === 'UPLOAD_COUNTED') {
        const progress = await repository.upload(dataset, entry.upload);
        this.options.logger.info(
          { dataset, upload: entry.upload, lines: progress?.lines, refused: progress?.refused },
          'upload counted',
        );
      }
      this.options.onChunk?.(dataset, entry.lines, committed);
    }
    return entries.length > 0;
  }

  /**
   * Removes the dataset's consumers that hold nothing and have been idle past forgetIdleAfterMs,
   * now and then. Several aggregators may do so at once: the script is atomic and idempotent.
   */
  private async prune(dataset: string): Promise<void> {
    const idleMs = this.options.forgetIdleAfterMs ?? 10 * this.options.claimAfterMs;
    if (Date.now() - (this.prunedAt.get(dataset) ?? 0) < Math.max(idleMs / 4, 100)) return;
    this.prunedAt.set(dataset, Date.now());
    try {
      const removed = await this.options.repository.pruneConsumers(dataset, idleMs, this.consumer);
      if (removed.length > 0) {
        this.options.logger.info(
          { dataset, consumers: removed.length, first: removed[0] },
          'removed idle consumers of dead aggregators',
        );
      }
    } catch (error) {
      // Tidying the group must never stop the counting; the next look tries again.
      this.options.logger.warn({ err: error, dataset }, 'could not remove idle consumers; retrying later');
    }
  }

  private async run(): Promise<void> {
    const log = this.options.logger.child({ component: 'location-aggregator', consumer: this.consumer });
    const idleMs = this.options.idleMs ?? 50;
    const maxIdleMs = this.options.maxIdleMs ?? 1000;
    let sleepMs = idleMs;
    const refreshMs = this.options.refreshMs ?? 1000;
    let datasets: string[] = [];
    let listedAt = 0;
    const { signal } = this.abort;
    while (!signal.aborted) {
      let worked = false;
      let failed = false;
      try {
        if (Date.now() - listedAt >= refreshMs) {
          datasets = await this.options.repository.datasets();
          listedAt = Date.now();
        }
      } catch (error) {
        failed = true;
        log.warn({ err: error }, 'could not list location datasets; retrying');
      }
      for (const dataset of datasets) {
        if (signal.aborted) break;
        try {
          if (await this.step(dataset)) worked = true;
        } catch (error) {
          // One dataset failing (Redis away, a dataset listed but never created) must not stop the others.
          failed = true;
          log.warn({ err: error, dataset }, 'location aggregation failed; retrying');
        }
      }
      sleepMs = worked ? idleMs : Math.min(sleepMs * 2, maxIdleMs);
      if (!worked) await sleep(failed ? 1000 : sleepMs, undefined, { signal }).catch(() => undefined);
    }
  }
}
