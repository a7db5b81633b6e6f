// The one implementation behind the lock and semaphore resolvers. A lock is a semaphore of limit
// one, so both take, refresh, release, read and announce leases the same way; each resolver only
// checks its own arguments (named as its schema names them) and shapes its own outputs.
import type { LeaseConfig } from '../../config';
import type { Lease, ReleaseNotice } from '../../redis/leases/repository';
import type { AcquireRequest, LeaseAcquirer } from '../../redis/leases/acquirer';
import { callerId, type GraphQLContext } from '../../schema/context';
import type { CatchUpNotice } from '../../schema/topics';
import type { LeaseHolder, LeaseNameArgs, LeaseReleased } from '../../schema/lease';
import { holdTime, leaseName, leaseSecret, releasedOrCatchUp, toHolder } from './args';

/** How one kind of lease is spelled in the schema. */
export interface LeaseSpelling<Out> {
  /** The argument that carries the holder's secret: a lock's `token`, a semaphore slot's `id`. */
  secret: string;
  /** The argument that carries a refresh's new hold time. */
  hold: string;
  /** The lease as the schema returns it. */
  output(lease: Lease): Out;
}

/** A lock's or semaphore's state as both report it: holders with time left, soonest to lapse first. */
export interface LeasesState {
  name: string;
  limit: number | null;
  holders: LeaseHolder[];
  waiting: number;
  lastFencingToken: number | null;
}

export class Leases<Out> {
  constructor(
    private readonly acquirer: LeaseAcquirer,
    private readonly settings: LeaseConfig,
    private readonly spelling: LeaseSpelling<Out>,
  ) {}

  /** Takes a lease for the caller, waiting in turn; null when none came free in time. */
  async acquire(request: Omit<AcquireRequest, 'owner'>, context: GraphQLContext): Promise<Out | null> {
    const lease = await this.acquirer.acquire({ ...request, owner: callerId(context) }, context.signal);
    return lease ? this.spelling.output(lease) : null;
  }

  /** Extends a held lease from now (by `holdMs`, or the hold it was taken with); null when it was lost. */
  async refresh(name: string, secret: string, holdMs?: number | null): Promise<Out | null> {
    const checkedName = leaseName(name);
    const checkedSecret = leaseSecret(secret, this.spelling.secret);
    const ttlMs =
      holdMs === null || holdMs === undefined ? undefined : holdTime(holdMs, this.spelling.hold, this.settings);
    const lease = await this.acquirer.repository.refresh(checkedName, checkedSecret, ttlMs);
    return lease ? this.spelling.output(lease) : null;
  }

  /** Frees a held lease; false (and nothing changed) for a wrong secret or a lease already lapsed. */
  release(name: string, secret: string): Promise<boolean> {
    return this.acquirer.repository.release(leaseName(name), leaseSecret(secret, this.spelling.secret));
  }

  /** Up to `most` holders, the waiters and the last grant's fencing token. */
  async state(name: string, most: number): Promise<LeasesState> {
    const state = await this.acquirer.repository.state(leaseName(name), most);
    return {
      name: state.name,
      limit: state.limit ?? null,
      holders: state.holders.map((holder) => toHolder(holder, state.now)),
      waiting: state.waiting,
      lastFencingToken: state.lastFencingToken ?? null,
    };
  }

  /** What a subscriber to the lease's releases is sent. */
  released(notice: ReleaseNotice | CatchUpNotice, args: LeaseNameArgs): LeaseReleased {
    return releasedOrCatchUp(notice, args);
  }
}
