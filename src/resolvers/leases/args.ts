// Input checks and output shapes shared by the lock and semaphore resolvers.
import type { LeaseConfig } from '../../config';
import { badInput } from '../../common/errors';
import { LEASE_ID_PATTERN, type LeaseHolder as StoredHolder } from '../../redis/leases/repository';
import type { LeaseHolder } from '../../schema/lease';
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
