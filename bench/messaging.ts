// Messaging (book 6.5): our one-script send and per-chat fetch beside the book's send_message
// (under its SETNX lock) and fetch_pending_messages, in alternating rounds; then Redis memory per
// chat at the default retention. Method: docs/performance.md, "Method: messaging".
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import Redis from 'ioredis';
import { CHAT_DEFAULTS, ChatRepository, type Retention } from '../src/redis/chat';
import { chatKeys, userKeys } from '../src/redis/keys';
import {
  bench,
  measure,
  medianRange,
  rates,
  type Sample,
  type Steps,
  type SuiteReport,
  inParallel,
  keyBytes,
  mean,
  sumOf,
  tableOf,
  usedMemory,
} from './harness';
import { fetchPendingMessages } from './book-chat';

const IN_FLIGHT = 50;
const CHATS_PER_USER = 5;
const MESSAGES_PER_CHAT = 20;
/** The default retention (newest 10,000 entries, 90 days), and the book's delete-once-seen beside it. */
const HISTORY: Retention = CHAT_DEFAULTS.retention;
const SEEN: Retention = { ...CHAT_DEFAULTS.retention, mode: 'seen' };
const KEEP = HISTORY.keepMessages.toLocaleString('en-US');
/** Memory: a group of 10, each member on two devices, 100-byte messages. */
const MEMORY_MEMBERS = 10;
const DEVICES = ['phone', 'laptop'];
const MESSAGE_BYTES = 100;
/** Sends past the keep count, so the measured log is one that trims. */
const OVERFLOW = 100;
/** The last sends into each history chat carry a clientMessageId, to weigh a dedupe record. */
const DEDUPE_SENDS = 1_000;
/** 'seen' chats for memory: each gets SEEN_SENDS messages, then every device takes them. */
const SEEN_CHATS = 20;
const SEEN_SENDS = 100;

function settings(quick: boolean) {
  const bookSends = Number(process.env.BENCH_SENDS ?? (quick ? 500 : 2_000));
  return {
    bookSends,
    // Ours is an order of magnitude faster: more sends, so its rounds last long enough to time.
    ourSends: bookSends * 4,
    // Fewer leave each peer's timed window too short to time on a shared machine (tens of ms).
    users: Number(process.env.BENCH_FETCH_USERS ?? 200),
    rounds: Number(process.env.BENCH_MESSAGING_ROUNDS ?? (quick ? 3 : 5)),
    // Chats filled to the default keep count (10,000 entries each).
    memoryChats: Number(process.env.BENCH_MEMORY_CHATS ?? (quick ? 2 : 4)),
  };
}

/** The book's acquire_lock: SETNX, and sleep a millisecond between attempts. */
async function acquireLock(redis: Redis, name: string): Promise<{ id: string; attempts: number }> {
  const id = randomUUID();
  for (let attempts = 1; ; attempts++) {
    if ((await redis.setnx(`lock:${name}`, id)) === 1) return { id, attempts };
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** The book's release_lock: WATCH, check the owner, MULTI/DEL. Needs its own connection. */
async function releaseLock(redis: Redis, name: string, id: string): Promise<void> {
  const key = `lock:${name}`;
  await redis.watch(key);
  if ((await redis.get(key)) === id) await redis.multi().del(key).exec();
  else await redis.unwatch();
}

/** The book's send_message. */
async function bookSend(redis: Redis, chatId: string, sender: string, message: string): Promise<number> {
  const lock = await acquireLock(redis, `chat:${chatId}`);
  try {
    const id = await redis.incr(`ids:${chatId}`);
    await redis.zadd(`msgs:${chatId}`, id, JSON.stringify({ id, ts: Date.now() / 1000, sender, message }));
  } finally {
    await releaseLock(redis, `chat:${chatId}`, lock.id);
  }
  return lock.attempts;
}

/** The book's fetch_pending_messages: the messages it returned. */
const bookFetch = async (redis: Redis, user: string): Promise<number> =>
  sumOf(await fetchPendingMessages(redis, user), ([, messages]) => messages.length);

v8.setFlagsFromString('--expose-gc');
/** Collects garbage, so that a timed window does not pay for the seeding before it. */
const collectGarbage = vm.runInNewContext('gc') as () => void;

/** Garbage collected first, so that a timed window does not pay for the seeding before it. */
async function timed(label: string, admin: Redis, operations: number, work: () => Promise<unknown>): Promise<Sample> {
  collectGarbage();
  return measure(operations, work, { admin, label });
}

const concurrently = (total: number, task: (i: number, worker: number) => Promise<unknown>): Promise<void> =>
  inParallel(total, IN_FLIGHT, task);

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** Our fetching peers: each has users of its own (`<prefix><n>`), seeded alike. */
interface FetchPeer {
  prefix: string;
  retention: Retention;
  devices: string[];
}

const FETCHERS = {
  seen: { prefix: 's', retention: SEEN, devices: [] },
  history: { prefix: 'h', retention: HISTORY, devices: [] },
  device: { prefix: 'd', retention: HISTORY, devices: DEVICES.slice(0, 1) },
  twoDevices: { prefix: 't', retention: HISTORY, devices: DEVICES },
} satisfies Record<string, FetchPeer>;

/**
 * Every user has CHATS_PER_USER chats, each with a peer who never reads, and MESSAGES_PER_CHAT
 * unread messages: in the book's layout, and for each of our peers. A device is registered by a
 * fetch that does not advance, made once the chats exist (its cursors start at the read position,
 * 0), so every device has every message pending.
 */
async function seedPending(redis: Redis, chats: ChatRepository, users: number): Promise<void> {
  await redis.flushdb();
  await concurrently(users, async (u) => {
    for (let c = 0; c < CHATS_PER_USER; c++) {
      const chatId = `${u}-${c}`;
      const multi = redis.multi().zadd(`chat:${chatId}`, 0, `u${u}`, 0, 'other').zadd(`seen:u${u}`, 0, chatId);
      for (let m = 1; m <= MESSAGES_PER_CHAT; m++)
        multi.zadd(`msgs:${chatId}`, m, JSON.stringify({ id: m, message: `m${m}` }));
      await multi.exec();
    }
    for (const peer of Object.values(FETCHERS)) {
      const user = `${peer.prefix}${u}`;
      const ids: string[] = [];
      for (let c = 0; c < CHATS_PER_USER; c++)
        ids.push((await chats.create(user, [`${user}-peer`], 'm1', false, peer.retention)).chat.id);
      for (const device of peer.devices) await chats.pending(user, 1000, false, device);
      for (let m = 2; m <= MESSAGES_PER_CHAT; m++) await Promise.all(ids.map((id) => chats.send(id, user, `m${m}`)));
    }
  });
}

/** A message of MESSAGE_BYTES bytes, different for every n. */
function messageText(n: number): string {
  const words = ['see', 'you', 'at', 'the', 'meeting', 'tomorrow', 'bring', 'slides', 'and', 'coffee', 'thanks', 'ok'];
  let text = `#${n}`;
  for (let k = n; text.length < MESSAGE_BYTES; k = (k * 31 + 7) % 1009) text += ` ${words[k % words.length]}`;
  return text.slice(0, MESSAGE_BYTES);
}

type ChatKeyName = Exclude<keyof typeof chatKeys, 'ids'>;
const CHAT_KEY_NAMES = Object.keys(chatKeys).filter((name) => name !== 'ids') as ChatKeyName[];

/** Bytes of each of a chat's keys, by name. */
async function chatBytes(admin: Redis, chatId: string): Promise<Record<ChatKeyName, number>> {
  const sizes = await Promise.all(CHAT_KEY_NAMES.map((name) => keyBytes(admin, chatKeys[name](chatId))));
  return Object.fromEntries(CHAT_KEY_NAMES.map((name, i) => [name, sizes[i]])) as Record<ChatKeyName, number>;
}

interface Memory {
  /** History chats at their keep count. */
  history: {
    chats: number;
    entries: number;
    /** Per chat, MEMORY USAGE of each chat key (averaged over the chats). */
    keys: Record<ChatKeyName, number>;
    /** Average JSON length of an entry as stored. */
    entryJson: number;
    /** INFO used_memory grown per chat: chat keys, members' index and devices, allocator overhead. */
    usedPerChat: number;
    /** Per member: their chat index and device registry. */
    memberKeys: number;
    dedupeRecords: number;
  };
  seen: { chats: number; keys: Record<ChatKeyName, number>; usedPerChat: number };
}

function averageKeys(all: Record<ChatKeyName, number>[]): Record<ChatKeyName, number> {
  return Object.fromEntries(CHAT_KEY_NAMES.map((name) => [name, mean(all.map((keys) => keys[name]))])) as Record<
    ChatKeyName,
    number
  >;
}

async function memberBytes(admin: Redis, members: string[]): Promise<number> {
  const sizes = await Promise.all(
    members.flatMap((member) => [keyBytes(admin, userKeys.chats(member)), keyBytes(admin, userKeys.devices(member))]),
  );
  return sizes.reduce((sum, size) => sum + size, 0) / members.length;
}

/**
 * Chats of MEMORY_MEMBERS members, each on two devices (registered while the chat is new), in
 * history mode filled past the default keep count with 100-byte messages; then 'seen' chats whose
 * every device has taken every message, so that their log is gone.
 */
async function measureMemory(redis: Redis, admin: Redis, chats: ChatRepository, count: number): Promise<Memory> {
  const keep = HISTORY.keepMessages;
  const make = async (prefix: string, n: number, retention: Retention) => {
    const made: { id: string; members: string[] }[] = [];
    await concurrently(n, async (c) => {
      const members = range(MEMORY_MEMBERS).map((m) => `${prefix}${c}m${m}`);
      const { chat } = await chats.create(members[0], members.slice(1), messageText(0), false, retention);
      made[c] = { id: chat.id, members };
    });
    await concurrently(n * MEMORY_MEMBERS * DEVICES.length, async (i) => {
      const member = made[i % n].members[Math.floor(i / n) % MEMORY_MEMBERS];
      await chats.pending(member, 10, false, DEVICES[Math.floor(i / (n * MEMORY_MEMBERS))]);
    });
    return made;
  };

  await redis.flushdb();
  let before = await usedMemory(admin);
  const history = await make('h', count, HISTORY);
  // The creation sent entry 1; then past the keep count, the last sends with clientMessageIds.
  const sends = keep - 1 + OVERFLOW;
  await concurrently(count * sends, async (i) => {
    const { id, members } = history[i % count];
    const n = Math.floor(i / count) + 1;
    const clientId = n > sends - DEDUPE_SENDS ? `client-${n}` : undefined;
    await chats.send(id, members[n % MEMORY_MEMBERS], messageText(n), clientId);
  });
  for (const { id } of history) {
    const kept = await admin.zcard(chatKeys.messages(id));
    if (kept !== keep) throw new Error(`history chat ${id} keeps ${kept} entries, expected ${keep}`);
  }
  const historyUsed = (await usedMemory(admin)) - before;
  const sample = await admin.zrange(chatKeys.messages(history[0].id), 0, 99);
  const historyMemory: Memory['history'] = {
    chats: count,
    entries: keep,
    keys: averageKeys(await Promise.all(history.map(({ id }) => chatBytes(admin, id)))),
    entryJson: mean(sample.map((json) => Buffer.byteLength(json))),
    usedPerChat: historyUsed / count,
    memberKeys: await memberBytes(
      admin,
      history.flatMap(({ members }) => members),
    ),
    dedupeRecords: Number(await admin.hlen(chatKeys.sent(history[0].id))),
  };

  before = await usedMemory(admin);
  const seen = await make('s', SEEN_CHATS, SEEN);
  await concurrently(SEEN_CHATS * SEEN_SENDS, async (i) => {
    const { id, members } = seen[i % SEEN_CHATS];
    const n = Math.floor(i / SEEN_CHATS) + 1;
    await chats.send(id, members[n % MEMORY_MEMBERS], messageText(n));
  });
  await concurrently(SEEN_CHATS * MEMORY_MEMBERS * DEVICES.length, async (i) => {
    const member = seen[i % SEEN_CHATS].members[Math.floor(i / SEEN_CHATS) % MEMORY_MEMBERS];
    const device = DEVICES[Math.floor(i / (SEEN_CHATS * MEMORY_MEMBERS))];
    // SEEN_SENDS + 1 entries are pending in the member's one chat: one fetch takes them all.
    await chats.pending(member, 1000, true, device);
  });
  for (const { id } of seen)
    if ((await admin.exists(chatKeys.messages(id))) !== 0)
      throw new Error(`seen chat ${id} still has a log after every device took it`);
  const seenUsed = (await usedMemory(admin)) - before;
  return {
    history: historyMemory,
    seen: {
      chats: SEEN_CHATS,
      keys: averageKeys(await Promise.all(seen.map(({ id }) => chatBytes(admin, id)))),
      usedPerChat: seenUsed / SEEN_CHATS,
    },
  };
}

type Peer = 'book' | 'seen' | 'history' | 'edit';
interface SendRuns extends Record<Peer, Sample[]> {
  /** Lock attempts of the book's sends that found the lock taken, in the measured rounds. */
  retries: number;
}

/**
 * Sends into one chat of IN_FLIGHT members, each member sending: the book's; ours into a 'seen'
 * chat, new every round (its members would keep its log short); ours into a 'history' chat kept
 * at its keep count, so every send also trims; then edits of that round's messages.
 */
async function benchSends(
  admin: Redis,
  pool: Redis[],
  chats: ChatRepository,
  steps: Steps,
  { bookSends, ourSends, rounds }: ReturnType<typeof settings>,
): Promise<SendRuns> {
  const senders = range(IN_FLIGHT).map((i) => `u${i}`);
  const create = async (retention: Retention): Promise<string> =>
    (await chats.create(senders[0], senders.slice(1), 'start', false, retention)).chat.id;
  const keep = HISTORY.keepMessages;
  const historyChat = await create(HISTORY);
  steps.step('send, filling the history chat');
  await concurrently(keep, async (i, worker) => void (await chats.send(historyChat, senders[worker], `message ${i}`)));

  const runs: SendRuns = { book: [], seen: [], history: [], edit: [], retries: 0 };
  for (let round = 0; round <= rounds; round++) {
    const warm = round === 0;
    const [bookOps, ourOps] = warm ? [Math.ceil(bookSends / 4), Math.ceil(ourSends / 4)] : [bookSends, ourSends];
    const editOps = Math.ceil(ourOps / 2);
    steps.step(`send, ${warm ? 'warm-up' : `round ${round}/${rounds}`}`);
    console.log(warm ? 'send, warm-up:' : `send, round ${round}:`);
    let roundRetries = 0;
    const book = await timed('book (lock, INCR, ZADD, unlock)', admin, bookOps, () =>
      concurrently(bookOps, async (i, worker) => {
        // Awaited first: `x += await f()` would read x before the wait and lose updates.
        const attempts = await bookSend(pool[worker], '1', `u${worker}`, `message ${i}`);
        roundRetries += attempts - 1;
      }),
    );
    console.log(
      `    lock attempts that found the lock taken: ${roundRetries} (${(roundRetries / bookOps).toFixed(2)} per send)`,
    );

    const seenChat = await create(SEEN);
    const seen = await timed("ours, 'seen' chat (one Lua script)", admin, ourOps, () =>
      concurrently(ourOps, async (i, worker) => void (await chats.send(seenChat, senders[worker], `message ${i}`))),
    );
    const last = Number(await admin.hget(chatKeys.meta(seenChat), 'last'));
    if (last !== ourOps + 1) throw new Error(`the seen chat's last entry id is ${last}, expected ${ourOps + 1}`);

    // Each sender's messages of this round, to edit its newest ones: the edits' own entries trim
    // the log's oldest, which are older than these.
    const sent: number[][] = senders.map(() => []);
    const history = await timed(`ours, 'history' chat at ${KEEP} entries (one Lua script, trims)`, admin, ourOps, () =>
      concurrently(ourOps, async (i, worker) => {
        const { message } = await chats.send(historyChat, senders[worker], `message ${i}`);
        sent[worker].push(message.id);
      }),
    );
    const edited = senders.map(() => 0);
    const edit = await timed("ours, edit in the 'history' chat (one Lua script)", admin, editOps, () =>
      concurrently(editOps, async (i, worker) => {
        const own = sent[worker];
        const target = own[own.length - 1 - (edited[worker]++ % own.length)];
        const { stored } = await chats.edit(historyChat, senders[worker], target, `edited ${i}`);
        if (!stored) throw new Error(`the edit of message ${target} was not stored`);
      }),
    );
    if (!warm) {
      for (const [peer, sample] of Object.entries({ book, seen, history, edit })) runs[peer as Peer].push(sample);
      runs.retries += roundRetries;
    }
  }
  const kept = await admin.zcard(chatKeys.messages(historyChat));
  if (kept !== keep) throw new Error(`the history chat keeps ${kept} entries, expected ${keep}`);
  return runs;
}

type FetchRuns = Record<'book' | 'seen' | 'history' | 'device' | 'twoDevices', Sample[]>;

/**
 * Per round, `users` users of each peer with CHATS_PER_USER chats of MESSAGES_PER_CHAT pending
 * messages; every fetch (one per user, or one per device) takes all of them and advances.
 */
async function benchFetch(
  redis: Redis,
  admin: Redis,
  pool: Redis[],
  chats: ChatRepository,
  steps: Steps,
  { users, rounds }: ReturnType<typeof settings>,
): Promise<FetchRuns> {
  const runs: FetchRuns = { book: [], seen: [], history: [], device: [], twoDevices: [] };
  const expected = CHATS_PER_USER * MESSAGES_PER_CHAT;
  const fetchAll = async (peer: FetchPeer, u: number, device?: string): Promise<void> => {
    let count = 0;
    for (const chat of await chats.pending(`${peer.prefix}${u}`, 1000, true, device)) count += chat.messages.length;
    if (count !== expected)
      throw new Error(`${peer.prefix}${u}${device ? ` on ${device}` : ''} fetched ${count}, expected ${expected}`);
  };
  for (let round = 0; round <= rounds; round++) {
    const warm = round === 0;
    const count = warm ? Math.ceil(users / 4) : users;
    steps.step(`fetch, ${warm ? 'warm-up' : `round ${round}/${rounds}`}`);
    console.log(warm ? 'fetch, warm-up:' : `fetch, round ${round}:`);
    await seedPending(redis, chats, count);
    const book = await timed('book (fetch_pending_messages)', admin, count, () =>
      concurrently(count, async (u, worker) => {
        const fetched = await bookFetch(pool[worker], `u${u}`);
        if (fetched !== expected) throw new Error(`book fetch of u${u} returned ${fetched}, expected ${expected}`);
      }),
    );
    const seen = await timed("ours, 'seen' chats, no device (index, then a script per chat)", admin, count, () =>
      concurrently(count, (u) => fetchAll(FETCHERS.seen, u)),
    );
    const history = await timed("ours, 'history' chats, no device", admin, count, () =>
      concurrently(count, (u) => fetchAll(FETCHERS.history, u)),
    );
    const [phone, laptop] = FETCHERS.twoDevices.devices;
    const device = await timed("ours, 'history' chats, one device (and its registry check)", admin, count, () =>
      concurrently(count, (u) => fetchAll(FETCHERS.device, u, phone)),
    );
    const twoDevices = await timed("ours, 'history' chats, two devices in turn (per fetch)", admin, 2 * count, () =>
      concurrently(count, async (u) => {
        await fetchAll(FETCHERS.twoDevices, u, phone);
        await fetchAll(FETCHERS.twoDevices, u, laptop);
      }),
    );
    if (!warm)
      for (const [peer, sample] of Object.entries({ book, seen, history, device, twoDevices }))
        runs[peer as keyof FetchRuns].push(sample);
  }
  return runs;
}

/** Round trips per operation, the mean of the rounds'. */
const requests = (runs: Sample[]): number => mean(runs.map((r) => r.requests / r.ops));

function reportSends(report: SuiteReport, send: SendRuns, bookSends: number, rounds: number): void {
  const id = (name: string): string => `messaging.${name}`;
  const ratios: [string, string, Sample[]][] = [
    ['send.seen_vs_book', "sendMessage, 'seen' chat: ours / book's lock-based send_message (sends/s)", send.seen],
    [
      'send.history_vs_book',
      `sendMessage, 'history' chat at ${KEEP} entries: ours / book's send_message (sends/s)`,
      send.history,
    ],
  ];
  for (const [name, label, runs] of ratios) report.ratio(id(name), label, rates(runs), rates(send.book));
  const medians: [string, string, string, Sample[]][] = [
    ['send.seen_rate', `sendMessage: ours, 'seen' chat, ${IN_FLIGHT} senders`, 'sends/s', send.seen],
    [
      'send.history_rate',
      `sendMessage: ours, 'history' chat at its keep count, ${IN_FLIGHT} senders`,
      'sends/s',
      send.history,
    ],
    ['send.book_rate', `sendMessage: book's send_message, one chat, ${IN_FLIGHT} senders`, 'sends/s', send.book],
    ['edit.rate', `editMessage: ours, 'history' chat, ${IN_FLIGHT} senders`, 'edits/s', send.edit],
  ];
  for (const [name, label, unit, runs] of medians) report.median(id(name), label, unit, rates(runs));
  const trips: [string, string, Sample[], boolean][] = [
    ['send.seen_round_trips', "sendMessage: ours, 'seen' chat, round trips per send", send.seen, true],
    ['send.history_round_trips', "sendMessage: ours, 'history' chat, round trips per send", send.history, true],
    ['edit.round_trips', 'editMessage: ours, round trips per edit', send.edit, true],
    ['send.book_round_trips', "sendMessage: book's, round trips per send (lock retries included)", send.book, false],
  ];
  for (const [name, label, runs, target] of trips)
    report.value(id(name), label, 'round trips', requests(runs), target ? { op: '<=', value: 1 } : undefined);
  const retries = send.retries / (bookSends * rounds);
  report.value(
    id('send.book_lock_retries'),
    "sendMessage: book's, lock attempts that found it taken, per send",
    'attempts',
    retries,
  );
}

function reportFetches(report: SuiteReport, fetch: FetchRuns): void {
  const peers: [keyof FetchRuns & keyof typeof FETCHERS, string, string][] = [
    ['seen', 'seen', "'seen' chats, no device"],
    ['history', 'history', "'history' chats, no device"],
    ['device', 'device', "'history' chats, one device"],
    ['twoDevices', 'two_devices', "'history' chats, two devices in turn"],
  ];
  for (const [peer, id, what] of peers) {
    const label = `fetchPendingMessages, ${what}: ours / book's fetch_pending_messages (fetches/s)`;
    report.ratio(`messaging.fetch.${id}_vs_book`, label, rates(fetch[peer]), rates(fetch.book));
  }
  const trips: [string, string, Sample[]][] = [
    ...peers.slice(1).map(([peer, id, what]): [string, string, Sample[]] => [id, `ours, ${what}`, fetch[peer]]),
    ['book', "book's", fetch.book],
  ];
  for (const [id, who, runs] of trips) {
    const label = `fetchPendingMessages: ${who}, round trips per fetch of ${CHATS_PER_USER} chats`;
    report.value(`messaging.fetch.${id}_round_trips`, label, 'round trips', requests(runs));
  }
}

function reportMemory(report: SuiteReport, memory: Memory): void {
  const { history, seen } = memory;
  const total = (keys: Record<ChatKeyName, number>): number => CHAT_KEY_NAMES.reduce((sum, n) => sum + keys[n], 0);
  const dedupe = history.keys.sent + history.keys.sentExpiry;
  const rest = (keys: Record<ChatKeyName, number>): number => total(keys) - keys.messages - keys.sent - keys.sentExpiry;
  const figures: [string, string, number][] = [
    [
      'history_chat_bytes',
      `'history' chat at ${KEEP} entries of ${MESSAGE_BYTES}-byte messages (its keys)`,
      total(history.keys),
    ],
    ['history_entry_bytes', "'history' chat, log bytes per entry", history.keys.messages / history.entries],
    ['history_used_per_chat', "'history' chat, INFO used_memory grown per chat", history.usedPerChat],
    [
      'dedupe_record_bytes',
      'per send with a clientMessageId, until CHAT_DEDUPE_SECONDS',
      dedupe / history.dedupeRecords,
    ],
    ['seen_chat_bytes', "'seen' chat once every device has fetched (its keys)", total(seen.keys)],
  ];
  for (const [id, what, value] of figures)
    report.value(`messaging.memory.${id}`, `memory: ours, ${what}`, 'bytes', value);
  const bytes = (n: number): string => Math.round(n).toLocaleString('en-US');
  const full = `history, ${KEEP} entries`;
  const others = 'members, meta, roles, cursors, active';
  const grown = 'INFO used_memory grown per chat (members too)';
  report.table(
    `messaging memory per chat (${MEMORY_MEMBERS} members, ${DEVICES.length} devices each; MEMORY USAGE, SAMPLES 0)`,
    ['retention', 'what', 'bytes per chat', 'bytes per entry'],
    [
      [
        full,
        `log (entries of ${history.entryJson.toFixed(0)} bytes of JSON)`,
        bytes(history.keys.messages),
        bytes(history.keys.messages / history.entries),
      ],
      [
        full,
        `dedupe records (${history.dedupeRecords} sends with a clientMessageId)`,
        bytes(dedupe),
        bytes(dedupe / history.dedupeRecords),
      ],
      [full, others, bytes(rest(history.keys)), ''],
      [full, "all the chat's keys", bytes(total(history.keys)), ''],
      [full, grown, bytes(history.usedPerChat), bytes(history.usedPerChat / history.entries)],
      ['seen, all fetched', 'log', bytes(seen.keys.messages), ''],
      ['seen, all fetched', others, bytes(rest(seen.keys)), ''],
      ['seen, all fetched', grown, bytes(seen.usedPerChat), ''],
      ['either', "per member: the user's chat index and device registry", bytes(history.memberKeys), ''],
    ],
    2,
  );
  report.note(
    `Memory: ${history.chats} chats in 'history' mode filled to ${(history.entries + OVERFLOW).toLocaleString('en-US')} entries with ${MESSAGE_BYTES}-byte messages (the last ${DEDUPE_SENDS} with a clientMessageId), so they trim to the default ${KEEP}; ` +
      `${seen.chats} 'seen' chats of ${SEEN_SENDS} messages that every device then fetched. The used_memory deltas include the members' index and device keys and the allocator's overhead; a dedupe record lives CHAT_DEDUPE_SECONDS (a day by default).`,
  );
}

function summaryTable(report: SuiteReport, send: SendRuns, fetch: FetchRuns, rounds: number): void {
  const sending = `send, ${IN_FLIGHT} senders, one chat`;
  const fetching = `fetch of ${CHATS_PER_USER} chats`;
  const rows: [string, string, Sample[]][] = [
    [sending, "ours, 'seen' chat (one script)", send.seen],
    [sending, `ours, 'history' chat at ${KEEP} (one script, trims)`, send.history],
    [sending, 'book (SETNX lock, INCR, ZADD, WATCH unlock)', send.book],
    [`edit, ${IN_FLIGHT} senders, one chat`, "ours, 'history' chat (one script)", send.edit],
    [fetching, "ours, 'seen' chats, no device", fetch.seen],
    [fetching, "ours, 'history' chats, no device", fetch.history],
    [fetching, "ours, 'history' chats, one device", fetch.device],
    [fetching, "ours, 'history' chats, two devices in turn", fetch.twoDevices],
    [fetching, 'book (fetch_pending_messages)', fetch.book],
  ];
  tableOf(report, `messaging summary (medians of ${rounds} rounds, with the range)`, 2, rows, [
    ['operation', ([what]) => what],
    ['peer', ([, peer]) => peer],
    ['per second (min-max)', ([, , runs]) => medianRange(rates(runs))],
    ['round trips/op', ([, , runs]) => requests(runs).toFixed(2)],
    ['redis cmds/op', ([, , runs]) => mean(runs.map((r) => r.executed / r.ops)).toFixed(2)],
  ]);
}

bench(
  {
    id: 'messaging',
    title:
      "Messaging (book 6.5): one-script send and fetch, with devices and history, against the book's lock-based send_message and fetch_pending_messages",
  },
  async ({ admin, connect, report, quick, steps: progress }) => {
    const options = settings(quick);
    const { bookSends, users, rounds } = options;
    const redis = connect();
    // The book's lock release uses WATCH, which needs a connection per concurrent sender.
    const pool = Array.from({ length: IN_FLIGHT }, () => connect());
    const chats = new ChatRepository(redis, {
      maxChatMembers: 1000,
      maxChatsPerUser: 1000,
      dedupeSeconds: 3600,
      ...CHAT_DEFAULTS,
    });
    // Send: the fill, then the rounds; fetch: the rounds; memory counts two.
    const steps = progress(1 + 2 * (rounds + 1) + 2);
    await Promise.all([redis.ping(), admin.ping(), ...pool.map((client) => client.ping())]);
    const send = await benchSends(admin, pool, chats, steps, options);
    const fetch = await benchFetch(redis, admin, pool, chats, steps, options);
    steps.step('memory per chat', 2);
    console.log('memory:');
    const memory = await measureMemory(redis, admin, chats, options.memoryChats);
    reportSends(report, send, bookSends, rounds);
    reportFetches(report, fetch);
    summaryTable(report, send, fetch, rounds);
    reportMemory(report, memory);
    report.note(
      `Sends: ${IN_FLIGHT} concurrent senders into one chat of ${IN_FLIGHT} members; the book's lock is SETNX with a 1 ms sleep between attempts and a WATCH release, one connection per sender; ours shares one connection. ` +
        `The 'seen' chat is new each round; the 'history' chat was filled to its ${KEEP} entries first, so each send also trims one; edits change that round's messages.`,
    );
    report.note(
      `Fetch: ${users} users per round and peer, each with ${CHATS_PER_USER} chats of ${MESSAGES_PER_CHAT} unread messages, fetched and marked seen; every fetch must return every message. ` +
        `A device was registered by a first fetch before the messages were sent (so its cursors exist and the registry call is one; a device's first fetch adds chat-device-add, one more); two devices fetch one after the other, each getting all, counted per fetch.`,
    );
    report.note(
      'Round trips: requests the clients sent per operation (a MULTI/EXEC block counts one; ours send theirs at once: the index read with the device check, then the chats); redis cmds: INFO commandstats, commands inside scripts included. Garbage is collected before each timed window, so none pays for the seeding before it.',
    );
  },
);
