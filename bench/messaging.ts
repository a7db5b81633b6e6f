// Messaging benchmark: our one-script send and per-chat fetch against the book's versions
// (send_message inside acquire_lock/release_lock; fetch_pending_messages with its round trips per
// chat), measured in the same run on the same redis-server. Reports ratios and round trips.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { ChatRepository } from '../src/redis/chat';
import { defineScripts } from '../src/redis/scripts';
import { commandCount, runBenchmark, withBenchRedis } from './support';

const SENDS = Number(process.env.BENCH_SENDS ?? 5_000);
const IN_FLIGHT = 50;
const USERS = 200;
const CHATS_PER_USER = 5;
const MESSAGES_PER_CHAT = 20;

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
  for (let i = 0; i < seen.length; i += 2) chats.push([seen[i]!, Number(seen[i + 1])]);
  const pipeline = redis.multi();
  for (const [chatId, seenId] of chats) pipeline.zrangebyscore(`msgs:${chatId}`, seenId + 1, '+inf');
  const found = ((await pipeline.exec()) ?? []).map(([, value]) => value as string[]);
  let count = 0;
  const updates = redis.multi();
  for (let i = 0; i < chats.length; i++) {
    const messages = found[i]!.map((json) => JSON.parse(json) as { id: number });
    if (messages.length === 0) continue;
    count += messages.length;
    const [chatId] = chats[i]!;
    const seenId = messages[messages.length - 1]!.id;
    await redis.zadd(`chat:${chatId}`, seenId, user);
    const oldest = await redis.zrange(`chat:${chatId}`, 0, 0, 'WITHSCORES');
    updates.zadd(`seen:${user}`, seenId, chatId);
    if (oldest.length) updates.zremrangebyscore(`msgs:${chatId}`, 0, oldest[1]!);
  }
  await updates.exec();
  return count;
}

/** Commands the clients sent (a MULTI/EXEC block counts each command in it). */
let sent = 0;
function counted(client: Redis): Redis {
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
    sent++;
    return send(...args);
  }) as Redis['sendCommand'];
  return client;
}


async function timed(label: string, redis: Redis, operations: number, work: () => Promise<void>): Promise<number> {
  await redis.config('RESETSTAT');
  sent = 0;
  const started = process.hrtime.bigint();
  await work();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const sentByClients = sent;
  const executed = await commandCount(redis);
  console.log(
    `  ${label}: ${seconds.toFixed(3)} s, ${(operations / seconds).toFixed(0)}/s; per operation ${(sentByClients / operations).toFixed(2)} commands sent, ${(executed / operations).toFixed(2)} executed by Redis`,
  );
  return seconds;
}

async function inParallel(total: number, task: (i: number, worker: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_, worker) => {
      while (next < total) await task(next++, worker);
    }),
  );
}

async function main(): Promise<void> {
  await withBenchRedis(async (url) => {
    const redis = counted(new Redis(url));
    defineScripts(redis);
    // The book's lock release uses WATCH, which needs a connection per concurrent sender.
    const pool = Array.from({ length: IN_FLIGHT }, () => counted(new Redis(url)));
    const chats = new ChatRepository(redis, { maxChatMembers: 1000, maxChatsPerUser: 1000, dedupeSeconds: 3600 });
    try {
      console.log(`send benchmark: ${SENDS} messages into one chat, ${IN_FLIGHT} senders at once`);
      let retries = 0;
      const book = await timed('book (lock, INCR, ZADD, unlock)', redis, SENDS, () =>
        inParallel(SENDS, async (i, worker) => {
          const attempts = await bookSend(pool[worker]!, '1', `u${worker}`, `message ${i}`);
          retries += attempts - 1;
        }),
      );
      console.log(`    lock attempts that found the lock taken: ${retries} (${(retries / SENDS).toFixed(2)} per send)`);
      await redis.flushdb();
      await chats.create('u0', Array.from({ length: IN_FLIGHT - 1 }, (_, i) => `u${i + 1}`), 'start', false);
      const ours = await timed('ours (one Lua script)', redis, SENDS, () =>
        inParallel(SENDS, async (i, worker) => void (await chats.send('1', `u${worker}`, `message ${i}`))),
      );
      const ids = await redis.hget('chat:{c1}:meta', 'last');
      console.log(`    last id ${ids} (expected ${SENDS + 1}); ours/book send speed ratio ${(book / ours).toFixed(2)}`);

      await redis.flushdb();
      console.log(`fetch benchmark: ${USERS} users, ${CHATS_PER_USER} chats each with ${MESSAGES_PER_CHAT} pending messages`);
      for (let u = 0; u < USERS; u++) {
        for (let c = 0; c < CHATS_PER_USER; c++) {
          const chatId = `${u}-${c}`;
          const multi = redis.multi().zadd(`chat:${chatId}`, 0, `u${u}`, 0, 'other').zadd(`seen:u${u}`, 0, chatId);
          for (let m = 1; m <= MESSAGES_PER_CHAT; m++) multi.zadd(`msgs:${chatId}`, m, JSON.stringify({ id: m, message: `m${m}` }));
          await multi.exec();
        }
        const { chat } = await chats.create(`u${u}`, ['other'], 'm1', false);
        for (let c = 1; c < CHATS_PER_USER; c++) await chats.create(`u${u}`, ['other'], 'm1', false);
        for (let m = 2; m <= MESSAGES_PER_CHAT; m++) {
          for (let c = 0; c < CHATS_PER_USER; c++) await chats.send(String(Number(chat.id) + c), `u${u}`, `m${m}`);
        }
      }
      let bookCount = 0;
      let ourCount = 0;
      const bookFetchTime = await timed('book (fetch_pending_messages)', redis, USERS, () =>
        inParallel(USERS, async (u, worker) => {
          const fetched = await bookFetch(pool[worker]!, `u${u}`);
          bookCount += fetched;
        }),
      );
      const ourFetchTime = await timed('ours (index, status and fetch scripts per chat)', redis, USERS, () =>
        inParallel(USERS, async (u) => {
          for (const chat of await chats.pending(`u${u}`, 1000, true)) ourCount += chat.messages.length;
        }),
      );
      console.log(
        `    messages fetched: book ${bookCount}, ours ${ourCount}; ours/book fetch speed ratio ${(bookFetchTime / ourFetchTime).toFixed(2)}`,
      );
    } finally {
      for (const client of pool) client.disconnect();
      redis.disconnect();
    }
  });
}

runBenchmark(main);
