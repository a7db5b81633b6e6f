// The push decisions' scripts on a real Redis (and on the cluster): who is a candidate, the claim
// that makes one push per device and entry range, the checks before each attempt, the badge-only
// updates after a reading, and the mailbox's decision.
import Redis from 'ioredis';
import { CHAT_DEFAULTS, ChatRepository } from '../../src/redis/chat';
import { MailboxRepository } from '../../src/redis/mailbox';
import { userKeys } from '../../src/redis/keys';
import { PushDecisions } from '../../src/redis/push/decisions';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';

let redis: TestRedis;
let client: Redis;
const SETTINGS = { maxChatMembers: 1000, maxChatsPerUser: 1000, dedupeSeconds: 3600, ...CHAT_DEFAULTS };
const LIFETIME_MS = CHAT_DEFAULTS.deviceTtlSeconds * 1000;
let chats: ChatRepository;
let decisions: PushDecisions;

const webTarget = (n: number) => ({
  kind: 'webpush',
  endpoint: `https://push.example/sub/${n}`,
  keys: { p256dh: 'p', auth: 'a' },
});

/** A device that has fetched once (so it is live) with a target. */
async function deviceWithTarget(user: string, device: string, target: object = webTarget(1)): Promise<void> {
  await chats.pending(user, 100, false, device);
  await client.hset(userKeys.pushTargets(user), device, JSON.stringify({ ...target, at: Date.now() }));
}

beforeAll(async () => {
  redis = await startTestRedis();
  client = scriptClient(redis);
});
afterAll(async () => {
  client.disconnect();
  await redis.stop();
});
beforeEach(async () => {
  await redis.client.flushdb();
  chats = new ChatRepository(client, SETTINGS);
  decisions = new PushDecisions(client, { deviceLifetimeMs: LIFETIME_MS, markLifetimeMs: 60_000 });
});

describe('a chat decision', () => {
  it('reads the latest entry, its sender and every member with their seen-id', async () => {
    const chatId = (await chats.create('alice', ['bob', 'carol'], 'hello', false)).chat.id;
    await chats.send(chatId, 'bob', 'hi');
    await chats.markSeen(chatId, 'carol', 1);
    const state = await decisions.chatState(chatId);
    expect(state.last).toBe(2);
    expect(state.lastSender).toBe('bob');
    expect([...state.members].sort()).toEqual([
      ['alice', 0],
      ['bob', 0],
      ['carol', 1],
    ]);
  });

  it('takes devices with a target and no live subscription; a lapsed hold counts as none', async () => {
    await deviceWithTarget('bob', 'phone');
    await deviceWithTarget('bob', 'laptop', webTarget(2));
    await chats.pending('bob', 100, false, 'tablet'); // live, but no target
    const now = Number((await client.time())[0]) * 1000;
    await client.zadd(userKeys.online('bob'), now + 60_000, 'laptop\ninstance-a', now - 1000, 'phone\ninstance-b');
    const found = await decisions.candidates('bob');
    expect(found.map((one) => one.device)).toEqual(['phone']);
    expect(found[0].target).toMatchObject(webTarget(1));
    expect(await decisions.candidates('bob', ['apns', 'fcm'])).toEqual([]);
  });

  it('drops the target of a device silent for the device lifetime', async () => {
    await deviceWithTarget('bob', 'phone');
    await client.zadd(userKeys.devices('bob'), Date.now() - LIFETIME_MS - 60_000, 'phone');
    expect(await decisions.candidates('bob')).toEqual([]);
    expect(await client.hlen(userKeys.pushTargets('bob'))).toBe(0);
  });

  it('owes a push once per device and entry range; a pull or a reading elsewhere settles it', async () => {
    const chatId = (await chats.create('alice', ['bob'], 'one', false)).chat.id;
    await deviceWithTarget('bob', 'phone');
    await deviceWithTarget('bob', 'laptop', webTarget(2));
    await chats.send(chatId, 'alice', 'two');
    const both = [
      { user: 'bob', device: 'phone' },
      { user: 'bob', device: 'laptop' },
    ];
    // The devices fetched before the chat existed: each has everything after the seen-id (0).
    expect(await decisions.chatOwed(chatId, 2, both, 'check')).toEqual([
      { user: 'bob', device: 'phone', unread: 2 },
      { user: 'bob', device: 'laptop', unread: 2 },
    ]);
    expect(await decisions.chatOwed(chatId, 2, [both[0]], 'claim', 'push:1')).toEqual([
      { user: 'bob', device: 'phone', unread: 2 },
    ]);
    // Another task (a duplicate) gets only what no task holds; the holder's retry keeps its own.
    expect(await decisions.chatOwed(chatId, 2, both, 'claim', 'push:2')).toEqual([
      { user: 'bob', device: 'laptop', unread: 2 },
    ]);
    expect(await decisions.chatOwed(chatId, 2, [both[0]], 'claim', 'push:1')).toEqual([
      { user: 'bob', device: 'phone', unread: 2 },
    ]);
    expect(await decisions.chatOwed(chatId, 2, both, 'check')).toEqual([]);
    expect(await decisions.chatHas(chatId, 'bob', 'phone')).toEqual({ has: 0, pushed: 2 });

    // A new entry is a new range: owed again, with the count of all unpulled entries.
    await chats.send(chatId, 'alice', 'three');
    expect(await decisions.chatOwed(chatId, 3, [both[0]], 'check')).toEqual([
      { user: 'bob', device: 'phone', unread: 3 },
    ]);
    // The phone pulls: nothing owed, and its mark goes.
    await chats.pending('bob', 100, true, 'phone');
    expect(await decisions.chatHas(chatId, 'bob', 'phone')).toEqual({ has: 3, pushed: 2 });
    expect(await decisions.chatOwed(chatId, 3, [both[0]], 'check')).toEqual([]);
    expect(await client.hget(`chat:{c${chatId}}:pushed`, 'bob\nphone')).toBeNull();
    // The phone's pull moved the seen-id: the laptop owes nothing either (read elsewhere).
    expect(await decisions.chatOwed(chatId, 3, [both[1]], 'check')).toEqual([]);
  });

  it('a member who left is owed nothing and is told apart', async () => {
    const chatId = (await chats.create('alice', ['bob'], 'one', false)).chat.id;
    await deviceWithTarget('bob', 'phone');
    await chats.leave(chatId, 'bob');
    expect(await decisions.chatOwed(chatId, 1, [{ user: 'bob', device: 'phone' }], 'check')).toEqual([]);
    expect((await decisions.chatHas(chatId, 'bob', 'phone')).has).toBe(-1);
  });

  it('after a reading, devices pushed and not pulled since are due one badge update each', async () => {
    const chatId = (await chats.create('alice', ['bob'], 'one', false)).chat.id;
    await deviceWithTarget('bob', 'phone');
    await deviceWithTarget('bob', 'tablet', webTarget(2));
    await deviceWithTarget('bob', 'laptop', webTarget(3));
    await chats.send(chatId, 'alice', 'two');
    await decisions.chatOwed(
      chatId,
      2,
      [
        { user: 'bob', device: 'phone' },
        { user: 'bob', device: 'tablet' },
      ],
      'claim',
      'push:1',
    );
    await chats.pending('bob', 100, true, 'tablet'); // the tablet pulled after its push
    await chats.markSeen(chatId, 'bob', 2, 'laptop');
    expect(await decisions.chatRead(chatId, 'bob', ['phone', 'tablet', 'laptop'])).toEqual({
      last: 2,
      due: [{ device: 'phone', unread: 0 }],
    });
    // One reading, one update.
    expect((await decisions.chatRead(chatId, 'bob', ['phone'])).due).toEqual([]);
  });
});

describe('a mailbox decision', () => {
  it('owes each device one push while messages wait, claimed once; none when all were taken', async () => {
    const mailbox = new MailboxRepository(client, { maxMailboxMessages: 100 });
    await deviceWithTarget('bob', 'phone');
    await deviceWithTarget('bob', 'laptop', webTarget(2));
    expect((await decisions.mailboxOwed('bob')).owed).toEqual([]);
    await mailbox.send('bob', 'alice', 'one');
    await mailbox.send('bob', 'alice', 'two');
    const first = await decisions.mailboxOwed('bob');
    expect(first.latest).toBe(2);
    expect(first.waiting).toBe(2);
    expect(first.owed.map((one) => one.device).sort()).toEqual(['laptop', 'phone']);
    const claimed = await decisions.mailboxOwed('bob', { device: 'phone', upTo: 2, holder: 'push:1' });
    expect(claimed.owed.map((one) => one.device)).toEqual(['phone']);
    expect((await decisions.mailboxOwed('bob', { device: 'phone', upTo: 2, holder: 'push:2' })).owed).toEqual([]);
    expect((await decisions.mailboxOwed('bob')).owed.map((one) => one.device)).toEqual(['laptop']);
    const check = await decisions.sendCheck('bob', 'phone');
    expect(check).toEqual({
      target: expect.objectContaining(webTarget(1)),
      online: false,
      waiting: 2,
      oldestWaiting: 1,
      mailboxPushed: 2,
    });
    await mailbox.take('bob', 10, true);
    expect(await decisions.mailboxOwed('bob')).toEqual({ latest: 2, waiting: 0, owed: [] });
  });
});

describe('the check before each attempt', () => {
  it('says whether the device is online now and gives its target as it is now', async () => {
    await deviceWithTarget('bob', 'phone');
    expect((await decisions.sendCheck('bob', 'phone')).online).toBe(false);
    const now = Number((await client.time())[0]) * 1000;
    await client.zadd(userKeys.online('bob'), now + 60_000, 'phone\ninstance-a');
    expect((await decisions.sendCheck('bob', 'phone')).online).toBe(true);
    expect((await decisions.sendCheck('bob', 'watch')).target).toBeUndefined();
  });

  it('marks a decision due once, for its delay or until the decision starts', async () => {
    expect(await decisions.due('chat:{c1}:push-due', 60_000)).toBe(true);
    expect(await decisions.due('chat:{c1}:push-due', 60_000)).toBe(false);
    const ttl = await client.pttl('chat:{c1}:push-due');
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await decisions.settle('chat:{c1}:push-due');
    expect(await decisions.due('chat:{c1}:push-due', 60_000)).toBe(true);
  });
});
