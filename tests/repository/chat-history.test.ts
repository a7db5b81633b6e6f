// Chats as apps use them, against a real redis-server: devices with cursors of their own, history
// kept by a retention, edits and deletions as entries of the log, owners removing members, typing.
import Redis from 'ioredis';
import { AppError } from '../../src/common/errors';
import { CHAT_DEFAULTS, ChatRepository, type ChatSettings, type Retention } from '../../src/redis/chat';
import { chatKeys, userKeys } from '../../src/redis/keys';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';
import { snapshotRedis } from '../support/snapshot';

let redis: TestRedis;
let client: Redis;

const SETTINGS: ChatSettings = { maxChatMembers: 100, maxChatsPerUser: 100, dedupeSeconds: 3600, ...CHAT_DEFAULTS };
const SEEN: Retention = { ...CHAT_DEFAULTS.retention, mode: 'seen' };
const repo = (settings: Partial<ChatSettings> = {}) => new ChatRepository(client, { ...SETTINGS, ...settings });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
});

/**
 * Moves every kept entry of a chat `ms` into the past, as if that long had gone by: the scripts
 * read Redis's clock, which a test cannot move, and a retention short enough to wait out would
 * also expire the chat's keys before a busy machine got to look at them.
 */
async function backdate(chatId: string, ms: number): Promise<void> {
  const script = `
    local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
    for i = 1, #entries, 2 do
      local entry = cjson.decode(entries[i])
      entry.ts = entry.ts - tonumber(ARGV[1])
      redis.call('ZREM', KEYS[1], entries[i])
      redis.call('ZADD', KEYS[1], entries[i + 1], cjson.encode(entry))
    end
    return #entries / 2`;
  expect(await redis.client.eval(script, 1, chatKeys.messages(chatId), ms)).toBeGreaterThan(0);
}

/** Every entry id a device takes from one fetch, per chat. */
async function take(chats: ChatRepository, user: string, device?: string, limit = 100): Promise<Map<string, number[]>> {
  const found = new Map<string, number[]>();
  for (const chat of await chats.pending(user, limit, true, device)) {
    found.set(
      chat.chatId,
      chat.messages.map((message) => message.id),
    );
  }
  return found;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'none';
}

/**
 * Makes a device silent for a second past the default lifetime, in its user's list and in each
 * chat's `active`, as if that long had gone by since its last fetch: a lifetime short enough to
 * wait out would also run out between two steps of a test on a busy machine.
 */
async function silence(user: string, device: string, chatIds: string[]): Promise<void> {
  const [seconds, micros] = await redis.client.time();
  const past =
    Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - CHAT_DEFAULTS.deviceTtlSeconds * 1000 - 1000;
  await redis.client.zadd(userKeys.devices(user), 'XX', past, device);
  for (const chatId of chatIds) await redis.client.zadd(chatKeys.active(chatId), 'XX', past, `${user}\n${device}`);
}

/** Everything stored, as text, to look for a text that must be gone. */
const everything = async (): Promise<string> => JSON.stringify(await snapshotRedis(redis.client));

describe('devices', () => {
  it('gives every device of a user every entry exactly once, in order, and moves the read position with the furthest', async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice'], 'm1', false);
    // Both devices are known before anything else arrives.
    expect(await take(chats, 'alice', 'phone')).toEqual(new Map([[chat.id, [1]]]));
    expect(await take(chats, 'alice', 'laptop')).toEqual(new Map());
    for (let i = 2; i <= 6; i++) await chats.send(chat.id, 'bob', `m${i}`);
    expect(await take(chats, 'alice', 'phone', 3)).toEqual(new Map([[chat.id, [2, 3, 4]]]));
    expect((await chats.summary(chat.id, 'alice'))!.seenMessageId).toBe(4);
    expect(await take(chats, 'alice', 'laptop')).toEqual(new Map([[chat.id, [2, 3, 4, 5, 6]]]));
    expect(await take(chats, 'alice', 'phone')).toEqual(new Map([[chat.id, [5, 6]]]));
    expect(await take(chats, 'alice', 'phone')).toEqual(new Map());
    expect((await chats.summary(chat.id, 'alice'))!.seenMessageId).toBe(6);
    expect(await chats.readPositions(chat.id)).toEqual([
      { user: 'alice', messageId: 6 },
      { user: 'bob', messageId: 0 },
    ]);
  });

  it('starts a new device at the read position and a known device at its joining for a chat joined later', async () => {
    const chats = repo();
    const first = (await chats.create('bob', ['alice'], 'a1', false)).chat.id;
    await chats.send(first, 'bob', 'a2');
    await take(chats, 'alice', 'phone');
    // The tablet is new: what the phone took is read, so it starts after it.
    expect(await take(chats, 'alice', 'tablet')).toEqual(new Map());
    const second = (await chats.create('carol', ['dave'], 'b1', true)).chat.id;
    await chats.send(second, 'carol', 'b2');
    await chats.join(second, 'alice');
    await chats.send(second, 'carol', 'b3');
    // The phone takes the new chat first; the tablet, known, still gets it from the joining on.
    expect(await take(chats, 'alice', 'phone')).toEqual(new Map([[second, [3]]]));
    expect(await take(chats, 'alice', 'tablet')).toEqual(new Map([[second, [3]]]));
  });

  it('keeps the meaning of a fetch without a device: the read position is the cursor', async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice'], 'm1', false);
    await chats.send(chat.id, 'bob', 'm2');
    expect(await take(chats, 'alice', 'phone')).toEqual(new Map([[chat.id, [1, 2]]]));
    await chats.send(chat.id, 'bob', 'm3');
    expect(await take(chats, 'alice')).toEqual(new Map([[chat.id, [3]]]));
    expect(await take(chats, 'alice', 'phone')).toEqual(new Map([[chat.id, [3]]]));
  });

  it('moves only the named device with markSeen, and the read position with it', async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice'], 'm1', false);
    await chats.send(chat.id, 'bob', 'm2');
    await chats.pending('alice', 10, false, 'phone');
    expect(await chats.markSeen(chat.id, 'alice', 1, 'phone')).toBe(true);
    expect(await chats.markSeen(chat.id, 'alice', 1, 'phone')).toBe(false);
    expect((await chats.summary(chat.id, 'alice'))!.seenMessageId).toBe(1);
    expect(await take(chats, 'alice', 'phone')).toEqual(new Map([[chat.id, [2]]]));
    // A device no fetch made known has no cursor to move, and gets none.
    expect(await codeOf(chats.markSeen(chat.id, 'alice', 2, 'made-up'))).toBe('BAD_USER_INPUT');
    expect(await redis.client.zrange(chatKeys.cursors(chat.id), 0, -1)).toEqual(['alice\nphone']);
  });

  it('forgets a device silent for its lifetime, says so on its next fetch, and lists every chat with where history starts', async () => {
    const chats = repo();
    const quiet = (await chats.create('bob', ['alice'], 'q1', false)).chat.id;
    const busy = (await chats.create('carol', ['alice'], 'b1', false)).chat.id;
    await take(chats, 'alice', 'phone');
    await take(chats, 'alice', 'laptop');
    await silence('alice', 'phone', [quiet, busy]);
    await silence('alice', 'laptop', [quiet, busy]);
    await chats.send(busy, 'carol', 'b2');
    // Both were forgotten; the laptop starts again at alice's read position, takes b2, and is
    // told of every chat.
    expect(await take(chats, 'alice', 'laptop')).toEqual(
      new Map([
        [quiet, []],
        [busy, [2]],
      ]),
    );
    expect((await chats.deviceList('alice')).map((d) => [d.device, d.forgotten])).toEqual([
      ['laptop', false],
      ['phone', true],
    ]);
    const pending = await chats.pending('alice', 100, true, 'phone');
    // Its cursor in the quiet chat was still there (no send there dropped it), yet it starts
    // again at the read position in both.
    expect(pending.map((c) => [c.chatId, c.messages.length, c.historyStart, c.deviceForgotten])).toEqual([
      [quiet, 0, 1, true],
      [busy, 0, 1, true],
    ]);
    expect(await chats.pending('alice', 100, true, 'phone')).toEqual([]);
    expect((await chats.deviceList('alice')).map((d) => d.forgotten)).toEqual([false, false]);
  });

  it('forgets the least recent device when a user has too many, and drops its cursors', async () => {
    const chats = repo({ maxDevices: 2 });
    const { chat } = await chats.create('bob', ['alice'], 'hi', false);
    // Apart by more than the moment within which a pushed-out device's own use counts.
    for (const device of ['one', 'two', 'three']) {
      await take(chats, 'alice', device);
      await sleep(60);
    }
    expect((await chats.deviceList('alice')).map((d) => [d.device, d.forgotten])).toEqual([
      ['three', false],
      ['two', false],
      ['one', true],
    ]);
    // A client making up device after device cannot grow a chat: at most maxDevices cursors each.
    expect((await redis.client.zrange(chatKeys.cursors(chat.id), 0, -1)).sort()).toEqual([
      'alice\nthree',
      'alice\ntwo',
    ]);
    expect(await redis.client.zcard(chatKeys.active(chat.id))).toBe(2);
  });

  it("in the book's mode, keeps an entry until every member and every device has taken it", async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice'], 'm1', false, SEEN);
    await take(chats, 'alice', 'phone');
    await take(chats, 'alice', 'laptop');
    await take(chats, 'bob');
    await chats.send(chat.id, 'bob', 'm2');
    await take(chats, 'bob');
    await take(chats, 'alice', 'phone');
    expect(await redis.client.zcard(chatKeys.messages(chat.id))).toBe(1); // the laptop has not taken m2
    await take(chats, 'alice', 'laptop');
    expect(await redis.client.zcard(chatKeys.messages(chat.id))).toBe(0);
    // A lost device holds entries only until it is forgotten.
    await chats.send(chat.id, 'bob', 'm3');
    await take(chats, 'bob');
    await take(chats, 'alice', 'phone');
    expect(await redis.client.zcard(chatKeys.messages(chat.id))).toBe(1);
    // Past its lifetime (on the chat's shard), the next send drops its cursor.
    await silence('alice', 'laptop', [chat.id]);
    await chats.send(chat.id, 'bob', 'm4');
    await take(chats, 'bob');
    await take(chats, 'alice', 'phone');
    expect(await redis.client.zscore(chatKeys.cursors(chat.id), 'alice\nlaptop')).toBeNull();
    expect(await redis.client.zcard(chatKeys.messages(chat.id))).toBe(0);
  });

  it("in the book's mode, a device holds nothing once its list forgets it: what the others took goes with their next take", async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice'], 'm1', false, SEEN);
    await take(chats, 'alice', 'phone');
    await take(chats, 'alice', 'laptop');
    await take(chats, 'bob');
    await chats.send(chat.id, 'bob', 'm2');
    // The laptop falls silent past its lifetime: alice's list says it is forgotten.
    await silence('alice', 'laptop', [chat.id]);
    expect((await chats.deviceList('alice')).map((d) => [d.device, d.forgotten])).toEqual([
      ['phone', false],
      ['laptop', true],
    ]);
    // No send since: the takes themselves leave the laptop's cursor out, and drop it.
    await take(chats, 'bob');
    expect(await take(chats, 'alice', 'phone')).toEqual(new Map([[chat.id, [2]]]));
    expect(await redis.client.zcard(chatKeys.messages(chat.id))).toBe(0);
    expect(await redis.client.zscore(chatKeys.cursors(chat.id), 'alice\nlaptop')).toBeNull();
    // The laptop comes back: told it was forgotten, it starts again at alice's read position.
    const back = await chats.pending('alice', 100, true, 'laptop');
    expect(back.map((c) => [c.chatId, c.messages.length, c.historyStart, c.deviceForgotten])).toEqual([
      [chat.id, 0, 3, true],
    ]);
  });

  it('tells a device its list let through a moment before forgetting it, whose cursor a chat had dropped, that it was forgotten there', async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice'], 'm1', false, SEEN);
    await take(chats, 'alice', 'phone');
    await take(chats, 'alice', 'laptop');
    await chats.send(chat.id, 'bob', 'm2');
    await take(chats, 'bob');
    // On the chat's shard the laptop's last fetch is past the lifetime, though its list still knows it.
    await redis.client.zadd(chatKeys.active(chat.id), 1, 'alice\nlaptop');
    expect(await take(chats, 'alice', 'phone')).toEqual(new Map([[chat.id, [2]]]));
    expect(await redis.client.zscore(chatKeys.cursors(chat.id), 'alice\nlaptop')).toBeNull();
    expect(await redis.client.zcard(chatKeys.messages(chat.id))).toBe(0);
    expect((await chats.deviceList('alice')).every((d) => !d.forgotten)).toBe(true);

    const back = await chats.pending('alice', 100, true, 'laptop');
    expect(back.map((c) => [c.chatId, c.messages.length, c.historyStart, c.deviceForgotten])).toEqual([
      [chat.id, 0, 3, true],
    ]);
    // From then on it is an ordinary device again.
    await chats.send(chat.id, 'bob', 'm3');
    expect(await take(chats, 'alice', 'laptop')).toEqual(new Map([[chat.id, [3]]]));
  });

  it('refuses a markSeen from a device whose cursor a chat dropped as forgotten, so its next fetch is still told', async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice'], 'm1', false, SEEN);
    await take(chats, 'alice', 'phone');
    await take(chats, 'alice', 'laptop');
    await chats.send(chat.id, 'bob', 'm2');
    await take(chats, 'bob');
    // On the chat's shard the laptop is past its lifetime; its list still knows it.
    await redis.client.zadd(chatKeys.active(chat.id), 1, 'alice\nlaptop');
    expect(await take(chats, 'alice', 'phone')).toEqual(new Map([[chat.id, [2]]]));
    const mark = await redis.client.zscore(chatKeys.active(chat.id), 'alice\nlaptop');
    expect(Number(mark)).toBeLessThan(0);

    // The laptop acknowledges what it showed before (m1): no cursor is made, the mark stays.
    expect(await codeOf(chats.markSeen(chat.id, 'alice', 1, 'laptop'))).toBe('BAD_USER_INPUT');
    expect(await redis.client.zscore(chatKeys.cursors(chat.id), 'alice\nlaptop')).toBeNull();
    expect(await redis.client.zscore(chatKeys.active(chat.id), 'alice\nlaptop')).toBe(mark);
    expect(await redis.client.zscore(chatKeys.members(chat.id), 'alice')).toBe('2');

    // m2 went while it was forgotten: its fetch says so instead of resuming after m1.
    const back = await chats.pending('alice', 100, true, 'laptop');
    expect(back.map((c) => [c.chatId, c.messages.length, c.historyStart, c.deviceForgotten])).toEqual([
      [chat.id, 0, 3, true],
    ]);
    expect(await chats.markSeen(chat.id, 'alice', 2, 'laptop')).toBe(false);
  });

  it("in the book's mode, a member's leave drops a forgotten device's cursor, and what every other reader took goes", async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice', 'carol'], 'm1', false, SEEN);
    await take(chats, 'alice', 'phone');
    await take(chats, 'alice', 'laptop');
    await chats.send(chat.id, 'bob', 'm2');
    await take(chats, 'bob');
    await take(chats, 'alice', 'phone');
    // The laptop is past its lifetime on the chat's shard; the one member behind is carol.
    await redis.client.zadd(chatKeys.active(chat.id), 1, 'alice\nlaptop');
    expect(await redis.client.zcard(chatKeys.messages(chat.id))).toBe(2);

    expect(await chats.leave(chat.id, 'carol')).toBe(true);
    expect(await redis.client.zscore(chatKeys.cursors(chat.id), 'alice\nlaptop')).toBeNull();
    expect(Number(await redis.client.zscore(chatKeys.active(chat.id), 'alice\nlaptop'))).toBeLessThan(0);
    expect(await redis.client.zrange(chatKeys.cursors(chat.id), 0, -1, 'WITHSCORES')).toEqual(['alice\nphone', '2']);
    expect(await redis.client.zcard(chatKeys.messages(chat.id))).toBe(0);
    // The laptop is told when it comes back.
    const back = await chats.pending('alice', 100, true, 'laptop');
    expect(back.map((c) => [c.chatId, c.messages.length, c.historyStart, c.deviceForgotten])).toEqual([
      [chat.id, 0, 3, true],
    ]);
  });

  it("in the book's mode, keeps entries for a device that has not fetched a chat its user was added to since", async () => {
    const chats = repo();
    await chats.create('carol', ['alice'], 'elsewhere', false);
    await take(chats, 'alice', 'phone');
    await take(chats, 'alice', 'laptop');
    const created = (await chats.create('bob', ['alice'], 'm1', false, SEEN)).chat.id;
    await chats.send(created, 'bob', 'm2');
    const joined = (await chats.create('dave', [], 'before', true, SEEN)).chat.id;
    await chats.join(joined, 'alice');
    await chats.send(joined, 'dave', 'after');
    await take(chats, 'bob');
    await take(chats, 'dave');
    expect(await take(chats, 'alice', 'phone')).toEqual(
      new Map([
        [created, [1, 2]],
        [joined, [2]],
      ]),
    );
    // Every member and the phone have taken them; the laptop still gets them, then they go.
    expect(await take(chats, 'alice', 'laptop')).toEqual(
      new Map([
        [created, [1, 2]],
        [joined, [2]],
      ]),
    );
    expect(await redis.client.zcard(chatKeys.messages(created))).toBe(0);
    expect(await redis.client.zcard(chatKeys.messages(joined))).toBe(0);
  });

  it('treats a chat from before retention existed as the book did', async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice'], 'm1', false);
    await redis.client.hdel(chatKeys.meta(chat.id), 'mode', 'keep', 'keepMs');
    await take(chats, 'alice');
    await take(chats, 'bob');
    expect(await redis.client.zcard(chatKeys.messages(chat.id))).toBe(0);
    expect((await chats.details(chat.id, 'bob'))!.retention).toEqual({ ...CHAT_DEFAULTS.retention, mode: 'seen' });
  });
});

describe('history', () => {
  it('keeps entries after everyone has taken them, and pages back by id without skipping or repeating', async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice'], 'm1', false);
    for (let i = 2; i <= 25; i++) await chats.send(chat.id, 'bob', `m${i}`);
    await take(chats, 'alice');
    await take(chats, 'bob');
    const seen: number[] = [];
    let before: number | undefined;
    for (;;) {
      const page = (await chats.history(chat.id, 'alice', before, 10))!;
      seen.unshift(...page.messages.map((m) => m.id));
      expect(page.historyStart).toBe(1);
      // Arrivals while paging change nothing behind the cursor.
      await chats.send(chat.id, 'bob', 'late');
      if (!page.hasMore) break;
      before = page.messages[0].id;
    }
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('trims to the count, and to the age with the next entry', async () => {
    const chats = repo();
    const counted = (await chats.create('bob', [], 'm1', false, { mode: 'history', keepMessages: 3, keepMs: 60_000 }))
      .chat.id;
    for (let i = 2; i <= 5; i++) await chats.send(counted, 'bob', `m${i}`);
    const page = (await chats.history(counted, 'bob', undefined, 10))!;
    expect([page.messages.map((m) => m.id), page.hasMore, page.historyStart]).toEqual([[3, 4, 5], false, 3]);

    const aged = (await chats.create('bob', [], 'old', false, { mode: 'history', keepMessages: 100, keepMs: 60_000 }))
      .chat.id;
    expect((await chats.history(aged, 'bob', undefined, 10))!.messages.map((m) => m.message)).toEqual(['old']);
    await backdate(aged, 61_000);
    // Past its age an entry is no longer shown, and the next append removes it.
    expect((await chats.history(aged, 'bob', undefined, 10))!.messages).toEqual([]);
    await chats.send(aged, 'bob', 'new');
    expect(await redis.client.zcard(chatKeys.messages(aged))).toBe(1);
    expect(await redis.client.pttl(chatKeys.messages(aged))).toBeGreaterThan(0);
  });

  it('shows a member nothing from before their joining, and a non-member nothing at all', async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', [], 'before', true);
    await chats.join(chat.id, 'alice');
    await chats.send(chat.id, 'bob', 'after');
    const page = (await chats.history(chat.id, 'alice', undefined, 10))!;
    expect([page.messages.map((m) => m.message), page.historyStart]).toEqual([['after'], 2]);
    expect(await chats.history(chat.id, 'mallory', undefined, 10)).toBeUndefined();
    expect(await chats.history('999', 'alice', undefined, 10)).toBeUndefined();
  });
});

describe('edits and deletions', () => {
  it('appends an edit as an entry of its own and rewrites the message in place', async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice'], 'helo', false);
    const edit = await chats.edit(chat.id, 'bob', 1, 'hello');
    expect(edit.message).toMatchObject({ id: 2, kind: 'edit', target: 1, message: 'hello', deleted: false });
    expect(edit.stored).toBe(true);
    const again = await chats.edit(chat.id, 'bob', 1, 'hello');
    expect([again.stored, again.message.id]).toEqual([false, 2]);
    const page = (await chats.history(chat.id, 'alice', undefined, 10))!;
    expect(page.messages.map((m) => [m.id, m.kind, m.message, m.target, m.editedAt !== null])).toEqual([
      [1, 'message', 'hello', null, true],
      [2, 'edit', 'hello', 1, false],
    ]);
    // A reader who already had the message gets the edit with the next fetch.
    expect(await take(chats, 'alice')).toEqual(new Map([[chat.id, [1, 2]]]));
  });

  it("scrubs a deleted message's text and its edits' texts from Redis, and answers a repeated deletion with the same entry", async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice'], 'secret one', false, { ...SEEN, mode: 'history' });
    await chats.edit(chat.id, 'bob', 1, 'secret two');
    await chats.send(chat.id, 'bob', 'stays', 'c-1');
    const deletion = await chats.delete(chat.id, 'bob', 1);
    expect(deletion.message).toMatchObject({ id: 4, kind: 'delete', target: 1, message: '' });
    expect((await chats.delete(chat.id, 'bob', 1)).message.id).toBe(4);
    const text = await everything();
    expect(text).not.toContain('secret');
    expect(text).toContain('stays');
    const page = (await chats.history(chat.id, 'bob', undefined, 10))!;
    expect(page.messages.map((m) => [m.id, m.kind, m.message, m.deleted])).toEqual([
      [1, 'message', '', true],
      [2, 'edit', '', true],
      [3, 'message', 'stays', false],
      [4, 'delete', '', false],
    ]);
    expect(await codeOf(chats.edit(chat.id, 'bob', 1, 'back'))).toBe('CONFLICT');
    // A late retry of a send answers with the message as it is now.
    await chats.delete(chat.id, 'bob', 3);
    // Not even a digest of a deleted text stays: the send's record keeps only its id and time.
    expect(Object.values(await redis.client.hgetall(chatKeys.sent(chat.id)))).toEqual([
      expect.stringMatching(/^3 \d+ 0$/),
    ]);
    const retry = await chats.send(chat.id, 'bob', 'stays', 'c-1');
    expect([retry.stored, retry.message.id, retry.message.deleted, retry.message.message]).toEqual([
      false,
      3,
      true,
      '',
    ]);
  });

  it("refuses another member's message, an entry that is not a message and an id not kept, writing nothing", async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice'], 'mine', false);
    await chats.edit(chat.id, 'bob', 1, 'mine!');
    const before = await everything();
    expect(await codeOf(chats.edit(chat.id, 'alice', 1, 'yours'))).toBe('FORBIDDEN');
    expect(await codeOf(chats.delete(chat.id, 'alice', 1))).toBe('FORBIDDEN');
    expect(await codeOf(chats.edit(chat.id, 'bob', 2, 'x'))).toBe('BAD_USER_INPUT');
    expect(await codeOf(chats.delete(chat.id, 'bob', 99))).toBe('NOT_FOUND');
    expect(await codeOf(chats.edit(chat.id, 'mallory', 1, 'x'))).toBe('NOT_FOUND');
    expect(await everything()).toBe(before);
  });
});

describe('members, owners and typing', () => {
  it('lets an owner remove a member, whose cursors, role and read position go with them', async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice', 'carol'], 'hi', false);
    await take(chats, 'alice', 'phone');
    expect(await codeOf(chats.removeMember(chat.id, 'bob', 'alice', false))).toBe('FORBIDDEN');
    expect(await codeOf(chats.removeMember(chat.id, 'alice', 'mallory', false))).toBe('NOT_FOUND');
    expect(await chats.setOwner(chat.id, 'bob', false, 'carol', true)).toBe(true);
    expect(await chats.removeMember(chat.id, 'alice', 'carol', false)).toBe(true);
    expect(await chats.removeMember(chat.id, 'alice', 'carol', false)).toBe(false);
    expect(await redis.client.zrange(chatKeys.cursors(chat.id), 0, -1)).toEqual([]);
    expect(await redis.client.zrange(userKeys.chats('alice'), 0, -1)).toEqual([]);
    expect(await chats.history(chat.id, 'alice', undefined, 10)).toBeUndefined();
    expect(await codeOf(chats.send(chat.id, 'alice', 'still here?'))).toBe('NOT_FOUND');
    // The service may remove from any chat.
    expect(await chats.removeMember(chat.id, 'carol', 'ops', true)).toBe(true);
    expect(await chats.members(chat.id)).toEqual(['bob']);
  });

  it('lets only an owner set the retention, which applies to the count at once', async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice'], 'm1', false);
    for (let i = 2; i <= 5; i++) await chats.send(chat.id, 'bob', `m${i}`);
    const small: Retention = { mode: 'history', keepMessages: 2, keepMs: 86_400_000 };
    expect(await codeOf(chats.setRetention(chat.id, 'alice', false, small))).toBe('FORBIDDEN');
    expect(await chats.setRetention(chat.id, 'bob', false, small)).toEqual({ changed: true, retention: small });
    expect(await chats.setRetention(chat.id, 'bob', false, small)).toEqual({ changed: false, retention: small });
    expect(await redis.client.zcard(chatKeys.messages(chat.id))).toBe(2);
    expect((await chats.details(chat.id, 'alice'))!.retention).toEqual(small);
    // What a change leaves out stays as the chat has it, for the service outside the chat too.
    expect((await chats.setRetention(chat.id, 'ops', true, { mode: 'seen' })).retention).toEqual({
      ...small,
      mode: 'seen',
    });
  });

  it('tells of typing at most once a second per member, lists the typer while it lasts, and stores nothing after', async () => {
    const chats = repo();
    const { chat } = await chats.create('bob', ['alice'], 'hi', false);
    expect(await chats.typing(chat.id, 'alice', true)).toBe(true);
    expect(await chats.typing(chat.id, 'alice', true)).toBe(false);
    expect((await chats.details(chat.id, 'bob'))!.typing).toEqual(['alice']);
    expect(await redis.client.pttl(chatKeys.typing(chat.id))).toBeGreaterThan(0);
    expect(await chats.typing(chat.id, 'alice', false)).toBe(true);
    expect(await chats.typing(chat.id, 'alice', false)).toBe(false);
    expect((await chats.details(chat.id, 'bob'))!.typing).toEqual([]);
    // Starting again at once is recorded but not told, nor is the stop after it: starting and
    // stopping in turn cannot flood the chat.
    expect(await chats.typing(chat.id, 'alice', true)).toBe(false);
    expect((await chats.details(chat.id, 'bob'))!.typing).toEqual(['alice']);
    expect(await chats.typing(chat.id, 'alice', false)).toBe(false);
    expect((await chats.details(chat.id, 'bob'))!.typing).toEqual([]);
    expect(await codeOf(chats.typing(chat.id, 'mallory', true))).toBe('NOT_FOUND');
  });
});
