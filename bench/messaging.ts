// Messaging (book 6.5): our one-script send and per-chat fetch beside the book's send_message
// (under its SETNX lock) and fetch_pending_messages, in alternating rounds; then Redis memory per
// chat at the default retention. Method: docs/performance.md, "Method: messaging".
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import type Redis from 'ioredis';
import { CHAT_DEFAULTS, ChatRepository, type Retention } from '../src/redis/chat';
import { chatKeys, userKeys } from '../src/redis/keys';
import { alternate, bench, inParallel, size, stepsOf, type Figure, type SuiteReport } from './harness';
import { measure, medianRange, perOp, rates, type Sample } from './harness/measure';
import { keyBytes, mean, sumOf, usedMemory } from './harness/support';
import { fetchPendingMessages } from './location-book';

const IN_FLIGHT = 50;
const CHATS_PER_USER = 5;
const MESSAGES_PER_CHAT = 20;
/** The default retention (newest 10,000 entries, 90 days), and the book's delete-once-seen beside it. */
const HISTORY: Retention = CHAT_DEFAULTS.retention;
const SEEN: Retention = { ...HISTORY, mode: 'seen' };
const KEEP = HISTORY.keepMessages.toLocaleString('en-US');
const MEMORY_MEMBERS = 10;
const DEVICES = ['phone', 'laptop'];
const MESSAGE_BYTES = 100;
const OVERFLOW = 100;
const DEDUPE_SENDS = 1_000;
const SEEN_CHATS = 20;
const SEEN_SENDS = 100;

const BOOK_SENDS = size('BENCH_SENDS', 500, 2_000);
// Ours is an order of magnitude faster: more sends, so its rounds last long enough to time.
const OUR_SENDS = BOOK_SENDS * 4;
// Fewer leave each peer's timed window too short to time on a shared machine (tens of ms).
const USERS = size('BENCH_FETCH_USERS', 200, 200);
const ROUNDS = size('BENCH_MESSAGING_ROUNDS', 3, 5);
const MEMORY_CHATS = size('BENCH_MEMORY_CHATS', 2, 4);

/** The book's send_message under its acquire_lock and release_lock (WATCH: a connection per sender); the attempts. */
async function bookSend(redis: Redis, chatId: string, sender: string, message: string): Promise<number> {
  const lock = `lock:chat:${chatId}`;
  const owner = randomUUID();
  let attempts = 1;
  for (; (await redis.setnx(lock, owner)) !== 1; attempts++) await sleep(1);
  try {
    const id = await redis.incr(`ids:${chatId}`);
    await redis.zadd(`msgs:${chatId}`, id, JSON.stringify({ id, ts: Date.now() / 1000, sender, message }));
  } finally {
    await redis.watch(lock);
    if ((await redis.get(lock)) === owner) await redis.multi().del(lock).exec();
    else await redis.unwatch();
  }
  return attempts;
}

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

const concurrently = (total: number, task: (i: number, worker: number) => Promise<unknown>): Promise<void> =>
  inParallel(total, IN_FLIGHT, task);

/** Our fetching peers: each has users of its own (`<id>-<n>`), seeded alike; `devices` fetch in turn. */
const FETCHERS = [
  { id: 'seen', retention: SEEN, devices: [] as string[], what: "'seen' chats, no device" },
  { id: 'history', retention: HISTORY, devices: [], what: "'history' chats, no device" },
  { id: 'device', retention: HISTORY, devices: ['phone'], what: "'history' chats, one device" },
  { id: 'two_devices', retention: HISTORY, devices: DEVICES, what: "'history' chats, two devices in turn" },
];

/** Each user's chats with unread messages, in the book's layout and for each of our peers (devices registered first). */
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
    for (const peer of FETCHERS) {
      const user = `${peer.id}-${u}`;
      const ids: string[] = [];
      for (let c = 0; c < CHATS_PER_USER; c++)
        ids.push((await chats.create(user, [`${user}-peer`], 'm1', false, peer.retention)).chat.id);
      for (const device of peer.devices) await chats.pending(user, 1000, false, device);
      for (let m = 2; m <= MESSAGES_PER_CHAT; m++) await Promise.all(ids.map((id) => chats.send(id, user, `m${m}`)));
    }
  });
}

/** A message of MESSAGE_BYTES bytes, different for every n. */
const messageText = (n: number): string =>
  `#${n} see you at the meeting tomorrow, bring the slides and coffee, thanks `.repeat(2).slice(0, MESSAGE_BYTES);

type ChatKeyName = Exclude<keyof typeof chatKeys, 'ids'>;
const CHAT_KEY_NAMES = Object.keys(chatKeys).filter((name) => name !== 'ids') as ChatKeyName[];

/** MEMORY USAGE of each of a chat's keys, by name, averaged over the chats. */
async function chatKeyBytes(admin: Redis, chats: { id: string }[]): Promise<Record<ChatKeyName, number>> {
  const bytes = {} as Record<ChatKeyName, number>;
  for (const name of CHAT_KEY_NAMES)
    bytes[name] = mean(await Promise.all(chats.map(({ id }) => keyBytes(admin, chatKeys[name](id)))));
  return bytes;
}

/** Memory per chat: 'history' chats filled past their keep count, then 'seen' chats every device has taken. */
async function benchMemory(report: SuiteReport, redis: Redis, admin: Redis, chats: ChatRepository): Promise<void> {
  const keep = HISTORY.keepMessages;
  /** `count` chats, devices registered while new, then `sends` messages each (past `dedupeFrom` with a clientMessageId). */
  const fill = async (prefix: string, count: number, retention: Retention, sends: number, dedupeFrom = sends) => {
    const before = await usedMemory(admin);
    const made: { id: string; members: string[] }[] = [];
    await concurrently(count, async (c) => {
      const members = Array.from({ length: MEMORY_MEMBERS }, (_, m) => `${prefix}${c}m${m}`);
      const { chat } = await chats.create(members[0], members.slice(1), messageText(0), false, retention);
      made[c] = { id: chat.id, members };
    });
    const everyDevice = (task: (member: string, device: string) => Promise<unknown>): Promise<void> =>
      concurrently(count * MEMORY_MEMBERS, async (i) => {
        for (const device of DEVICES) await task(made[i % count].members[Math.floor(i / count)], device);
      });
    await everyDevice((member, device) => chats.pending(member, 10, false, device));
    await concurrently(count * sends, async (i) => {
      const { id, members } = made[i % count];
      const n = Math.floor(i / count) + 1;
      await chats.send(id, members[n % MEMORY_MEMBERS], messageText(n), n > dedupeFrom ? `client-${n}` : undefined);
    });
    // sends + 1 entries are pending in the member's one chat: one fetch takes them all.
    if (retention.mode === 'seen') await everyDevice((member, device) => chats.pending(member, 1000, true, device));
    // INFO used_memory grown per chat: chat keys, members' index and devices, allocator overhead.
    const used = ((await usedMemory(admin)) - before) / count;
    // A 'history' log trimmed to its keep count; a 'seen' log gone once every device took it.
    for (const { id } of made) {
      const kept = await admin.zcard(chatKeys.messages(id));
      const expected = retention.mode === 'seen' ? 0 : keep;
      if (kept !== expected)
        throw new Error(`${retention.mode} chat ${id} keeps ${kept} entries, expected ${expected}`);
    }
    return { made, used, keys: await chatKeyBytes(admin, made) };
  };

  await redis.flushdb();
  // The creation sent entry 1; then past the keep count, the last sends with clientMessageIds.
  const sends = keep - 1 + OVERFLOW;
  const history = await fill('h', MEMORY_CHATS, HISTORY, sends, sends - DEDUPE_SENDS);
  const sample = await admin.zrange(chatKeys.messages(history.made[0].id), 0, 99);
  const entryJson = mean(sample.map((json) => Buffer.byteLength(json)));
  const members = history.made.flatMap(({ members }) => members);
  const memberKeys = await Promise.all(
    members.flatMap((member) => [keyBytes(admin, userKeys.chats(member)), keyBytes(admin, userKeys.devices(member))]),
  );
  const dedupeRecords = Number(await admin.hlen(chatKeys.sent(history.made[0].id)));
  const seen = await fill('s', SEEN_CHATS, SEEN, SEEN_SENDS);

  const total = (keys: Record<ChatKeyName, number>): number => sumOf(CHAT_KEY_NAMES, (name) => keys[name]);
  const dedupe = history.keys.sent + history.keys.sentExpiry;
  const rest = (keys: Record<ChatKeyName, number>): number => total(keys) - keys.messages - keys.sent - keys.sentExpiry;
  const figures: [string, string, number][] = [
    [
      'history_chat_bytes',
      `'history' chat at ${KEEP} entries of ${MESSAGE_BYTES}-byte messages (its keys)`,
      total(history.keys),
    ],
    ['history_entry_bytes', "'history' chat, log bytes per entry", history.keys.messages / keep],
    ['history_used_per_chat', "'history' chat, INFO used_memory grown per chat", history.used],
    ['dedupe_record_bytes', 'per send with a clientMessageId, until CHAT_DEDUPE_SECONDS', dedupe / dedupeRecords],
    ['seen_chat_bytes', "'seen' chat once every device has fetched (its keys)", total(seen.keys)],
  ];
  for (const [id, what, value] of figures)
    report.value(`messaging.memory.${id}`, `memory: ours, ${what}`, 'bytes', value);
  const bytes = (n: number): string => Math.round(n).toLocaleString('en-US');
  const full = `history, ${KEEP} entries`;
  const others = 'members, meta, roles, cursors, active';
  const grown = 'INFO used_memory grown per chat (members too)';
  const seenAll = 'seen, all fetched';
  const rows: [string, string, number, number?][] = [
    [full, `log (entries of ${entryJson.toFixed(0)} bytes of JSON)`, history.keys.messages, keep],
    [full, `dedupe records (${dedupeRecords} sends with a clientMessageId)`, dedupe, dedupeRecords],
    [full, others, rest(history.keys)],
    [full, "all the chat's keys", total(history.keys)],
    [full, grown, history.used, keep],
    [seenAll, 'log', seen.keys.messages],
    [seenAll, others, rest(seen.keys)],
    [seenAll, grown, seen.used],
    ['either', "per member: the user's chat index and device registry", sumOf(memberKeys, (b) => b) / members.length],
  ];
  const title = `messaging memory per chat (${MEMORY_MEMBERS} members, ${DEVICES.length} devices each; MEMORY USAGE, SAMPLES 0)`;
  report.tableOf(title, 2, rows, [
    ['retention', ([retention]) => retention],
    ['what', ([, what]) => what],
    ['bytes per chat', ([, , perChat]) => bytes(perChat)],
    ['bytes per entry', ([, , perChat, entries]) => (entries ? bytes(perChat / entries) : '')],
  ]);
}

const TITLE =
  "Messaging (book 6.5): one-script send and fetch, with devices and history, against the book's lock-based send_message and fetch_pending_messages";

bench({ id: 'messaging', title: TITLE }, async ({ admin, connect, report, steps: progress }) => {
  const redis = connect();
  // The book's lock release uses WATCH, which needs a connection per concurrent sender.
  const pool = Array.from({ length: IN_FLIGHT }, () => connect({}, true));
  const limits = { maxChatMembers: 1000, maxChatsPerUser: 1000, dedupeSeconds: 3600 };
  const chats = new ChatRepository(redis, { ...limits, ...CHAT_DEFAULTS });
  // Send: the fill, then the rounds; fetch: the rounds; memory counts two.
  const steps = progress(1 + stepsOf(4, ROUNDS, 'once') + stepsOf(5, ROUNDS, 'once') + 2);
  await Promise.all([redis.ping(), admin.ping(), ...pool.map((client) => client.ping())]);
  /** Garbage collected first, so that a timed window does not pay for the seeding before it. */
  const timed = (label: string, ops: number, work: () => Promise<unknown>): Promise<Sample> => {
    collectGarbage();
    return measure(ops, work, { admin, label });
  };

  // Sends into one chat of IN_FLIGHT members; a 'seen' chat is new every round (its members would keep its log short).
  const senders = Array.from({ length: IN_FLIGHT }, (_, i) => `u${i}`);
  const create = async (retention: Retention): Promise<string> =>
    (await chats.create(senders[0], senders.slice(1), 'start', false, retention)).chat.id;
  const historyChat = await create(HISTORY);
  steps.step('send, filling the history chat');
  await concurrently(HISTORY.keepMessages, (i, worker) => chats.send(historyChat, senders[worker], `message ${i}`));
  /** Lock attempts of the book's sends that found the lock taken, in the measured rounds. */
  let retries = 0;
  /** Each sender's messages in the chat last sent to ('history', after 'seen'), to edit its newest ones. */
  let sent: number[][] = [];
  const { measured: send } = await alternate({
    peers: ['book', 'seen', 'history', 'edit'] as const,
    rounds: ROUNDS,
    steps,
    label: 'send',
    async run(peer, round) {
      const ops = round.size(peer === 'book' ? BOOK_SENDS : peer === 'edit' ? Math.ceil(OUR_SENDS / 2) : OUR_SENDS);
      if (peer === 'book')
        return timed('book (lock, INCR, ZADD, unlock)', ops, () =>
          concurrently(ops, async (i, worker) => {
            // Awaited first: `x += await f()` would read x before the wait and lose updates.
            const attempts = await bookSend(pool[worker], '1', `u${worker}`, `message ${i}`);
            if (!round.warm) retries += attempts - 1;
          }),
        );
      if (peer === 'edit') {
        // The edits' own entries trim older ones: each sender edits its newest messages of the round.
        const edited = senders.map(() => 0);
        return timed("ours, edit in the 'history' chat (one Lua script)", ops, () =>
          concurrently(ops, async (i, worker) => {
            const own = sent[worker];
            const target = own[own.length - 1 - (edited[worker]++ % own.length)];
            const { stored } = await chats.edit(historyChat, senders[worker], target, `edited ${i}`);
            if (!stored) throw new Error(`the edit of message ${target} was not stored`);
          }),
        );
      }
      const chat = peer === 'seen' ? await create(SEEN) : historyChat;
      const last = async (): Promise<number> => Number(await admin.hget(chatKeys.meta(chat), 'last'));
      const first = await last();
      sent = senders.map(() => []);
      const sample = await timed(`ours, '${peer}' chat (one Lua script)`, ops, () =>
        concurrently(ops, async (i, worker) => {
          const { message } = await chats.send(chat, senders[worker], `message ${i}`);
          sent[worker].push(message.id);
        }),
      );
      const now = await last();
      if (now !== first + ops) throw new Error(`the ${peer} chat's last entry id is ${now}, expected ${first + ops}`);
      return sample;
    },
  });
  const kept = await admin.zcard(chatKeys.messages(historyChat));
  if (kept !== HISTORY.keepMessages)
    throw new Error(`the history chat keeps ${kept} entries, expected ${HISTORY.keepMessages}`);

  const expected = CHATS_PER_USER * MESSAGES_PER_CHAT;
  const { measured: fetch } = await alternate({
    peers: ['book', ...FETCHERS.map(({ id }) => id)],
    rounds: ROUNDS,
    steps,
    label: 'fetch',
    async run(peer, round) {
      const count = round.size(USERS);
      if (peer === 'book') await seedPending(redis, chats, count);
      const ours = FETCHERS.find(({ id }) => id === peer);
      const each = ours?.devices.length ? ours.devices : [undefined];
      return timed(ours ? `ours, ${ours.what}` : 'book (fetch_pending_messages)', count * each.length, () =>
        concurrently(count, async (u, worker) => {
          const user = ours ? `${peer}-${u}` : `u${u}`;
          for (const device of each) {
            const fetched = ours
              ? sumOf(await chats.pending(user, 1000, true, device), (chat) => chat.messages.length)
              : sumOf(await fetchPendingMessages(pool[worker], user), ([, messages]) => messages.length);
            if (fetched !== expected)
              throw new Error(`${user}${device ? ` on ${device}` : ''} fetched ${fetched}, expected ${expected}`);
          }
        }),
      );
    },
  });

  const sends = [
    ['seen', "'seen' chat: ours / book's lock-based send_message"],
    ['history', `'history' chat at ${KEEP} entries: ours / book's send_message`],
  ] as const;
  for (const [id, what] of sends)
    report.ratio(`messaging.send.${id}_vs_book`, `sendMessage, ${what} (sends/s)`, rates(send[id]), rates(send.book));
  const medians: [string, string, string, Sample[]][] = [
    ['send.seen_rate', `sendMessage: ours, 'seen' chat`, 'sends/s', send.seen],
    ['send.history_rate', `sendMessage: ours, 'history' chat at its keep count`, 'sends/s', send.history],
    ['send.book_rate', `sendMessage: book's send_message, one chat`, 'sends/s', send.book],
    ['edit.rate', `editMessage: ours, 'history' chat`, 'edits/s', send.edit],
  ];
  for (const [id, label, unit, runs] of medians)
    report.median(`messaging.${id}`, `${label}, ${IN_FLIGHT} senders`, unit, rates(runs));
  const atMostOne = { op: '<=', value: 1 } as const;
  const trips: [string, string, Sample[], Figure['target']?][] = [
    ['send.seen_round_trips', "sendMessage: ours, 'seen' chat, round trips per send", send.seen, atMostOne],
    ['send.history_round_trips', "sendMessage: ours, 'history' chat, round trips per send", send.history, atMostOne],
    ['edit.round_trips', 'editMessage: ours, round trips per edit', send.edit, atMostOne],
    ['send.book_round_trips', "sendMessage: book's, round trips per send (lock retries included)", send.book],
    ...[...FETCHERS.slice(1), { id: 'book', what: '' }].map(({ id, what }): [string, string, Sample[]] => [
      `fetch.${id}_round_trips`,
      `fetchPendingMessages: ${what ? `ours, ${what}` : "book's"}, round trips per fetch of ${CHATS_PER_USER} chats`,
      fetch[id],
    ]),
  ];
  for (const [id, label, runs, target] of trips)
    report.value(`messaging.${id}`, label, 'round trips', perOp(runs), target);
  const lockLabel = "sendMessage: book's, lock attempts that found it taken, per send";
  report.value('messaging.send.book_lock_retries', lockLabel, 'attempts', retries / (BOOK_SENDS * ROUNDS));
  for (const { id, what } of FETCHERS) {
    const label = `fetchPendingMessages, ${what}: ours / book's fetch_pending_messages (fetches/s)`;
    report.ratio(`messaging.fetch.${id}_vs_book`, label, rates(fetch[id]), rates(fetch.book));
  }

  const sending = `send, ${IN_FLIGHT} senders, one chat`;
  const fetching = `fetch of ${CHATS_PER_USER} chats`;
  const rows: [string, string, Sample[]][] = [
    [sending, "ours, 'seen' chat (one script)", send.seen],
    [sending, `ours, 'history' chat at ${KEEP} (one script, trims)`, send.history],
    [sending, 'book (SETNX lock, INCR, ZADD, WATCH unlock)', send.book],
    [`edit, ${IN_FLIGHT} senders, one chat`, "ours, 'history' chat (one script)", send.edit],
    ...FETCHERS.map(({ id, what }): [string, string, Sample[]] => [fetching, `ours, ${what}`, fetch[id]]),
    [fetching, 'book (fetch_pending_messages)', fetch.book],
  ];
  report.tableOf(`messaging summary (medians of ${ROUNDS} rounds, with the range)`, 2, rows, [
    ['operation', ([what]) => what],
    ['peer', ([, peer]) => peer],
    ['per second (min-max)', ([, , runs]) => medianRange(rates(runs))],
    ['round trips/op', ([, , runs]) => perOp(runs).toFixed(2)],
    ['redis cmds/op', ([, , runs]) => perOp(runs, (r) => r.executed).toFixed(2)],
  ]);

  steps.step('memory per chat', 2);
  await benchMemory(report, redis, admin, chats);
  report.note(
    `Memory: ${MEMORY_CHATS} chats in 'history' mode filled to ${(HISTORY.keepMessages + OVERFLOW).toLocaleString('en-US')} entries with ${MESSAGE_BYTES}-byte messages (the last ${DEDUPE_SENDS} with a clientMessageId), so they trim to the default ${KEEP}; ` +
      `${SEEN_CHATS} 'seen' chats of ${SEEN_SENDS} messages that every device then fetched. The used_memory deltas include the members' index and device keys and the allocator's overhead; a dedupe record lives CHAT_DEDUPE_SECONDS (a day by default).`,
    `Sends: ${IN_FLIGHT} concurrent senders into one chat of ${IN_FLIGHT} members; the book's lock is SETNX with a 1 ms sleep between attempts and a WATCH release, one connection per sender; ours shares one connection. ` +
      `The 'seen' chat is new each round; the 'history' chat was filled to its ${KEEP} entries first, so each send also trims one; edits change that round's messages.`,
    `Fetch: ${USERS} users per round and peer, each with ${CHATS_PER_USER} chats of ${MESSAGES_PER_CHAT} unread messages, fetched and marked seen; every fetch must return every message. ` +
      `A device was registered by a first fetch before the messages were sent (so its cursors exist and the registry call is one; a device's first fetch adds chat-device-add, one more); two devices fetch one after the other, each getting all, counted per fetch.`,
    'Round trips: requests the clients sent per operation (a MULTI/EXEC block counts one; ours send theirs at once: the index read with the device check, then the chats); redis cmds: INFO commandstats, commands inside scripts included. Garbage is collected before each timed window, so none pays for the seeding before it.',
  );
});
