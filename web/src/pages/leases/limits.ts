// Input bounds of the lease operations, at the server's defaults (LEASE_MAX_TIMEOUT_MS,
// LEASE_MAX_WAIT_MS, SEMAPHORE_MAX_LIMIT); a server configured lower refuses with BAD_USER_INPUT.
export const NAME_MAX = 128;
export const HOLD_MAX_MS = 3_600_000;
export const WAIT_MAX_MS = 60_000;
export const LIMIT_MAX = 1000;
/** A minute: long enough to look at, short enough that a forgotten lease frees itself. */
export const HOLD_DEFAULT_MS = 60_000;
/** Expiries are not announced: the holders are read again this often. */
export const PULL_EVERY_MS = 3000;
