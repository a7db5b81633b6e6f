// The per-chat subscription's own safety net: notices may be dropped under load, a member's own
// LEFT too, so membership is checked again before delivering once the last check is old.
import pino from 'pino';
import { CHAT_DEFAULTS, ChatRepository } from '../../src/redis/chat';
import { chatKeys } from '../../src/redis/keys';
import { ChatChangesResolver } from '../../src/resolvers/chat-changes';
import { createContext } from '../../src/schema/context';
import { createRedisPubSub, type RedisPubSub } from '../../src/schema/pubsub';
import { channels, type ChatChangeNotice } from '../../src/schema/topics';
import { productPubSub, startTestRedis, type TestRedis } from '../support/redis';

let redis: TestRedis;
let chats: ChatRepository;
let resolver: ChatChangesResolver;
let pubSub: RedisPubSub;
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  redis = await startTestRedis();
  const { publisher, subscriber } = await productPubSub(redis);
  chats = new ChatRepository(publisher, {
    maxChatMembers: 10,
    maxChatsPerUser: 10,
    dedupeSeconds: 60,
    ...CHAT_DEFAULTS,
  });
  pubSub = createRedisPubSub({ publisher, subscriber, channelOf: channels({ rowCacheTable: 'inventory' }) });
  resolver = new ChatChangesResolver(chats, pubSub, 200);
});
afterAll(async () => {
  await redis.stop();
});

const as = (userId: string) =>
  createContext({
    principal: { userId, roles: [], isService: false, expiresAt: undefined },
    requestId: 'test',
    signal: () => new AbortController().signal,
    logger: () => logger,
  });

it('delivers to a member, and ends without delivering once a recheck finds them gone though their LEFT never came', async () => {
  const { chat } = await chats.create('alice', ['bob'], 'hi', false);
  const stream = (await resolver.changes(chat.id, as('bob')))[Symbol.asyncIterator]();
  await chats.send(chat.id, 'alice', 'two');
  expect((await stream.next()).value).toEqual<ChatChangeNotice>({
    chatId: chat.id,
    change: 'ENTRY',
    user: 'alice',
    messageId: 2,
  });
  // Gone without a notice, as if their LEFT had been dropped.
  await redis.client.zrem(chatKeys.members(chat.id), 'bob');
  await new Promise((resolve) => setTimeout(resolve, 300));
  await chats.send(chat.id, 'alice', 'three');
  expect(await stream.next()).toEqual({ done: true, value: undefined });
});

it('refuses a non-member with NOT_FOUND', async () => {
  const { chat } = await chats.create('alice', ['bob'], 'hi', false);
  await expect(resolver.changes(chat.id, as('mallory'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
});

it('closes the Redis subscription of a subscription cancelled before its first notice', async () => {
  const { chat } = await chats.create('alice', ['bob'], 'hi', false);
  const channel = channels({ rowCacheTable: 'inventory' })('CHAT_CHANGED', chat.id);
  for (let i = 0; i < 3; i++) {
    const stream = await resolver.changes(chat.id, as('bob'));
    expect(await redis.subscribers(channel)).toBe(1);
    await stream.return!();
  }
  for (let i = 0; i < 100 && (await redis.subscribers(channel)) > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(await redis.subscribers(channel)).toBe(0);
});

it("delivers a removed member's own LEFT last, and then ends, however far behind their client is", async () => {
  const { chat } = await chats.create('alice', ['bob'], 'hi', false);
  // No recheck here: the LEFT itself must end it.
  const patient = new ChatChangesResolver(chats, pubSub, 60_000);
  const stream = (await patient.changes(chat.id, as('bob')))[Symbol.asyncIterator]();
  // As graphql-ws does, ask for the first notice at once; the client then falls behind.
  const first = stream.next();
  for (let i = 0; i < 150; i++) await chats.send(chat.id, 'alice', `m${i}`);
  expect(await chats.removeMember(chat.id, 'bob', 'alice', false)).toBe(true);
  for (let i = 0; i < 100; i++) await chats.send(chat.id, 'alice', `after ${i}`);
  // Only now does the client read: the oldest notices were dropped, never the LEFT, and nothing
  // after it was taken in.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const got: ChatChangeNotice[] = [];
  for (let step = await first; !step.done; step = await stream.next()) got.push(step.value as ChatChangeNotice);
  expect(got.length).toBeLessThanOrEqual(65); // the buffer, and the one in hand
  expect(got[got.length - 1]).toEqual({ chatId: chat.id, change: 'LEFT', user: 'bob', messageId: null });
  expect(got.slice(0, -1).every((notice) => notice.change === 'ENTRY')).toBe(true);
});

it("delivers a removed member's own LEFT however long ago membership was last checked", async () => {
  const { chat } = await chats.create('alice', ['bob'], 'hi', false);
  const stream = (await resolver.changes(chat.id, as('bob')))[Symbol.asyncIterator]();
  const first = stream.next();
  await new Promise((resolve) => setTimeout(resolve, 300)); // past the 200 ms recheck
  expect(await chats.removeMember(chat.id, 'bob', 'alice', false)).toBe(true);
  expect((await first).value).toEqual({ chatId: chat.id, change: 'LEFT', user: 'bob', messageId: null });
  expect(await stream.next()).toEqual({ done: true, value: undefined });
});
