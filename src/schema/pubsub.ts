// The PubSub behind type-graphql subscriptions. Notifications go through Redis pub/sub (the
// library makes the Redis calls on the connections given to it), so a subscriber connected to
// one instance hears about a change made through another. Notifications are hints, not data: a
// subscriber that falls behind loses the oldest ones, and the next pull catches up.
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub, SlidingBuffer } from '@graphql-yoga/subscription';
import type Redis from 'ioredis';
import type { PubSub } from 'type-graphql';

const PER_SUBSCRIBER_BUFFER = 64;

export function createRedisPubSub(publishClient: Redis, subscribeClient: Redis): PubSub {
  const eventTarget = createRedisEventTarget({ publishClient, subscribeClient });
  return createPubSub({ eventTarget, repeaterBuffer: new SlidingBuffer(PER_SUBSCRIBER_BUFFER) }) as PubSub;
}

/** For building the schema without Redis (emitting the SDL file). */
export function createLocalPubSub(): PubSub {
  return createPubSub() as PubSub;
}

/**
 * The Redis channel on which createPubSub carries `publish(topic, id, payload)` (its routing key
 * and the id joined by a colon; payloads are JSON). Scripts that announce changes themselves, in
 * the same round trip as the change, publish on it.
 */
export const channelOf = (topic: string, id: string): string => `${topic}:${id}`;
