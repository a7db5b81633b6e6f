// Row caching (book section 2.4): which rows of one database table are copied into Redis, how
// often, and the copies themselves. The refresher (src/workers/row-cache-refresher.ts) claims due
// rows, reads them from the database and stores them through here; every step that touches more
// than one key is one script on the table's slot.
import type { RedisClient } from './client/connection';
import { rowCacheKeys, type RowCacheKeys } from './keys';
import { runScript } from './client/scripts';

/** A scheduled row; times are unix ms by the Redis server's clock. */
export interface ScheduledRow {
  rowId: string;
  delayMs: number;
  nextRefreshAt: number;
  /** Unset until the refresher has read the row once. */
  lastRefreshedAt: number | undefined;
}

/** A due row handed to one refresher; `token` identifies the claim when storing. */
export interface RowClaim {
  rowId: string;
  token: number;
}

export interface ClaimedRows {
  rows: RowClaim[];
  /** Ms until the next row is due, as of the claim: 0 when more are due now, -1 when none is scheduled. */
  nextInMs: number;
}

/** What the database said about a claimed row: its JSON text, or undefined when it has no such row. */
export interface FetchedRow extends RowClaim {
  json: string | undefined;
}

/** The notification published on a row's channel when its copy changes. */
export interface RowCacheChange {
  rowId: string;
  /** Unix ms by Redis's clock. */
  at: number;
  /** Whether a copy exists now (false: the row was deleted from the database, or unscheduled). */
  cached: boolean;
}

export interface RowCacheSettings {
  /** The cached table, optionally schema-qualified, used exactly as written (quoted). */
  table: string;
  /** Most rows scheduled per table; scheduling one more is CONFLICT. */
  maxRows: number;
  /** The database's timeout (ROW_CACHE_DB_TIMEOUT_MS), from which the claim lease follows. */
  dbTimeoutMs?: number;
  /** How long a claimed row waits for its store before it is due again; default claimLeaseMs(dbTimeoutMs). */
  claimLeaseMs?: number;
  /**
   * How far ahead a claim takes rows with the due ones (never more than a quarter of a row's
   * delay early), so rows due a few ms apart share one query; default GATHER_MS.
   */
  gatherMs?: number;
}

/** Covers rows scheduled one request at a time (a few ms each) on a busy machine. */
const GATHER_MS = 100;

/**
 * How long a claim holds a row (if its delay is longer): several database timeouts, so a read
 * that is still running is not claimed twice, but a refresher that died or could not store
 * leaves the row for seconds, not for its whole delay.
 */
function claimLeaseMs(dbTimeoutMs = 5000): number {
  return Math.max(10_000, 3 * dbTimeoutMs);
}

export class RowCacheRepository {
  readonly keys: RowCacheKeys;
  private readonly scheduledListeners = new Set<() => void>();

  constructor(
    private readonly redis: RedisClient,
    private readonly settings: RowCacheSettings,
  ) {
    this.keys = rowCacheKeys(settings.table);
  }

  get table(): string {
    return this.settings.table;
  }

  /**
   * Caches the row every `delayMs` from now on, the first time at once; `delayMs <= 0` stops
   * caching it and deletes its copy. True when the row was newly scheduled, or, unscheduling,
   * when it was scheduled or cached.
   */
  async schedule(rowId: string, delayMs: number): Promise<boolean> {
    const keys = this.keys;
    const done = await runScript(
      this.redis,
      'row-cache-schedule',
      [keys.schedule, keys.delay, keys.ids, keys.refreshed, keys.tokens, keys.claims, keys.row(rowId)],
      [rowId, Math.max(delayMs, 0), this.settings.maxRows, keys.updated(rowId)],
    );
    // The refresher of this process looks at the schedule at once instead of after its sleep.
    if (delayMs > 0) for (const listener of this.scheduledListeners) listener();
    return Number(done) === 1;
  }

  /** The cached copy as JSON text, or undefined. */
  async cached(rowId: string): Promise<string | undefined> {
    return (await this.redis.get(this.keys.row(rowId))) ?? undefined;
  }

  /**
   * The cached copies of several rows, in the order asked (undefined where there is none): one
   * MGET, as every copy of a table shares the table's slot.
   */
  async cachedMany(rowIds: readonly string[]): Promise<(string | undefined)[]> {
    if (rowIds.length === 0) return [];
    const copies = await this.redis.mget(...rowIds.map((rowId) => this.keys.row(rowId)));
    return copies.map((copy) => copy ?? undefined);
  }

  /** Scheduled rows in byte order of their ids, after `after`. */
  async list(after: string | undefined, first: number): Promise<ScheduledRow[]> {
    const keys = this.keys;
    const flat = (await runScript(
      this.redis,
      'row-cache-list',
      [keys.ids, keys.delay, keys.schedule, keys.refreshed],
      [after ?? '', first],
    )) as (string | null)[];
    const rows: ScheduledRow[] = [];
    for (let i = 0; i < flat.length; i += 4) {
      const [rowId, delay, due, refreshed] = flat.slice(i, i + 4);
      rows.push({
        rowId: rowId!,
        delayMs: Number(delay),
        nextRefreshAt: Number(due),
        lastRefreshedAt: refreshed === null || refreshed === undefined ? undefined : Number(refreshed),
      });
    }
    return rows;
  }

  /** Calls `listener` after each schedule made through this repository; returns the way to stop. */
  onScheduled(listener: () => void): () => void {
    this.scheduledListeners.add(listener);
    return () => this.scheduledListeners.delete(listener);
  }

  // --- for the refresher ---------------------------------------------------------------------

  /**
   * Takes up to `count` due rows, and those due within `gatherMs` with them, each due again after
   * its delay or the claim lease, whichever is sooner.
   */
  async claim(count: number): Promise<ClaimedRows> {
    const keys = this.keys;
    const lease = this.settings.claimLeaseMs ?? claimLeaseMs(this.settings.dbTimeoutMs);
    const [nextInMs, ...flat] = (await runScript(
      this.redis,
      'row-cache-claim',
      [keys.schedule, keys.delay, keys.ids, keys.claims],
      [count, lease, this.settings.gatherMs ?? GATHER_MS],
    )) as [number, ...(string | number)[]];
    const rows: RowClaim[] = [];
    for (let i = 0; i < flat.length; i += 2) rows.push({ rowId: String(flat[i]), token: Number(flat[i + 1]) });
    return { rows, nextInMs: Number(nextInMs) };
  }

  /**
   * Stores what the database returned for claimed rows, and makes each stored row due a delay from
   * now; returns the ids whose copy changed.
   */
  async store(rows: FetchedRow[]): Promise<string[]> {
    if (rows.length === 0) return [];
    const keys = this.keys;
    return (await runScript(
      this.redis,
      'row-cache-store',
      [keys.schedule, keys.delay, keys.tokens, keys.refreshed, ...rows.map((row) => keys.row(row.rowId))],
      [keys.updated(''), ...rows.flatMap((row) => [row.rowId, row.token, row.json ?? ''])],
    )) as string[];
  }

  /** After a failed read or store: the rows are due again `backoffMs` from now, or at their lease's end or usual time if sooner. */
  async retryLater(rowIds: string[], backoffMs: number): Promise<number> {
    if (rowIds.length === 0) return 0;
    return Number(
      await runScript(this.redis, 'row-cache-retry', [this.keys.schedule, this.keys.delay], [backoffMs, ...rowIds]),
    );
  }
}
