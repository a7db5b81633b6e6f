// How a connection behaves while Redis is unreachable: requests should fail fast with
// STORE_UNAVAILABLE rather than queue, and the connection should come back by itself.
import type { RedisOptions } from 'ioredis';

export const UNREACHABLE_POLICY: Pick<RedisOptions, 'maxRetriesPerRequest' | 'retryStrategy'> = {
  // ioredis 5 fails the commands it holds (queued while disconnected, or sent and unanswered)
  // only when a reconnect attempt fails, and only every (maxRetriesPerRequest + 1)th attempt. At
  // 1, with delays growing to 2 s, a request during an outage waited two attempts: 2.6 s six
  // seconds in, up to 4 s later (tests/faults-redis-restart.test.ts). At 0 every failed attempt
  // fails them, including a command in flight when the connection dropped: at 1, when the first
  // reconnect succeeded, ioredis dropped such a command without settling it
  // (autoResendUnfulfilledCommands is off), leaving it to commandTimeout where there is one.
  maxRetriesPerRequest: 0,
  // So the delay between attempts bounds how long a request waits while Redis refuses
  // connections (an unreachable host adds ioredis's 10 s connectTimeout), and how long the API
  // stays unavailable once Redis is back. A few connects a second per connection cost Redis nothing.
  retryStrategy: (attempt) => Math.min(attempt * 100, 500),
};
