// Location analytics in Redis (the book's sections 5.3 and 6.6, fixed where they fall short):
// log chunks travel through a stream with a consumer group, so each chunk is counted by one of
// several aggregators and a dead aggregator's chunk is claimed by another; counts are added in
// the same script that marks a chunk done. Every key of a dataset shares its hash tag.
import type { RedisClient } from '../client/redis-client';
import { repliesOf } from '../client/replies';
import { runScript } from '../client/scripts';
import { LOCATION_DATASETS, LOCATION_GROUP, locationKeys } from '../keys';
import type { ChunkTally } from '../../geo/tally';

export interface LocationSettings {
  /** Most datasets on one Redis. */
  maxDatasets: number;
  /**
   * Most bytes of chunks all datasets together hold in Redis before senders are slowed down (each
   * dataset's count is exact; the others' are read at most a second old).
   */
  maxHeldBytes: number;
  /** Largest upload, in bytes after decompression. */
  maxUploadBytes: number;
  /** Most upload records one dataset keeps. */
  maxUploads: number;
  /** Refused lines kept as samples per upload. */
  maxSamples: number;
}

type AppendStatus = 'OK' | 'STORED' | 'FULL';

/** Told of every append's outcome and the lines it stored (metrics). */
export interface AppendObserver {
  appended(status: AppendStatus, lines: number): void;
}

/** The chunks waiting to be counted, for the metrics scrape. */
export interface IngestBacklog {
  /** Datasets read (at most the bound asked for). */
  datasets: number;
  /** Chunks stored and not yet counted (taken by an aggregator or not). */
  chunks: number;
  /** Bytes of those chunks (what LOCATION_MAX_HELD_BYTES bounds). */
  bytes: number;
}

/** Most consumers one prune removes: XINFO CONSUMERS lists them all, so a backlog goes in steps. */
const PRUNE_BATCH = 1000;

export type CommitOutcome = 'DONE_ALREADY' | 'COUNTED' | 'UPLOAD_COUNTED';
const COMMIT_OUTCOMES: CommitOutcome[] = ['DONE_ALREADY', 'COUNTED', 'UPLOAD_COUNTED'];

export interface AppendResult {
  status: AppendStatus;
  /** Lines the upload holds after this call: where a resumed upload starts. */
  lines: number;
  chunks: number;
  complete: boolean;
}

export interface ChunkEntry {
  id: string;
  upload: string;
  /** 1-based number of the chunk's first line in its upload. */
  firstLine: number;
  lines: number;
  bytes: number;
  data: Buffer;
}

export interface UploadProgress {
  id: string;
  lines: number;
  bytes: number;
  chunks: number;
  doneChunks: number;
  doneLines: number;
  refused: number;
  complete: boolean;
  /** unix ms */
  created: number;
  samples: { line: number; reason: string; text: string }[];
}

export interface Ranked {
  name: string;
  visits: number;
}

export type PlaceLevel =
  { level: 'country' } | { level: 'region'; country: string } | { level: 'city'; country: string; region: string };

export interface Place {
  country: string;
  region?: string | undefined;
  city?: string | undefined;
}

const DAY_MS = 86_400_000;
/**
 * An upload's record (its progress, its refused samples) is kept this long once every line is
 * counted: sending the same file again within it is recognised as done; after it, it is a new
 * upload. LOCATION_MAX_UPLOADS counts the records kept.
 */
const UPLOAD_RECORD_SECONDS = 30 * 86_400;
/** A record of an upload that stopped before its end goes this long after its last append. */
const UPLOAD_IDLE_SECONDS = 7 * 86_400;
/** How old the other datasets' held bytes may be when an append checks the bound. */
const HELD_ELSEWHERE_MS = 1000;

/** Days since 1970-01-01 of a valid `YYYY-MM-DD`. */
export const dayNumber = (day: string): number => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
export const dayOf = (number: number): string => new Date(number * DAY_MS).toISOString().slice(0, 10);

/** Stream entry fields as ioredis returns them with Buffer replies: [name, value, name, value, ...]. */
function toEntry(id: Buffer, fields: Buffer[]): ChunkEntry {
  const byName = new Map<string, Buffer>();
  for (let i = 0; i + 1 < fields.length; i += 2) byName.set(fields[i].toString(), fields[i + 1]);
  const text = (name: string): string => byName.get(name)?.toString() ?? '';
  return {
    id: id.toString(),
    upload: text('u'),
    firstLine: Number(text('l')),
    lines: Number(text('c')),
    bytes: Number(text('b')),
    data: byName.get('d') ?? Buffer.alloc(0),
  };
}

export class LocationRepository {
  private heldSeen: { at: number; byDataset: Map<string, number> } | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly settings: LocationSettings,
    private readonly observer?: AppendObserver,
  ) {}

  /**
   * Bytes of chunks the other datasets hold. Their counts live in their own slots, so they cannot
   * be read in the append's script: the bound holds to within what appends in one second add.
   */
  private async heldElsewhere(dataset: string): Promise<number> {
    if (!this.heldSeen || Date.now() - this.heldSeen.at > HELD_ELSEWHERE_MS) {
      const names = await this.datasets();
      const held = await Promise.all(names.map((name) => this.redis.hget(locationKeys(name).meta, 'held')));
      this.heldSeen = { at: Date.now(), byDataset: new Map(names.map((name, i) => [name, Number(held[i] ?? 0)])) };
    }
    let sum = 0;
    for (const [name, held] of this.heldSeen.byDataset) if (name !== dataset) sum += held;
    return sum;
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
  async append(
    dataset: string,
    upload: string,
    from: number,
    chunk: { data: Buffer; lines: number } | undefined,
    complete: boolean,
  ): Promise<AppendResult> {
    const keys = locationKeys(dataset);
    const budget = chunk ? Math.max(0, this.settings.maxHeldBytes - (await this.heldElsewhere(dataset))) : 0;
    const reply = (await runScript(
      this.redis,
      'location-append',
      [keys.meta, keys.upload(upload), keys.chunks, keys.uploads, keys.refusedSamples(upload)],
      [
        upload,
        from,
        chunk?.lines ?? 0,
        chunk?.data.length ?? 0,
        chunk?.data ?? '',
        budget,
        this.settings.maxUploadBytes,
        complete ? 1 : 0,
        this.settings.maxUploads,
        keys.uploadChanged(upload),
        dataset,
        UPLOAD_IDLE_SECONDS,
        UPLOAD_RECORD_SECONDS,
      ],
    )) as [string, number, number, number];
    this.observer?.appended(reply[0] as AppendStatus, reply[0] === 'OK' ? (chunk?.lines ?? 0) : 0);
    return { status: reply[0] as AppendStatus, lines: reply[1], chunks: reply[2], complete: reply[3] === 1 };
  }

  /**
   * Chunks waiting in at most `maxDatasets` datasets (any of them, when there are more): one
   * round trip per dataset, two reads of fixed cost each (never a chunk's data).
   */
  async backlog(maxDatasets: number): Promise<IngestBacklog> {
    const names = await this.redis.srandmember(LOCATION_DATASETS, maxDatasets);
    const each = await Promise.all(
      names.map(async (name) => {
        const keys = locationKeys(name);
        const [chunks, held] = await repliesOf(this.redis.pipeline().xlen(keys.chunks).hget(keys.meta, 'held').exec());
        return { chunks: chunks as number, bytes: Number(held ?? 0) };
      }),
    );
    return {
      datasets: names.length,
      chunks: each.reduce((sum, one) => sum + one.chunks, 0),
      bytes: each.reduce((sum, one) => sum + one.bytes, 0),
    };
  }

  /**
   * Up to `count` chunks for `consumer`: first (when `claim`) any that another consumer has held
   * for `claimAfterMs` without finishing (it died or stalled), then new ones.
   */
  async take(
    dataset: string,
    consumer: string,
    count: number,
    claimAfterMs: number,
    claim = true,
  ): Promise<ChunkEntry[]> {
    const { chunks } = locationKeys(dataset);
    if (claim) {
      const stale = await this.claim(chunks, consumer, count, claimAfterMs);
      if (stale.length > 0) return stale;
    }
    const fresh = (await this.redis.callBuffer(
      'XREADGROUP',
      'GROUP',
      LOCATION_GROUP,
      consumer,
      'COUNT',
      count,
      'STREAMS',
      chunks,
      '>',
    )) as [Buffer, [Buffer, Buffer[]][]][] | null;
    if (!fresh) return [];
    return fresh.flatMap(([, entries]) => entries.map(([id, fields]) => toEntry(id, fields)));
  }

  /**
   * Removes a stopped consumer from a dataset's group when it holds no chunk, so the group does
   * not collect one name per process start. Only for this process's own consumer once it has
   * stopped taking: removing a live one could drop a chunk it had just taken.
   */
  async forgetConsumer(dataset: string, consumer: string): Promise<void> {
    const { chunks } = locationKeys(dataset);
    const pending = await this.redis.xpending(chunks, LOCATION_GROUP, '-', '+', 1, consumer);
    if (pending.length === 0) await this.redis.xgroup('DELCONSUMER', chunks, LOCATION_GROUP, consumer);
  }

  /**
   * Removes from a dataset's group up to `most` consumers that hold no chunk and have been idle
   * for `idleMs` (those of dead aggregators), never `keep`; returns their names.
   */
  async pruneConsumers(dataset: string, idleMs: number, keep: string, most = PRUNE_BATCH): Promise<string[]> {
    const { chunks } = locationKeys(dataset);
    return (await runScript(
      this.redis,
      'location-prune-consumers',
      [chunks],
      [LOCATION_GROUP, idleMs, keep, most],
    )) as string[];
  }

  private async claim(chunks: string, consumer: string, count: number, claimAfterMs: number): Promise<ChunkEntry[]> {
    // Buffer replies: chunk data is kept byte for byte, whatever its encoding.
    const claimed = (await this.redis.callBuffer(
      'XAUTOCLAIM',
      chunks,
      LOCATION_GROUP,
      consumer,
      claimAfterMs,
      '0-0',
      'COUNT',
      count,
    )) as [Buffer, [Buffer, Buffer[] | null][]];
    return claimed[1]
      .filter((entry): entry is [Buffer, Buffer[]] => entry[1] !== null)
      .map(([id, fields]) => toEntry(id, fields));
  }

  /**
   * Adds a chunk's counts and marks it done, atomically. DONE_ALREADY: another consumer committed
   * it first and nothing was added; UPLOAD_COUNTED: it was the last chunk of a complete upload.
   */
  async commit(dataset: string, entry: ChunkEntry, tally: ChunkTally): Promise<CommitOutcome> {
    const keys = locationKeys(dataset);
    const scriptKeys = [
      keys.chunks,
      keys.meta,
      keys.upload(entry.upload),
      keys.refusedSamples(entry.upload),
      keys.days,
      keys.visits,
      keys.unknown,
      keys.uploads,
    ];
    const args: (string | number)[] = [
      entry.id,
      LOCATION_GROUP,
      entry.bytes,
      entry.lines,
      tally.refused,
      this.settings.maxSamples,
      keys.uploadChanged(entry.upload),
      keys.totalsChanged,
      entry.upload,
      dataset,
      tally.samples.length,
      UPLOAD_RECORD_SECONDS,
      ...tally.samples.map((sample) => JSON.stringify(sample)),
      tally.days.size,
    ];
    const increments: (string | number)[] = [];
    const addLevel = (key: string, counts: Map<string, number>): void => {
      scriptKeys.push(key);
      const index = scriptKeys.length;
      for (const [member, visits] of counts) increments.push(index, member, visits);
    };
    for (const [day, totals] of tally.days) {
      args.push(day, dayNumber(day), totals.visits, totals.unknown);
      addLevel(keys.countries(day), totals.countries);
      for (const [country, regions] of totals.regions) addLevel(keys.regions(day, country), regions);
      for (const [countryRegion, cities] of totals.cities) {
        const tab = countryRegion.indexOf('\t');
        addLevel(keys.cities(day, countryRegion.slice(0, tab), countryRegion.slice(tab + 1)), cities);
      }
    }
    args.push(...increments);
    return COMMIT_OUTCOMES[Number(await runScript(this.redis, 'location-commit', scriptKeys, args))];
  }

  async upload(dataset: string, id: string): Promise<UploadProgress | null> {
    const keys = locationKeys(dataset);
    const [hash, samples] = await Promise.all([
      this.redis.hgetall(keys.upload(id)),
      this.redis.lrange(keys.refusedSamples(id), 0, this.settings.maxSamples - 1),
    ]);
    if (hash.lines === undefined) return null;
    const number = (field: string): number => Number(hash[field] ?? 0);
    return {
      id,
      lines: number('lines'),
      bytes: number('bytes'),
      chunks: number('chunks'),
      doneChunks: number('doneChunks'),
      doneLines: number('doneLines'),
      refused: number('refused'),
      complete: hash.complete === '1',
      created: number('created'),
      samples: samples.map((sample) => JSON.parse(sample) as UploadProgress['samples'][number]),
    };
  }

  /** Days that have counts, from `from` to `to` (inclusive, `YYYY-MM-DD`), oldest first. */
  async days(dataset: string, from: string, to: string, limit: number): Promise<string[]> {
    return this.redis.zrangebyscore(locationKeys(dataset).days, dayNumber(from), dayNumber(to), 'LIMIT', 0, limit);
  }

  /** Visits and visits from unknown places over `days`. */
  async totals(dataset: string, days: string[]): Promise<{ visits: number; unknown: number }> {
    if (days.length === 0) return { visits: 0, unknown: 0 };
    const keys = locationKeys(dataset);
    const [visits, unknown] = await Promise.all([
      this.redis.hmget(keys.visits, ...days),
      this.redis.hmget(keys.unknown, ...days),
    ]);
    const sum = (values: (string | null)[]): number => values.reduce((total, value) => total + Number(value ?? 0), 0);
    return { visits: sum(visits), unknown: sum(unknown) };
  }

  /** Places of one level summed over `days`, most visited first (then by name), at most `limit`. */
  async top(dataset: string, place: PlaceLevel, days: string[], limit: number): Promise<Ranked[]> {
    const keys = locationKeys(dataset);
    const keyOf = (day: string): string =>
      place.level === 'country'
        ? keys.countries(day)
        : place.level === 'region'
          ? keys.regions(day, place.country)
          : keys.cities(day, place.country, place.region);
    const sums = new Map<string, number>();
    const pipeline = this.redis.pipeline();
    for (const day of days) pipeline.zrange(keyOf(day), 0, -1, 'WITHSCORES');
    for (const [error, reply] of (await pipeline.exec()) ?? []) {
      if (error) throw error;
      const pairs = reply as string[];
      for (let i = 0; i + 1 < pairs.length; i += 2)
        sums.set(pairs[i], (sums.get(pairs[i]) ?? 0) + Number(pairs[i + 1]));
    }
    return [...sums]
      .map(([name, visits]) => ({ name, visits }))
      .sort((a, b) => b.visits - a.visits || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .slice(0, limit);
  }

  /** One place's visits on each of `days`. */
  async series(dataset: string, place: Place, days: string[]): Promise<number[]> {
    if (days.length === 0) return [];
    const keys = locationKeys(dataset);
    const pipeline = this.redis.pipeline();
    for (const day of days) {
      if (place.region === undefined) pipeline.zscore(keys.countries(day), place.country);
      else if (place.city === undefined) pipeline.zscore(keys.regions(day, place.country), place.region);
      else pipeline.zscore(keys.cities(day, place.country, place.region), place.city);
    }
    return ((await pipeline.exec()) ?? []).map(([error, reply]) => {
      if (error) throw error;
      return Number(reply ?? 0);
    });
  }

  /**
   * Deletes every count of the days before `before`, at most `maxDays` of the oldest, each day in
   * one script; returns the days deleted (call again when it returns `maxDays` of them).
   */
  async forgetBefore(dataset: string, before: string, maxDays = 366): Promise<string[]> {
    const keys = locationKeys(dataset);
    const forgotten: string[] = [];
    while (forgotten.length < maxDays) {
      // One day per script: deleting a busy day's keys takes Redis a few milliseconds.
      const days = (await runScript(
        this.redis,
        'location-forget',
        [keys.days, keys.visits, keys.unknown],
        [keys.prefix, dayNumber(before), 1, keys.totalsChanged, dataset],
      )) as string[];
      if (days.length === 0) break;
      forgotten.push(...days);
    }
    return forgotten;
  }
}
