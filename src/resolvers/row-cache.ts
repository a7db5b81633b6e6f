// Row caching: service callers choose which rows are cached and how often; any signed-in caller
// reads the copies (public shop data) and hears when one changes.
import { JSONScalar } from '../schema/json-scalar';
import { Args, Authorized, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { SERVICE_ROLE } from '../security/auth';
import type { RowCacheConfig } from '../config';
import { badInput } from '../common/errors';
import type { RowCacheChange, RowCacheRepository } from '../redis/row-cache';
import {
  CachedRowsArgs,
  RowCacheScheduleArgs,
  RowCacheUpdate,
  RowIdArgs,
  ScheduledRow,
  ScheduleRowCacheArgs,
} from '../schema/row-cache';
import { isCatchUp, TOPICS, type CatchUpNotice } from '../schema/topics';
import { intInRange, validKey } from '../common/validation';
import { unixSeconds, unixSecondsOrNull } from '../common/time';

/** Shortest refresh interval: below it the daemon would spend its time on one row. */
const MIN_DELAY_SECONDS = 0.05;
const MAX_PAGE = 1000;
/** Most rows of one `cachedRows`: one MGET that stays short however large the copies. */
const MAX_CACHED_ROWS = 100;

@Resolver()
export class RowCacheResolver {
  constructor(
    private readonly rows: RowCacheRepository,
    private readonly settings: Pick<RowCacheConfig, 'maxDelaySeconds'>,
  ) {}

  @Authorized(SERVICE_ROLE)
  @Mutation(() => Boolean, {
    description:
      'Caches the row every `delaySeconds`, the first time at once; true when it was not scheduled before. 0 or less stops caching it and deletes its copy; true when there was something to stop. Service callers only.',
  })
  async scheduleRowCache(@Args() { rowId, delaySeconds }: ScheduleRowCacheArgs): Promise<boolean> {
    const id = validKey(rowId, 'rowId');
    const max = this.settings.maxDelaySeconds;
    if (!Number.isFinite(delaySeconds) || Math.abs(delaySeconds) > max) {
      throw badInput(`delaySeconds must be a number from -${max} to ${max}`, 'delaySeconds');
    }
    if (delaySeconds > 0 && delaySeconds < MIN_DELAY_SECONDS) {
      throw badInput(
        `delaySeconds must be at least ${MIN_DELAY_SECONDS}, or 0 or less to stop caching the row`,
        'delaySeconds',
      );
    }
    return this.rows.schedule(id, delaySeconds > 0 ? Math.round(delaySeconds * 1000) : 0);
  }

  @Authorized()
  @Query(() => JSONScalar, {
    nullable: true,
    description: 'The cached copy of a row (its columns by name), or null when there is none.',
  })
  async cachedRow(@Args() { rowId }: RowIdArgs): Promise<unknown> {
    const json = await this.rows.cached(validKey(rowId, 'rowId'));
    return json === undefined ? null : JSON.parse(json);
  }

  @Authorized()
  @Query(() => [JSONScalar], {
    nullable: 'items',
    description: `The cached copies of several rows (at most ${MAX_CACHED_ROWS}), in the order asked; null for a row without one. One read from Redis.`,
  })
  async cachedRows(@Args() { rowIds }: CachedRowsArgs): Promise<unknown[]> {
    if (rowIds.length > MAX_CACHED_ROWS) {
      throw badInput(`rowIds must hold at most ${MAX_CACHED_ROWS} ids`, 'rowIds');
    }
    const ids = rowIds.map((rowId) => validKey(rowId, 'rowIds'));
    const copies = await this.rows.cachedMany(ids);
    return copies.map((json): unknown => (json === undefined ? null : JSON.parse(json)));
  }

  @Authorized(SERVICE_ROLE)
  @Query(() => [ScheduledRow], {
    description: 'The scheduled rows, a page at a time, in byte order of their ids. Service callers only.',
  })
  async rowCacheSchedule(@Args() { first, after }: RowCacheScheduleArgs): Promise<ScheduledRow[]> {
    const cursor = after === null || after === undefined ? undefined : validKey(after, 'after');
    const page = await this.rows.list(cursor, intInRange(first, 'first', 1, MAX_PAGE));
    return page.map((row) => ({
      rowId: row.rowId,
      delaySeconds: row.delayMs / 1000,
      nextRefreshAt: unixSeconds(row.nextRefreshAt),
      lastRefreshedAt: unixSecondsOrNull(row.lastRefreshedAt),
    }));
  }

  @Authorized()
  @Subscription(() => RowCacheUpdate, {
    description:
      "Tells each time the row's cached copy changes (a changed row, a row gone from the database, unscheduled); read it with `cachedRow`.",
    topics: TOPICS.rowCacheUpdated.name,
    topicId: ({ args }) => validKey((args as RowIdArgs).rowId, 'rowId'),
  })
  async rowCacheUpdated(
    @Root() change: RowCacheChange | CatchUpNotice,
    @Args() { rowId }: RowIdArgs,
  ): Promise<RowCacheUpdate> {
    // A catch-up says whether a copy exists now, as a change would: a missed one may have happened.
    if (isCatchUp(change)) {
      const id = validKey(rowId, 'rowId');
      return {
        rowId: id,
        changedAt: Date.now() / 1000,
        cached: (await this.rows.cached(id)) !== undefined,
        catchUp: true,
      };
    }
    return { rowId: change.rowId, changedAt: unixSeconds(change.at), cached: change.cached, catchUp: false };
  }
}
