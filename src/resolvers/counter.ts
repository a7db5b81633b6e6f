// Time-series counters: validate and authorise, then one repository call.
import { Args, Authorized, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { SERVICE_ROLE } from '../security/auth';
import type { CounterConfig } from '../config';
import { badInput } from '../common/errors';
import type { CounterRepository } from '../redis/counter';
import {
  CounterArgs,
  CounterSample,
  CountersArgs,
  CounterUpdate,
  CounterUpdatedArgs,
  KnownCounter,
  UpdateCounterArgs,
} from '../schema/counter';
import { TOPICS } from '../schema/topics';
import { intInRange, validName } from '../common/validation';

const MAX_READ_LIMIT = 10_000;
const MAX_PAGE = 1000;

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
    const count = intInRange(limit ?? this.settings.samples, 'limit', 1, MAX_READ_LIMIT);
    return this.repository.samples(counter, precision, count);
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
  counterUpdated(@Root() update: CounterUpdate, @Args() _args: CounterUpdatedArgs): CounterUpdate {
    return update;
  }
}
