// Location analytics in Redis (the book's sections 5.3 and 6.6, fixed where they fall short):
// log chunks travel through a stream with a consumer group, so each chunk is counted by one of
// several aggregators and a dead aggregator's chunk is claimed by another; counts are added in
// the same script that marks a chunk done. Every key of a dataset shares its hash tag. This
// class is the one entry; the work is in ingest.ts, aggregation.ts and counts.ts.
import type { RedisClient } from '../client/redis-client';
import { runScript } from '../client/scripts';
import { LOCATION_DATASETS, LOCATION_GROUP, locationKeys } from '../keys';
import type { ChunkTally } from '../../geo/tally';
import * as aggregation from './aggregation';
import * as counts from './counts';
import * as ingest from './ingest';
import type {
  AppendObserver,
  AppendResult,
  ChunkEntry,
  CommitOutcome,
  IngestBacklog,
  LocationSettings,
  Place,
  PlaceLevel,
  Ranked,
  UploadProgress,
} from './types';

export type {
  AppendObserver,
  AppendResult,
  ChunkEntry,
  CommitOutcome,
  IngestBacklog,
  LocationSettings,
  Place,
  PlaceLevel,
  Ranked,
  UploadProgress,
} from './types';
export { dayNumber, dayOf } from './types';

export class LocationRepository {
  private readonly heldElsewhere: ingest.HeldElsewhere;

  constructor(
    private readonly redis: RedisClient,
    private readonly settings: LocationSettings,
    private readonly observer?: AppendObserver,
  ) {
    this.heldElsewhere = new ingest.HeldElsewhere(redis, () => this.datasets());
  }

  /** Creates a dataset; false when it existed. Listed first, so an aggregator never misses one made. */
  async createDataset(dataset: string): Promise<boolean> {
    await this.redis.sadd(LOCATION_DATASETS, dataset);
    const keys = locationKeys(dataset);
    return Number(await runScript(this.redis, 'location-create', [keys.meta, keys.chunks], [LOCATION_GROUP])) === 1;
  }

  async datasetCount(): Promise<number> {
    return this.redis.scard(LOCATION_DATASETS);
  }

  async datasets(): Promise<string[]> {
    return (await this.redis.smembers(LOCATION_DATASETS)).sort();
  }

  async exists(dataset: string): Promise<boolean> {
    return (await this.redis.exists(locationKeys(dataset).meta)) === 1;
  }

  /**
   * Stores a chunk of `lines` complete lines starting after line `from` of the upload, and/or
   * closes it. FULL: nothing stored, the dataset holds its maximum; try again shortly.
   */
  append(
    dataset: string,
    upload: string,
    from: number,
    chunk: { data: Buffer; lines: number } | undefined,
    complete: boolean,
  ): Promise<AppendResult> {
    return ingest.append(this.redis, this.settings, this.heldElsewhere, this.observer, {
      dataset,
      upload,
      from,
      chunk,
      complete,
    });
  }

  /**
   * Chunks waiting in at most `maxDatasets` datasets (any of them, when there are more): one
   * round trip per dataset, two reads of fixed cost each (never a chunk's data).
   */
  backlog(maxDatasets: number): Promise<IngestBacklog> {
    return ingest.backlog(this.redis, maxDatasets);
  }

  upload(dataset: string, id: string): Promise<UploadProgress | null> {
    return ingest.uploadProgress(this.redis, this.settings, dataset, id);
  }

  /**
   * Up to `count` chunks for `consumer`: first (when `claim`) any that another consumer has held
   * for `claimAfterMs` without finishing (it died or stalled), then new ones.
   */
  take(dataset: string, consumer: string, count: number, claimAfterMs: number, claim = true): Promise<ChunkEntry[]> {
    return aggregation.take(this.redis, dataset, consumer, count, claimAfterMs, claim);
  }

  /**
   * Removes a stopped consumer from a dataset's group when it holds no chunk, so the group does
   * not collect one name per process start. Only for this process's own consumer once it has
   * stopped taking: removing a live one could drop a chunk it had just taken.
   */
  forgetConsumer(dataset: string, consumer: string): Promise<void> {
    return aggregation.forgetConsumer(this.redis, dataset, consumer);
  }

  /**
   * Removes from a dataset's group up to `most` consumers that hold no chunk and have been idle
   * for `idleMs` (those of dead aggregators), never `keep`; returns their names.
   */
  pruneConsumers(dataset: string, idleMs: number, keep: string, most = aggregation.PRUNE_BATCH): Promise<string[]> {
    return aggregation.pruneConsumers(this.redis, dataset, idleMs, keep, most);
  }

  /**
   * Adds a chunk's counts and marks it done, atomically. DONE_ALREADY: another consumer committed
   * it first and nothing was added; UPLOAD_COUNTED: it was the last chunk of a complete upload.
   */
  commit(dataset: string, entry: ChunkEntry, tally: ChunkTally): Promise<CommitOutcome> {
    return aggregation.commit(this.redis, this.settings.maxSamples, dataset, entry, tally);
  }

  /** Days that have counts, from `from` to `to` (inclusive, `YYYY-MM-DD`), oldest first. */
  days(dataset: string, from: string, to: string, limit: number): Promise<string[]> {
    return counts.days(this.redis, dataset, from, to, limit);
  }

  /** Visits and visits from unknown places over `days`. */
  totals(dataset: string, days: string[]): Promise<{ visits: number; unknown: number }> {
    return counts.totals(this.redis, dataset, days);
  }

  /** Places of one level summed over `days`, most visited first (then by name), at most `limit`. */
  top(dataset: string, place: PlaceLevel, days: string[], limit: number): Promise<Ranked[]> {
    return counts.top(this.redis, dataset, place, days, limit);
  }

  /** One place's visits on each of `days`. */
  series(dataset: string, place: Place, days: string[]): Promise<number[]> {
    return counts.series(this.redis, dataset, place, days);
  }

  /**
   * Deletes every count of the days before `before`, at most `maxDays` of the oldest, each day in
   * one script; returns the days deleted (call again when it returns `maxDays` of them).
   */
  forgetBefore(dataset: string, before: string, maxDays = 366): Promise<string[]> {
    return counts.forgetBefore(this.redis, dataset, before, maxDays);
  }
}
