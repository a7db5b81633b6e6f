// Group chats and their Lua scripts against a real redis-server, with concurrent senders on
// separate connections.
import Redis from 'ioredis';
import { AppError } from '../../src/common/errors';
import { CHAT_DEFAULTS, ChatRepository, shareFairly, type ChatMessage } from '../../src/redis/chat';
import { chatKeys, userKeys } from '../../src/redis/keys';
import { runScript } from '../../src/redis/client/scripts';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';
import { snapshotRedis } from '../support/snapshot';

let redis: TestRedis;
let client: Redis;

// The book's retention (delete once every member has seen): history and devices have tests/repository/chat-history.test.ts.
const SETTINGS = {
  maxChatMembers: 1000,
  maxChatsPerUser: 1000,
  dedupeSeconds: 3600,
  ...CHAT_DEFAULTS,
  retention: { ...CHAT_DEFAULTS.retention, mode: 'seen' as const },
};

const connection = (): Redis => scriptClient(redis);

const repo = (settings = SETTINGS, on = client) => new ChatRepository(on, settings);

beforeAll(async () => {
  redis = await startTestRedis();
  client = connection();
});
afterAll(async () => {
  await redis.stop();
});
beforeEach(async () => {
  await redis.client.flushdb();
});

async function chatKeysExisting(chatId: string): Promise<number> {
  // Every key of the chat, as keys.ts names them.
  const keys = Object.entries(chatKeys).flatMap(([name, key]) => (name === 'ids' ? [] : [key(chatId)]));
  return redis.client.exists(...keys);
}

/** Fetches everything pending for `user` in batches of `batch`, as a client would. */
async function drain(chats: ChatRepository, user: string, batch: number): Promise<Map<string, ChatMessage[]>> {
  const received = new Map<string, ChatMessage[]>();
  for (let round = 0; round < 10_000; round++) {
    const pending = await chats.pending(user, batch, true);
    if (pending.length === 0) return received;
    for (const chat of pending) received.set(chat.chatId, [...(received.get(chat.chatId) ?? []), ...chat.messages]);
  }
  throw new Error('pending never ran dry');
}

describe('create', () => {
  it('makes every member a member at seen-id 0 and stores the first message with id 1', async () => {
    const chats = repo();
    const { chat, message } = await chats.create('alice', ['bob', 'carol'], 'hello', false);

    expect(chat).toEqual({ id: '1', open: false, memberCount: 3, latestMessageId: 1, seenMessageId: 0 });
    expect(message).toMatchObject({ id: 1, chatId: '1', sender: 'alice', message: 'hello' });
    expect(await redis.client.zrange(chatKeys.members('1'), 0, -1, 'WITHSCORES')).toEqual([
      'alice',
      '0',
      'bob',
      '0',
      'carol',
      '0',
    ]);
    for (const user of ['alice', 'bob', 'carol']) {
      expect(await redis.client.zrange(userKeys.chats(user), 0, -1)).toEqual(['1']);
    }
  });

  it('takes chat ids from a counter', async () => {
    const chats = repo();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await chats.create('alice', [], `chat ${i}`, false)).chat.id);
    expect(ids).toEqual(['1', '2', '3']);
  });

  it('steps past ids that are taken when the id counter fell behind (a failover lost its last increments)', async () => {
    const chats = repo();
    for (let i = 0; i < 5; i++) await chats.create('alice', ['bob'], `chat ${i}`, false);
    await redis.client.set(chatKeys.ids(), '1');

    const { chat, message } = await chats.create('carol', ['dave'], 'new', false);
    // Steps of +1, +2, +4 from 1: 2 and 4 are taken, 8 is free.
    expect(chat.id).toBe('8');
    expect(message).toMatchObject({ id: 1, chatId: '8', sender: 'carol', message: 'new' });
    expect(await redis.client.zrange(userKeys.chats('carol'), 0, -1)).toEqual(['8']);
    expect(await redis.client.zrange(userKeys.chats('dave'), 0, -1)).toEqual(['8']);
    // The chats that held the ids are untouched.
    expect(await redis.client.zrange(userKeys.chats('alice'), 0, -1)).toEqual(['1', '2', '3', '4', '5']);
    expect(await redis.client.zrange(chatKeys.members('2'), 0, -1)).toEqual(['alice', 'bob']);
    expect(await redis.client.zcard(chatKeys.messages('4'))).toBe(1);
  });

  it('uses the Redis server clock for message times', async () => {
    const [seconds] = await redis.client.time();
    const { message } = await repo().create('alice', [], 'hi', false);
    expect(Math.abs(message.ts - Number(seconds) * 1000)).toBeLessThan(5000);
  });

  it('creates nothing for anyone when one member already belongs to the most chats allowed', async () => {
    const chats = repo({ ...SETTINGS, maxChatsPerUser: 2 });
    await chats.create('bob', [], 'one', false);
    await chats.create('bob', [], 'two', false);

    const attempt = chats.create('alice', ['carol', 'bob'], 'three', false);
    await expect(attempt).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('bob') });
    expect(await redis.client.zrange(userKeys.chats('alice'), 0, -1)).toEqual([]);
    expect(await redis.client.zrange(userKeys.chats('carol'), 0, -1)).toEqual([]);
    expect(await redis.client.zrange(userKeys.chats('bob'), 0, -1)).toEqual(['1', '2']);
    expect(await chatKeysExisting('3')).toBe(0);
  });
});

describe('send', () => {
  it('gives concurrent senders on separate connections ids 1..N with no gaps or duplicates', async () => {
    const members = ['ann', 'ben', 'cat', 'dan', 'eve'];
    await repo().create('ann', members.slice(1), 'start', false);
    const senders = members.map((member) => ({ member, chats: repo(SETTINGS, connection()) }));

    const perSender = 60;
    const sent = await Promise.all(
      senders.flatMap(({ member, chats }) =>
        Array.from({ length: perSender }, (_, i) => chats.send('1', member, `${member} ${i}`)),
      ),
    );
    const total = 1 + senders.length * perSender;
    const ids = sent.map((s) => s.message.id).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: total - 1 }, (_, i) => i + 2));
    expect(await redis.client.zcard(chatKeys.messages('1'))).toBe(total);

    // Every member receives all of them exactly once, in id order, across many small fetches;
    // each sender's own messages keep the order in which that sender sent them.
    for (const member of members) {
      const received = (await drain(repo(), member, 37)).get('1')!;
      expect(received.map((m) => m.id)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      const own = received.filter((m) => m.sender === 'ben').map((m) => m.message);
      expect(own).toHaveLength(perSender);
    }
    // Once everyone has seen everything, nothing is left stored.
    expect(await redis.client.zcard(chatKeys.messages('1'))).toBe(0);
  });

  it('refuses a sender who is not a member exactly as it refuses an unknown chat', async () => {
    const chats = repo();
    await chats.create('alice', ['bob'], 'hi', false);
    const outsider = await chats.send('1', 'mallory', 'let me in').catch((error: unknown) => error);
    const unknown = await chats.send('99', 'mallory', 'anyone?').catch((error: unknown) => error);

    expect(outsider).toBeInstanceOf(AppError);
    expect(outsider).toEqual(unknown);
    expect(outsider).toMatchObject({ code: 'NOT_FOUND' });
    expect(await redis.client.hget(chatKeys.meta('1'), 'last')).toBe('1');
    expect(await chatKeysExisting('99')).toBe(0);
  });

  it('returns the original message for a retry with the same clientMessageId', async () => {
    const chats = repo();
    await chats.create('alice', ['bob'], 'hi', false);
    const first = await chats.send('1', 'bob', 'are you there?', 'c-1');
    const retry = await chats.send('1', 'bob', 'are you there?', 'c-1');

    expect(first.stored).toBe(true);
    expect(retry.stored).toBe(false);
    expect(retry.message).toEqual(first.message);
    expect(await redis.client.zcard(chatKeys.messages('1'))).toBe(2);

    // The same id from another sender is another message; the same id with another text is refused.
    const fromAlice = await chats.send('1', 'alice', 'yes', 'c-1');
    expect(fromAlice.message.id).toBe(3);
    await expect(chats.send('1', 'bob', 'something else', 'c-1')).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await redis.client.hget(chatKeys.meta('1'), 'last')).toBe('3');
  });

  it('still answers a retry after every member has fetched the original', async () => {
    const chats = repo();
    await chats.create('alice', ['bob'], 'hi', false);
    const first = await chats.send('1', 'bob', 'ping', 'c-9');
    await chats.pending('alice', 100, true);
    await chats.pending('bob', 100, true);
    expect(await redis.client.zcard(chatKeys.messages('1'))).toBe(0);

    const retry = await chats.send('1', 'bob', 'ping', 'c-9');
    expect(retry).toMatchObject({ stored: false, message: first.message });
    expect(await redis.client.zcard(chatKeys.messages('1'))).toBe(0);
  });

  it('forgets a clientMessageId after the dedupe window', async () => {
    const chats = repo({ ...SETTINGS, dedupeSeconds: 1 });
    await chats.create('alice', [], 'hi', false);
    await chats.send('1', 'alice', 'once', 'c-1');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await chats.send('1', 'alice', 'once', 'c-1');
    expect(again).toMatchObject({ stored: true, message: { id: 3 } });
    // The expired entry was swept and the new one recorded.
    expect(await redis.client.hlen(chatKeys.sent('1'))).toBe(1);
    // A quiet chat does not keep its records: the keys expire with the last of them.
    for (const key of [chatKeys.sent('1'), chatKeys.sentExpiry('1')]) {
      const ttl = await redis.client.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(1000);
    }
  });

  it('returns the current member list for notifications', async () => {
    const chats = repo();
    await chats.create('alice', ['bob', 'carol'], 'hi', false);
    const sent = await chats.send('1', 'carol', 'hey');
    expect(sent.members.sort()).toEqual(['alice', 'bob', 'carol']);
  });
});

describe('pending', () => {
  it('reads without advancing, so the same messages come back until marked seen', async () => {
    const chats = repo();
    await chats.create('alice', ['bob'], 'one', false);
    await chats.send('1', 'alice', 'two');

    const first = await chats.pending('bob', 100, false);
    const second = await chats.pending('bob', 100, false);
    expect(first).toEqual(second);
    expect(first[0].messages.map((m) => m.message)).toEqual(['one', 'two']);

    expect(await chats.markSeen('1', 'bob', 1)).toBe(true);
    expect(await chats.markSeen('1', 'bob', 1)).toBe(false);
    const third = await chats.pending('bob', 100, false);
    expect(third[0].messages.map((m) => m.id)).toEqual([2]);
    expect(third[0].remaining).toBe(0);
  });

  it('never moves a seen-id back and refuses ids past the latest message', async () => {
    const chats = repo();
    await chats.create('alice', ['bob'], 'one', false);
    await chats.send('1', 'alice', 'two');
    await chats.markSeen('1', 'bob', 2);
    expect(await chats.markSeen('1', 'bob', 1)).toBe(false);
    await expect(chats.markSeen('1', 'bob', 3)).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    await expect(chats.markSeen('1', 'mallory', 1)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await redis.client.zscore(chatKeys.members('1'), 'bob')).toBe('2');
  });

  it('deletes messages once every member has marked them seen', async () => {
    const chats = repo();
    await chats.create('alice', ['bob'], 'one', false);
    await chats.send('1', 'alice', 'two');
    await chats.markSeen('1', 'alice', 2);
    expect(await redis.client.zcard(chatKeys.messages('1'))).toBe(2);
    await chats.markSeen('1', 'bob', 1);
    expect(await redis.client.zrange(chatKeys.messages('1'), 0, -1, 'WITHSCORES')).toEqual([
      expect.stringContaining('"two"'),
      '2',
    ]);
  });

  it('shares the limit between chats and reports what remains in each', async () => {
    const chats = repo();
    await chats.create('alice', ['bob'], 'a1', false); // chat 1: 30 messages
    for (let i = 2; i <= 30; i++) await chats.send('1', 'alice', `a${i}`);
    await chats.create('carol', ['bob'], 'c1', false); // chat 2: 3 messages
    await chats.send('2', 'carol', 'c2');
    await chats.send('2', 'carol', 'c3');

    const batch = await chats.pending('bob', 10, true);
    expect(batch.map((chat) => [chat.chatId, chat.messages.length, chat.remaining])).toEqual([
      ['1', 7, 23],
      ['2', 3, 0],
    ]);
    expect(batch[0].messages.map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const next = await chats.pending('bob', 100, true);
    expect(next.map((chat) => [chat.chatId, chat.messages[0]?.id, chat.messages.length])).toEqual([['1', 8, 23]]);
  });

  it('serves every chat over repeated fetches even when the limit is below the number of chats', async () => {
    const chats = repo();
    for (let c = 0; c < 3; c++) await chats.create(`owner${c}`, ['bob'], 'first', false);
    const served = new Set<string>();
    for (let round = 0; round < 30; round++) {
      for (let c = 1; c <= 3; c++) await chats.send(String(c), `owner${c - 1}`, `round ${round}`);
      for (const chat of await chats.pending('bob', 2, true)) if (chat.messages.length > 0) served.add(chat.chatId);
    }
    expect([...served].sort()).toEqual(['1', '2', '3']);
  });

  it('only lists chats with something new', async () => {
    const chats = repo();
    await chats.create('alice', ['bob'], 'hi', false);
    await chats.pending('bob', 100, true);
    expect(await chats.pending('bob', 100, true)).toEqual([]);
  });
});

describe('join and leave', () => {
  it('starts a joiner at the latest message and keeps the seen-id of a member who joins again', async () => {
    const chats = repo();
    await chats.create('alice', [], 'one', true);
    await chats.send('1', 'alice', 'two');

    expect(await chats.join('1', 'bob')).toMatchObject({ latestMessageId: 2, seenMessageId: 2, memberCount: 2 });
    await chats.send('1', 'alice', 'three');
    expect(await chats.join('1', 'bob')).toMatchObject({ seenMessageId: 2, memberCount: 2 });
    const pending = await chats.pending('bob', 100, true);
    expect(pending[0].messages.map((m) => m.message)).toEqual(['three']);
  });

  it('lets nobody join a closed chat uninvited, and members add others', async () => {
    const chats = repo();
    await chats.create('alice', ['bob'], 'one', false);
    await expect(chats.join('1', 'mallory')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(chats.add('1', 'mallory', ['eve'])).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await redis.client.zrange(userKeys.chats('mallory'), 0, -1)).toEqual([]);
    expect(await redis.client.zrange(userKeys.chats('eve'), 0, -1)).toEqual([]);

    expect(await chats.add('1', 'bob', ['carol', 'alice'])).toMatchObject({ memberCount: 3 });
    expect(await chats.members('1')).toEqual(['alice', 'bob', 'carol']);
    expect(await redis.client.zrange(userKeys.chats('carol'), 0, -1)).toEqual(['1']);
  });

  it('lists members by name whatever they have seen', async () => {
    const chats = repo();
    await chats.create('zoë', ['ann', 'Émile', 'bob'], 'hi', false);
    await chats.pending('ann', 100, true); // ann's seen-id moves ahead of the others'
    expect(await chats.members('1')).toEqual(['ann', 'bob', 'zoë', 'Émile']);
  });

  it('refuses members beyond the maximum, adding none of them and keeping the members indexed', async () => {
    const chats = repo({ ...SETTINGS, maxChatMembers: 3 });
    await chats.create('alice', ['bob'], 'one', false);
    await expect(chats.add('1', 'alice', ['bob', 'carol', 'dave'])).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await chats.members('1')).toEqual(['alice', 'bob']);
    expect(await redis.client.zrange(userKeys.chats('carol'), 0, -1)).toEqual([]);
    expect(await redis.client.zrange(userKeys.chats('bob'), 0, -1)).toEqual(['1']);
  });

  it("does not touch members' indexes when a non-member names them", async () => {
    const chats = repo();
    await chats.create('alice', ['bob'], 'one', false);
    const before = await redis.client.zrange(userKeys.chats('alice'), 0, -1, 'WITHSCORES');
    await expect(chats.add('1', 'mallory', ['alice', 'bob'])).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(chats.join('1', 'mallory')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await redis.client.zrange(userKeys.chats('alice'), 0, -1, 'WITHSCORES')).toEqual(before);
    expect((await chats.summaries('bob')).map((chat) => chat.id)).toEqual(['1']);
    expect(await redis.client.zrange(userKeys.chats('mallory'), 0, -1)).toEqual([]);
  });

  it('keeps existing members indexed when adding fails because another user is in too many chats', async () => {
    const chats = repo({ ...SETTINGS, maxChatsPerUser: 1 });
    await chats.create('alice', ['bob'], 'one', false);
    await chats.create('zed', [], 'mine', false);
    await expect(chats.add('1', 'alice', ['bob', 'zed'])).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await redis.client.zrange(userKeys.chats('bob'), 0, -1)).toEqual(['1']);
    expect(await redis.client.zrange(userKeys.chats('zed'), 0, -1)).toEqual(['2']);
    expect(await chats.members('1')).toEqual(['alice', 'bob']);
  });

  it('deletes messages the remaining members have all seen when one leaves', async () => {
    const chats = repo();
    await chats.create('alice', ['bob'], 'one', false);
    await chats.send('1', 'alice', 'two');
    await chats.pending('alice', 100, true); // alice has seen 2, bob 0

    expect(await chats.leave('1', 'bob')).toBe(true);
    expect(await redis.client.zcard(chatKeys.messages('1'))).toBe(0);
    expect(await redis.client.zrange(userKeys.chats('bob'), 0, -1)).toEqual([]);
    expect(await chats.leave('1', 'bob')).toBe(false);
  });

  it('deletes every key of the chat when the last member leaves', async () => {
    const chats = repo();
    await chats.create('alice', ['bob'], 'one', false);
    await chats.send('1', 'bob', 'two', 'c-1');
    await chats.typing('1', 'bob', true);
    await chats.pending('bob', 10, true, 'phone');
    // members, msgs, meta, roles, sent, sent-exp, typing, typing-told, cursors, active
    expect(await chatKeysExisting('1')).toBe(10);

    await chats.leave('1', 'alice');
    await chats.leave('1', 'bob');
    expect(await chatKeysExisting('1')).toBe(0);
    await expect(chats.join('1', 'alice')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('the chat index', () => {
  it('is left exactly as it was by refused changes: a full chat, a chat one may not join, a creator in too many chats', async () => {
    const chats = repo({ ...SETTINGS, maxChatMembers: 3, maxChatsPerUser: 2 });
    await chats.create('alice', ['bob'], 'one', false);
    await chats.create('alice', [], 'two', false);
    const before = await snapshotRedis(redis.client);
    const newcomers = Array.from({ length: 50 }, (_, i) => `new-${i}`);

    await expect(chats.add('1', 'alice', newcomers)).rejects.toMatchObject({ code: 'CONFLICT' });
    // Naming a member too: her entry, rewritten before the change, gets its stamp back.
    await expect(chats.add('1', 'alice', ['bob', ...newcomers])).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(chats.join('1', 'mallory')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(chats.join('99', 'bob')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(chats.create('alice', newcomers, 'three', false)).rejects.toMatchObject({ code: 'CONFLICT' });

    // No index entry, and no key at all for any of the users named (earlier, a stamp counter each);
    // nor is the refused create's chat id used up.
    expect(await snapshotRedis(redis.client)).toEqual(before);
  });

  it('uses up no chat id when a create is refused: the next chat gets the next id', async () => {
    const chats = repo({ ...SETTINGS, maxChatsPerUser: 1 });
    await chats.create('a', ['b'], 'one', false);
    await expect(chats.create('c', ['b'], 'two', false)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('b already belongs'),
    });
    expect(await redis.client.get(chatKeys.ids())).toBe('1');
    const { chat } = await chats.create('c', [], 'three', false);
    expect(chat.id).toBe('2');
    expect(await redis.client.get(chatKeys.ids())).toBe('2');
    expect(await redis.client.exists(userKeys.chatHolds('b'))).toBe(0);
    expect(await redis.client.exists(userKeys.chatHolds('c'))).toBe(0);
  });

  it('gives the last place of a user to one of many concurrent creates, and an id to that one only', async () => {
    const chats = repo({ ...SETTINGS, maxChatsPerUser: 2 });
    await chats.create('bob', [], 'first', false);
    const creators = Array.from({ length: 8 }, (_, i) => `user-${i}`);
    const results = await Promise.allSettled(
      creators.map((creator) =>
        repo({ ...SETTINGS, maxChatsPerUser: 2 }, connection()).create(creator, ['bob'], 'hi', false),
      ),
    );
    const created = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value.chat.id] : []));
    const refused = results.filter((result) => result.status === 'rejected');
    expect(created).toEqual(['2']);
    expect(refused).toHaveLength(7);
    for (const result of refused) expect(result.reason).toMatchObject({ code: 'CONFLICT' });
    expect(await redis.client.get(chatKeys.ids())).toBe('2');
    expect(await redis.client.zrange(userKeys.chats('bob'), 0, -1)).toEqual(['1', '2']);
    expect(await redis.client.exists(userKeys.chatHolds('bob'))).toBe(0);
  });

  it("stamps an entry provisionally (below zero) until the change lands, then with the chat's membership generation", async () => {
    const index = [userKeys.chats('alice')];
    const [provisional, previous] = (await runScript(client, 'chat-index-add', index, ['7', 0])) as [
      number,
      string | null,
    ];
    expect(provisional).toBeLessThan(0);
    expect(previous).toBeNull();
    const chats = repo();
    await chats.create('owner', ['alice'], 'one', true);
    expect(await redis.client.zscore(index[0], '1')).toBe('1');
    await chats.join('1', 'bob');
    expect(await redis.client.zscore(userKeys.chats('bob'), '1')).toBe('2');
    // A join that adds nobody changes nothing, the generation included.
    await chats.join('1', 'bob');
    expect(await redis.client.hget(chatKeys.meta('1'), 'gen')).toBe('2');
    expect(await redis.client.zscore(userKeys.chats('bob'), '1')).toBe('2');
  });

  it("never lets a reader that found an entry stale remove a later join's entry, whatever the clock did", async () => {
    const chats = repo();
    await chats.create('owner', ['alice'], 'open chat', true);
    const index = userKeys.chats('alice');
    // alice leaves; a reader read her entry just before and found her no longer a member.
    const stale = Number(await redis.client.zscore(index, '1'));
    await chats.leave('1', 'alice');
    // She comes back, twice over (leaving in between), while the server's clock stands still:
    // generations, not times, tell the entries apart.
    await chats.join('1', 'alice');
    await chats.leave('1', 'alice');
    await chats.join('1', 'alice');
    const current = Number(await redis.client.zscore(index, '1'));
    expect(current).toBeGreaterThan(stale);
    expect(await runScript(client, 'chat-index-remove', [index], ['1', stale, '', ''])).toBe(0);
    expect(await redis.client.zscore(index, '1')).toBe(String(current));
    // A late write of an older generation does not replace the newer one.
    await redis.client.zadd(index, 'GT', stale, '1');
    expect(await redis.client.zscore(index, '1')).toBe(String(current));
    expect((await chats.summaries('alice')).map((chat) => chat.id)).toEqual(['1']);
  });

  it('drops an entry for a chat the user is not in, when summarising, once it is not a join under way', async () => {
    const chats = repo();
    await chats.create('alice', [], 'one', false);
    const index = userKeys.chats('alice');
    // A provisional entry less than a minute old may be a join whose chat write just landed: kept.
    await runScript(client, 'chat-index-add', [index], ['77', 0]);
    expect((await chats.summaries('alice')).map((chat) => chat.id)).toEqual(['1']);
    expect(await redis.client.zrange(index, 0, -1)).toEqual(['77', '1']);
    // One older than that was left by a process that died between the index write and the chat write.
    const [seconds, micros] = (await redis.client.time()) as [number, number];
    await redis.client.zadd(index, -(Number(seconds) * 1e6 + Number(micros) - 61e6), '77');
    expect((await chats.summaries('alice')).map((chat) => chat.id)).toEqual(['1']);
    expect(await redis.client.zrange(index, 0, -1)).toEqual(['1']);
  });

  it('keeps an entry whose stamp changed since it was found stale (a join under way)', async () => {
    const index = [userKeys.chats('alice')];
    await redis.client.zadd(index[0], 3, '5');
    const [rejoined, previous] = (await runScript(client, 'chat-index-add', index, ['5', 0])) as [number, string];
    expect(previous).toBe('3');

    // Found stale at stamp 3, but rewritten since: kept.
    expect(await runScript(client, 'chat-index-remove', [index[0]], ['5', 3, '', ''])).toBe(0);
    expect(await redis.client.zscore(index[0], '5')).toBe(String(rejoined));
    // The provisional stamp is young: kept for a reader, taken back by its writer (stamp put back, or removed).
    expect(await runScript(client, 'chat-index-remove', [index[0]], ['5', rejoined, '', ''])).toBe(0);
    expect(await runScript(client, 'chat-index-remove', [index[0]], ['5', rejoined, 'force', '3'])).toBe(1);
    expect(await redis.client.zscore(index[0], '5')).toBe('3');
    expect(await runScript(client, 'chat-index-remove', [index[0]], ['5', 3, '', ''])).toBe(1);
    expect(await redis.client.zscore(index[0], '5')).toBeNull();
  });

  it("keeps a joiner's entry that a concurrent reader finds before the join landed", async () => {
    const chats = repo();
    await chats.create('owner', [], 'open chat', true);
    // Just before the join script runs, a fetch by the joiner finds the new entry stale (the
    // user is not a member yet), as a concurrent request could: the entry is a join under way,
    // so it stays (were it removed, a process dying before its last index write would leave a
    // member without one).
    const client = connection();
    const joining = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const original = joining.chatJoin.bind(client);
    joining.chatJoin = async (...args: unknown[]) => {
      const provisional = await redis.client.zscore(userKeys.chats('bob'), '1');
      expect(Number(provisional)).toBeLessThan(0);
      await chats.summaries('bob');
      expect(await redis.client.zscore(userKeys.chats('bob'), '1')).toBe(provisional);
      return original(...args);
    };
    await repo(SETTINGS, client).join('1', 'bob');
    expect(await redis.client.zrange(userKeys.chats('bob'), 0, -1)).toEqual(['1']);
    expect((await chats.summaries('bob')).map((chat) => chat.id)).toEqual(['1']);
  });

  it('leaves every member indexed and every leaver unindexed under concurrent joins and leaves', async () => {
    const chats = repo();
    await chats.create('owner', [], 'open chat', true);
    const users = Array.from({ length: 20 }, (_, i) => `u${i}`);
    const clients = [repo(SETTINGS, connection()), repo(SETTINGS, connection())];
    // Each user joins, leaves and joins again from two "devices" at once, and a fetcher keeps
    // summarising (which removes stale entries) while that happens.
    await Promise.all([
      ...users.map(async (user, i) => {
        await clients[i % 2].join('1', user);
        await Promise.all([clients[0].leave('1', user), clients[1].join('1', user)]);
        await Promise.all(users.map((other) => chats.summaries(other)));
      }),
    ]);
    const members = new Set(await chats.members('1'));
    for (const user of users) {
      const indexed = (await redis.client.zscore(userKeys.chats(user), '1')) !== null;
      if (members.has(user)) expect({ user, indexed }).toEqual({ user, indexed: true });
      const summaries = await chats.summaries(user);
      expect(summaries.map((chat) => chat.id)).toEqual(members.has(user) ? ['1'] : []);
    }
  });
});

describe('shareFairly', () => {
  it.each([
    [[30, 3], 10, [7, 3]],
    [[5, 5, 5], 9, [3, 3, 3]],
    [[5, 5, 5], 10, [4, 3, 3]],
    [[1, 100], 1000, [1, 100]],
    [[0, 4], 3, [0, 3]],
    [[2, 2, 2, 2], 3, [1, 1, 1, 0]],
    [[], 10, []],
  ])('splits %j messages under a limit of %d as %j', (pending, limit, expected) => {
    expect(shareFairly(pending, limit, 0)).toEqual(expected);
  });

  it('gives the single messages left over to the chats from `start` on, wrapping round', () => {
    expect(shareFairly([2, 2, 2, 2], 3, 2)).toEqual([1, 0, 1, 1]);
    expect(shareFairly([5, 5, 5], 10, 1)).toEqual([3, 4, 3]);
  });

  it('never gives more than the limit or more than a chat has', () => {
    for (let trial = 0; trial < 200; trial++) {
      const pending = Array.from({ length: 1 + (trial % 7) }, (_, i) => (trial * 31 + i * 17) % 50);
      const limit = 1 + ((trial * 13) % 120);
      const quotas = shareFairly(pending, limit, trial % pending.length);
      const total = quotas.reduce((a, b) => a + b, 0);
      expect(total).toBe(
        Math.min(
          limit,
          pending.reduce((a, b) => a + b, 0),
        ),
      );
      quotas.forEach((quota, i) => expect(quota).toBeLessThanOrEqual(pending[i]));
    }
  });
});
