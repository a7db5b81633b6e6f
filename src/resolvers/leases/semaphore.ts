// Counting semaphores for service callers: at most `limit` holders, served in the order they
// asked, with time from Redis. Only whoever knows a lease id releases or refreshes it.
import { Args, Authorized, Ctx, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { SERVICE_ROLE } from '../../security/auth';
import type { LeaseConfig } from '../../config';
import type { Lease, ReleaseNotice } from '../../redis/leases/repository';
import type { LeaseAcquirer } from '../../redis/leases/acquirer';
import type { GraphQLContext } from '../../schema/context';
import { TOPICS, type CatchUpNotice } from '../../schema/topics';
import {
  AcquireSemaphoreArgs,
  LeaseNameArgs,
  LeaseReleased,
  SemaphoreLease,
  SemaphoreLeaseArgs,
  SemaphoreState,
} from '../../schema/lease';
import { intInRange } from '../../common/validation';
import { holdTime, leaseName, waitTime } from './args';
import { Leases } from './leases';
import { unixSeconds } from '../../common/time';

@Resolver()
export class SemaphoreResolver {
  private readonly semaphores: Leases<SemaphoreLease>;

  constructor(
    acquirer: LeaseAcquirer,
    private readonly settings: LeaseConfig,
  ) {
    this.semaphores = new Leases(acquirer, settings, { secret: 'id', hold: 'timeoutMs', output: toSemaphoreLease });
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => SemaphoreLease, {
    nullable: true,
    description:
      'Takes a slot if fewer than `limit` are held and nobody asked earlier; null otherwise (after up to waitMs in turn). Service callers only.',
  })
  async acquireSemaphore(
    @Args() args: AcquireSemaphoreArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<SemaphoreLease | null> {
    const name = leaseName(args.name);
    const limit = intInRange(args.limit, 'limit', 1, this.settings.maxLimit);
    const ttlMs = holdTime(args.timeoutMs, 'timeoutMs', this.settings);
    const waitMs = waitTime(args.waitMs, 'waitMs', this.settings);
    return this.semaphores.acquire({ name, limit, ttlMs, waitMs }, context);
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => SemaphoreLease, {
    nullable: true,
    description:
      'Extends the slot from now by its timeoutMs; null when it already lapsed (the holder lost it and must stop).',
  })
  async refreshSemaphore(@Args() args: SemaphoreLeaseArgs): Promise<SemaphoreLease | null> {
    return this.semaphores.refresh(args.name, args.id);
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => Boolean, {
    description: 'Frees the slot; false (and nothing changed) for an unknown id or a slot that had already lapsed.',
  })
  async releaseSemaphore(@Args() args: SemaphoreLeaseArgs): Promise<boolean> {
    return this.semaphores.release(args.name, args.id);
  }

  @Authorized(SERVICE_ROLE)
  @Query(() => SemaphoreState, {
    description: 'Holders with time left, waiters and the limit last used. Service callers only.',
  })
  async semaphore(@Args() args: LeaseNameArgs): Promise<SemaphoreState> {
    return this.semaphores.state(args.name, this.settings.maxLimit);
  }

  @Authorized(SERVICE_ROLE)
  @Subscription(() => LeaseReleased, {
    description:
      'Tells that a slot was freed (or a waiter ahead gave up its turn); try acquireSemaphore then. Service callers only.',
    topics: TOPICS.semaphoreReleased.name,
    topicId: ({ args }) => leaseName((args as LeaseNameArgs).name),
  })
  semaphoreReleased(@Root() notice: ReleaseNotice | CatchUpNotice, @Args() args: LeaseNameArgs): LeaseReleased {
    return this.semaphores.released(notice, args);
  }
}

const toSemaphoreLease = (lease: Lease): SemaphoreLease => ({
  name: lease.name,
  id: lease.id,
  fencingToken: lease.fencingToken,
  expiresAt: unixSeconds(lease.expiresAt),
});
