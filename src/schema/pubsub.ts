// The PubSub behind type-graphql subscriptions. Notifications go through Redis pub/sub (the
// library makes the Redis calls on the connections given to it), so a subscriber connected to
// one instance hears about a change made through another. Notifications are hints, not data: a
// subscriber that falls behind loses the oldest ones, and the next pull catches up.
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub, Repeater, SlidingBuffer } from '@graphql-yoga/subscription';
import type Redis from 'ioredis';
import type { PubSub } from 'type-graphql';

const PER_SUBSCRIBER_BUFFER = 64;

export function createRedisPubSub(publishClient: Redis, subscribeClient: Redis): PubSub {
  const eventTarget = createRedisEventTarget({ publishClient, subscribeClient });
  const { publish } = createPubSub({ eventTarget });
  return {
    publish,
    // Each subscriber gets its own buffer. createPubSub's repeaterBuffer option is one buffer
    // object shared by every subscriber, so a notification queued for a busy subscriber was
    // taken by whichever subscriber asked next: users were told about other users' chats.
    subscribe(routingKey: string, id?: string) {
      const topic = id === undefined ? routingKey : channelOf(routingKey, id);
      return new Repeater<unknown>((push, stop) => {
        const listener = (event: Event): void => void push((event as CustomEvent).detail);
        eventTarget.addEventListener(topic, listener);
        void stop.then(() => eventTarget.removeEventListener(topic, listener));
      }, new SlidingBuffer(PER_SUBSCRIBER_BUFFER));
    },
  } as PubSub;
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
