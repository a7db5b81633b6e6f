// The PubSub behind type-graphql subscriptions. Notifications go through Redis pub/sub, so a
// subscriber connected to one instance hears about a change made through another. On a cluster
// they go by sharded pub/sub (SSUBSCRIBE/SPUBLISH): each message travels only to the shard that
// owns its channel, instead of over the whole cluster bus. Notifications are hints, not data: a
// subscriber that falls behind loses the oldest ones, and the next pull catches up. A notice
// published while the subscriber connection is down reaches nobody: once it is back and
// subscribed again, every subscription it serves is told to catch up (topics.ts CATCH_UP).
import { createPubSub, Repeater, SlidingBuffer } from '@graphql-yoga/subscription';
import type { PubSub } from 'type-graphql';
import type { Logger } from '../common/logger';
import { notificationCommands, onSubscriberBack, type RedisClient } from '../redis/client/connection';
import { CATCH_UP } from './topics';

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
  /** The subscriber connection came back: `subscribers` subscriptions of the topic were told to catch up. */
  caughtUp(topic: string, subscribers: number): void;
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

  /**
   * Channels whose subscription Redis may not hold now: every channel while the connection is
   * down, and one whose SUBSCRIBE failed (sent as the connection dropped, before Redis confirmed
   * it: ioredis resubscribes only what Redis confirmed). Notices on them may have been missed.
   */
  const unsure = new Set<string>();
  const subscribe = (channel: string): Promise<boolean> =>
    listening.subscribe(channel).then(
      () => true,
      (error: unknown) => {
        unsure.add(channel);
        failed('subscribe', channel)(error);
        return false;
      },
    );

  /**
   * Subscribes again to every channel that may have missed notices and, once Redis confirms a
   * channel, tells its subscriptions to pull: a notice published after the confirmation reaches
   * them, and one published before is covered by that pull. A channel that fails stays unsure
   * until the next reconnect. (Subscribing twice to a channel is harmless in Redis.)
   */
  const resumeOnce = async (): Promise<void> => {
    const channels = [...unsure].filter((channel) => listeners.has(channel));
    unsure.clear();
    if (channels.length === 0) return;
    const confirmed = await Promise.all(channels.map((channel) => subscribe(channel)));
    let told = 0;
    channels.forEach((channel, at) => {
      const set = listeners.get(channel);
      if (!confirmed[at] || !set) return;
      observer?.caughtUp(topics.get(channel) ?? 'unknown', set.size);
      told += set.size;
      for (const listener of set) listener(CATCH_UP);
    });
    logger?.info(
      { channels: channels.length, subscriptions: told },
      'subscriber connection back: subscriptions told to catch up',
    );
  };
  let resuming: Promise<void> | undefined;
  let again = false;
  /** One pass at a time; a reconnect during a pass runs another after it. */
  const resume = (): void => {
    if (resuming) {
      again = true;
      return;
    }
    resuming = (async () => {
      do {
        again = false;
        await resumeOnce();
      } while (again);
    })().finally(() => {
      resuming = undefined;
    });
  };
  const connectionLost = (): void => {
    for (const channel of listeners.keys()) unsure.add(channel);
  };
  onSubscriberBack(subscriber, connectionLost, resume);

  const listen = (topic: string, channel: string, listener: Listener): (() => void) => {
    let set = listeners.get(channel);
    if (!set) {
      set = new Set();
      listeners.set(channel, set);
      topics.set(channel, topic);
      subscribed.set(
        channel,
        subscribe(channel).then(() => undefined),
      );
    }
    set.add(listener);
    return () => {
      const current = listeners.get(channel);
      if (!current?.delete(listener) || current.size > 0) return;
      listeners.delete(channel);
      topics.delete(channel);
      subscribed.delete(channel);
      unsure.delete(channel);
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
