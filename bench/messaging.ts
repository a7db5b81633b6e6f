// Messaging benchmark: our one-script send and per-chat fetch against the book's versions
// (send_message inside acquire_lock/release_lock; fetch_pending_messages with its round trips per
// chat), measured in the same run on the same redis-server, in alternating rounds after a
// warm-up. Reports ratios, round trips and commands Redis executed.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { CHAT_DEFAULTS, ChatRepository } from '../src/redis/chat';
import { defineScripts } from '../src/redis/client/scripts';
import { countTraffic, since, snapshot, uncounted } from './harness/round-trips';
import { pairedRatio, runSuite, Steps, summarize } from './harness/suite';
import { commandCount, withBenchRedis } from './harness/support';

const IN_FLIGHT = 50;
const CHATS_PER_USER = 5;
const MESSAGES_PER_CHAT = 20;

function settings(quick: boolean) {
  const bookSends = Number(process.env.BENCH_SENDS ?? (quick ? 500 : 2_000));
  return {
    bookSends,
    // Ours is an order of magnitude faster: more sends, so its rounds last long enough to time.
    ourSends: bookSends * 4,
    users: Number(process.env.BENCH_FETCH_USERS ?? (quick ? 100 : 200)),
    rounds: Number(process.env.BENCH_MESSAGING_ROUNDS ?? (quick ? 3 : 5)),
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

/** The book's fetch_pending_messages. */
async function bookFetch(redis: Redis, user: string): Promise<number> {
  const seen = await redis.zrange(`seen:${user}`, 0, -1, 'WITHSCORES');
  const chats: [string, number][] = [];
  for (let i = 0; i < seen.length; i += 2) chats.push([seen[i], Number(seen[i + 1])]);
  const pipeline = redis.multi();
  for (const [chatId, seenId] of chats) pipeline.zrangebyscore(`msgs:${chatId}`, seenId + 1, '+inf');
  const found = ((await pipeline.exec()) ?? []).map(([, value]) => value as string[]);
  let count = 0;
  const updates = redis.multi();
  for (let i = 0; i < chats.length; i++) {
    const messages = found[i].map((json) => JSON.parse(json) as { id: number });
    if (messages.length === 0) continue;
    count += messages.length;
    const [chatId] = chats[i];
    const seenId = messages[messages.length - 1].id;
    await redis.zadd(`chat:${chatId}`, seenId, user);
    const oldest = await redis.zrange(`chat:${chatId}`, 0, 0, 'WITHSCORES');
    updates.zadd(`seen:${user}`, seenId, chatId);
    if (oldest.length) updates.zremrangebyscore(`msgs:${chatId}`, 0, oldest[1]);
  }
  await updates.exec();
  return count;
}

interface Timed {
  rate: number;
  requests: number;
  executed: number;
}

async function timed(label: string, admin: Redis, operations: number, work: () => Promise<void>): Promise<Timed> {
  await admin.config('RESETSTAT');
  const before = snapshot();
  const started = process.hrtime.bigint();
  await work();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const { requests } = since(before);
  const executed = await commandCount(admin);
  console.log(
    `  ${label}: ${seconds.toFixed(3)} s, ${(operations / seconds).toFixed(0)}/s; per operation ${(requests / operations).toFixed(2)} round trips, ` +
      `${(executed / operations).toFixed(2)} commands executed by Redis`,
  );
  return { rate: operations / seconds, requests: requests / operations, executed: executed / operations };
}

async function inParallel(total: number, task: (i: number, worker: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_, worker) => {
      while (next < total) await task(next++, worker);
    }),
  );
}

/** Every user has CHATS_PER_USER chats with MESSAGES_PER_CHAT unread messages, in both layouts. */
async function seedPending(redis: Redis, chats: ChatRepository, users: number): Promise<void> {
  await redis.flushdb();
  await inParallel(users, async (u) => {
    for (let c = 0; c < CHATS_PER_USER; c++) {
      const chatId = `${u}-${c}`;
      const multi = redis.multi().zadd(`chat:${chatId}`, 0, `u${u}`, 0, 'other').zadd(`seen:u${u}`, 0, chatId);
      for (let m = 1; m <= MESSAGES_PER_CHAT; m++)
        multi.zadd(`msgs:${chatId}`, m, JSON.stringify({ id: m, message: `m${m}` }));
      await multi.exec();
    }
    const ids: string[] = [];
    for (let c = 0; c < CHATS_PER_USER; c++) ids.push((await chats.create(`u${u}`, ['other'], 'm1', false)).chat.id);
    for (let m = 2; m <= MESSAGES_PER_CHAT; m++) for (const id of ids) await chats.send(id, `u${u}`, `m${m}`);
  });
}

const mean = (values: number[]): number => values.reduce((sum, v) => sum + v, 0) / values.length;

runSuite(
  'messaging',
  "Messaging (book 6.5): one-script send and fetch, against the book's lock-based send_message and fetch_pending_messages",
  async (report, quick) => {
    const { bookSends, ourSends, users, rounds } = settings(quick);
    countTraffic();
    await withBenchRedis(async (url) => {
      const redis = new Redis(url);
      const admin = uncounted(new Redis(url));
      defineScripts(redis);
      // The book's lock release uses WATCH, which needs a connection per concurrent sender.
      const pool = Array.from({ length: IN_FLIGHT }, () => new Redis(url));
      const chats = new ChatRepository(redis, {
        maxChatMembers: 1000,
        maxChatsPerUser: 1000,
        dedupeSeconds: 3600,
        ...CHAT_DEFAULTS,
      });
      const steps = new Steps(2 * (rounds + 1));
      try {
        console.log(
          `messaging benchmark: sends into one chat, ${IN_FLIGHT} senders at once (book ${bookSends}, ours ${ourSends} per round); ` +
            `fetch for ${users} users with ${CHATS_PER_USER} chats of ${MESSAGES_PER_CHAT} pending messages; 1 warm-up + ${rounds} rounds, book then ours in each.`,
        );
        await Promise.all([redis.ping(), admin.ping(), ...pool.map((client) => client.ping())]);
        await chats.create(
          'u0',
          Array.from({ length: IN_FLIGHT - 1 }, (_, i) => `u${i + 1}`),
          'start',
          false,
        );
        const send = { book: [] as Timed[], ours: [] as Timed[] };
        let retries = 0;
        let ourTotal = 0;
        for (let round = 0; round <= rounds; round++) {
          const warm = round === 0;
          const [bookOps, ourOps] = warm ? [Math.ceil(bookSends / 4), Math.ceil(ourSends / 4)] : [bookSends, ourSends];
          steps.step(`send, ${warm ? 'warm-up' : `round ${round}/${rounds}`}`);
          console.log(warm ? 'send, warm-up:' : `send, round ${round}:`);
          let roundRetries = 0;
          const book = await timed('book (lock, INCR, ZADD, unlock)', admin, bookOps, () =>
            inParallel(bookOps, async (i, worker) => {
              // Awaited first: `x += await f()` would read x before the wait and lose updates.
              const attempts = await bookSend(pool[worker], '1', `u${worker}`, `message ${i}`);
              roundRetries += attempts - 1;
            }),
          );
          console.log(
            `    lock attempts that found the lock taken: ${roundRetries} (${(roundRetries / bookOps).toFixed(2)} per send)`,
          );
          const ours = await timed('ours (one Lua script)', admin, ourOps, () =>
            inParallel(ourOps, async (i, worker) => void (await chats.send('1', `u${worker}`, `message ${i}`))),
          );
          ourTotal += ourOps;
          if (!warm) {
            send.book.push(book);
            send.ours.push(ours);
            retries += roundRetries;
          }
        }
        const last = Number(await admin.hget('chat:{c1}:meta', 'last'));
        if (last !== ourTotal + 1) throw new Error(`our chat's last message id is ${last}, expected ${ourTotal + 1}`);

        const fetch = { book: [] as Timed[], ours: [] as Timed[] };
        for (let round = 0; round <= rounds; round++) {
          const warm = round === 0;
          const count = warm ? Math.ceil(users / 4) : users;
          steps.step(`fetch, ${warm ? 'warm-up' : `round ${round}/${rounds}`}`);
          console.log(warm ? 'fetch, warm-up:' : `fetch, round ${round}:`);
          await seedPending(redis, chats, count);
          let bookCount = 0;
          let ourCount = 0;
          const book = await timed('book (fetch_pending_messages)', admin, count, () =>
            inParallel(count, async (u, worker) => {
              const fetched = await bookFetch(pool[worker], `u${u}`);
              bookCount += fetched;
            }),
          );
          const ours = await timed('ours (index, status and fetch scripts per chat)', admin, count, () =>
            inParallel(count, async (u) => {
              for (const chat of await chats.pending(`u${u}`, 1000, true)) ourCount += chat.messages.length;
            }),
          );
          const expected = count * CHATS_PER_USER * MESSAGES_PER_CHAT;
          if (bookCount !== expected || ourCount !== expected)
            throw new Error(`messages fetched: book ${bookCount}, ours ${ourCount}, expected ${expected}`);
          if (!warm) {
            fetch.book.push(book);
            fetch.ours.push(ours);
          }
        }

        const rate = (runs: Timed[]): number[] => runs.map((r) => r.rate);
        report.figure({
          id: 'messaging.send.ours_vs_book',
          label: "sendMessage: ours / book's lock-based send_message (sends/s)",
          unit: 'x',
          ...pairedRatio(rate(send.ours), rate(send.book)),
        });
        report.figure({
          id: 'messaging.send.ours_rate',
          label: 'sendMessage: ours, one chat, 50 senders',
          unit: 'sends/s',
          ...summarize(rate(send.ours)),
        });
        report.figure({
          id: 'messaging.send.book_rate',
          label: "sendMessage: book's send_message, one chat, 50 senders",
          unit: 'sends/s',
          ...summarize(rate(send.book)),
        });
        report.figure({
          id: 'messaging.send.ours_round_trips',
          label: 'sendMessage: ours, round trips per send',
          unit: 'round trips',
          value: mean(send.ours.map((r) => r.requests)),
          target: { op: '<=', value: 1 },
        });
        report.figure({
          id: 'messaging.send.book_round_trips',
          label: "sendMessage: book's, round trips per send (lock retries included)",
          unit: 'round trips',
          value: mean(send.book.map((r) => r.requests)),
        });
        report.figure({
          id: 'messaging.send.book_lock_retries',
          label: "sendMessage: book's, lock attempts that found it taken, per send",
          unit: 'attempts',
          value: retries / (bookSends * rounds),
        });
        report.figure({
          id: 'messaging.fetch.ours_vs_book',
          label: "fetchPendingMessages: ours / book's fetch_pending_messages (users/s)",
          unit: 'x',
          ...pairedRatio(rate(fetch.ours), rate(fetch.book)),
        });
        report.figure({
          id: 'messaging.fetch.ours_round_trips',
          label: `fetchPendingMessages: ours, round trips per user of ${CHATS_PER_USER} chats`,
          unit: 'round trips',
          value: mean(fetch.ours.map((r) => r.requests)),
        });
        report.figure({
          id: 'messaging.fetch.book_round_trips',
          label: `fetchPendingMessages: book's, round trips per user of ${CHATS_PER_USER} chats`,
          unit: 'round trips',
          value: mean(fetch.book.map((r) => r.requests)),
        });

        const row = (what: string, peer: string, runs: Timed[]): string[] => {
          const rates = rate(runs);
          return [
            what,
            peer,
            `${summarize(rates).value.toFixed(0)} (${Math.min(...rates).toFixed(0)}-${Math.max(...rates).toFixed(0)})`,
            mean(runs.map((r) => r.requests)).toFixed(2),
            mean(runs.map((r) => r.executed)).toFixed(2),
          ];
        };
        report.table(
          `messaging summary (medians of ${rounds} rounds, with the range)`,
          ['operation', 'peer', 'per second (min-max)', 'round trips/op', 'redis cmds/op'],
          [
            row(`send, ${IN_FLIGHT} senders, one chat`, 'ours (one script)', send.ours),
            row(`send, ${IN_FLIGHT} senders, one chat`, 'book (SETNX lock, INCR, ZADD, WATCH unlock)', send.book),
            row(`fetch, per user of ${CHATS_PER_USER} chats`, 'ours (index, status, fetch scripts)', fetch.ours),
            row(`fetch, per user of ${CHATS_PER_USER} chats`, 'book (fetch_pending_messages)', fetch.book),
          ],
          2,
        );
        report.note(
          `Sends: ${IN_FLIGHT} concurrent senders into one chat; the book's lock is SETNX with a 1 ms sleep between attempts and a WATCH release, one connection per sender; ours shares one connection.`,
        );
        report.note(
          `Fetch: ${users} users per round, each with ${CHATS_PER_USER} chats of ${MESSAGES_PER_CHAT} unread messages, fetched and marked seen; both must return every message.`,
        );
        report.note(
          'Round trips: requests the clients sent per operation (a MULTI/EXEC block counts one); redis cmds: INFO commandstats, commands inside scripts included.',
        );
      } finally {
        for (const client of pool) client.disconnect();
        redis.disconnect();
        admin.disconnect();
      }
    });
  },
);
