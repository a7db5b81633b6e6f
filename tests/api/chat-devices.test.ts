// One user on several devices, through the real server over HTTP and WebSocket: each device gets
// every entry of every chat once and in order, whatever the others do; requests without a device
// keep the seen-id as the cursor; a device that went silent, or was pushed out by newer ones, is
// forgotten and told; bad device ids and limits write nothing.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  ChatChangedDocument,
  ChatDetailsDocument,
  ChatDevicesDocument,
  CreateChatDocument,
  DeleteMessageDocument,
  EditMessageDocument,
  FetchPendingMessagesDocument,
  InboxChangedDocument,
  JoinChatDocument,
  MarkSeenDocument,
  PendingMessagesDocument,
  SendMessageDocument,
  type FetchPendingMessagesMutation,
} from '../../src/generated/client/graphql';
import { chatKeys, userKeys } from '../../src/redis/keys';
import { TOPICS } from '../../src/schema/topics';
import { serverForThisFile } from '../support/fixture';
import { snapshotRedis } from '../support/snapshot';
import { codes, eventually, post, wsOperation } from '../support/graphql';
import { startTestServer, type TestServer } from '../support/server';

// Three live devices per user: the acceptance test uses exactly three, a fourth pushes one out.
const fixture = serverForThisFile({ CHAT_MAX_DEVICES: '3' });
let api: TestServer;
let carol: string;

beforeAll(() => {
  api = fixture.api;
  carol = api.server.verifier.sign('carol', [], 3600);
});

type Pending = FetchPendingMessagesMutation['fetchPendingMessages'];
type Entry = Pending[number]['messages'][number];

/** Runs an operation over HTTP and returns its data; any error fails the test. */
async function ok<R, V>(document: TypedDocumentNode<R, V>, variables: V, token: string, url = api.url): Promise<R> {
  const result = await post(url, document, variables, token);
  if (result.errors || !result.data) throw new Error(`unexpected errors: ${JSON.stringify(result.errors)}`);
  return result.data;
}

const fetchAs = async (token: string, device?: string, limit?: number, url = api.url): Promise<Pending> =>
  (await ok(FetchPendingMessagesDocument, { device, limit }, token, url)).fetchPendingMessages;

const idsOf = (pending: Pending): [string, number[]][] =>
  pending.map((chat) => [chat.chatId, chat.messages.map((entry) => entry.id)]);

const oneTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

async function readPosition(chatId: string, user = 'alice'): Promise<number | undefined> {
  const details = await ok(ChatDetailsDocument, { chatId }, api.tokens.user);
  return details.chat?.readPositions.find((position) => position.user === user)?.messageId;
}

/** Waits until `count` connections listen on a channel in Redis: the server's one, or none once its subscribers are gone. */
async function listeners(channel: string, count: number): Promise<void> {
  await eventually(async () => (await api.redis.subscribers(channel)) === count, 10_000, 20);
}

/**
 * What one device shows, built only from the entries it fetched, applied in order: a MESSAGE adds
 * a message, an EDIT replaces the text of its target, a DELETE blanks it.
 */
class Device {
  /** Per chat, the id of every entry applied, in the order applied. */
  readonly ids = new Map<string, number[]>();
  /** Per chat, each message's text as the device now shows it. */
  readonly texts = new Map<string, Map<number, string>>();
  /** [limit asked, entries returned] of every fetch. */
  readonly fetches: [number, number][] = [];

  constructor(readonly name: string) {}

  last(chatId: string): number {
    return this.ids.get(chatId)?.at(-1) ?? 0;
  }

  shown(chatId: string): [number, string][] {
    return [...(this.texts.get(chatId) ?? new Map<number, string>())].sort((a, b) => a[0] - b[0]);
  }

  apply(pending: Pending, limit: number): void {
    this.fetches.push([limit, pending.reduce((sum, chat) => sum + chat.messages.length, 0)]);
    for (const chat of pending) for (const entry of chat.messages) this.applyEntry(chat.chatId, entry);
  }

  private applyEntry(chatId: string, entry: Entry): void {
    if (entry.chatId !== chatId) throw new Error(`entry ${entry.id} of chat ${entry.chatId} listed under ${chatId}`);
    const ids = this.ids.get(chatId) ?? [];
    const texts = this.texts.get(chatId) ?? new Map<number, string>();
    this.ids.set(chatId, ids);
    this.texts.set(chatId, texts);
    ids.push(entry.id);
    if (entry.kind === 'MESSAGE') texts.set(entry.id, entry.message);
    else texts.set(entry.target!, entry.kind === 'DELETE' ? '' : entry.message);
  }
}

/** Fetches for a device until nothing is pending; returns how many fetches it took. */
async function catchUp(device: Device, limit: number): Promise<number> {
  for (let fetches = 1; ; fetches++) {
    const pending = await fetchAs(api.tokens.user, device.name, limit);
    device.apply(pending, limit);
    if (pending.every((chat) => chat.remaining === 0)) return fetches;
  }
}

const runningPullers: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  // A test that failed half way leaves its pullers running; they stop before the next test.
  await Promise.all(runningPullers.splice(0).map((puller) => puller.stop().catch(() => undefined)));
});

/** Pulls for a device whenever one of its subscriptions delivers a notice, one pull at a time. */
function pullOnNotices(device: Device, subscriptions: { results: unknown[] }[], limit: number) {
  let handled = 0;
  let stopped = false;
  let failure: Error | undefined;
  const notices = () => subscriptions.reduce((sum, subscription) => sum + subscription.results.length, 0);
  const running = (async () => {
    try {
      while (!stopped) {
        const count = notices();
        if (count > handled) {
          handled = count;
          await catchUp(device, limit);
        } else {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    }
  })();
  const puller = {
    notices,
    async stop(): Promise<void> {
      stopped = true;
      await running;
      if (failure) throw failure;
    },
  };
  runningPullers.push(puller);
  return puller;
}

/**
 * What the test sent, by the ids the server gave it: the final text of every message is worked out
 * from the texts the test passed in (an edit's text replaces, a deletion blanks), not from replies.
 */
class Script {
  private readonly entries = new Map<string, Map<number, { kind: string; target: number | null; text: string }>>();

  record(chatId: string, entry: Entry, text: string): void {
    expect(entry).toMatchObject({ chatId, message: text });
    const chat = this.entries.get(chatId) ?? new Map();
    this.entries.set(chatId, chat);
    expect(chat.has(entry.id)).toBe(false);
    chat.set(entry.id, { kind: entry.kind, target: entry.target, text });
  }

  latest(chatId: string): number {
    return Math.max(...this.entries.get(chatId)!.keys());
  }

  expected(chatId: string): [number, string][] {
    const texts = new Map<number, string>();
    const chat = this.entries.get(chatId)!;
    for (const id of [...chat.keys()].sort((a, b) => a - b)) {
      const { kind, target, text } = chat.get(id)!;
      texts.set(kind === 'MESSAGE' ? id : target!, text);
    }
    return [...texts].sort((a, b) => a[0] - b[0]);
  }

  /** Creates a chat whose first message, id 1, is `text`. */
  async create(token: string, members: string[], text: string): Promise<{ id: string }> {
    const chat = (await ok(CreateChatDocument, { members, message: text }, token)).createChat;
    expect(chat.latestMessageId).toBe(1);
    this.entries.set(chat.id, new Map([[1, { kind: 'MESSAGE', target: null, text }]]));
    return chat;
  }

  async send(token: string, chatId: string, text: string): Promise<number> {
    const entry = (await ok(SendMessageDocument, { chatId, message: text }, token)).sendMessage;
    this.record(chatId, entry, text);
    return entry.id;
  }

  async edit(token: string, chatId: string, messageId: number, text: string): Promise<void> {
    const entry = (await ok(EditMessageDocument, { chatId, messageId, message: text }, token)).editMessage;
    expect(entry).toMatchObject({ kind: 'EDIT', target: messageId });
    this.record(chatId, entry, text);
  }

  async delete(token: string, chatId: string, messageId: number): Promise<void> {
    const entry = (await ok(DeleteMessageDocument, { chatId, messageId }, token)).deleteMessage;
    expect(entry).toMatchObject({ kind: 'DELETE', target: messageId });
    this.record(chatId, entry, '');
  }
}

describe('one user on several devices', () => {
  it('a scripted session with one user on three devices (one offline for a while, one reconnecting mid-stream) ends with each device holding exactly the messages and edits sent, in order', async () => {
    const script = new Script();
    const bob = api.tokens.other;
    const alice = api.tokens.user;
    const phone = new Device('phone');
    const laptop = new Device('laptop');
    const tablet = new Device('tablet');

    // Each device opens the app once before any chat exists: every chat then starts at its joining.
    for (const device of [phone, laptop, tablet]) expect(await fetchAs(alice, device.name)).toEqual([]);

    // The phone listens to alice's inbox and pulls, 20 at a time, on every notice.
    const phoneSocket = fixture.connect(alice);
    const phoneInbox = wsOperation(phoneSocket.client, InboxChangedDocument, {});
    await listeners(TOPICS.inboxChanged.channel('alice'), 1);
    const phonePuller = pullOnNotices(phone, [phoneInbox], 20);

    const group = await script.create(bob, ['alice', 'carol'], 'g:start');
    const pair = await script.create(carol, ['alice'], 'p:start');
    const chats = [group.id, pair.id];

    // The tablet listens to both chats' changes and pulls, 10 at a time, on every notice.
    const subscribeTablet = async () => {
      const socket = fixture.connect(alice);
      const subscriptions = chats.map((chatId) => wsOperation(socket.client, ChatChangedDocument, { chatId }));
      for (const chatId of chats) await listeners(TOPICS.chatChanged.channel(chatId), 1);
      // What it missed while it was away, then notices.
      const fetches = await catchUp(tablet, 10);
      return { socket, puller: pullOnNotices(tablet, subscriptions, 10), fetches };
    };
    let tabletLink = await subscribeTablet();

    const caughtUp = (device: Device) =>
      eventually(async () => chats.every((chatId) => device.last(chatId) === script.latest(chatId)), 20_000, 20);
    const send = (token: string, chatId: string, prefix: string, count: number) =>
      (async () => {
        for (let i = 1; i <= count; i++) await script.send(token, chatId, `${prefix}${i}`);
      })();

    // Phase A: three senders at once; alice edits one of her messages. The laptop is offline.
    let aliceFirst = 0;
    let aliceSecond = 0;
    await Promise.all([
      send(bob, group.id, 'A:bob', 25),
      (async () => {
        for (let i = 1; i <= 10; i++) {
          await script.send(carol, group.id, `A:carol-g${i}`);
          await script.send(carol, pair.id, `A:carol-p${i}`);
        }
      })(),
      (async () => {
        aliceFirst = await script.send(alice, group.id, 'A:alice typo');
        await script.send(alice, pair.id, 'A:alice to carol');
        aliceSecond = await script.send(alice, group.id, 'A:alice second');
        await script.edit(alice, group.id, aliceFirst, 'A:alice fixed');
        await script.send(alice, group.id, 'A:alice third');
      })(),
    ]);
    await caughtUp(phone);
    await caughtUp(tablet);
    expect(laptop.ids.size).toBe(0);
    for (const chatId of chats) expect(await readPosition(chatId)).toBe(script.latest(chatId));

    // Phase B: the tablet's socket closes; the laptop comes back halfway and catches up 7 at a
    // time while messages keep coming; alice deletes a message, bob edits one of his.
    const tabletAt = chats.map((chatId) => tablet.last(chatId));
    await tabletLink.puller.stop();
    await tabletLink.socket.dispose();
    for (const chatId of chats) await listeners(TOPICS.chatChanged.channel(chatId), 0);
    let halfway: () => void = () => undefined;
    const laptopBack = new Promise<void>((resolve) => {
      halfway = resolve;
    });
    let laptopFetches = 0;
    await Promise.all([
      (async () => {
        for (let i = 1; i <= 25; i++) {
          const id = await script.send(bob, group.id, `B:bob${i}`);
          if (i === 10) {
            halfway();
            await script.edit(bob, group.id, id, `B:bob${i} (edited)`);
          }
        }
      })(),
      send(carol, pair.id, 'B:carol-p', 10),
      send(carol, group.id, 'B:carol-g', 10),
      (async () => {
        await script.send(alice, group.id, 'B:alice oops');
        await script.delete(alice, group.id, aliceSecond);
        await script.send(alice, pair.id, 'B:alice to carol');
      })(),
      (async () => {
        await laptopBack;
        laptopFetches = await catchUp(laptop, 7);
      })(),
    ]);
    expect(laptopFetches).toBeGreaterThan(5);
    await caughtUp(phone);
    expect(chats.map((chatId) => tablet.last(chatId))).toEqual(tabletAt);
    for (const chatId of chats) {
      expect(laptop.last(chatId)).toBeLessThanOrEqual(phone.last(chatId));
      expect(await readPosition(chatId)).toBe(phone.last(chatId));
    }

    // Phase C: the tablet, back, first takes one entry: alice's read position stays with her
    // furthest device, not her latest fetch. Then it reconnects and pulls what it missed (several
    // fetches of 10) while the last messages arrive; alice deletes the message she edited, so its
    // edit's text goes too.
    tablet.apply(await fetchAs(alice, tablet.name, 1), 1);
    expect(chats.reduce((sum, chatId) => sum + tablet.last(chatId), 0)).toBe(tabletAt[0] + tabletAt[1] + 1);
    for (const chatId of chats) {
      expect(tablet.last(chatId)).toBeLessThan(phone.last(chatId));
      expect(await readPosition(chatId)).toBe(phone.last(chatId));
    }
    const reconnected = subscribeTablet();
    await Promise.all([
      reconnected,
      send(bob, group.id, 'C:bob', 20),
      send(carol, pair.id, 'C:carol-p', 10),
      (async () => {
        await script.delete(alice, group.id, aliceFirst);
        await script.send(alice, group.id, 'C:alice last word');
      })(),
    ]);
    tabletLink = await reconnected;
    expect(tabletLink.fetches).toBeGreaterThan(1);
    await caughtUp(phone);
    await caughtUp(tablet);
    await phonePuller.stop();
    await tabletLink.puller.stop();
    await catchUp(laptop, 7);

    // Every device holds entries 1..N of each chat once, in order, and every message as it now is.
    expect(script.latest(group.id)).toBeGreaterThanOrEqual(100);
    for (const chatId of chats) {
      const everything = oneTo(script.latest(chatId));
      for (const device of [phone, laptop, tablet]) {
        expect([device.name, chatId, device.ids.get(chatId)]).toEqual([device.name, chatId, everything]);
        expect([device.name, chatId, device.shown(chatId)]).toEqual([device.name, chatId, script.expected(chatId)]);
        for (const [limit, count] of device.fetches) expect(count).toBeLessThanOrEqual(limit);
      }
      expect(await readPosition(chatId)).toBe(script.latest(chatId));
    }
    const expectedGroup = new Map(script.expected(group.id));
    expect([expectedGroup.get(aliceFirst), expectedGroup.get(aliceSecond)]).toEqual(['', '']);
    expect(phonePuller.notices()).toBeGreaterThan(0);
    expect((await ok(ChatDevicesDocument, {}, alice)).chatDevices.map((device) => device.id).sort()).toEqual([
      'laptop',
      'phone',
      'tablet',
    ]);
  }, 90_000);

  it('keeps the old meaning for requests without a device: the seen-id is the cursor', async () => {
    const bob = api.tokens.other;
    const alice = api.tokens.user;
    const chatId = (await ok(CreateChatDocument, { members: ['alice'], message: 'one' }, bob)).createChat.id;
    for (const message of ['two', 'three', 'four']) await ok(SendMessageDocument, { chatId, message }, bob);

    expect(idsOf(await fetchAs(alice, 'phone', 2))).toEqual([[chatId, [1, 2]]]);
    // Without a device: from the seen-id, which the phone moved to 2.
    expect(idsOf(await fetchAs(alice, undefined, 1))).toEqual([[chatId, [3]]]);
    expect(await readPosition(chatId)).toBe(3);
    // The phone keeps its own cursor: what the device-less fetch took is still the phone's.
    expect(idsOf(await fetchAs(alice, 'phone'))).toEqual([[chatId, [3, 4]]]);
    expect(await fetchAs(alice)).toEqual([]);
    expect((await ok(PendingMessagesDocument, {}, alice)).pendingMessages).toEqual([]);

    await ok(SendMessageDocument, { chatId, message: 'five' }, bob);
    expect(idsOf((await ok(PendingMessagesDocument, {}, alice)).pendingMessages)).toEqual([[chatId, [5]]]);
    expect((await ok(MarkSeenDocument, { chatId, messageId: 5 }, alice)).markSeen).toBe(true);
    expect((await ok(MarkSeenDocument, { chatId, messageId: 5 }, alice)).markSeen).toBe(false);
    expect(await fetchAs(alice)).toEqual([]);
    expect(idsOf(await fetchAs(alice, 'phone'))).toEqual([[chatId, [5]]]);

    // A new device starts at the read position.
    expect(await fetchAs(alice, 'tablet')).toEqual([]);
    await ok(SendMessageDocument, { chatId, message: 'six' }, bob);
    expect(idsOf(await fetchAs(alice, 'tablet'))).toEqual([[chatId, [6]]]);
    // Requests without a device register none.
    expect((await ok(ChatDevicesDocument, {}, alice)).chatDevices.map((device) => device.id)).toEqual([
      'tablet',
      'phone',
    ]);
    const chat = (await ok(ChatDetailsDocument, { chatId }, alice)).chat!;
    expect([chat.seenMessageId, chat.unreadCount]).toEqual([6, 0]);
  });

  it('lets a device read with pendingMessages and acknowledge with markSeen, moving only its own cursor and the read position with its furthest', async () => {
    const alice = api.tokens.user;
    const bob = api.tokens.other;
    for (const device of ['phone', 'laptop']) expect(await fetchAs(alice, device)).toEqual([]);
    const chatId = (await ok(CreateChatDocument, { members: ['alice'], message: 'one' }, bob)).createChat.id;
    for (const message of ['two', 'three', 'four']) await ok(SendMessageDocument, { chatId, message }, bob);
    const other = (await ok(CreateChatDocument, { members: ['alice'], message: 'elsewhere' }, carol)).createChat.id;
    const peek = async (device: string, limit?: number) =>
      idsOf((await ok(PendingMessagesDocument, { device, limit }, alice)).pendingMessages);

    // Three over two chats: the one message of the other chat, two of the first; asked twice, the same.
    expect(await peek('phone', 3)).toEqual([
      [chatId, [1, 2]],
      [other, [1]],
    ]);
    expect(await peek('phone', 3)).toEqual([
      [chatId, [1, 2]],
      [other, [1]],
    ]);
    expect((await ok(MarkSeenDocument, { chatId, messageId: 2, device: 'phone' }, alice)).markSeen).toBe(true);
    expect(await readPosition(chatId)).toBe(2);
    expect(await peek('phone')).toEqual([
      [chatId, [3, 4]],
      [other, [1]],
    ]);
    // The laptop's cursor did not move.
    expect(await peek('laptop')).toEqual([
      [chatId, [1, 2, 3, 4]],
      [other, [1]],
    ]);
    // A cursor never moves back; the laptop going further moves the read position, not the phone.
    expect((await ok(MarkSeenDocument, { chatId, messageId: 1, device: 'phone' }, alice)).markSeen).toBe(false);
    expect((await ok(MarkSeenDocument, { chatId, messageId: 4, device: 'laptop' }, alice)).markSeen).toBe(true);
    expect((await ok(MarkSeenDocument, { chatId, messageId: 3, device: 'phone' }, alice)).markSeen).toBe(true);
    expect(await readPosition(chatId)).toBe(4);
    expect(await peek('phone')).toEqual([
      [chatId, [4]],
      [other, [1]],
    ]);
    expect(await peek('laptop')).toEqual([[other, [1]]]);
    const marked = await post(api.url, MarkSeenDocument, { chatId, messageId: 5, device: 'phone' }, alice);
    expect(codes(marked)).toEqual(['BAD_USER_INPUT']);
  });

  it('starts a chat joined later at the joining, on a device that knew nothing of it', async () => {
    const alice = api.tokens.user;
    expect(await fetchAs(alice, 'phone')).toEqual([]);
    const chatId = (await ok(CreateChatDocument, { members: [], message: 'before', open: true }, carol)).createChat.id;
    await ok(SendMessageDocument, { chatId, message: 'still before' }, carol);
    await ok(JoinChatDocument, { chatId }, alice);
    await ok(SendMessageDocument, { chatId, message: 'after' }, carol);
    const pending = await fetchAs(alice, 'phone');
    expect(pending.map((chat) => [chat.chatId, chat.historyStart, chat.messages.map((m) => m.message)])).toEqual([
      [chatId, 3, ['after']],
    ]);
  });

  it('forgets a device pushed out by newer ones: its next fetch says so for every chat and resumes at the read position', async () => {
    const alice = api.tokens.user;
    const bob = api.tokens.other;
    const chatId = (await ok(CreateChatDocument, { members: ['alice'], message: 'one' }, bob)).createChat.id;
    const quiet = (await ok(CreateChatDocument, { members: ['alice'], message: 'quiet' }, carol)).createChat.id;
    expect(idsOf(await fetchAs(alice, 'old'))).toEqual([
      [chatId, [1]],
      [quiet, [1]],
    ]);
    expect(await fetchAs(alice, 'b')).toEqual([]);
    expect(await fetchAs(alice, 'c')).toEqual([]);
    await ok(SendMessageDocument, { chatId, message: 'two' }, bob);
    // A fourth device: the one that fetched longest ago is forgotten to make room.
    expect(idsOf(await fetchAs(alice, 'd'))).toEqual([[chatId, [2]]]);
    const devices = (await ok(ChatDevicesDocument, {}, alice)).chatDevices;
    expect(devices.map((device) => [device.id, device.forgotten])).toEqual([
      ['d', false],
      ['c', false],
      ['b', false],
      ['old', true],
    ]);

    expect(await fetchAs(alice, 'old')).toEqual([
      { chatId, messages: [], remaining: 0, historyStart: 1, deviceForgotten: true },
      { chatId: quiet, messages: [], remaining: 0, historyStart: 1, deviceForgotten: true },
    ]);
    expect(await fetchAs(alice, 'old')).toEqual([]);
    await ok(SendMessageDocument, { chatId, message: 'three' }, bob);
    expect(idsOf(await fetchAs(alice, 'old'))).toEqual([[chatId, [3]]]);
  });
});

describe('a device silent for CHAT_DEVICE_TTL_SECONDS', () => {
  it('is forgotten: its next fetch lists every chat with deviceForgotten and historyStart and resumes at the read position', async () => {
    // An hour, not the 30 days: the setting is what forgets the laptop below, while a lifetime
    // short enough to wait out could also run out between two requests on a busy machine.
    const short = await startTestServer({ CHAT_DEVICE_TTL_SECONDS: '3600' }, api.redis);
    try {
      const { url } = short;
      const alice = short.tokens.user;
      const bob = short.tokens.other;
      const carolHere = short.server.verifier.sign('carol', [], 3600);
      const busy = (await ok(CreateChatDocument, { members: ['alice'], message: 'a1' }, bob, url)).createChat.id;
      const quiet = (await ok(CreateChatDocument, { members: ['alice'], message: 'q1' }, carolHere, url)).createChat.id;
      await ok(SendMessageDocument, { chatId: busy, message: 'a2' }, bob, url);
      await ok(SendMessageDocument, { chatId: quiet, message: 'q2' }, carolHere, url);
      expect(idsOf(await fetchAs(alice, 'laptop', undefined, url))).toEqual([
        [busy, [1, 2]],
        [quiet, [1, 2]],
      ]);
      await ok(SendMessageDocument, { chatId: busy, message: 'a3' }, bob, url);
      await ok(SendMessageDocument, { chatId: quiet, message: 'q3' }, carolHere, url);
      // The phone is new: it starts at the read position the laptop left, and moves it on.
      expect(idsOf(await fetchAs(alice, 'phone', undefined, url))).toEqual([
        [busy, [3]],
        [quiet, [3]],
      ]);

      // The laptop's last fetch goes a second past the hour, in alice's list and in both chats.
      const [seconds, micros] = await api.redis.client.time();
      const past = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - 3_601_000;
      await api.redis.client.zadd(userKeys.devices('alice'), 'XX', past, 'laptop');
      for (const chat of [busy, quiet]) {
        await api.redis.client.zadd(chatKeys.active(chat), 'XX', past, 'alice\nlaptop');
      }
      expect(await fetchAs(alice, 'phone', undefined, url)).toEqual([]);
      const devices = (await ok(ChatDevicesDocument, {}, alice, url)).chatDevices;
      expect(devices.map((device) => [device.id, device.forgotten])).toEqual([
        ['phone', false],
        ['laptop', true],
      ]);
      await ok(SendMessageDocument, { chatId: busy, message: 'a4' }, bob, url);

      // Every chat is listed, messages or not, each from the read position on.
      const back = await fetchAs(alice, 'laptop', undefined, url);
      expect(back.map((chat) => [chat.chatId, chat.deviceForgotten, chat.historyStart, chat.remaining])).toEqual([
        [busy, true, 1, 0],
        [quiet, true, 1, 0],
      ]);
      expect(idsOf(back)).toEqual([
        [busy, [4]],
        [quiet, []],
      ]);
      expect(await fetchAs(alice, 'laptop', undefined, url)).toEqual([]);
      const after = (await ok(ChatDevicesDocument, {}, alice, url)).chatDevices;
      expect(after.find((device) => device.id === 'laptop')?.forgotten).toBe(false);
    } finally {
      await short.stop();
    }
  }, 40_000);
});

describe('bad device ids and limits', () => {
  /** Every key with its content and expiry, to show that a refused request wrote nothing. */
  const snapshot = () => snapshotRedis(api.redis.client);

  /** bob's chat with alice, two messages pending for alice's phone, which fetched once before. */
  async function arrange(): Promise<string> {
    expect(await fetchAs(api.tokens.user, 'phone')).toEqual([]);
    const chatId = (await ok(CreateChatDocument, { members: ['alice'], message: 'one' }, api.tokens.other)).createChat
      .id;
    await ok(SendMessageDocument, { chatId, message: 'two' }, api.tokens.other);
    return chatId;
  }

  const badIds: [string, string][] = [
    ['an empty device id', ''],
    ['a device id over 128 characters', 'd'.repeat(129)],
    ['a device id with a colon', 'phone:2'],
    ['a device id with a brace', 'phone{2'],
    ['a device id with a closing brace', 'phone}'],
    ['a device id with a space', 'my phone'],
    ['a device id with a newline', 'phone\n2'],
  ];

  it.each(badIds)('refuses %s with BAD_USER_INPUT over HTTP and WebSocket, writing nothing', async (_, device) => {
    const chatId = await arrange();
    const before = await snapshot();
    const alice = api.tokens.user;
    const overHttp = [
      await post(api.url, FetchPendingMessagesDocument, { device }, alice),
      await post(api.url, PendingMessagesDocument, { device }, alice),
      await post(api.url, MarkSeenDocument, { chatId, messageId: 2, device }, alice),
    ];
    const { client } = fixture.connect(alice);
    const overWs = [
      (await wsOperation(client, FetchPendingMessagesDocument, { device }).completion())[0],
      (await wsOperation(client, PendingMessagesDocument, { device }).completion())[0],
      (await wsOperation(client, MarkSeenDocument, { chatId, messageId: 2, device }).completion())[0],
    ];
    for (const result of [...overHttp, ...overWs]) {
      expect(codes(result)).toEqual(['BAD_USER_INPUT']);
      expect(result.errors?.[0]?.extensions?.argument).toBe('device');
      expect(result.data ?? null).toBeNull();
    }
    expect(await snapshot()).toEqual(before);
    expect((await ok(ChatDevicesDocument, {}, alice)).chatDevices.map((d) => d.id)).toEqual(['phone']);
  });

  it.each([
    ['zero', 0],
    ['negative', -1],
    ['over MESSAGE_MAX_FETCH', 1001],
  ])('refuses a limit that is %s with BAD_USER_INPUT, registering no device', async (_, limit) => {
    await arrange();
    const before = await snapshot();
    const alice = api.tokens.user;
    const { client } = fixture.connect(alice);
    const results = [
      await post(api.url, FetchPendingMessagesDocument, { device: 'laptop', limit }, alice),
      await post(api.url, PendingMessagesDocument, { device: 'laptop', limit }, alice),
      (await wsOperation(client, FetchPendingMessagesDocument, { device: 'laptop', limit }).completion())[0],
    ];
    expect(results.map(codes)).toEqual([['BAD_USER_INPUT'], ['BAD_USER_INPUT'], ['BAD_USER_INPUT']]);
    expect(results.map((result) => result.errors?.[0]?.extensions?.argument)).toEqual(['limit', 'limit', 'limit']);
    expect(await snapshot()).toEqual(before);
    expect((await ok(ChatDevicesDocument, {}, alice)).chatDevices.map((d) => d.id)).toEqual(['phone']);
  });

  it('accepts a device id of exactly 128 characters, and one of letters, digits, emoji and _ - . / @', async () => {
    const chatId = await arrange();
    const longest = 'é'.repeat(128);
    const fancy = 'alice@home/phone_2-b.📱';
    // New devices start at the read position: alice had read nothing, then everything.
    expect(idsOf(await fetchAs(api.tokens.user, longest))).toEqual([[chatId, [1, 2]]]);
    expect(idsOf(await fetchAs(api.tokens.user, fancy))).toEqual([]);
    await ok(SendMessageDocument, { chatId, message: 'three' }, api.tokens.other);
    expect(idsOf(await fetchAs(api.tokens.user, longest))).toEqual([[chatId, [3]]]);
    // The same name in another Unicode form is the same device.
    expect(idsOf(await fetchAs(api.tokens.user, longest.normalize('NFD')))).toEqual([]);
    expect(idsOf(await fetchAs(api.tokens.user, fancy))).toEqual([[chatId, [3]]]);
  });
});
