// The PubSub behind type-graphql subscriptions. Notifications go through Redis pub/sub, so a
// subscriber connected to one instance hears about a change made through another. On a cluster
// they go by sharded pub/sub (SSUBSCRIBE/SPUBLISH): each message travels only to the shard that
// owns its channel, instead of over the whole cluster bus. Notifications are hints, not data: a
// subscriber that falls behind loses the oldest ones, and the next pull catches up. A notice
// published while the subscriber connection is down reaches nobody: once it is back and
// subscribed again, every subscription it serves is told to catch up (topics.ts CATCH_UP).
import { createPubSub } from '@graphql-yoga/subscription';
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

/** What a channel's notices are handed to: one subscriber's queue. */
interface Listener {
  push(payload: unknown): void;
}

/**
 * A topic id with a filter, for type-graphql's `topicId`: notices `accept` refuses are dropped
 * before they reach the subscriber's queue. type-graphql's own `filter` option wraps every
 * subscription in a second Repeater with an async loop, which an idle subscriber keeps for as
 * long as it is subscribed (docs/performance.md, the subscribers part).
 */
export interface FilteredId {
  readonly id: string;
  readonly accept: (payload: unknown) => boolean;
}

const isFilteredId = (id: unknown): id is FilteredId => typeof id === 'object' && id !== null && 'accept' in id;

/** What a subscriber's queue asks of the PubSub. */
interface Channels {
  listen(topic: string, channel: string, listener: Listener): void;
  unlisten(channel: string, listener: Listener): void;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * One subscriber's notices: the newest PER_SUBSCRIBER_BUFFER are kept while the subscriber is
 * busy, older ones dropped (the next pull catches up). It starts listening on its first next(),
 * as a Repeater does. Written out instead of a Repeater with a SlidingBuffer, which keeps a
 * dozen bound functions, promises and closures per subscriber: 20,000 idle subscribers hold one
 * of these each (docs/performance.md, the subscribers part).
 */
class Notices implements AsyncIterableIterator<unknown>, Listener {
  private queue: unknown[] = [];
  private readers: ((result: IteratorResult<unknown>) => void)[] = [];
  private state: 'new' | 'listening' | 'done' = 'new';

  constructor(
    private readonly channels: Channels,
    private readonly topic: string,
    private readonly channel: string,
    private readonly accept: ((payload: unknown) => boolean) | undefined,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<unknown>> {
    if (this.state === 'done') return Promise.resolve(DONE);
    if (this.state === 'new') {
      this.state = 'listening';
      this.channels.listen(this.topic, this.channel, this);
    }
    if (this.queue.length > 0) return Promise.resolve({ done: false, value: this.queue.shift() });
    // Arrays of their exact length: one grown by push keeps room for 17 (~150 B) once emptied.
    return new Promise(
      (resolve) => (this.readers = this.readers.length === 0 ? [resolve] : [...this.readers, resolve]),
    );
  }

  push(payload: unknown): void {
    if (this.state !== 'listening' || !this.accepts(payload)) return;
    const [reader, ...others] = this.readers;
    if (reader) {
      this.readers = others;
      return reader({ done: false, value: payload });
    }
    if (this.queue.push(payload) > PER_SUBSCRIBER_BUFFER) this.queue.shift();
  }

  /**
   * A filter that throws drops the notice: it runs in the Redis connection's message handler,
   * where a throw would skip the channel's other subscribers and end the process.
   */
  private accepts(payload: unknown): boolean {
    try {
      return !this.accept || this.accept(payload);
    } catch {
      return false;
    }
  }

  return(): Promise<IteratorResult<unknown>> {
    if (this.state === 'listening') this.channels.unlisten(this.channel, this);
    this.state = 'done';
    this.queue = [];
    const readers = this.readers;
    this.readers = [];
    for (const reader of readers) reader(DONE);
    return Promise.resolve(DONE);
  }
}

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
    for (const listener of set) listener.push(payload);
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
      for (const listener of set) listener.push(CATCH_UP);
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

  const channelsListened: Channels = {
    listen(topic, channel, listener) {
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
    },
    unlisten(channel, listener) {
      const current = listeners.get(channel);
      if (!current?.delete(listener) || current.size > 0) return;
      listeners.delete(channel);
      topics.delete(channel);
      subscribed.delete(channel);
      unsure.delete(channel);
      listening.unsubscribe(channel).catch(() => undefined);
    },
  };

  return {
    publish(routingKey: string, ...args: unknown[]) {
      const [channel, payload] =
        args.length >= 2 ? [channelOf(routingKey, String(args[0])), args[1]] : [routingKey, args[0]];
      const message = JSON.stringify(payload ?? null);
      observer?.published(args.length >= 2 ? routingKey : 'unknown');
      telling.publish(channel, message).catch(failed('publish', channel));
    },
    // Each subscriber gets its own queue: createPubSub's repeaterBuffer option is one buffer
    // object shared by every subscriber, so a notification queued for a busy subscriber was
    // taken by whichever subscriber asked next: users were told about other users' chats.
    subscribe(routingKey: string, id?: unknown) {
      const filter = isFilteredId(id) ? id : undefined;
      const key = filter ? filter.id : id === undefined ? undefined : String(id);
      const channel = key === undefined ? routingKey : channelOf(routingKey, key);
      return new Notices(channelsListened, key === undefined ? 'unknown' : routingKey, channel, filter?.accept);
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
