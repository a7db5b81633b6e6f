// Which errors from Redis and its client mean "the store cannot serve this now: retry"
// (STORE_UNAVAILABLE), as opposed to a bug (INTERNAL_SERVER_ERROR, logged as an error). A command
// cut off by a lost connection may have run: clients retry with their idempotency keys.

const UNAVAILABLE_MESSAGES = [
  /^Connection is closed/,
  /^Command timed out/,
  /^Stream isn't writeable/,
  /^Reached the max retries per request limit/,
  // ioredis (AbortError): the commands of a pipeline or MULTI after the first whose replies had
  // not arrived when the connection dropped, e.g. the WAIT after a write script in a failover.
  /^Command aborted due to connection close/,
  /^(LOADING|BUSY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|READONLY|NOREPLICAS) /,
  // Redis, to a command blocked (a WAIT) on a primary that turns into a replica.
  /^UNBLOCKED /,
  // A pipeline command whose slot moved, left to the caller once ioredis stopped following.
  /^(MOVED|ASK) /,
  /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND)\b/,
  // The cluster client, while a shard fails over or no node can be reached, and once closed.
  /^Failed to refresh slots cache/,
  /^Too many Cluster redirections/,
  /^None of startup nodes is available/,
  /^Cluster isn't ready/,
  /^Cluster is ended/,
  /^No (sharded )?subscriber for /,
];

const UNAVAILABLE_NAMES = new Set(['MaxRetriesPerRequestError', 'ClusterAllFailedError']);

/** Redis discarded a MULTI because commands were refused while queued (ioredis lists them). */
const EXEC_ABORTED = /^EXECABORT /;

/**
 * True for errors that mean "Redis could not be reached or cannot serve now", not a bug: also
 * a MULTI that Redis discarded for such a reason, and an error that wraps one as its `cause`.
 */
export function isStoreUnavailable(error: unknown): boolean {
  return unavailable(error, 0);
}

function unavailable(error: unknown, depth: number): boolean {
  if (!(error instanceof Error) || depth > 8) return false;
  if (UNAVAILABLE_NAMES.has(error.name) || UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(error.message)))
    return true;
  if (EXEC_ABORTED.test(error.message)) {
    const previous = (error as Error & { previousErrors?: unknown }).previousErrors;
    return Array.isArray(previous) && previous.some((refusal) => unavailable(refusal, depth + 1));
  }
  return unavailable(error.cause, depth + 1);
}
