// Settings of locks and semaphores: the largest limit, hold time, wait and queue a caller may ask for.
import { int, type SettingDomain, type SettingsReader } from '../../common/settings';

const SETTINGS = {
  SEMAPHORE_MAX_LIMIT: int({ default: 1000, min: 1, max: 5000, description: 'Largest `limit` of a semaphore.' }),
  // At least the 10 s defaults of lockTimeoutMs/timeoutMs/acquireTimeoutMs, so they stay valid.
  LEASE_MAX_TIMEOUT_MS: int({
    default: 3_600_000,
    min: 10_000,
    max: 86_400_000,
    description: 'Longest `lockTimeoutMs` / `timeoutMs`: how long a lock or slot is held before a refresh is due.',
  }),
  LEASE_MAX_WAIT_MS: int({
    default: 60_000,
    min: 10_000,
    max: 600_000,
    description: 'Longest `acquireTimeoutMs` / `waitMs`: how long one acquire may wait for a slot.',
  }),
  LEASE_MAX_WAITERS: int({
    default: 1000,
    min: 1,
    max: 100_000,
    description: 'Most callers queued for one lock or semaphore at once; more get `CONFLICT`.',
  }),
} as const;

export const LEASE_SETTINGS: SettingDomain = {
  title: 'Locks and semaphores',
  summary: 'The most a caller of a lock or semaphore may ask for.',
  settings: SETTINGS,
};

export interface LeaseConfig {
  /** Largest `limit` of a semaphore. */
  maxLimit: number;
  /** Longest time a lock or semaphore slot is held before it must be refreshed, in ms. */
  maxTimeoutMs: number;
  /** Longest time one acquire may wait for a slot, in ms. */
  maxWaitMs: number;
  /** Most callers queued for one lock or semaphore at once. */
  maxWaiters: number;
}

export function readLeases(reader: SettingsReader): LeaseConfig {
  const values = reader.read(SETTINGS);
  return {
    maxLimit: values.SEMAPHORE_MAX_LIMIT,
    maxTimeoutMs: values.LEASE_MAX_TIMEOUT_MS,
    maxWaitMs: values.LEASE_MAX_WAIT_MS,
    maxWaiters: values.LEASE_MAX_WAITERS,
  };
}
