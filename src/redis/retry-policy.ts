// How a connection behaves while Redis is unreachable: requests should fail fast with
// STORE_UNAVAILABLE rather than queue, and the connection should come back by itself.
import type { RedisOptions } from 'ioredis';

export const UNREACHABLE_POLICY: Pick<RedisOptions, 'maxRetriesPerRequest' | 'retryStrategy'> = {
  // While Redis is away, a command is retried once after reconnecting and then fails with
  // STORE_UNAVAILABLE, rather than queueing without bound.
  maxRetriesPerRequest: 1,
  retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
};
