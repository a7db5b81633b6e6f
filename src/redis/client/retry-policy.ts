// How a connection behaves while Redis is unreachable: requests should fail fast with
// STORE_UNAVAILABLE rather than queue, and the connection should come back by itself.
import type { RedisOptions } from 'ioredis';

export const UNREACHABLE_POLICY: Pick<RedisOptions, 'maxRetriesPerRequest' | 'retryStrategy'> = {
  // ioredis 5 fails the commands it holds (queued while disconnected, or sent and unanswered)
  // only when a reconnect attempt fails, and only every (maxRetriesPerRequest + 1)th attempt: at
  // 1 a request during an outage waited for two attempts. At 0 every failed attempt fails them,
  // including a command in flight when the connection dropped, which at 1 ioredis dropped
  // without settling once a reconnect succeeded (autoResendUnfulfilledCommands is off).
  // tests/faults/redis-restart.single.test.ts holds it to this.
  maxRetriesPerRequest: 0,
  // So the delay between attempts bounds how long a request waits while Redis refuses
  // connections (an unreachable host adds ioredis's 10 s connectTimeout), and how long the API
  // stays unavailable once Redis is back. A few connects a second per connection cost Redis nothing.
  retryStrategy: (attempt) => Math.min(attempt * 100, 500),
};
