// Distributed locks for service callers: validate, then one repository call (or a wait for one).
// Only whoever knows a lock's token releases or refreshes it; a wrong token changes nothing.
import { Args, Authorized, Ctx, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { SERVICE_ROLE } from '../../security/auth';
import type { LeaseConfig } from '../../config';
import type { Lease, ReleaseNotice } from '../../redis/leases/repository';
import type { LeaseAcquirer } from '../../redis/leases/acquirer';
import type { GraphQLContext } from '../../schema/context';
import { TOPICS, type CatchUpNotice } from '../../schema/topics';
import {
  AcquireLockArgs,
  LeaseNameArgs,
  LeaseReleased,
  Lock,
  LockState,
  LockTokenArgs,
  RefreshLockArgs,
} from '../../schema/lease';
import { holdTime, leaseName, waitTime } from './args';
import { Leases } from './leases';
import { unixSeconds } from '../../common/time';

@Resolver()
export class LockResolver {
  private readonly locks: Leases<Lock>;

  constructor(
    acquirer: LeaseAcquirer,
    private readonly settings: LeaseConfig,
  ) {
    this.locks = new Leases(acquirer, settings, { secret: 'token', hold: 'lockTimeoutMs', output: toLock });
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => Lock, {
    nullable: true,
    description:
      'Takes the lock, waiting up to acquireTimeoutMs in turn; null when it stayed taken. Service callers only.',
  })
  async acquireLock(@Args() args: AcquireLockArgs, @Ctx() context: GraphQLContext): Promise<Lock | null> {
    const name = leaseName(args.name);
    const waitMs = waitTime(args.acquireTimeoutMs, 'acquireTimeoutMs', this.settings);
    const ttlMs = holdTime(args.lockTimeoutMs, 'lockTimeoutMs', this.settings);
    return this.locks.acquire({ name, limit: 1, ttlMs, waitMs }, context);
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => Boolean, {
    description: 'Frees the lock; false (and nothing changed) for a wrong token or a lock that had already lapsed.',
  })
  async releaseLock(@Args() args: LockTokenArgs): Promise<boolean> {
    return this.locks.release(args.name, args.token);
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => Lock, {
    nullable: true,
    description: 'Extends the lock from now; null when it was lost (lapsed or wrong token): stop using it.',
  })
  async refreshLock(@Args() args: RefreshLockArgs): Promise<Lock | null> {
    return this.locks.refresh(args.name, args.token, args.lockTimeoutMs);
  }

  @Authorized(SERVICE_ROLE)
  @Query(() => LockState, { description: 'Who holds the lock and how many wait for it. Service callers only.' })
  async lock(@Args() args: LeaseNameArgs): Promise<LockState> {
    const state = await this.locks.state(args.name, 1);
    return {
      name: state.name,
      holder: state.holders[0] ?? null,
      waiting: state.waiting,
      lastFencingToken: state.lastFencingToken,
    };
  }

  @Authorized(SERVICE_ROLE)
  @Subscription(() => LeaseReleased, {
    description:
      'Tells that the lock was freed (or a waiter ahead gave up its turn); try acquireLock then. Service callers only.',
    topics: TOPICS.lockReleased.name,
    topicId: ({ args }) => leaseName((args as LeaseNameArgs).name),
  })
  lockReleased(@Root() notice: ReleaseNotice | CatchUpNotice, @Args() args: LeaseNameArgs): LeaseReleased {
    return this.locks.released(notice, args);
  }
}

const toLock = (lease: Lease): Lock => ({
  name: lease.name,
  token: lease.id,
  fencingToken: lease.fencingToken,
  expiresAt: unixSeconds(lease.expiresAt),
});
