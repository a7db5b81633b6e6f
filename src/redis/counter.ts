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
  /** Samples kept at some precisions instead of `samples` (COUNTER_RETENTION). */
  retention?: Readonly<Record<number, number>>;
  /** How far ahead of the server's clock an explicit `at` may be. */
  maxFutureSeconds: number;
}

const CLEAN_BATCH = 100;

/** The slices the cleanup worker keeps per counter at `precision`. */
export const retentionAt = (settings: Pick<CounterSettings, 'samples' | 'retention'>, precision: number): number =>
  settings.retention?.[precision] ?? settings.samples;

export const AGGREGATIONS = ['SUM', 'AVG', 'MIN', 'MAX', 'COUNT'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];
export const FILLS = ['ZERO', 'NONE'] as const;
export type Fill = (typeof FILLS)[number];

export interface SeriesQuery {
  /** Unix seconds; the first step is the one holding it. */
  from: number;
  /** Unix seconds; the last step is the one holding it. The server's clock when absent. */
  to?: number;
  /** Seconds; a multiple of at least one precision. */
  step: number;
  aggregation: Aggregation;
  fill: Fill;
  /** Most steps in one series. */
  maxPoints: number;
}

export interface SeriesPoint {
  /** Start of the step, unix seconds. */
  time: number;
  value: number;
}

export interface CounterSeries {
  name: string;
  /** The slice length the values were computed from. */
  precision: number;
  step: number;
  aggregation: Aggregation;
  /** Start of the first step. */
  start: number;
  /** End of the last step (exclusive). */
  end: number;
  /** Start of the oldest slice the cleanup keeps at `precision`, by the server's clock. */
  retainedFrom: number;
  points: SeriesPoint[];
}

/** What one counter-series call answered for the counters of one bucket. */
interface BucketSeries {
  names: string[];
  now: number;
  precision: number;
  retainedFrom: number;
  start: number;
  points: number;
  /** Per name, step index and value pairs of the steps that hold a sample. */
  pairs: number[][];
}

export class CounterRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly settings: CounterSettings,
    /** The channel on which the update script announces a counter's update; none when absent. */
    private readonly announceOn?: (name: string) => string,
  ) {}

  /**
   * Adds `count` at every precision; returns the time used (the server's clock unless `at` is given).
   * An `at` older than the longest retention is BAD_USER_INPUT: the cleanup would delete it everywhere.
   */
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
      ...this.settings.precisions.flatMap((p) => [p, retentionAt(this.settings, p)]),
    ];
    return Number(await runScript(this.redis, 'counter-update', keys, args));
  }

  /**
   * Each counter's series at one precision for all, in the order of `names`. One script call
   * per bucket, all in parallel. Should the calls' clocks straddle a precision's retention edge
   * or a step boundary (with `to` absent), the buckets that answered differently from the latest
   * clock are asked again with that clock's precision and time, so every series agrees.
   */
  async series(names: string[], query: SeriesQuery): Promise<CounterSeries[]> {
    if (names.length === 0) return [];
    const candidates = this.settings.precisions.filter((p) => query.step % p === 0);
    const byBucket = new Map<string, string[]>();
    for (const name of names) {
      const bucket = counterBucket(name);
      byBucket.set(bucket, [...(byBucket.get(bucket) ?? []), name]);
    }
    const groups = [...byBucket.values()];
    const answers = await Promise.all(groups.map((group) => this.seriesOfBucket(group, candidates, query)));
    const latest = answers.reduce((a, b) => (b.now > a.now ? b : a), answers[0]);
    const agrees = (a: BucketSeries): boolean =>
      a.precision === latest.precision && a.start === latest.start && a.points === latest.points;
    const again = await Promise.all(
      answers.map(async (answer) =>
        agrees(answer)
          ? answer
          : this.seriesOfBucket(answer.names, candidates, { ...query, to: query.to ?? latest.now }, latest.precision),
      ),
    );
    const byName = new Map<string, number[]>();
    for (const answer of again) answer.names.forEach((name, i) => byName.set(name, answer.pairs[i]));
    const perStep = query.step / latest.precision;
    return names.map((name) => ({
      name,
      precision: latest.precision,
      step: query.step,
      aggregation: query.aggregation,
      start: latest.start,
      end: latest.start + latest.points * query.step,
      retainedFrom: latest.retainedFrom,
      points: toPoints(byName.get(name)!, latest.start, latest.points, perStep, query),
    }));
  }

  private async seriesOfBucket(
    names: string[],
    candidates: number[],
    query: SeriesQuery,
    precision?: number,
  ): Promise<BucketSeries> {
    const keys = names.flatMap((name) => candidates.map((p) => counterKeys.samples(name, p)));
    const args = [
      query.step,
      query.from,
      query.to === undefined ? '' : query.to,
      query.maxPoints,
      query.aggregation,
      this.settings.maxFutureSeconds,
      precision === undefined ? '' : precision,
      candidates.length,
      ...candidates.flatMap((p) => [p, retentionAt(this.settings, p)]),
    ];
    const reply = (await runScript(this.redis, 'counter-series', keys, args)) as [
      number,
      number,
      number,
      number,
      number,
      ...number[][],
    ];
    const [now, used, retainedFrom, start, points, ...pairs] = reply;
    return { names, now, precision: used, retainedFrom, start, points, pairs };
  }

  /**
   * Names with `prefix` (all names when empty) after `after`, in byte order, at most `first`,
   * from the known sets of the precisions that divide `step`.
   */
  async namesWithPrefix(prefix: string, after: string | undefined, first: number, step: number): Promise<string[]> {
    const min =
      after !== undefined && compareBytes(after, prefix) >= 0 ? `(${after}` : prefix === '' ? '-' : `[${prefix}`;
    // No UTF-8 text holds the byte 0xff, so it closes the range of names that start with prefix.
    const max = prefix === '' ? '+' : Buffer.concat([Buffer.from(`[${prefix}`), Buffer.from([0xff])]);
    const precisions = this.settings.precisions.filter((p) => step % p === 0);
    const known = await this.knownNames(min, max, first, precisions);
    return [...known.keys()].sort(compareBytes).slice(0, first);
  }

  /** Removes a counter at every configured precision; false when it had nothing to remove. */
  async delete(name: string): Promise<boolean> {
    const bucket = counterBucket(name);
    const keys = this.settings.precisions.flatMap((p) => [counterKeys.known(bucket, p), counterKeys.samples(name, p)]);
    return (await runScript(this.redis, 'counter-delete', keys, [name])) === 1;
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
    const byName = await this.knownNames(min, '+', first, this.settings.precisions);
    return [...byName.keys()]
      .sort(compareBytes)
      .slice(0, first)
      .map((name) => ({ name, precisions: byName.get(name)!.sort((a, b) => a - b) }));
  }

  /**
   * The first `first` names of each bucket's known set of each precision within [min, max]
   * (ZRANGEBYLEX bounds), with the precisions that know them.
   */
  private async knownNames(
    min: string,
    max: string | Buffer,
    first: number,
    precisions: number[],
  ): Promise<Map<string, number[]>> {
    const windows = await Promise.all(
      counterBuckets().flatMap((bucket) =>
        precisions.map(async (precision) => ({
          precision,
          names: await this.redis.zrangebylex(counterKeys.known(bucket, precision), min, max, 'LIMIT', 0, first),
        })),
      ),
    );
    const byName = new Map<string, number[]>();
    for (const { precision, names } of windows) {
      for (const name of names) byName.set(name, [...(byName.get(name) ?? []), precision]);
    }
    return byName;
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
          retentionAt(this.settings, precision),
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

/** The steps of one series from the script's (step index, value) pairs; AVG divides the sum by the slices per step. */
function toPoints(pairs: number[], start: number, steps: number, perStep: number, query: SeriesQuery): SeriesPoint[] {
  const value = (raw: number): number => (query.aggregation === 'AVG' ? raw / perStep : raw);
  if (query.fill === 'NONE') {
    const points: SeriesPoint[] = [];
    for (let i = 0; i < pairs.length; i += 2)
      points.push({ time: start + pairs[i] * query.step, value: value(pairs[i + 1]) });
    return points;
  }
  const points = Array.from({ length: steps }, (_, i) => ({ time: start + i * query.step, value: 0 }));
  for (let i = 0; i < pairs.length; i += 2) points[pairs[i]].value = value(pairs[i + 1]);
  return points;
}
