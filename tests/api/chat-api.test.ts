// Group chats through the real server over HTTP and WebSocket: the flow, who may do what, bad
// input with nothing written, and notify-then-pull.
import {
  AddChatMembersDocument,
  ChatDocument,
  ChatsDocument,
  CreateChatDocument,
  FetchPendingMessagesDocument,
  InboxChangedDocument,
  JoinChatDocument,
  LeaveChatDocument,
  MarkSeenDocument,
  PendingMessagesDocument,
  SendMessageDocument,
} from '../../src/generated/client/graphql';
import { once } from 'node:events';
import { print } from 'graphql';
import WebSocket from 'ws';
import { serverForThisFile } from '../support/fixture';
import { codes, connectWs, eventually, post, wsOperation, type WsClient } from '../support/graphql';
import { startTestServer, type TestServer } from '../support/server';

// The book's retention (delete once every member has seen); tests/api/chat-devices.test.ts has history and devices.
const fixture = serverForThisFile({ MESSAGE_MAX_LENGTH: '50', CHAT_MAX_MEMBERS: '4', CHAT_RETENTION_MODE: 'seen' });
let api: TestServer;
let carol: string;
const afterThisTest: (() => void)[] = [];

beforeAll(() => {
  api = fixture.api;
  carol = api.server.verifier.sign('carol', [], 3600);
});
afterEach(() => {
  for (const undo of afterThisTest.splice(0)) undo();
});

const connect = (token: string): WsClient => fixture.connect(token);

/** alice creates a chat with bob; returns its id. */
async function aliceAndBob(message = 'hello', open = false): Promise<string> {
  const created = await post(api.url, CreateChatDocument, { members: ['bob'], message, open }, api.tokens.user);
  expect(created.errors).toBeUndefined();
  return created.data!.createChat.id;
}

const fetchAs = async (token: string, limit?: number) =>
  (await post(api.url, FetchPendingMessagesDocument, { limit }, token)).data!.fetchPendingMessages;

describe('a chat over HTTP', () => {
  it('creates a chat of the caller and the members, with the first message pending for everyone', async () => {
    const created = await post(
      api.url,
      CreateChatDocument,
      { members: ['bob', 'carol', 'bob'], message: 'hi all' },
      api.tokens.user,
    );
    expect(created.data?.createChat).toEqual({
      id: '1',
      open: false,
      memberCount: 3,
      latestMessageId: 1,
      seenMessageId: 0,
      unreadCount: 1,
      members: ['alice', 'bob', 'carol'],
    });
    const pending = await fetchAs(carol);
    expect(pending).toEqual([
      {
        chatId: '1',
        remaining: 0,
        historyStart: 1,
        deviceForgotten: false,
        messages: [
          {
            id: 1,
            chatId: '1',
            sender: 'alice',
            message: 'hi all',
            ts: expect.any(Number),
            kind: 'MESSAGE',
            target: null,
            editedAt: null,
            deleted: false,
          },
        ],
      },
    ]);
    expect(Math.abs(pending[0].messages[0].ts - Date.now() / 1000)).toBeLessThan(60);
  });

  it('delivers each message once, oldest first, and then cleans it up', async () => {
    const chatId = await aliceAndBob();
    for (const text of ['two', 'three']) {
      const sent = await post(api.url, SendMessageDocument, { chatId, message: text }, api.tokens.other);
      expect(sent.data?.sendMessage).toMatchObject({ chatId, sender: 'bob', message: text });
    }
    const first = await fetchAs(api.tokens.other);
    expect(first[0].messages.map((m) => [m.id, m.message])).toEqual([
      [1, 'hello'],
      [2, 'two'],
      [3, 'three'],
    ]);
    expect(await fetchAs(api.tokens.other)).toEqual([]);
    expect((await fetchAs(api.tokens.user))[0].messages.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(await api.redis.client.zcard('chat:{c1}:msgs')).toBe(0);
  });

  it('lets a client read, show, then mark seen (at-least-once)', async () => {
    const chatId = await aliceAndBob();
    await post(api.url, SendMessageDocument, { chatId, message: 'two' }, api.tokens.user);
    const peek = await post(api.url, PendingMessagesDocument, {}, api.tokens.other);
    const again = await post(api.url, PendingMessagesDocument, {}, api.tokens.other);
    expect(again.data).toEqual(peek.data);
    expect(peek.data?.pendingMessages[0]!.messages.map((m) => m.id)).toEqual([1, 2]);

    const marked = await post(api.url, MarkSeenDocument, { chatId, messageId: 1 }, api.tokens.other);
    expect(marked.data).toEqual({ markSeen: true });
    const after = await post(api.url, PendingMessagesDocument, {}, api.tokens.other);
    expect(after.data?.pendingMessages[0]!.messages.map((m) => m.id)).toEqual([2]);
  });

  it('pages a backlog with `limit`, reporting what remains', async () => {
    const chatId = await aliceAndBob();
    for (let i = 2; i <= 5; i++)
      await post(api.url, SendMessageDocument, { chatId, message: `m${i}` }, api.tokens.user);
    const first = await fetchAs(api.tokens.other, 2);
    expect(first.map((c) => [c.messages.map((m) => m.id), c.remaining])).toEqual([[[1, 2], 3]]);
    const rest = await fetchAs(api.tokens.other, 10);
    expect(rest.map((c) => [c.messages.map((m) => m.id), c.remaining])).toEqual([[[3, 4, 5], 0]]);
  });

  it("lists the caller's chats with unread counts", async () => {
    const first = await aliceAndBob();
    const second = (await post(api.url, CreateChatDocument, { members: [], message: 'note to self' }, api.tokens.user))
      .data!.createChat.id;
    await post(api.url, SendMessageDocument, { chatId: first, message: 'more' }, api.tokens.other);
    await fetchAs(api.tokens.other);

    const alice = await post(api.url, ChatsDocument, {}, api.tokens.user);
    expect(alice.data?.chats.map((c) => [c.id, c.latestMessageId, c.unreadCount])).toEqual([
      [first, 2, 2],
      [second, 1, 1],
    ]);
    const bob = await post(api.url, ChatsDocument, {}, api.tokens.other);
    expect(bob.data?.chats.map((c) => [c.id, c.unreadCount])).toEqual([[first, 0]]);
  });

  it('starts a member who joins an open chat after the messages already sent', async () => {
    const chatId = await aliceAndBob('before', true);
    const joined = await post(api.url, JoinChatDocument, { chatId }, carol);
    expect(joined.data?.joinChat).toMatchObject({
      id: chatId,
      memberCount: 3,
      latestMessageId: 1,
      seenMessageId: 1,
      unreadCount: 0,
    });
    await post(api.url, SendMessageDocument, { chatId, message: 'after' }, api.tokens.user);
    expect((await fetchAs(carol))[0].messages.map((m) => m.message)).toEqual(['after']);
  });

  it('lets a member add others to a closed chat', async () => {
    const chatId = await aliceAndBob();
    const added = await post(api.url, AddChatMembersDocument, { chatId, members: ['carol'] }, api.tokens.other);
    expect(added.data?.addChatMembers).toMatchObject({ memberCount: 3, members: ['alice', 'bob', 'carol'] });
    const chat = await post(api.url, ChatDocument, { chatId }, carol);
    expect(chat.data?.chat).toMatchObject({ id: chatId, seenMessageId: 1 });
  });

  it('deletes the chat when its last member leaves', async () => {
    const chatId = await aliceAndBob();
    expect((await post(api.url, LeaveChatDocument, { chatId }, api.tokens.user)).data).toEqual({ leaveChat: true });
    expect((await post(api.url, LeaveChatDocument, { chatId }, api.tokens.user)).data).toEqual({ leaveChat: false });
    expect((await post(api.url, LeaveChatDocument, { chatId }, api.tokens.other)).data).toEqual({ leaveChat: true });
    expect(await api.redis.client.keys(`chat:{c${chatId}}:*`)).toEqual([]);
    expect((await post(api.url, ChatsDocument, {}, api.tokens.other)).data?.chats).toEqual([]);
  });

  it('returns the first message for a retried send with the same clientMessageId', async () => {
    const chatId = await aliceAndBob();
    const vars = { chatId, message: 'only once', clientMessageId: 'phone-1/42' };
    const first = await post(api.url, SendMessageDocument, vars, api.tokens.other);
    const retry = await post(api.url, SendMessageDocument, vars, api.tokens.other);
    expect(retry.data).toEqual(first.data);
    const reused = await post(api.url, SendMessageDocument, { ...vars, message: 'different' }, api.tokens.other);
    expect(codes(reused)).toEqual(['CONFLICT']);
    expect((await fetchAs(api.tokens.user))[0].messages.map((m) => m.message)).toEqual(['hello', 'only once']);
  });
});

describe('who may do what', () => {
  it('hides a chat from a non-member exactly as if it did not exist', async () => {
    const chatId = await aliceAndBob();
    const snapshot = await api.redis.client.dump(`chat:{c${chatId}}:msgs`);
    const asCarol = async (unknownOrReal: string) => [
      await post(api.url, SendMessageDocument, { chatId: unknownOrReal, message: 'hi' }, carol),
      await post(api.url, MarkSeenDocument, { chatId: unknownOrReal, messageId: 1 }, carol),
      await post(api.url, JoinChatDocument, { chatId: unknownOrReal }, carol),
      await post(api.url, AddChatMembersDocument, { chatId: unknownOrReal, members: ['carol'] }, carol),
    ];
    const real = await asCarol(chatId);
    const unknown = await asCarol('999');
    expect(real.map(codes)).toEqual([['NOT_FOUND'], ['NOT_FOUND'], ['NOT_FOUND'], ['NOT_FOUND']]);
    expect(real.map((r) => r.errors?.[0]?.message)).toEqual(unknown.map((r) => r.errors?.[0]?.message));

    expect((await post(api.url, ChatDocument, { chatId }, carol)).data).toEqual({ chat: null });
    expect((await post(api.url, LeaveChatDocument, { chatId }, carol)).data).toEqual({ leaveChat: false });
    expect((await post(api.url, PendingMessagesDocument, {}, carol)).data).toEqual({ pendingMessages: [] });
    expect(await api.redis.client.dump(`chat:{c${chatId}}:msgs`)).toEqual(snapshot);
    expect(await api.redis.client.zrange(`chat:{c${chatId}}:members`, 0, -1)).toEqual(['alice', 'bob']);
  });

  it('refuses callers without a token', async () => {
    const chatId = await aliceAndBob();
    const results = [
      await post(api.url, CreateChatDocument, { members: ['bob'], message: 'x' }),
      await post(api.url, SendMessageDocument, { chatId, message: 'x' }),
      await post(api.url, FetchPendingMessagesDocument, {}),
      await post(api.url, ChatsDocument, {}),
      await post(api.url, JoinChatDocument, { chatId }),
    ];
    expect(results.map(codes)).toEqual(Array(5).fill(['UNAUTHENTICATED']));
    expect(await api.redis.client.get('chat:ids')).toBe('1');
  });

  it('applies the same checks over WebSocket', async () => {
    const chatId = await aliceAndBob();
    const { client } = connect(carol);
    const send = await wsOperation(client, SendMessageDocument, { chatId, message: 'sneaky' }).completion();
    expect(codes(send[0])).toEqual(['NOT_FOUND']);
    const chat = await wsOperation(client, ChatDocument, { chatId }).completion();
    expect(chat[0].data).toEqual({ chat: null });
    const refused = [
      await wsOperation(client, MarkSeenDocument, { chatId, messageId: 1 }).completion(),
      await wsOperation(client, JoinChatDocument, { chatId }).completion(),
      await wsOperation(client, AddChatMembersDocument, { chatId, members: ['carol'] }).completion(),
    ];
    expect(refused.map((results) => codes(results[0]))).toEqual([['NOT_FOUND'], ['NOT_FOUND'], ['NOT_FOUND']]);
    expect((await wsOperation(client, LeaveChatDocument, { chatId }).completion())[0].data).toEqual({
      leaveChat: false,
    });
    expect((await wsOperation(client, FetchPendingMessagesDocument, {}).completion())[0].data).toEqual({
      fetchPendingMessages: [],
    });
    expect(await api.redis.client.zrange(`chat:{c${chatId}}:members`, 0, -1, 'WITHSCORES')).toEqual([
      'alice',
      '0',
      'bob',
      '0',
    ]);

    const member = connect(api.tokens.other);
    const sent = await wsOperation(member.client, SendMessageDocument, { chatId, message: 'over ws' }).completion();
    expect(sent[0].data?.sendMessage).toMatchObject({ id: 2, sender: 'bob' });
  });
});

describe('bad input', () => {
  const long = 'x'.repeat(51);
  it.each([
    ['an empty message', { members: ['bob'], message: '' }, 'message'],
    ['a blank message', { members: ['bob'], message: ' \n\t ' }, 'message'],
    ['a message over the maximum', { members: ['bob'], message: long }, 'message'],
    ['a control character', { members: ['bob'], message: 'bell\u0007' }, 'message'],
    ['a carriage return', { members: ['bob'], message: 'a\r\nb' }, 'message'],
    ['a lone surrogate', { members: ['bob'], message: 'half \ud800 pair' }, 'message'],
    ['a message of only zero-width characters', { members: ['bob'], message: '\u200b\u200d\ufeff' }, 'message'],
    ['a member id with a space', { members: ['bob smith'], message: 'hi' }, 'members'],
    ['a member id with braces', { members: ['{c1}'], message: 'hi' }, 'members'],
    ['an empty member id', { members: [''], message: 'hi' }, 'members'],
    ['too many members', { members: ['b', 'c', 'd', 'e'], message: 'hi' }, 'members'],
  ])('createChat refuses %s with BAD_USER_INPUT, creating nothing', async (_, variables, argument) => {
    const result = await post(api.url, CreateChatDocument, variables, api.tokens.user);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors?.[0]?.extensions?.argument).toBe(argument);
    expect(await api.redis.client.dbsize()).toBe(0);
  });

  it('accepts a message of exactly the maximum length, counted in characters, with tabs and newlines', async () => {
    const message = `${'é'.repeat(24)}\t\n${'😀'.repeat(24)}`; // 50 characters, 146 UTF-8 bytes
    const result = await post(api.url, CreateChatDocument, { members: [], message }, api.tokens.user);
    expect(result.errors).toBeUndefined();
    expect((await fetchAs(api.tokens.user))[0].messages[0].message).toBe(message);
  });

  it.each([
    ['a chat id that is not a number', { chatId: 'abc', message: 'hi' }, 'chatId'],
    ['a chat id of zero', { chatId: '0', message: 'hi' }, 'chatId'],
    ['a chat id with a leading zero', { chatId: '01', message: 'hi' }, 'chatId'],
    ['a chat id that is a key pattern', { chatId: '1}:*', message: 'hi' }, 'chatId'],
    ['a clientMessageId with a newline', { chatId: '1', message: 'hi', clientMessageId: 'a\nb' }, 'clientMessageId'],
    ['a message over the maximum', { chatId: '1', message: 'y'.repeat(51) }, 'message'],
  ])('sendMessage refuses %s with BAD_USER_INPUT, storing nothing', async (_, variables, argument) => {
    const chatId = await aliceAndBob();
    expect(chatId).toBe('1');
    const result = await post(api.url, SendMessageDocument, variables, api.tokens.user);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors?.[0]?.extensions?.argument).toBe(argument);
    expect(await api.redis.client.hget('chat:{c1}:meta', 'last')).toBe('1');
  });

  it.each([
    ['zero', 0],
    ['negative', -5],
    ['over the maximum', 1001],
  ])('fetchPendingMessages refuses a limit that is %s', async (_, limit) => {
    await aliceAndBob();
    const result = await post(api.url, FetchPendingMessagesDocument, { limit }, api.tokens.other);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(await api.redis.client.zscore('chat:{c1}:members', 'bob')).toBe('0');
  });

  it('refuses to mark seen a message past the latest', async () => {
    const chatId = await aliceAndBob();
    const result = await post(api.url, MarkSeenDocument, { chatId, messageId: 2 }, api.tokens.other);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(await api.redis.client.zscore('chat:{c1}:members', 'bob')).toBe('0');
  });
});

describe('inboxChanged', () => {
  async function subscribe(token: string) {
    const { client } = connect(token);
    const subscription = wsOperation(client, InboxChangedDocument, {});
    // The subscription is live once the server has subscribed in Redis.
    await new Promise((resolve) => setTimeout(resolve, 200));
    return subscription;
  }

  it('tells each member where and up to which id, never the message', async () => {
    const chatId = await aliceAndBob();
    const bob = await subscribe(api.tokens.other);
    const outsider = await subscribe(carol);
    await post(api.url, SendMessageDocument, { chatId, message: 'secret' }, api.tokens.user);

    const [event] = await bob.take(1);
    expect(event.data?.inboxChanged).toEqual({ chatId, latestMessageId: 2, mailbox: false, waiting: null });
    expect(JSON.stringify(event)).not.toContain('secret');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(outsider.results).toHaveLength(0);
  });

  it('tells members added to a chat about it, with nothing pending for them', async () => {
    const chatId = await aliceAndBob();
    await post(api.url, SendMessageDocument, { chatId, message: 'before carol' }, api.tokens.user);
    const carolInbox = await subscribe(carol);
    await post(api.url, AddChatMembersDocument, { chatId, members: ['carol'] }, api.tokens.other);
    const [event] = await carolInbox.take(1);
    expect(event.data?.inboxChanged).toEqual({ chatId, latestMessageId: 2, mailbox: false, waiting: null });
    expect(await fetchAs(carol)).toEqual([]);
  });

  it('reaches a subscriber connected to another server instance on the same Redis', async () => {
    const second = await startTestServer({}, api.redis);
    const socket = connectWs(second.url, second.tokens.other);
    try {
      const bob = wsOperation(socket.client, InboxChangedDocument, {});
      await new Promise((resolve) => setTimeout(resolve, 200));
      const chatId = await aliceAndBob();
      const [event] = await bob.take(1);
      expect(event.data?.inboxChanged).toMatchObject({ chatId, latestMessageId: 1 });
    } finally {
      await socket.dispose();
      await second.stop();
    }
  });

  it('keeps the newest notifications of a subscriber that stops reading, not all of them', async () => {
    type Frame = { type: string; payload?: { data?: { inboxChanged: { latestMessageId: number } } } };
    // A raw graphql-ws client whose reading can be paused, like a phone that went to sleep.
    const openInbox = async () => {
      const socket = new WebSocket(api.url.replace(/^http/, 'ws'), 'graphql-transport-ws');
      afterThisTest.push(() => socket.terminate());
      const frames: Frame[] = [];
      socket.on('message', (data) => frames.push(JSON.parse(String(data)) as Frame));
      await once(socket, 'open');
      socket.send(
        JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${api.tokens.other}` } }),
      );
      await eventually(async () => frames.some((frame) => frame.type === 'connection_ack'), 5000, 20);
      const runningBefore = running();
      socket.send(JSON.stringify({ id: 'inbox', type: 'subscribe', payload: { query: print(InboxChangedDocument) } }));
      // Live once the server has accepted it and Redis holds its listener on the channel.
      await eventually(async () => running() > runningBefore, 30_000, 20);
      const latest = () =>
        frames
          .filter((frame) => frame.type === 'next')
          .map((frame) => frame.payload!.data!.inboxChanged.latestMessageId);
      return { socket, latest };
    };
    const running = () =>
      api.logs.filter((line) => line.msg === 'websocket subscription running' && line.user === 'bob').length;
    const phone = await openInbox();
    // Bob's laptop reads on: the same server hears the channel's messages in order, so once the
    // laptop has the last one, the server has handled every notification the phone missed.
    const laptop = await openInbox();
    await eventually(async () => (await api.redis.subscribers('INBOX_CHANGED:bob')) > 0, 30_000, 20);
    phone.socket.pause();

    // As many notifications as 60,000 sends to Bob's chats would publish, enough to fill the
    // socket buffers many times over.
    const total = 60_000;
    for (let from = 1; from <= total; from += 10_000) {
      const pipeline = api.redis.client.pipeline();
      for (let id = from; id < from + 10_000; id++) {
        pipeline[api.redis.cluster ? 'spublish' : 'publish'](
          'INBOX_CHANGED:bob',
          JSON.stringify({ chatId: '1', latestMessageId: id, mailbox: false, waiting: null }),
        );
      }
      await pipeline.exec();
    }
    // A ceiling for a loaded machine (60,000 publishes, then the drain), not a deadline.
    await eventually(async () => laptop.latest().includes(total), 60_000, 50);
    phone.socket.resume();

    await eventually(async () => phone.latest().includes(total), 60_000, 50);
    const ids = phone.latest();
    // The newest hint always arrives, in order; older ones were dropped rather than queued.
    expect(ids[ids.length - 1]).toBe(total);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.length).toBeLessThan(total);
    expect(laptop.latest()).toEqual([...laptop.latest()].sort((a, b) => a - b));
  }, 150_000);
});
