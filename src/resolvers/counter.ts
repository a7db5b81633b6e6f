// Time-series counters: validate and authorise, then one repository call.
import { Args, Authorized, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { SERVICE_ROLE } from '../security/auth';
import type { CounterConfig } from '../config';
import { badInput } from '../common/errors';
import { retentionAt, type CounterRepository, type SeriesQuery } from '../redis/counter';
import {
  CounterArgs,
  CounterSample,
  CounterSeries,
  CounterSeriesArgs,
  CounterSeriesManyArgs,
  CountersArgs,
  CounterUpdate,
  CounterUpdatedArgs,
  DeleteCounterArgs,
  KnownCounter,
  UpdateCounterArgs,
} from '../schema/counter';
import { isCatchUp, TOPICS, type CatchUpNotice, type CounterUpdateNotice } from '../schema/topics';
import { intInRange, validName } from '../common/validation';

const MAX_READ_LIMIT = 10_000;
const MAX_PAGE = 1000;
/** Most steps in one series. */
const MAX_POINTS = 10_000;
/** Most points of one counterSeriesMany reply, over all its series: 50 series of 2,000 points. */
const MAX_TOTAL_POINTS = 100_000;
/** Most counters in one counterSeriesMany. */
const MAX_SERIES = 50;
/** Longest step: ten years. */
const MAX_STEP = 315_360_000;
/** Latest time a series may name: the end of the year 9999. */
const MAX_TIME = 253_402_300_799;

@Resolver()
export class CounterResolver {
  constructor(
    private readonly repository: CounterRepository,
    private readonly settings: CounterConfig,
  ) {}

  @Authorized(SERVICE_ROLE)
  @Mutation(() => Boolean, { description: 'Counts at every configured precision, atomically. Service callers only.' })
  async updateCounter(@Args() { name, count, at }: UpdateCounterArgs): Promise<boolean> {
    const counter = validName(name, 'name');
    const max = this.settings.maxIncrement;
    if (count === 0) throw badInput('count must not be zero', 'count');
    intInRange(count, 'count', -max, max);
    if (at !== null && at !== undefined && (!Number.isFinite(at) || at < 0)) {
      throw badInput('at must be a finite, non-negative time in unix seconds', 'at');
    }
    // The update script announces it on counterUpdated (see the repository's announceOn).
    await this.repository.update(counter, count, at ?? undefined);
    return true;
  }

  @Authorized()
  @Query(() => [CounterSample], { description: 'Samples of one counter at one precision, oldest first.' })
  async counter(@Args() { name, precision, limit }: CounterArgs): Promise<CounterSample[]> {
    const counter = validName(name, 'name');
    if (!this.settings.precisions.includes(precision)) {
      throw badInput(`precision must be one of ${this.settings.precisions.join(', ')}`, 'precision');
    }
    const kept = Math.min(retentionAt(this.settings, precision), MAX_READ_LIMIT);
    const count = intInRange(limit ?? kept, 'limit', 1, MAX_READ_LIMIT);
    return this.repository.samples(counter, precision, count);
  }

  @Authorized()
  @Query(() => CounterSeries, {
    description: 'One counter over a range, a point per step, aggregated at the precision the reply names.',
  })
  async counterSeries(@Args() args: CounterSeriesArgs): Promise<CounterSeries> {
    const counter = validName(args.name, 'name');
    const [series] = await this.repository.series([counter], this.seriesQuery(args));
    return series;
  }

  @Authorized()
  @Query(() => [CounterSeries], {
    description:
      'Several counters over one range at one precision: by names (in their order) or by name prefix (byte order, a page at a time).',
  })
  async counterSeriesMany(@Args() args: CounterSeriesManyArgs): Promise<CounterSeries[]> {
    const { names, prefix, after, first } = args;
    const count = intInRange(first, 'first', 1, MAX_SERIES);
    if ((names === null || names === undefined) === (prefix === null || prefix === undefined)) {
      throw badInput('give either names or prefix', names === null || names === undefined ? 'names' : 'prefix');
    }
    // The series share the reply's bound on points, so that one call stays a bounded amount of work.
    const series = names === null || names === undefined ? count : names.length;
    const query = this.seriesQuery(args, Math.min(MAX_POINTS, Math.floor(MAX_TOTAL_POINTS / Math.max(series, 1))));
    if (names !== null && names !== undefined) {
      if (names.length < 1 || names.length > MAX_SERIES) {
        throw badInput(`names must hold 1 to ${MAX_SERIES} counter names`, 'names');
      }
      const unique = [...new Set(names.map((name) => validName(name, 'names')))];
      return this.repository.series(unique, query);
    }
    const start = prefix === '' || prefix === null || prefix === undefined ? '' : validName(prefix, 'prefix');
    const cursor = after === null || after === undefined ? undefined : validName(after, 'after');
    const found = await this.repository.namesWithPrefix(start, cursor, count, query.step);
    return this.repository.series(found, query);
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => Boolean, {
    description:
      'Deletes a counter at every configured precision, atomically; false when it had no samples. Service callers only.',
  })
  async deleteCounter(@Args() { name }: DeleteCounterArgs): Promise<boolean> {
    return this.repository.delete(validName(name, 'name'));
  }

  /** Checks a series' range; the points of a range ending at the server's clock are checked by the script. */
  private seriesQuery(
    { from, to, step, aggregation, fill }: CounterSeriesArgs | CounterSeriesManyArgs,
    maxPoints = MAX_POINTS,
  ): SeriesQuery {
    intInRange(step, 'step', 1, MAX_STEP);
    const precisions = this.settings.precisions;
    if (!precisions.some((p) => step % p === 0)) {
      throw badInput(`step must be a multiple of one of the precisions ${precisions.join(', ')}`, 'step');
    }
    time(from, 'from');
    const end = to ?? undefined;
    if (end !== undefined) {
      time(end, 'to');
      if (end < from) throw badInput('to must not be before from', 'to');
      const points = Math.floor(end / step) - Math.floor(from / step) + 1;
      if (points > maxPoints) throw tooManyPoints(points, maxPoints);
    }
    return { from, to: end, step, aggregation, fill, maxPoints };
  }

  @Authorized()
  @Query(() => [KnownCounter], { description: 'Counters that have samples, by name (byte order), a page at a time.' })
  async counters(@Args() { after, first }: CountersArgs): Promise<KnownCounter[]> {
    const cursor = after === null || after === undefined ? undefined : validName(after, 'after');
    return this.repository.list(cursor, intInRange(first, 'first', 1, MAX_PAGE));
  }

  @Authorized()
  @Subscription(() => CounterUpdate, {
    description: 'Tells that a counter was updated; read it with `counter`.',
    topics: TOPICS.counterUpdated.name,
    topicId: ({ args }) => validName((args as CounterUpdatedArgs).name, 'name'),
  })
  counterUpdated(@Root() update: CounterUpdateNotice | CatchUpNotice, @Args() args: CounterUpdatedArgs): CounterUpdate {
    // On a catch-up, `time` is now: a client that does not know `catchUp` reads the counter on it.
    if (isCatchUp(update)) return { name: validName(args.name, 'name'), time: Date.now() / 1000, catchUp: true };
    return { ...update, catchUp: false };
  }
}

/** A time argument of a series: unix seconds, fractions allowed (as updateCounter's `at`). */
function time(value: number, argument: string): void {
  if (!Number.isFinite(value) || value < 0 || value > MAX_TIME) {
    throw badInput(`${argument} must be a time in unix seconds from 0 to ${MAX_TIME}`, argument);
  }
}

// The same words as the script's E_TOO_MANY_POINTS, for a range ending at the server's clock.
const tooManyPoints = (points: number, max: number) =>
  badInput(
    max === MAX_POINTS
      ? `the range holds ${points} steps, more than ${max}: use a longer step or a shorter range`
      : `the range holds ${points} steps, more than ${max} per series (${MAX_TOTAL_POINTS} over the names, or the first, asked for): use a longer step, a shorter range or fewer series`,
    'step',
  );
