// The book's chat messages (section 6.5.2), ported for the suites that run them: location sends
// file names to its workers through them, messaging measures fetch_pending_messages against ours.
// Departure: the chat lock is SET NX PX plus a checked DEL (the book's acquire_lock loops on SETNX).
import { setTimeout as sleep } from 'node:timers/promises';
import type Redis from 'ioredis';

type Message = { id: number; ts: number; sender: string; message: string };

export async function sendMessage(redis: Redis, chatId: string, sender: string, message: string): Promise<void> {
  const lock = `lock:chat:${chatId}`;
  const identifier = `${process.pid}:${Math.random()}`;
  while ((await redis.set(lock, identifier, 'PX', 10_000, 'NX')) !== 'OK') await sleep(1);
  try {
    const mid = await redis.incr(`ids:${chatId}`);
    await redis.zadd(`msgs:${chatId}`, mid, JSON.stringify({ id: mid, ts: Date.now() / 1000, sender, message }));
  } finally {
    if ((await redis.get(lock)) === identifier) await redis.del(lock);
  }
}

export async function createChat(redis: Redis, sender: string, recipients: string[], message: string, chatId: string) {
  const multi = redis.multi();
  for (const recipient of [...recipients, sender])
    multi.zadd(`chat:${chatId}`, 0, recipient).zadd(`seen:${recipient}`, 0, chatId);
  await multi.exec();
  await sendMessage(redis, chatId, sender, message);
}

/** fetch_pending_messages: every chat's messages past the recipient's seen id, marked seen. */
export async function fetchPendingMessages(redis: Redis, recipient: string): Promise<[string, Message[]][]> {
  const seen = await redis.zrange(`seen:${recipient}`, 0, -1, 'WITHSCORES');
  const chats: [string, number][] = [];
  for (let i = 0; i + 1 < seen.length; i += 2) chats.push([seen[i], Number(seen[i + 1])]);
  if (chats.length === 0) return [];
  const read = redis.multi();
  for (const [chatId, seenId] of chats) read.zrangebyscore(`msgs:${chatId}`, seenId + 1, 'inf');
  const replies = (await read.exec()) ?? [];
  const out: [string, Message[]][] = [];
  const update = redis.multi();
  for (const [i, [chatId]] of chats.entries()) {
    const raw = replies[i][1] as string[];
    if (raw.length === 0) continue;
    const messages = raw.map((m) => JSON.parse(m) as Message);
    const seenId = messages[messages.length - 1].id;
    await redis.zadd(`chat:${chatId}`, seenId, recipient);
    const minId = await redis.zrange(`chat:${chatId}`, 0, 0, 'WITHSCORES');
    update.zadd(`seen:${recipient}`, seenId, chatId);
    if (minId.length > 0) update.zremrangebyscore(`msgs:${chatId}`, 0, minId[1]);
    out.push([chatId, messages]);
  }
  if (out.length > 0) await update.exec();
  return out;
}
