// Every subscription topic, named once: the name type-graphql routes by, the Redis channel of
// one id, and the JSON its publisher sends. Scripts publish nine of them; the API process builds
// the inbox's notice, and publishes it or, on one Redis, hands it to chat-send.lua to publish.
// tests/repository/topic-contract.test.ts checks what each publisher sends against `payload`.
// Besides its notices, every topic may deliver CATCH_UP (from pubsub.ts, never from Redis).
import type { ReleaseNotice } from '../redis/leases/repository';
import type { MarketNotice } from '../redis/market/repository';
import type { RowCacheChange } from '../redis/row-cache';
import {
  chatChannel,
  counterKeys,
  inboxChannel,
  leaseKeys,
  locationKeys,
  marketKeys,
  parseTaskId,
  queueKeys,
  rowCacheKeys,
} from '../redis/keys';

/**
 * What a subscription receives instead of a notice when notices may have been missed: the
 * server's subscriber connection to Redis dropped (a restart, a failover, a network blip) and is
 * subscribed again. It is delivered once Redis has confirmed the subscription again, so a pull
 * made on it sees every change made before, and later changes are notified as usual. Each
 * subscription's GraphQL type carries it as `catchUp: true`, with its other fields filled so that
 * a client that does not know the field still pulls (the resolver of each topic says how).
 */
export interface CatchUpNotice {
  catchUp: true;
}

/** The `catchUp` field of every subscription's type. */
export const CATCH_UP_FIELD =
  "True when notices may have been missed (the server's Redis subscriber connection dropped and is back): pull everything this subscription covers; the other fields then say only what the field descriptions of a catch-up say. False on every other notice.";

export const CATCH_UP: CatchUpNotice = Object.freeze({ catchUp: true });

export const isCatchUp = (notice: unknown): notice is CatchUpNotice =>
  typeof notice === 'object' && notice !== null && (notice as Partial<CatchUpNotice>).catchUp === true;

/** The JSON type of one payload field. */
export type FieldKind = 'string' | 'number' | 'boolean' | 'string|null' | 'number|null';

type KindOf<V> = [V] extends [string]
  ? 'string'
  : [V] extends [number]
    ? 'number'
    : [V] extends [boolean]
      ? 'boolean'
      : [V] extends [string | null]
        ? 'string|null'
        : [V] extends [number | null]
          ? 'number|null'
          : never;

/** A payload's fields and their JSON types; a `satisfies Shape<T>` fails to compile when T drifts. */
export type Shape<T> = { [K in keyof T]-?: KindOf<T[K]> };

/** What a channel may depend on besides the id. */
export interface ChannelSettings {
  /** The table this server's row cache reads. */
  rowCacheTable: string;
}

export interface TopicSpec {
  /** The topic name given to type-graphql (`topics:`) and to PubSub.publish. */
  name: string;
  channel(id: string, settings: ChannelSettings): string;
  payload: Record<string, FieldKind>;
}

/** What the task scripts announce on each change of a task's state. */
export interface TaskChangeNotice {
  /** `queue:number` */
  id: string;
  state: string;
  /** What the handler reported (JSON text) on a progress report (task-progress.lua); null on a change of state. */
  progress: string | null;
}

export interface CounterUpdateNotice {
  name: string;
  /** Unix seconds the update counted at. */
  time: number;
}

/** Something new is waiting for a user: in one of their chats, in their mailbox, or a sale of theirs. */
export interface InboxNotice {
  chatId: string | null;
  latestMessageId: number | null;
  mailbox: boolean;
  waiting: number | null;
  saleId: number | null;
}

/** Something changed in a chat: a new entry, a read, typing, a member joining or leaving. */
export interface ChatChangeNotice {
  chatId: string;
  /** ENTRY, READ, TYPING, JOINED or LEFT (schema/chat.ts CHAT_CHANGES). */
  change: string;
  user: string | null;
  messageId: number | null;
}

/** An upload took a step: more lines stored, more counted, or its end. */
export interface LocationUploadNotice {
  dataset: string;
  upload: string;
  /** Lines stored so far. */
  lines: number;
  /** Lines counted so far. */
  doneLines: number;
  complete: boolean;
}

/** A dataset's counts for a day changed. */
export interface LocationTotalsNotice {
  dataset: string;
  /** `YYYY-MM-DD` */
  day: string;
}

/** The id of an upload's topic: `dataset:upload` (names never hold a colon). */
export const uploadTopicId = (dataset: string, upload: string): string => `${dataset}:${upload}`;

function uploadChannel(id: string): string {
  const colon = id.indexOf(':');
  if (colon <= 0) throw new Error(`not an upload topic id: ${id}`);
  return locationKeys(id.slice(0, colon)).uploadChanged(id.slice(colon + 1));
}

function taskChannel(id: string): string {
  const task = parseTaskId(id);
  // The subscription checked the id before subscribing; this is a programming error.
  if (!task) throw new Error(`not a task id: ${id}`);
  return queueKeys(task.queue).changed(task.number);
}

export const TOPICS = {
  /** Published by counter-update.lua. */
  counterUpdated: {
    name: 'COUNTER_UPDATED',
    channel: (name: string) => counterKeys.updated(name),
    payload: { name: 'string', time: 'number' } satisfies Shape<CounterUpdateNotice>,
  },
  /** Published by lease-release.lua (a release, an expiry found, a waiter giving up its turn). */
  lockReleased: {
    name: 'LOCK_RELEASED',
    channel: (name: string) => leaseKeys('lock', name).released,
    payload: { name: 'string', releasedAt: 'number', upTo: 'number' } satisfies Shape<ReleaseNotice>,
  },
  semaphoreReleased: {
    name: 'SEMAPHORE_RELEASED',
    channel: (name: string) => leaseKeys('semaphore', name).released,
    payload: { name: 'string', releasedAt: 'number', upTo: 'number' } satisfies Shape<ReleaseNotice>,
  },
  /**
   * Published by task-next, task-promote, task-reschedule, task-cancel, task-retry and
   * task-progress.lua; the id is `queue:number`.
   */
  taskChanged: {
    name: 'TASK_CHANGED',
    channel: taskChannel,
    payload: { id: 'string', state: 'string', progress: 'string|null' } satisfies Shape<TaskChangeNotice>,
  },
  /** Published by row-cache-schedule.lua and row-cache-store.lua; the id is the row id. */
  rowCacheUpdated: {
    name: 'ROW_CACHE_UPDATED',
    channel: (rowId: string, settings: ChannelSettings) => rowCacheKeys(settings.rowCacheTable).updated(rowId),
    payload: { rowId: 'string', at: 'number', cached: 'boolean' } satisfies Shape<RowCacheChange>,
  },
  /**
   * Built by resolvers/inbox.ts after a chat message or a mailbox send, and published by it, or
   * by chat-send.lua on one Redis; the id is the user.
   */
  inboxChanged: {
    name: 'INBOX_CHANGED',
    channel: (user: string) => inboxChannel(user),
    payload: {
      chatId: 'string|null',
      latestMessageId: 'number|null',
      mailbox: 'boolean',
      waiting: 'number|null',
      saleId: 'number|null',
    } satisfies Shape<InboxNotice>,
  },
  /**
   * Published by market-list, market-purchase, market-delist and market-reprice.lua, and by the
   * WATCH strategy inside its MULTI (market/watch.ts); one channel for the whole market, so the
   * id is ignored (the subscription uses MARKET_TOPIC_ID).
   */
  marketChanged: {
    name: 'MARKET_CHANGED',
    channel: () => marketKeys.changed(),
    payload: { kind: 'string', itemId: 'string', sellerId: 'string', price: 'number' } satisfies Shape<MarketNotice>,
  },
  /**
   * Published by chat-send, chat-fetch, chat-mark-seen, chat-typing, chat-join and chat-leave.lua;
   * the id is the chat's.
   */
  chatChanged: {
    name: 'CHAT_CHANGED',
    channel: (chatId: string) => chatChannel(chatId),
    payload: {
      chatId: 'string',
      change: 'string',
      user: 'string|null',
      messageId: 'number|null',
    } satisfies Shape<ChatChangeNotice>,
  },
  /** Published by location-append.lua and location-commit.lua; the id is `dataset:upload`. */
  locationUploadChanged: {
    name: 'LOCATION_UPLOAD_CHANGED',
    channel: uploadChannel,
    payload: {
      dataset: 'string',
      upload: 'string',
      lines: 'number',
      doneLines: 'number',
      complete: 'boolean',
    } satisfies Shape<LocationUploadNotice>,
  },
  /** Published by location-commit.lua, once per day a chunk counted; the id is the dataset. */
  locationTotalsChanged: {
    name: 'LOCATION_TOTALS_CHANGED',
    channel: (dataset: string) => locationKeys(dataset).totalsChanged,
    payload: { dataset: 'string', day: 'string' } satisfies Shape<LocationTotalsNotice>,
  },
} as const satisfies Record<string, TopicSpec>;

/**
 * The channel of a topic name and id, for the PubSub: bound to this server's settings. A name
 * that is not in TOPICS is a programming error, not a channel of its own.
 */
export function channels(settings: ChannelSettings): (topic: string, id: string) => string {
  const byName = new Map<string, TopicSpec>(Object.values(TOPICS).map((topic) => [topic.name, topic]));
  return (topic, id) => {
    const spec = byName.get(topic);
    if (!spec) throw new Error(`unknown subscription topic: ${topic}`);
    return spec.channel(id, settings);
  };
}
