// Time-series counters (book section 5.2.1): per counter and precision, a hash from slice start
// to count, and per precision a known set of counter names for cleanup and listing.
import type { RedisClient } from './client/connection';
import { counterBucket, counterBuckets, counterKeys } from './keys';
import { compareBytes } from './order';
import { runScript } from './client/scripts';

export interface CounterSample {
  /** Start of the slice, unix seconds. */
  time: number;
  count: number;
}

export interface KnownCounter {
  name: string;
  precisions: number[];
}

export interface CleanupProgress {
  counters: number;
  removedSamples: number;
  removedCounters: number;
}

export interface CounterSettings {
  /** Slice lengths in seconds, ascending, unique. */
  precisions: number[];
  /** Samples kept per counter and precision by the cleanup worker. */
  samples: number;
  /** How far ahead of the server's clock an explicit `at` may be. */
  maxFutureSeconds: number;
}

const CLEAN_BATCH = 100;

export class CounterRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly settings: CounterSettings,
    /** The channel on which the update script announces a counter's update; none when absent. */
    private readonly announceOn?: (name: string) => string,
  ) {}

  /** Adds `count` at every precision; returns the time used (the server's clock unless `at` is given). */
  async update(name: string, count: number, at?: number): Promise<number> {
    const bucket = counterBucket(name);
    const keys = this.settings.precisions.flatMap((p) => [counterKeys.known(bucket, p), counterKeys.samples(name, p)]);
    const channel = this.announceOn?.(name) ?? '';
    const args = [
      name,
      count,
      at === undefined ? '' : String(at),
      this.settings.maxFutureSeconds,
      channel,
      ...this.settings.precisions,
    ];
    return Number(await runScript(this.redis, 'counter-update', keys, args));
  }

  /** The newest `limit` samples, oldest first. */
  async samples(name: string, precision: number, limit: number): Promise<CounterSample[]> {
    const hash = await this.redis.hgetall(counterKeys.samples(name, precision));
    return Object.entries(hash)
      .map(([time, count]) => ({ time: Number(time), count: Number(count) }))
      .sort((a, b) => a.time - b.time)
      .slice(-limit);
  }

  /**
   * Counter names after `after` in byte order, at most `first`, with the configured precisions
   * that hold samples. Each bucket and precision contributes its first `first` names past the
   * cursor; any name among the overall first `first` is within every window that has it, so the
   * precisions reported for it are complete.
   */
  async list(after: string | undefined, first: number): Promise<KnownCounter[]> {
    const min = after === undefined ? '-' : `(${after}`;
    const windows = await Promise.all(
      counterBuckets().flatMap((bucket) =>
        this.settings.precisions.map(async (precision) => ({
          precision,
          names: await this.redis.zrangebylex(counterKeys.known(bucket, precision), min, '+', 'LIMIT', 0, first),
        })),
      ),
    );
    const byName = new Map<string, number[]>();
    for (const { precision, names } of windows) {
      for (const name of names) byName.set(name, [...(byName.get(name) ?? []), precision]);
    }
    return [...byName.keys()]
      .sort(compareBytes)
      .slice(0, first)
      .map((name) => ({ name, precisions: byName.get(name)!.sort((a, b) => a - b) }));
  }

  /**
   * Trims every counter of one precision, in batches, one atomic script per batch.
   * Stops between batches when `signal` aborts.
   */
  async clean(precision: number, signal?: AbortSignal): Promise<CleanupProgress> {
    const progress: CleanupProgress = { counters: 0, removedSamples: 0, removedCounters: 0 };
    for (const bucket of counterBuckets()) {
      const known = counterKeys.known(bucket, precision);
      let min = '-';
      while (!signal?.aborted) {
        const names = await this.redis.zrangebylex(known, min, '+', 'LIMIT', 0, CLEAN_BATCH);
        if (names.length === 0) break;
        const keys = [known, ...names.map((name) => counterKeys.samples(name, precision))];
        const [samples, counters] = (await runScript(this.redis, 'counter-clean', keys, [
          precision,
          this.settings.samples,
          ...names,
        ])) as [number, number];
        progress.counters += names.length;
        progress.removedSamples += samples;
        progress.removedCounters += counters;
        min = `(${names[names.length - 1]}`;
      }
    }
    return progress;
  }

  /**
   * Takes the cleanup lease of a precision for `ttlMs`. Returns 0 when taken, otherwise how many
   * milliseconds remain on another holder's lease.
   */
  async takeCleanupLease(precision: number, owner: string, ttlMs: number): Promise<number> {
    const key = counterKeys.cleanupLease(precision);
    const taken = await this.redis.set(key, owner, 'PX', ttlMs, 'NX');
    if (taken === 'OK') return 0;
    const remaining = await this.redis.pttl(key);
    return remaining > 0 ? remaining : 100;
  }
}
