// A chat's history through the real server over HTTP and WebSocket: scrolling back by id while
// entries arrive, edits and deletions as entries of their own, retention, read receipts, typing,
// owners removing members, and chatChanged for members only.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  AddChatMembersDocument,
  ChatChangedDocument,
  ChatDetailsDocument,
  ChatDocument,
  CreateChatDocument,
  DeleteMessageDocument,
  EditMessageDocument,
  FetchPendingMessagesDocument,
  InboxChangedDocument,
  JoinChatDocument,
  LeaveChatDocument,
  MarkSeenDocument,
  MessagesDocument,
  MessageVersionsDocument,
  RemoveChatMemberDocument,
  SendMessageDocument,
  SetChatOwnerDocument,
  SetChatRetentionDocument,
  SetTypingDocument,
  SetTypingTwiceDocument,
  type ChatRetentionInput,
  type FetchPendingMessagesMutation,
  type MessagesQuery,
} from '../../src/generated/client/graphql';
import { TOPICS } from '../../src/schema/topics';
import { serverForThisFile } from '../support/fixture';
import { snapshotRedis } from '../support/snapshot';
import { codes, eventually, post, wsOperation } from '../support/graphql';
import type { TestServer } from '../support/server';

const fixture = serverForThisFile();
let api: TestServer;
let alice: string;
let bob: string;
let carol: string;
let dave: string;

beforeAll(() => {
  api = fixture.api;
  alice = api.tokens.user;
  bob = api.tokens.other;
  carol = api.server.verifier.sign('carol', [], 3600);
  dave = api.server.verifier.sign('dave', [], 3600);
});

type Page = MessagesQuery['messages'];
type Pending = FetchPendingMessagesMutation['fetchPendingMessages'];

/** Runs an operation over HTTP and returns its data; any error fails the test. */
async function ok<R, V>(document: TypedDocumentNode<R, V>, variables: V, token: string): Promise<R> {
  const result = await post(api.url, document, variables, token);
  if (result.errors || !result.data) throw new Error(`unexpected errors: ${JSON.stringify(result.errors)}`);
  return result.data;
}

async function createChat(
  token: string,
  members: string[],
  message: string,
  options: { open?: boolean; retention?: ChatRetentionInput } = {},
): Promise<string> {
  return (await ok(CreateChatDocument, { members, message, ...options }, token)).createChat.id;
}

const send = async (token: string, chatId: string, message: string) =>
  (await ok(SendMessageDocument, { chatId, message }, token)).sendMessage;

const page = async (token: string, chatId: string, before?: number, last?: number): Promise<Page> =>
  (await ok(MessagesDocument, { chatId, before, last }, token)).messages;

const fetchAs = async (token: string, limit?: number): Promise<Pending> =>
  (await ok(FetchPendingMessagesDocument, { limit }, token)).fetchPendingMessages;

const ids = (entries: { id: number }[]): number[] => entries.map((entry) => entry.id);

/** Waits until `count` connections listen on a channel in Redis: the server's one, or none once its subscribers are gone. */
async function listeners(channel: string, count: number): Promise<void> {
  await eventually(async () => (await api.redis.subscribers(channel)) === count, 10_000, 20);
}

/** Subscribes to a chat's changes and waits until the server hears them. */
async function watch(token: string, chatId: string) {
  const subscription = wsOperation(fixture.connect(token).client, ChatChangedDocument, { chatId });
  await listeners(TOPICS.chatChanged.channel(chatId), 1);
  return subscription;
}

type Watching = ReturnType<typeof wsOperation<{ chatChanged: { change: string } }, unknown>>;

/** The notices of a chatChanged subscription, without the TYPING ones `hearing` made. */
const changes = (results: { data?: { chatChanged: { change: string } } | null }[]) =>
  results.map((r) => r.data?.chatChanged).filter((change) => change?.change !== 'TYPING');

/**
 * Waits until each subscription hears the chat. Subscriptions to one chat share one Redis
 * subscription, so its count cannot tell when the second is live: `token`, a member, starts and
 * stops typing until every one has heard a notice (tests leave TYPING notices out).
 */
async function hearing(chatId: string, token: string, subscriptions: Watching[]): Promise<void> {
  let typing = false;
  await eventually(
    async () => {
      typing = !typing;
      await ok(SetTypingDocument, { chatId, typing }, token);
      return subscriptions.every((subscription) => subscription.results.length > 0);
    },
    10_000,
    50,
  );
  if (typing) await ok(SetTypingDocument, { chatId, typing: false }, token);
}

/** Waits for `count` notices other than TYPING. */
async function heard(subscription: Watching, count: number) {
  await eventually(async () => changes(subscription.results).length >= count, 5000, 20);
  return changes(subscription.results);
}

/** Every key with its content and expiry, to show that a refused request wrote nothing. */
const snapshot = () => snapshotRedis(api.redis.client);

/** Everything stored, as text, to look for a text that must be gone. */
const everythingStored = async (): Promise<string> => JSON.stringify(await snapshot());

describe('scrolling back', () => {
  it('scroll back over 10,000 messages returns each once in order while new ones arrive', async () => {
    const chatId = await createChat(alice, ['bob'], 'm1', { retention: { mode: 'HISTORY', keepMessages: 20_000 } });
    const texts = new Map<number, string>([[1, 'm1']]);
    const record = (entry: { id: number; message: string }, text: string) => {
      expect([entry.message, texts.has(entry.id)]).toEqual([text, false]);
      texts.set(entry.id, text);
    };
    // 9,999 more, 32 requests in flight, alice and bob taking turns.
    let next = 2;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next <= 10_000) {
          const text = `m${next}`;
          const token = next++ % 2 === 0 ? alice : bob;
          record(await send(token, chatId, text), text);
        }
      }),
    );
    expect(Math.max(...texts.keys())).toBe(10_000);

    // While paging back, one sender keeps sending, and one more message arrives with every page.
    let late = 0;
    const sendLate = async () => {
      const text = `late${++late}`;
      const entry = await send(late % 2 === 0 ? alice : bob, chatId, text);
      record(entry, text);
      return entry.id;
    };
    let stop = false;
    const background = (async () => {
      while (!stop) await sendLate();
    })();
    const pages: Page[] = [await page(bob, chatId, undefined, 100)];
    const top = pages[0].messages.at(-1)!.id;
    const arrivedWhilePaging: number[] = [];
    while (pages.at(-1)!.hasMore) {
      const [older, arrived] = await Promise.all([page(bob, chatId, pages.at(-1)!.messages[0].id, 100), sendLate()]);
      pages.push(older);
      arrivedWhilePaging.push(arrived);
    }
    stop = true;
    await background;

    expect(top).toBeGreaterThanOrEqual(10_000);
    const seen = pages.flatMap((one) => ids(one.messages)).sort((a, b) => a - b);
    expect(seen).toEqual(Array.from({ length: top }, (_, i) => i + 1));
    expect(
      pages
        .slice()
        .reverse()
        .flatMap((one) => ids(one.messages)),
    ).toEqual(seen);
    expect(pages.map((one) => one.messages.length)).toEqual(
      pages.map((_, i) => (i < pages.length - 1 ? 100 : top - 100 * (pages.length - 1))),
    );
    expect(pages.map((one) => one.hasMore)).toEqual(pages.map((_, i) => i < pages.length - 1));
    expect(new Set(pages.map((one) => one.historyStart))).toEqual(new Set([1]));
    for (const one of pages) {
      for (const entry of one.messages) {
        expect([entry.id, entry.message, entry.kind, entry.chatId]).toEqual([
          entry.id,
          texts.get(entry.id),
          'MESSAGE',
          chatId,
        ]);
      }
    }
    // The messages sent while paging came after the newest page, and are all there now.
    expect(arrivedWhilePaging.length).toBe(pages.length - 1);
    expect(arrivedWhilePaging.every((id) => id > top)).toBe(true);
    const chat = (await ok(ChatDocument, { chatId }, alice)).chat!;
    expect(chat.latestMessageId).toBe(10_000 + late);
    expect(texts.size).toBe(10_000 + late);
    const newest = await page(alice, chatId, undefined, 100);
    expect(ids(newest.messages)).toEqual(Array.from({ length: 100 }, (_, i) => chat.latestMessageId - 99 + i));
  }, 300_000);

  it.each([
    ['last: 0', { last: 0 }, 'last'],
    ['last over MESSAGE_MAX_PAGE', { last: 101 }, 'last'],
    ['last: 100000', { last: 100_000 }, 'last'],
    ['before: 0', { before: 0 }, 'before'],
    ['before: -1', { before: -1 }, 'before'],
  ])('refuses %s with BAD_USER_INPUT, over HTTP and WebSocket', async (_, range, argument) => {
    const chatId = await createChat(alice, ['bob'], 'hello');
    const overHttp = await post(api.url, MessagesDocument, { chatId, ...range }, alice);
    const [overWs] = await wsOperation(fixture.connect(alice).client, MessagesDocument, {
      chatId,
      ...range,
    }).completion();
    for (const result of [overHttp, overWs]) {
      expect(codes(result)).toEqual(['BAD_USER_INPUT']);
      expect(result.errors?.[0]?.extensions?.argument).toBe(argument);
    }
  });

  it('pages a short chat: before the first id is empty, before an id past the latest is the newest page', async () => {
    const chatId = await createChat(alice, ['bob'], 'one');
    await send(bob, chatId, 'two');
    await send(alice, chatId, 'three');
    expect(await page(bob, chatId, undefined, 2)).toMatchObject({ chatId, hasMore: true, historyStart: 1 });
    expect(ids((await page(bob, chatId, undefined, 2)).messages)).toEqual([2, 3]);
    expect(ids((await page(bob, chatId, 2, 2)).messages)).toEqual([1]);
    expect((await page(bob, chatId, 2, 2)).hasMore).toBe(false);
    expect(await page(bob, chatId, 1)).toEqual({ chatId, hasMore: false, historyStart: 1, messages: [] });
    expect(ids((await page(bob, chatId, 1000)).messages)).toEqual([1, 2, 3]);
  });
});

describe('edits and deletions', () => {
  it('appends an edit with the next id and rewrites the message; the same edit again returns the same entry', async () => {
    const chatId = await createChat(alice, ['bob'], 'hello');
    const original = await send(alice, chatId, 'teh plan');
    await send(bob, chatId, 'ok');

    const edit = (await ok(EditMessageDocument, { chatId, messageId: 2, message: 'the plan' }, alice)).editMessage;
    expect(edit).toEqual({
      id: 4,
      chatId,
      sender: 'alice',
      message: 'the plan',
      ts: expect.any(Number),
      kind: 'EDIT',
      target: 2,
      editedAt: null,
      deleted: false,
      version: 4,
    });
    const again = (await ok(EditMessageDocument, { chatId, messageId: 2, message: 'the plan' }, alice)).editMessage;
    expect(again).toEqual(edit);
    expect((await ok(ChatDocument, { chatId }, alice)).chat?.latestMessageId).toBe(4);

    const history = (await page(bob, chatId)).messages;
    expect(history.map((m) => [m.id, m.kind, m.target, m.message, m.deleted])).toEqual([
      [1, 'MESSAGE', null, 'hello', false],
      [2, 'MESSAGE', null, 'the plan', false],
      [3, 'MESSAGE', null, 'ok', false],
      [4, 'EDIT', 2, 'the plan', false],
    ]);
    expect(history[1].ts).toBe(original.ts);
    expect(history[1].editedAt).toBe(edit.ts);
    expect(history[1].editedAt).toBeGreaterThanOrEqual(original.ts);
    expect(history.filter((m) => m.id !== 2).map((m) => m.editedAt)).toEqual([null, null, null]);
    expect(ids((await fetchAs(bob))[0].messages)).toEqual([1, 2, 3, 4]);

    const second = (await ok(EditMessageDocument, { chatId, messageId: 2, message: 'the real plan' }, alice))
      .editMessage;
    expect([second.id, second.target, second.message]).toEqual([5, 2, 'the real plan']);
    const rewritten = (await page(bob, chatId)).messages[1];
    expect([rewritten.id, rewritten.message, rewritten.editedAt]).toEqual([2, 'the real plan', second.ts]);
    // The earlier edit keeps its own text.
    expect((await page(bob, chatId)).messages[3].message).toBe('the plan');
    expect((await fetchAs(bob))[0].messages.map((m) => [m.id, m.kind, m.message])).toEqual([
      [5, 'EDIT', 'the real plan'],
    ]);

    // An edit is not a message: it cannot be edited itself.
    const editOfEdit = await post(api.url, EditMessageDocument, { chatId, messageId: 4, message: 'x' }, alice);
    expect(codes(editOfEdit)).toEqual(['BAD_USER_INPUT']);
  });

  it('refuses an edit made against an older version, and answers a late retry of an older edit with that edit, not B over C', async () => {
    const chatId = await createChat(alice, ['bob'], 'hello');
    await send(alice, chatId, 'A');
    const versions = async () =>
      (await ok(MessageVersionsDocument, { chatId }, alice)).messages.messages.map((m) => [m.id, m.message, m.version]);
    expect(await versions()).toEqual([
      [1, 'hello', 1],
      [2, 'A', 2],
    ]);
    const toB = (await ok(EditMessageDocument, { chatId, messageId: 2, message: 'B', version: 2 }, alice)).editMessage;
    expect([toB.id, toB.version, toB.message]).toEqual([3, 3, 'B']);
    const toC = (await ok(EditMessageDocument, { chatId, messageId: 2, message: 'C', version: 3 }, alice)).editMessage;
    expect([toC.id, toC.message]).toEqual([4, 'C']);

    // The phone's retry of "A -> B", answered only now: the edit it repeats, nothing appended.
    const before = await snapshotRedis(api.redis.client);
    const retry = (await ok(EditMessageDocument, { chatId, messageId: 2, message: 'B', version: 2 }, alice))
      .editMessage;
    expect(retry).toEqual(toB);
    expect(await snapshotRedis(api.redis.client)).toEqual(before);
    expect(await versions()).toEqual([
      [1, 'hello', 1],
      [2, 'C', 4],
      [3, 'B', 3],
      [4, 'C', 4],
    ]);

    // Another text against a version edited since: CONFLICT, nothing written; a version the message never had: BAD_USER_INPUT.
    const stale = await post(api.url, EditMessageDocument, { chatId, messageId: 2, message: 'D', version: 3 }, alice);
    expect(codes(stale)).toEqual(['CONFLICT']);
    expect(stale.errors?.[0].message).toContain('edited since version 3');
    const never = await post(api.url, EditMessageDocument, { chatId, messageId: 2, message: 'D', version: 1 }, alice);
    expect(codes(never)).toEqual(['BAD_USER_INPUT']);
    expect(await snapshotRedis(api.redis.client)).toEqual(before);

    // Against the current version, or without one (as before), an edit applies.
    const toD = (await ok(EditMessageDocument, { chatId, messageId: 2, message: 'D', version: 4 }, alice)).editMessage;
    expect([toD.id, toD.message]).toEqual([5, 'D']);
    const toE = (await ok(EditMessageDocument, { chatId, messageId: 2, message: 'E' }, alice)).editMessage;
    expect([toE.id, toE.message]).toEqual([6, 'E']);
  });

  it('deletes a message: a DELETE entry with the next id; the message and its edits are blanked and their texts are nowhere in Redis', async () => {
    const chatId = await createChat(alice, ['bob'], 'hello');
    const secret = await ok(
      SendMessageDocument,
      { chatId, message: 'secret plan alpha', clientMessageId: 'phone/1' },
      alice,
    );
    expect(secret.sendMessage.id).toBe(2);
    await ok(EditMessageDocument, { chatId, messageId: 2, message: 'secret plan beta' }, alice);
    await ok(EditMessageDocument, { chatId, messageId: 2, message: 'secret plan gamma' }, alice);
    await send(bob, chatId, 'what?');
    expect(await everythingStored()).toContain('secret plan gamma');

    const deletion = (await ok(DeleteMessageDocument, { chatId, messageId: 2 }, alice)).deleteMessage;
    expect(deletion).toEqual({
      id: 6,
      chatId,
      sender: 'alice',
      message: '',
      ts: expect.any(Number),
      kind: 'DELETE',
      target: 2,
      editedAt: null,
      deleted: false,
    });
    expect((await ok(DeleteMessageDocument, { chatId, messageId: 2 }, alice)).deleteMessage).toEqual(deletion);
    const edited = await post(api.url, EditMessageDocument, { chatId, messageId: 2, message: 'back' }, alice);
    expect(codes(edited)).toEqual(['CONFLICT']);

    const expected = [
      [1, 'MESSAGE', null, 'hello', false],
      [2, 'MESSAGE', null, '', true],
      [3, 'EDIT', 2, '', true],
      [4, 'EDIT', 2, '', true],
      [5, 'MESSAGE', null, 'what?', false],
      [6, 'DELETE', 2, '', false],
    ];
    const history = (await page(bob, chatId)).messages;
    expect(history.map((m) => [m.id, m.kind, m.target, m.message, m.deleted])).toEqual(expected);
    expect(history[1].editedAt).toBeNull();
    const pending = (await fetchAs(bob))[0].messages;
    expect(pending.map((m) => [m.id, m.kind, m.target, m.message, m.deleted])).toEqual(expected);

    const stored = await everythingStored();
    for (const word of ['alpha', 'beta', 'gamma']) expect(stored).not.toContain(word);
    expect(stored).toContain('what?');
    expect((await ok(ChatDocument, { chatId }, alice)).chat?.latestMessageId).toBe(6);
  });

  it("refuses another member's message (FORBIDDEN) and an unknown id (NOT_FOUND), writing nothing, over HTTP and WebSocket", async () => {
    const chatId = await createChat(alice, ['bob'], 'hello');
    await send(alice, chatId, 'mine');
    const before = await snapshot();
    const bobWs = fixture.connect(bob).client;
    const refused = [
      await post(api.url, EditMessageDocument, { chatId, messageId: 2, message: 'yours now' }, bob),
      await post(api.url, DeleteMessageDocument, { chatId, messageId: 2 }, bob),
      (await wsOperation(bobWs, EditMessageDocument, { chatId, messageId: 2, message: 'yours now' }).completion())[0],
      (await wsOperation(bobWs, DeleteMessageDocument, { chatId, messageId: 2 }).completion())[0],
    ];
    expect(refused.map(codes)).toEqual([['FORBIDDEN'], ['FORBIDDEN'], ['FORBIDDEN'], ['FORBIDDEN']]);
    const unknown = [
      await post(api.url, EditMessageDocument, { chatId, messageId: 99, message: 'x' }, alice),
      await post(api.url, DeleteMessageDocument, { chatId, messageId: 99 }, alice),
      (await wsOperation(bobWs, EditMessageDocument, { chatId, messageId: 99, message: 'x' }).completion())[0],
      (await wsOperation(bobWs, DeleteMessageDocument, { chatId, messageId: 99 }).completion())[0],
    ];
    expect(unknown.map(codes)).toEqual([['NOT_FOUND'], ['NOT_FOUND'], ['NOT_FOUND'], ['NOT_FOUND']]);
    expect(unknown.map((result) => result.errors?.[0]?.extensions?.argument)).toEqual(Array(4).fill('messageId'));
    // Someone outside the chat learns nothing about the message: the chat is not found.
    const outsider = await post(api.url, EditMessageDocument, { chatId, messageId: 2, message: 'x' }, carol);
    expect([codes(outsider), outsider.errors?.[0]?.extensions?.argument]).toEqual([['NOT_FOUND'], 'chatId']);
    const zero = await post(api.url, DeleteMessageDocument, { chatId, messageId: 0 }, alice);
    expect(codes(zero)).toEqual(['BAD_USER_INPUT']);
    expect(await snapshot()).toEqual(before);

    // The sender may, over WebSocket too.
    const aliceWs = fixture.connect(alice).client;
    const [edit] = await wsOperation(aliceWs, EditMessageDocument, {
      chatId,
      messageId: 2,
      message: 'all mine',
    }).completion();
    expect(edit.data?.editMessage).toMatchObject({ id: 3, kind: 'EDIT', target: 2, message: 'all mine' });
    const [deletion] = await wsOperation(aliceWs, DeleteMessageDocument, { chatId, messageId: 2 }).completion();
    expect(deletion.data?.deleteMessage).toMatchObject({ id: 4, kind: 'DELETE', target: 2, message: '' });
    expect((await page(bob, chatId)).messages.map((m) => [m.id, m.message])).toEqual([
      [1, 'hello'],
      [2, ''],
      [3, ''],
      [4, ''],
    ]);
  });
});

describe('retention', () => {
  it('keeps every entry in the HISTORY mode after everyone has fetched it', async () => {
    const chatId = await createChat(alice, ['bob'], 'one');
    await send(bob, chatId, 'two');
    await send(alice, chatId, 'three');
    expect(ids((await fetchAs(alice))[0].messages)).toEqual([1, 2, 3]);
    expect(ids((await fetchAs(bob))[0].messages)).toEqual([1, 2, 3]);
    expect(await api.redis.client.zcard(`chat:{c${chatId}}:msgs`)).toBe(3);
    expect(await page(bob, chatId)).toMatchObject({ hasMore: false, historyStart: 1 });
    expect(ids((await page(bob, chatId)).messages)).toEqual([1, 2, 3]);
    const details = (await ok(ChatDetailsDocument, { chatId }, bob)).chat!;
    expect([details.retention, details.owner]).toEqual([
      { mode: 'HISTORY', keepMessages: 10_000, keepDays: 90 },
      false,
    ]);
  });

  it('trims to a small keepMessages, tells a reader who missed entries where history starts, and lets only owners change it', async () => {
    const chatId = await createChat(alice, ['bob'], 'm1', { retention: { keepMessages: 3, keepDays: 7 } });
    for (let i = 2; i <= 6; i++) await send(alice, chatId, `m${i}`);
    expect(await api.redis.client.zcard(`chat:{c${chatId}}:msgs`)).toBe(3);
    const kept = await page(bob, chatId);
    expect([ids(kept.messages), kept.historyStart, kept.hasMore]).toEqual([[4, 5, 6], 4, false]);
    // bob had read nothing: his fetch starts where history does, and says so.
    const pending = await fetchAs(bob);
    expect(pending.map((chat) => [ids(chat.messages), chat.historyStart, chat.remaining])).toEqual([[[4, 5, 6], 4, 0]]);

    const refused = await post(api.url, SetChatRetentionDocument, { chatId, retention: { keepMessages: 1 } }, bob);
    expect(codes(refused)).toEqual(['FORBIDDEN']);
    const set = await ok(SetChatRetentionDocument, { chatId, retention: { keepMessages: 2, keepDays: 7 } }, alice);
    expect(set.setChatRetention).toEqual({ mode: 'HISTORY', keepMessages: 2, keepDays: 7 });
    expect(ids((await page(bob, chatId)).messages)).toEqual([5, 6]);
    expect((await ok(ChatDetailsDocument, { chatId }, bob)).chat?.retention).toEqual(set.setChatRetention);

    // An owner names another; the new owner may change it too.
    expect((await ok(SetChatOwnerDocument, { chatId, user: 'bob', owner: true }, alice)).setChatOwner).toBe(true);
    await ok(SetChatRetentionDocument, { chatId, retention: { keepMessages: 1, keepDays: 7 } }, bob);
    expect(ids((await page(alice, chatId)).messages)).toEqual([6]);
    const outsider = await post(api.url, SetChatRetentionDocument, { chatId, retention: { keepMessages: 5 } }, carol);
    expect(codes(outsider)).toEqual(['NOT_FOUND']);
    const tooMany = await post(api.url, SetChatRetentionDocument, { chatId, retention: { keepMessages: 0 } }, alice);
    expect(codes(tooMany)).toEqual(['BAD_USER_INPUT']);
  });

  it('deletes entries in the SEEN mode once every member and every device with a cursor has taken them (the book)', async () => {
    const chatId = await createChat(alice, ['bob'], 'one', { retention: { mode: 'SEEN' } });
    const stored = () => api.redis.client.zcard(`chat:{c${chatId}}:msgs`);
    expect(
      ids((await ok(FetchPendingMessagesDocument, { device: 'phone' }, alice)).fetchPendingMessages[0].messages),
    ).toEqual([1]);
    expect(await stored()).toBe(1);
    await send(bob, chatId, 'two');
    await send(bob, chatId, 'three');
    expect(ids((await fetchAs(bob))[0].messages)).toEqual([1, 2, 3]);
    expect(await stored()).toBe(2);
    // alice has read everything without a device; her phone has not, so the entries stay for it.
    expect(ids((await fetchAs(alice))[0].messages)).toEqual([2, 3]);
    expect(await stored()).toBe(2);
    expect(
      ids((await ok(FetchPendingMessagesDocument, { device: 'phone' }, alice)).fetchPendingMessages[0].messages),
    ).toEqual([2, 3]);
    expect(await stored()).toBe(0);
    expect(await page(alice, chatId)).toEqual({ chatId, hasMore: false, historyStart: 4, messages: [] });
    expect((await ok(ChatDetailsDocument, { chatId }, alice)).chat?.retention.mode).toBe('SEEN');
  });
});

describe('read receipts', () => {
  it('moves readPositions as members fetch and mark seen, and tells chatChanged subscribers ids only', async () => {
    const chatId = await createChat(alice, ['bob'], 'first words');
    await send(alice, chatId, 'second words');
    await send(alice, chatId, 'third words');
    const watching = await watch(alice, chatId);

    expect(ids((await fetchAs(bob, 2))[0].messages)).toEqual([1, 2]);
    const positions = async () => (await ok(ChatDetailsDocument, { chatId }, alice)).chat?.readPositions;
    expect(await positions()).toEqual([
      { user: 'alice', messageId: 0 },
      { user: 'bob', messageId: 2 },
    ]);
    expect((await ok(MarkSeenDocument, { chatId, messageId: 3 }, bob)).markSeen).toBe(true);
    expect((await ok(MarkSeenDocument, { chatId, messageId: 1 }, bob)).markSeen).toBe(false);
    expect(ids((await fetchAs(alice))[0].messages)).toEqual([1, 2, 3]);
    expect(await positions()).toEqual([
      { user: 'alice', messageId: 3 },
      { user: 'bob', messageId: 3 },
    ]);
    // A send after the reads: its notice comes after theirs, and nothing came for the refused one.
    await send(bob, chatId, 'fourth words');
    const results = await watching.take(4);
    expect(changes(results)).toEqual([
      { chatId, change: 'READ', user: 'bob', messageId: 2 },
      { chatId, change: 'READ', user: 'bob', messageId: 3 },
      { chatId, change: 'READ', user: 'alice', messageId: 3 },
      { chatId, change: 'ENTRY', user: 'bob', messageId: 4 },
    ]);
    expect(JSON.stringify(watching.results)).not.toContain('words');
  });
});

describe('typing', () => {
  it('tells the other members, lists the typer, and refuses a second notice within a second', async () => {
    const chatId = await createChat(alice, ['bob'], 'hello');
    const watching = await watch(bob, chatId);
    // Two calls in one request, milliseconds apart: the second is too soon.
    expect(await ok(SetTypingTwiceDocument, { chatId }, alice)).toEqual({ first: true, second: false });
    expect((await ok(ChatDetailsDocument, { chatId }, bob)).chat?.typing).toEqual(['alice']);
    expect((await ok(SetTypingDocument, { chatId, typing: false }, alice)).setTyping).toBe(true);
    expect((await ok(SetTypingDocument, { chatId, typing: false }, alice)).setTyping).toBe(false);
    expect((await ok(ChatDetailsDocument, { chatId }, bob)).chat?.typing).toEqual([]);

    const outsider = [
      await post(api.url, SetTypingDocument, { chatId, typing: true }, carol),
      await post(api.url, SetTypingDocument, { chatId: '999', typing: true }, carol),
    ];
    expect(outsider.map(codes)).toEqual([['NOT_FOUND'], ['NOT_FOUND']]);
    expect(outsider[0].errors?.[0]?.message).toBe(outsider[1].errors?.[0]?.message);

    await send(alice, chatId, 'done typing');
    expect((await watching.take(3)).map((result) => result.data?.chatChanged)).toEqual([
      { chatId, change: 'TYPING', user: 'alice', messageId: null },
      { chatId, change: 'TYPING', user: 'alice', messageId: null },
      { chatId, change: 'ENTRY', user: 'alice', messageId: 2 },
    ]);
  });
});

describe('members', () => {
  it('an owner removes a member, whose chatChanged gets LEFT and completes; they can read and send nothing more, and after rejoining read only what came later', async () => {
    const chatId = await createChat(alice, ['bob', 'carol'], 'hi all', { open: true });
    const aliceWatching = await watch(alice, chatId);
    const bobSocket = fixture.connect(bob);
    const bobWatching = wsOperation(bobSocket.client, ChatChangedDocument, { chatId });
    const bobInbox = wsOperation(bobSocket.client, InboxChangedDocument, {});
    await listeners(TOPICS.inboxChanged.channel('bob'), 1);
    await hearing(chatId, carol, [aliceWatching, bobWatching]);
    await send(bob, chatId, 'bob before');
    await heard(bobWatching, 1);
    await bobInbox.take(1);

    const members = () => api.redis.client.zrange(`chat:{c${chatId}}:members`, 0, -1);
    const notOwner = await post(api.url, RemoveChatMemberDocument, { chatId, user: 'bob' }, carol);
    expect(codes(notOwner)).toEqual(['FORBIDDEN']);
    const outsider = await post(api.url, RemoveChatMemberDocument, { chatId, user: 'bob' }, dave);
    const missing = await post(api.url, RemoveChatMemberDocument, { chatId: '999', user: 'bob' }, dave);
    expect([codes(outsider), codes(missing)]).toEqual([['NOT_FOUND'], ['NOT_FOUND']]);
    expect(outsider.errors?.[0]?.message).toBe(missing.errors?.[0]?.message);
    const self = await post(api.url, RemoveChatMemberDocument, { chatId, user: 'alice' }, alice);
    expect(codes(self)).toEqual(['BAD_USER_INPUT']);
    expect((await members()).sort()).toEqual(['alice', 'bob', 'carol']);

    expect((await ok(RemoveChatMemberDocument, { chatId, user: 'bob' }, alice)).removeChatMember).toBe(true);
    expect(changes(await bobWatching.completion())).toEqual([
      { chatId, change: 'ENTRY', user: 'bob', messageId: 2 },
      { chatId, change: 'LEFT', user: 'bob', messageId: null },
    ]);
    expect(bobWatching.failure).toBeUndefined();
    expect((await ok(RemoveChatMemberDocument, { chatId, user: 'bob' }, alice)).removeChatMember).toBe(false);

    const shut = [
      await post(api.url, MessagesDocument, { chatId }, bob),
      await post(api.url, SendMessageDocument, { chatId, message: 'let me in' }, bob),
      await post(api.url, EditMessageDocument, { chatId, messageId: 2, message: 'edited' }, bob),
    ];
    expect(shut.map(codes)).toEqual([['NOT_FOUND'], ['NOT_FOUND'], ['NOT_FOUND']]);
    expect((await ok(ChatDocument, { chatId }, bob)).chat).toBeNull();
    await send(alice, chatId, 'after bob');
    expect(await fetchAs(bob)).toEqual([]);
    // bob's inbox hears of another chat, and of nothing in the one he was removed from.
    const fence = await createChat(carol, ['bob'], 'elsewhere');
    await bobInbox.take(2);
    expect(bobInbox.results.map((r) => r.data?.inboxChanged.chatId)).toEqual([chatId, fence]);

    // The chat is open: bob joins again, and reads only what comes after.
    const rejoined = (await ok(JoinChatDocument, { chatId }, bob)).joinChat;
    expect([rejoined.latestMessageId, rejoined.seenMessageId, rejoined.unreadCount]).toEqual([3, 3, 0]);
    expect(await page(bob, chatId)).toEqual({ chatId, hasMore: false, historyStart: 4, messages: [] });
    await send(alice, chatId, 'welcome back');
    const after = await page(bob, chatId);
    expect([ids(after.messages), after.historyStart, after.hasMore]).toEqual([[4], 4, false]);
    expect(await page(bob, chatId, 4)).toEqual({ chatId, hasMore: false, historyStart: 4, messages: [] });
    expect((await fetchAs(bob)).map((chat) => [chat.chatId, ids(chat.messages)])).toEqual([
      [chatId, [4]],
      [fence, [1]],
    ]);
    const oldMessage = await post(api.url, EditMessageDocument, { chatId, messageId: 2, message: 'edited' }, bob);
    expect(codes(oldMessage)).toEqual(['NOT_FOUND']);

    await send(carol, chatId, 'the end');
    expect(await heard(aliceWatching, 7)).toEqual([
      { chatId, change: 'ENTRY', user: 'bob', messageId: 2 },
      { chatId, change: 'LEFT', user: 'bob', messageId: null },
      { chatId, change: 'ENTRY', user: 'alice', messageId: 3 },
      { chatId, change: 'JOINED', user: 'bob', messageId: 3 },
      { chatId, change: 'ENTRY', user: 'alice', messageId: 4 },
      { chatId, change: 'READ', user: 'bob', messageId: 4 },
      { chatId, change: 'ENTRY', user: 'carol', messageId: 5 },
    ]);
  });

  it('ends the chatChanged subscription of a member who leaves, the last one too', async () => {
    const chatId = await createChat(alice, ['bob'], 'hi');
    const aliceWatching = await watch(alice, chatId);
    const bobWatching = wsOperation(fixture.connect(bob).client, ChatChangedDocument, { chatId });
    await hearing(chatId, alice, [aliceWatching, bobWatching]);
    await send(alice, chatId, 'are you there');
    await heard(bobWatching, 1);

    expect((await ok(LeaveChatDocument, { chatId }, bob)).leaveChat).toBe(true);
    expect(changes(await bobWatching.completion())).toEqual([
      { chatId, change: 'ENTRY', user: 'alice', messageId: 2 },
      { chatId, change: 'LEFT', user: 'bob', messageId: null },
    ]);
    expect((await ok(LeaveChatDocument, { chatId }, alice)).leaveChat).toBe(true);
    expect(changes(await aliceWatching.completion())).toEqual([
      { chatId, change: 'ENTRY', user: 'alice', messageId: 2 },
      { chatId, change: 'LEFT', user: 'bob', messageId: null },
      { chatId, change: 'LEFT', user: 'alice', messageId: null },
    ]);
    expect(await api.redis.client.keys(`chat:{c${chatId}}:*`)).toEqual([]);
  });

  it('never leaves a member removed while subscribing listening: each subscription is refused or ends with their LEFT', async () => {
    const chatId = await createChat(alice, ['bob'], 'hello');
    const { client } = fixture.connect(bob);
    const endings: string[] = [];
    for (let attempt = 0; attempt < 100; attempt++) {
      const subscription = wsOperation(client, ChatChangedDocument, { chatId });
      // The removal lands at a different point of the subscription's start each time.
      await new Promise((resolve) => setTimeout(resolve, attempt % 4));
      await ok(RemoveChatMemberDocument, { chatId, user: 'bob' }, alice);
      const results = await subscription.completion(10_000);
      const last = results.at(-1);
      if (last?.errors) expect(codes(last)).toEqual(['NOT_FOUND']);
      else expect(last?.data?.chatChanged).toEqual({ chatId, change: 'LEFT', user: 'bob', messageId: null });
      endings.push(last?.errors ? 'refused' : 'left');
      await ok(AddChatMembersDocument, { chatId, members: ['bob'] }, alice);
    }
    expect(endings).toHaveLength(100);
    // And once the subscription is surely live (it heard something), a removal ends it with LEFT.
    const live = wsOperation(client, ChatChangedDocument, { chatId });
    await hearing(chatId, alice, [live]);
    await ok(RemoveChatMemberDocument, { chatId, user: 'bob' }, alice);
    expect((await live.completion(10_000)).at(-1)?.data?.chatChanged).toEqual({
      chatId,
      change: 'LEFT',
      user: 'bob',
      messageId: null,
    });
  }, 60_000);

  it('refuses chatChanged to a non-member with NOT_FOUND, as for a chat that does not exist, and tells them nothing', async () => {
    const chatId = await createChat(alice, ['bob'], 'hello');
    const { client } = fixture.connect(carol);
    const outsider = wsOperation(client, ChatChangedDocument, { chatId });
    const missing = wsOperation(client, ChatChangedDocument, { chatId: '999' });
    const [refused, unknown] = [await outsider.completion(), await missing.completion()];
    expect([refused.map(codes), unknown.map(codes)]).toEqual([[['NOT_FOUND']], [['NOT_FOUND']]]);
    expect(refused[0].errors?.[0]?.message).toBe(unknown[0].errors?.[0]?.message);
    expect(refused[0].data ?? null).toBeNull();
    // Nothing listens for carol any more; a member's subscription still works.
    await listeners(TOPICS.chatChanged.channel(chatId), 0);
    const bobWatching = await watch(bob, chatId);
    await send(alice, chatId, 'members only');
    expect(changes(await bobWatching.take(1))).toEqual([{ chatId, change: 'ENTRY', user: 'alice', messageId: 2 }]);
    expect(outsider.results).toHaveLength(1);
    const bad = await wsOperation(client, ChatChangedDocument, { chatId: '1}:*' }).completion();
    expect(bad.map(codes)).toEqual([['BAD_USER_INPUT']]);
  });
});
