// The PubSub behind type-graphql subscriptions. Notifications go through Redis pub/sub, so a
// subscriber connected to one instance hears about a change made through another. On a cluster
// they go by sharded pub/sub (SSUBSCRIBE/SPUBLISH): each message travels only to the shard that
// owns its channel, instead of over the whole cluster bus. Notifications are hints, not data: a
// subscriber that falls behind loses the oldest ones, and the next pull catches up.
import { createPubSub, Repeater, SlidingBuffer } from '@graphql-yoga/subscription';
import type { PubSub } from 'type-graphql';
import type { Logger } from '../common/logger';
import { notificationCommands, type RedisClient } from '../redis/client/connection';

const PER_SUBSCRIBER_BUFFER = 64;

export interface RedisPubSubOptions {
  /** The command connection: publishes. */
  publisher: RedisClient;
  /** A connection of its own (on a cluster, one made with `shardedSubscriber`). */
  subscriber: RedisClient;
  /** The Redis channel of a topic and id (topics.ts `channels`, bound to this server's settings). */
  channelOf: (topic: string, id: string) => string;
  logger?: Logger;
  /** Told of every notification by topic (metrics). */
  observer?: NotificationObserver;
}

/** The topic is a name from topics.ts: a fixed, short list. */
export interface NotificationObserver {
  /** This process published one (most are published by scripts, and reach here as received). */
  published(topic: string): void;
  /** Redis delivered one here, on a channel that `subscribers` subscriptions of this process listen to. */
  received(topic: string, subscribers: number): void;
}

type Listener = (payload: unknown) => void;

/** type-graphql's PubSub, which can also say when Redis delivers a channel's notices here. */
export interface RedisPubSub extends PubSub {
  /**
   * Resolves once this process receives the notices of a topic and id that a subscriber here
   * listens to, or at once when none does (a subscribe that failed resolves too: subscribers
   * learn of changes on their next pull). Subscriptions are lazy: the first `next()` starts one.
   */
  listening(routingKey: string, id: string): Promise<void>;
}

export function createRedisPubSub(options: RedisPubSubOptions): RedisPubSub {
  const { publisher, subscriber, channelOf, logger, observer } = options;
  const listening = notificationCommands(subscriber);
  const telling = notificationCommands(publisher);
  const listeners = new Map<string, Set<Listener>>();
  /** The topic of each channel listened to, for the observer. */
  const topics = new Map<string, string>();
  const subscribed = new Map<string, Promise<void>>();

  const onMessage = (channel: string, message: string): void => {
    const set = listeners.get(channel);
    if (!set) return;
    let payload: unknown;
    try {
      payload = JSON.parse(message);
    } catch {
      return; // not one of ours
    }
    if (observer) observer.received(topics.get(channel) ?? 'unknown', set.size);
    for (const listener of set) listener(payload);
  };
  subscriber.on(listening.messageEvent, onMessage);

  const failed = (what: string, channel: string) => (error: unknown) =>
    logger?.warn({ err: error, channel }, `could not ${what}; subscribers learn of changes on their next pull`);

  const listen = (topic: string, channel: string, listener: Listener): (() => void) => {
    let set = listeners.get(channel);
    if (!set) {
      set = new Set();
      listeners.set(channel, set);
      topics.set(channel, topic);
      subscribed.set(
        channel,
        listening.subscribe(channel).then(() => undefined, failed('subscribe', channel)),
      );
    }
    set.add(listener);
    return () => {
      const current = listeners.get(channel);
      if (!current?.delete(listener) || current.size > 0) return;
      listeners.delete(channel);
      topics.delete(channel);
      subscribed.delete(channel);
      listening.unsubscribe(channel).catch(() => undefined);
    };
  };

  return {
    publish(routingKey: string, ...args: unknown[]) {
      const [channel, payload] =
        args.length >= 2 ? [channelOf(routingKey, String(args[0])), args[1]] : [routingKey, args[0]];
      const message = JSON.stringify(payload ?? null);
      observer?.published(args.length >= 2 ? routingKey : 'unknown');
      telling.publish(channel, message).catch(failed('publish', channel));
    },
    // Each subscriber gets its own buffer. createPubSub's repeaterBuffer option is one buffer
    // object shared by every subscriber, so a notification queued for a busy subscriber was
    // taken by whichever subscriber asked next: users were told about other users' chats.
    subscribe(routingKey: string, id?: string) {
      const channel = id === undefined ? routingKey : channelOf(routingKey, id);
      return new Repeater<unknown>((push, stop) => {
        const stopListening = listen(
          id === undefined ? 'unknown' : routingKey,
          channel,
          (payload) => void push(payload),
        );
        void stop.then(stopListening);
      }, new SlidingBuffer(PER_SUBSCRIBER_BUFFER));
    },
    listening(routingKey: string, id: string) {
      return subscribed.get(channelOf(routingKey, id)) ?? Promise.resolve();
    },
  };
}

/** For building the schema without Redis (emitting the SDL file). */
export function createLocalPubSub(): PubSub {
  return createPubSub();
}
