// Input checks and output shapes shared by the lock and semaphore resolvers.
import type { LeaseConfig } from '../../config';
import { badInput } from '../../common/errors';
import { LEASE_ID_PATTERN, type LeaseHolder as StoredHolder, type ReleaseNotice } from '../../redis/leases/repository';
import type { LeaseHolder, LeaseNameArgs, LeaseReleased } from '../../schema/lease';
import { isCatchUp, type CatchUpNotice } from '../../schema/topics';
import { intInRange, validName } from '../../common/validation';
import { unixSeconds } from '../../common/time';

export const leaseName = (name: string): string => validName(name, 'name');

/** A lock token or semaphore lease id as issued: 32 lower-case hex digits. */
export function leaseSecret(value: string, argument: string): string {
  if (!LEASE_ID_PATTERN.test(value))
    throw badInput(`${argument} must be the 32 hex digits that acquire returned`, argument);
  return value;
}

export const holdTime = (value: number, argument: string, settings: LeaseConfig): number =>
  intInRange(value, argument, 1, settings.maxTimeoutMs);

export const waitTime = (value: number, argument: string, settings: LeaseConfig): number =>
  intInRange(value, argument, 0, settings.maxWaitMs);

export function toHolder(holder: StoredHolder, now: number): LeaseHolder {
  return { ...holder, expiresAt: unixSeconds(holder.expiresAt), timeLeftMs: Math.max(holder.expiresAt - now, 0) };
}

/**
 * A release notice, or a catch-up shaped as a release now: a missed release may have freed the
 * lease, and a client that does not know `catchUp` tries to acquire on it, as it should.
 */
export function releasedOrCatchUp(notice: ReleaseNotice | CatchUpNotice, args: LeaseNameArgs): LeaseReleased {
  if (isCatchUp(notice)) return { name: leaseName(args.name), releasedAt: Date.now() / 1000, catchUp: true };
  return { name: notice.name, releasedAt: unixSeconds(notice.releasedAt), catchUp: false };
}
