// Every Redis key and channel name is built here. The part in {braces} is the Redis Cluster hash tag: keys
// that one script touches always share it, so each script runs unchanged on a cluster.
// Names from users reach this module only after `validName` (no braces, colons or spaces).

/**
 * Counters are spread over a fixed number of buckets by a hash of their name. One counter's
 * sample hashes and the known-counter sets of its bucket share the bucket's tag, so one update
 * is one atomic script; the buckets spread the counters over cluster slots.
 * Changing this number would strand existing data, so it is not configuration.
 */
const COUNTER_BUCKETS = 16;

export function counterBucket(name: string): string {
  return (fnv1a32(name) % COUNTER_BUCKETS).toString(16).padStart(2, '0');
}

export const counterBuckets = (): string[] =>
  Array.from({ length: COUNTER_BUCKETS }, (_, i) => i.toString(16).padStart(2, '0'));

export const counterKeys = {
  /** zset, score 0, members are counter names with samples at this precision (the book's `known:`). */
  known: (bucket: string, precision: number): string => `ctr:{ctr-${bucket}}:known:${precision}`,
  /** hash from slice start (unix seconds) to count (the book's `count:<prec>:<name>`). */
  samples: (name: string, precision: number): string => `ctr:{ctr-${counterBucket(name)}}:s:${precision}:${name}`,
  /** pub/sub channel on which the update script announces a change (it carries the counter's tag: see `inboxChannel`). */
  updated: (name: string): string => `COUNTER_UPDATED:{ctr-${counterBucket(name)}}:${name}`,
  /** Short lease so that one instance at a time cleans a precision. */
  cleanupLease: (precision: number): string => `ctr:{ctr-meta}:cleanup:${precision}`,
};

/**
 * One chat's keys share the tag `{c<id>}`; chat ids are decimal numbers from `chatIds`.
 * The chat's member set is the only record of membership and of each member's seen-id.
 */
export const chatKeys = {
  /** string counter of chat ids (its own slot; touched only by INCR). */
  ids: (): string => 'chat:ids',
  /** zset from member to the id of the last message they have seen (the book's `chat:`). */
  members: (chatId: string): string => `chat:{c${chatId}}:members`,
  /** zset of entry JSON (messages, edits, deletions) scored by entry id (the book's `msgs:`). */
  messages: (chatId: string): string => `chat:{c${chatId}}:msgs`,
  /**
   * hash: `last` (latest entry id, the book's `ids:<chat>`), `open`, `created`, `gen` (membership
   * generation: the stamp of members' index entries), and the retention: `mode` ('history', or
   * 'seen' for the book's delete-once-seen, which chats without the field keep), `keep` (most
   * entries) and `keepMs` (oldest entry's age).
   */
  meta: (chatId: string): string => `chat:{c${chatId}}:meta`,
  /** hash from a member who joined after the start to the entry id after which they may read. */
  joined: (chatId: string): string => `chat:{c${chatId}}:joined`,
  /** hash from member to role: only 'owner' is stored; the creator is one. */
  roles: (chatId: string): string => `chat:{c${chatId}}:roles`,
  /** zset from `user\ndevice` to the id of the last entry that device has taken. */
  cursors: (chatId: string): string => `chat:{c${chatId}}:cursors`,
  /** zset from `user\ndevice` to when that device last fetched (unix ms): stale cursors go. */
  active: (chatId: string): string => `chat:{c${chatId}}:active`,
  /** zset from member to when their typing notice runs out (unix ms); the key expires with it. */
  typing: (chatId: string): string => `chat:{c${chatId}}:typing`,
  /** zset from member to when the others were last told of their typing (unix ms); short-lived. */
  typingTold: (chatId: string): string => `chat:{c${chatId}}:typing-told`,
  /** hash from `sender\nclientMessageId` to `id ts digest`, so a retried send is not stored twice. */
  sent: (chatId: string): string => `chat:{c${chatId}}:sent`,
  /** zset of the `sent` fields scored by when they may be forgotten (unix ms). */
  sentExpiry: (chatId: string): string => `chat:{c${chatId}}:sent-exp`,
  /** hash from `user\ndevice` to `<entry id that device was last pushed up to> <task id that claimed it>`. */
  pushed: (chatId: string): string => `chat:{c${chatId}}:pushed`,
  /** string, present while a push decision for the chat is due: a burst makes one decision. */
  pushDue: (chatId: string): string => `chat:{c${chatId}}:push-due`,
};

/** One user's keys share the tag `{u:<name>}`. */
export const userKeys = {
  /**
   * zset from chat id to a stamp: an index of the user's chats for fetching (the book's `seen:`
   * without the seen-ids, which live only in the chat). It may briefly name a chat the user has
   * left; readers check the chat and drop such entries. Stamps are the chat's membership
   * generation, or below zero while a change is on its way (chat-index-add.lua); earlier versions
   * kept a counter in `user:{u:<user>}:chat-stamp`, which is no longer read and may be deleted.
   */
  chats: (user: string): string => `user:{u:${user}}:chats`,
  /**
   * zset from a token to when it lapses (unix ms): places held in the index for chats being
   * created, before their ids are taken (chat-index-hold.lua). Empty, so gone, between creations.
   */
  chatHolds: (user: string): string => `user:{u:${user}}:chat-holds`,
  /**
   * zset from each device the user fetches chats with to its last fetch (unix ms). A device
   * silent for CHAT_DEVICE_TTL_SECONDS is forgotten; its entry stays a while longer so that its
   * next fetch can say so.
   */
  devices: (user: string): string => `user:{u:${user}}:devices`,
  /** list of direct-message JSON, oldest first (the book's per-recipient mailbox). */
  mailbox: (user: string): string => `user:{u:${user}}:mailbox`,
  /** counter of direct-message ids for this mailbox. */
  mailboxIds: (user: string): string => `user:{u:${user}}:mailbox-ids`,
  /**
   * string: the recent contacts, newest first, joined by newlines (names never hold one). One
   * string costs less memory than a list of the same names (bench/autocomplete.ts).
   */
  contacts: (user: string): string => `user:{u:${user}}:contacts`,
  /**
   * zset from each guild the user has joined to the ticket of its latest count (guild-reserve):
   * bounds how many a user may join. A join or leave cut short by a crash can leave a guild
   * counted that the user is not in (never the reverse); leaving it again clears it.
   */
  guilds: (user: string): string => `user:{u:${user}}:guilds`,
  /** counter behind the tickets above. */
  guildTickets: (user: string): string => `user:{u:${user}}:guild-ticket`,
  /**
   * zset, score 0: the names of `guilds` above, kept equal to them in the same scripts, so
   * `myGuilds` pages through them in byte order. Built on first use for users who joined before it.
   */
  guildNames: (user: string): string => `user:{u:${user}}:guild-names`,
  /** hash from device to its push target (JSON: a PushTarget and `at`, when it was set, unix ms). */
  pushTargets: (user: string): string => `user:{u:${user}}:push-targets`,
  /**
   * zset from `device\ninstance` to when that API instance's hold on it lapses (unix ms, Redis's
   * clock): the device has a live subscription there. Renewed while held; a crashed instance's lapse.
   */
  online: (user: string): string => `user:{u:${user}}:online`,
  /** hash from device to `<mailbox message id it was last pushed up to> <task id that claimed it>`. */
  mailboxPushed: (user: string): string => `user:{u:${user}}:mailbox-pushed`,
  /** string, present while a push decision for the mailbox is due: a burst makes one decision. */
  mailboxPushDue: (user: string): string => `user:{u:${user}}:mailbox-push-due`,
};

/**
 * string `user\ndevice`: who registered a push target last, by the target's digest (sha256 of
 * its kind and endpoint or token, base64url, 22 characters: push/targets.ts). A phone signed in
 * to another user takes its target from the one before, so that user's pushes stop reaching it.
 * Its own slot: a user's targets live on the user's, so taking one over is two steps.
 */
export const pushTargetOwner = (digest: string): string => `push:owner:{${digest}}`;

/** One guild's member set has the tag `{g:<name>}`, so guilds spread over cluster slots. */
export const guildKeys = {
  /** zset, score 0, ordered by member entry (see `guildEntry` in guild.ts) for range queries. */
  members: (guild: string): string => `guild:{g:${guild}}:members`,
};

function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export type LeaseKind = 'lock' | 'semaphore';

/** Prefixes of the channels on which a freed lock or semaphore slot is announced. */
const LEASE_RELEASED = { lock: 'LOCK_RELEASED', semaphore: 'SEMAPHORE_RELEASED' } as const;

const LEASE_PREFIX = { lock: 'lock', semaphore: 'sem' } as const;
const LEASE_TAG = { lock: 'l', semaphore: 's' } as const;

/**
 * One lock's or semaphore's keys share the tag `{l:<name>}` or `{s:<name>}`, so a lock and a
 * semaphore of the same name are separate. Only `state` (the fencing-token counter) is kept
 * forever; the others expire with their longest-lived member. A name's only holder, while
 * nobody else holds or waits, is `solo` alone: one key to write and delete instead of four.
 */
export function leaseKeys(kind: LeaseKind, name: string) {
  const tag = `{${LEASE_TAG[kind]}:${name}}`;
  const base = `${LEASE_PREFIX[kind]}:${tag}:`;
  return {
    /** zset from lease id to expiry (unix ms by the server's clock). */
    holders: `${base}holders`,
    /** string `id fencingToken expiresAt ttlMs owner`, expiring with the lease: the only holder, never beside holders or queue. */
    solo: `${base}solo`,
    /** hash from lease id to `fencingToken ttlMs owner`. */
    leases: `${base}leases`,
    /** zset from a waiting caller's id to its ticket (arrival order). */
    queue: `${base}queue`,
    /** zset from a waiting caller's id to when its place lapses (unix ms). */
    queueExpiry: `${base}queue-exp`,
    /** hash: `fence` (last fencing token), `ticket` (last ticket), `limit` (last limit asked for). */
    state: `${base}state`,
    /** pub/sub channel: the topic of the GraphQL subscription, with the name as its id. */
    released: `${LEASE_RELEASED[kind]}:${tag}`,
  };
}

export const TASK_PRIORITIES = ['HIGH', 'NORMAL', 'LOW'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];

/** The marketplace's hash tag: everything a purchase touches lives in its slot (marketKeys below). */
const MARKET_TAG = '{market}';

/** The queue of the marketplace's sale tasks (MARKET_SALE_TASK): one of QUEUES_IN_OTHER_SLOTS. */
export const MARKET_SALES_QUEUE = 'market-sales';

/** The queue of push decisions and deliveries, run by the push workers' own handlers. */
export const PUSH_QUEUE = 'push';

/**
 * Queues whose keys live in another domain's slot instead of their own, so that a script of that
 * domain records a task in the same atomic step as its own change: a purchase and its sale's task.
 * Their key names carry the queue's name after the tag, since the tag alone no longer says which
 * queue a key belongs to. Otherwise they are ordinary queues: every task operation, worker and
 * poller finds their keys through queueKeys, so this table is the one place they differ.
 */
const QUEUES_IN_OTHER_SLOTS: ReadonlyMap<string, string> = new Map([[MARKET_SALES_QUEUE, MARKET_TAG]]);

/**
 * One task queue's keys share the tag `{q:<name>}` (or, for QUEUES_IN_OTHER_SLOTS, their host's),
 * so every task operation is one script on one slot. Tasks are numbered per queue; a task id is
 * `<queue>:<number>` (names never hold a colon), so the id alone says where the task lives.
 */
export function queueKeys(queue: string) {
  const hostTag = QUEUES_IN_OTHER_SLOTS.get(queue);
  const tag = hostTag ?? `{q:${queue}}`;
  const base = hostTag === undefined ? `queue:${tag}:` : `queue:${tag}:${queue}:`;
  return {
    /** counter of task numbers. */
    seq: `${base}seq`,
    /** hash from task number to its record (JSON: name, priority, state, times, attempts). */
    meta: `${base}meta`,
    /** hash from task number to its arguments as the client sent them (JSON text). */
    args: `${base}args`,
    /** hash from task number to its handler's result (JSON text). */
    results: `${base}results`,
    /** hash from task number to the last error. */
    errors: `${base}errors`,
    /** hash from idempotency key to `number digest`. */
    idempotency: `${base}idem`,
    /** Lists of waiting task numbers, one per priority, in the order workers take them: a task
     * that came due after a delay waits in `due`, ahead of the same priority's `ready`. */
    lists: TASK_PRIORITIES.flatMap((priority) => [`${base}due:${priority}`, `${base}ready:${priority}`]),
    /** zset from delayed task number to when it is due (unix ms). */
    delayed: `${base}delayed`,
    /** zset from running task number to when its worker's lease runs out (unix ms). */
    active: `${base}active`,
    /** zset from finished task number to when it finished: the bounded history. */
    done: `${base}done`,
    /** hash: completed, failed, cancelled (counts since the queue began). */
    counts: `${base}counts`,
    /** hash from running (or finished) task number to the progress its handler last reported (JSON text). */
    progress: `${base}progress`,
    /** string, present while the queue is paused: workers take nothing (pauseQueue). */
    paused: `${base}paused`,
    /** list holding at most one token: pushed when work appears, popped (blocking) by a worker. */
    workerWake: `${base}wake:worker`,
    /** list holding at most one token: pushed when a delay ends sooner than the poller expects. */
    pollerWake: `${base}wake:poller`,
    /** pub/sub channel of one task's changes (the scripts build the same name from their first key's tag). */
    changed: (number: string | number): string => `TASK_CHANGED:${tag}:${number}`,
    /** hash from schedule name to its definition (JSON: task, priority, args, everySeconds or cron, timezone). */
    schedules: `${base}schedules`,
    /** zset from schedule name to its next run (unix ms): the tick the scheduler expects. */
    scheduleNext: `${base}schedule-next`,
    /** hash from schedule name to what its runs did (JSON: lastRunAt, lastTask, missed). */
    scheduleRuns: `${base}schedule-runs`,
  };
}

export const taskId = (queue: string, number: number | string): string => `${queue}:${number}`;

/** The queue and number of a task id, or undefined for anything that is not one. */
export function parseTaskId(id: string): { queue: string; number: string } | undefined {
  const at = id.lastIndexOf(':');
  if (at <= 0) return undefined;
  const number = id.slice(at + 1);
  if (!/^[1-9][0-9]{0,15}$/.test(number)) return undefined;
  return { queue: id.slice(0, at), number };
}

/**
 * The marketplace (book sections 4.4 and 6.2) under one tag, `{market}`: a purchase touches the
 * listings, two users and an inventory, and one script (or one MULTI) can only do that on one
 * slot. The market is one sorted set in the book too, so it was always one hot spot.
 */
export const marketKeys = {
  /** zset of `<item> <seller>` scored by price (the book's `market:`). */
  listings: (): string => `market:${MARKET_TAG}:listings`,
  /** hash with field `funds` (the book's `users:<id>`); one per user so WATCH sees one buyer. */
  user: (user: string): string => `market:${MARKET_TAG}:user:${user}`,
  /** zset, score 0, of the items a user holds, in name order for paging (the book's `inventory:<id>` set). */
  inventory: (user: string): string => `market:${MARKET_TAG}:inv:${user}`,
  /** set of every item id ever granted: ids are unique, so an item is always in exactly one place. */
  items: (): string => `market:${MARKET_TAG}:items`,
  /** string counter of sale ids, written by purchases only. */
  saleIds: (): string => `market:${MARKET_TAG}:sale-ids`,
  /** zset of a seller's sales (JSON: saleId, itemId, buyerId, price, soldAt) scored by sale id; the newest MARKET_SALES_KEEP. */
  sales: (seller: string): string => `market:${MARKET_TAG}:sales:${seller}`,
  /** pub/sub channel of marketChanged: the market's tag, so its scripts may publish on it on a cluster. */
  changed: (): string => `MARKET_CHANGED:${MARKET_TAG}`,
};

/**
 * The listing member of an item put up by a seller (the book's `item.seller`). Names never hold
 * a space, and a space sorts below every character they may hold, so listings of one price are
 * in item order, then seller order.
 */
export const listingMember = (item: string, seller: string): string => `${item} ${seller}`;

/**
 * The row cache of one table (book section 2.4): every key shares the tag `{t:<table>}`, so the
 * store script can check, in the same atomic step, that a row is still scheduled. The table name
 * comes from configuration (a checked SQL name: no braces, colons or spaces). Row ids may hold
 * any character but control characters, so in a key name they are percent-encoded
 * (encodeURIComponent: never `{`, `}` or `:`, and one encoding per id, as `%` is encoded too);
 * in zset members, hash fields and channels they are kept as given.
 */
export function rowCacheKeys(table: string) {
  const base = `rowcache:{t:${table}}:`;
  return {
    /** zset from row id to when it is next due (unix ms by Redis's clock): the book's `schedule:`. */
    schedule: `${base}schedule`,
    /** zset from row id to its refresh interval in ms: the book's `delay:`; a row is scheduled while it is here. */
    delay: `${base}delay`,
    /** zset, score 0, of the scheduled row ids in byte order, for listing them a page at a time. */
    ids: `${base}ids`,
    /** hash from row id to when the refresher last read it from the database (unix ms). */
    refreshed: `${base}refreshed`,
    /**
     * hash from row id to the claim token of the copy stored last, or, until the first store, the
     * token current when the row was scheduled: a store with a token not above it is stale.
     */
    tokens: `${base}tokens`,
    /** counter behind the claim tokens. */
    claims: `${base}claims`,
    /** string: the row as JSON text, column names as keys (the book's `inv:<id>`). */
    row: (rowId: string): string => `${base}row:${encodeURIComponent(rowId)}`,
    /** pub/sub channel: the topic of `rowCacheUpdated`, with the row id as its id. */
    updated: (rowId: string): string => `ROW_CACHE_UPDATED:{t:${table}}:${rowId}`,
  };
}

export type RowCacheKeys = ReturnType<typeof rowCacheKeys>;

/**
 * Channels that a script publishes on carry the hash tag of that script's keys: on a cluster,
 * notifications go by sharded pub/sub, which only a script's own shard may publish on. A user's
 * inbox channel is the exception: the API process publishes on it, to whichever shard owns it.
 */
export const INBOX_CHANNEL_PREFIX = 'INBOX_CHANGED:';
export const inboxChannel = (user: string): string => INBOX_CHANNEL_PREFIX + user;

/** The channel of one chat's changes (chat-*.lua publish on it): it carries the chat's tag. */
export const chatChannel = (chatId: string): string => `CHAT_CHANGED:{c${chatId}}`;

/** Rate limit counters (rate-limiter-flexible adds `:<user or address>`): `who` is 'user' or 'ip'. */
export const rateLimitPrefix = (who: string): string => `ratelimit:${who}`;

/** Set of location dataset names (its own slot): how aggregators find the datasets' streams. */
export const LOCATION_DATASETS = 'geo:datasets';

/**
 * One location dataset's keys share the tag `{d:<dataset>}`, so ingestion, counting and reading
 * each run as one script on one node. Days are `YYYY-MM-DD`; country codes are two letters, so a
 * region name (any text, from the IP database) can follow them after a colon.
 */
export function locationKeys(dataset: string) {
  const tag = `geo:{d:${dataset}}`;
  return {
    /** What every key of the dataset starts with (location-forget.lua names a day's keys from it). */
    prefix: tag,
    /** hash: `created` (unix ms), `held` (bytes of chunks waiting in the stream). */
    meta: `${tag}:meta`,
    /** stream of chunks (`u` upload, `n` chunk number, `l` first line, `c` lines, `b` bytes, `d` data). */
    chunks: `${tag}:chunks`,
    /** zset of upload ids by when they began (unix ms). */
    uploads: `${tag}:uploads`,
    /** hash: an upload's progress (lines, bytes, chunks, doneChunks, doneLines, refused, complete, created). */
    upload: (id: string): string => `${tag}:up:${id}`,
    /** list: the first refused lines of an upload, as JSON. */
    refusedSamples: (id: string): string => `${tag}:up:${id}:bad`,
    /** zset of days that have counts, scored by days since 1970-01-01. */
    days: `${tag}:days`,
    /** hash from day to visits. */
    visits: `${tag}:visits`,
    /** hash from day to visits from addresses in no known place. */
    unknown: `${tag}:unknown`,
    /** zset from country code to visits on a day (the three level keys' names are repeated in location-forget.lua). */
    countries: (day: string): string => `${tag}:c:${day}`,
    /** zset from region ('' for none) to visits in a country on a day. */
    regions: (day: string, country: string): string => `${tag}:r:${day}:${country}`,
    /** zset from city ('' for none) to visits in a region on a day. */
    cities: (day: string, country: string, region: string): string => `${tag}:t:${day}:${country}:${region}`,
    /** channel: an upload made progress (carries the dataset's tag, so scripts publish it on a cluster). */
    uploadChanged: (id: string): string => `LOCATION_UPLOAD_CHANGED:${tag}:${id}`,
    /** channel: the dataset's counts for a day changed. */
    totalsChanged: `LOCATION_TOTALS_CHANGED:${tag}`,
  };
}

/** Consumer group of the chunk streams. */
export const LOCATION_GROUP = 'aggregators';
