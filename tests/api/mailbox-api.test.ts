// Single-recipient mailboxes through the real server: order, atomic takes, acknowledgement,
// backlog visible to senders, a full mailbox, bad input and notifications.
import {
  AckDirectMessagesDocument,
  DirectMessagesDocument,
  FetchDirectMessagesDocument,
  InboxChangedDocument,
  MailboxDocument,
  SendDirectMessageDocument,
} from '../../src/generated/client/graphql';
import { serverForThisFile } from '../support/fixture';
import { codes, post, wsOperation } from '../support/graphql';
import type { TestServer } from '../support/server';

const fixture = serverForThisFile({ MAILBOX_MAX_MESSAGES: '5', MESSAGE_MAX_LENGTH: '100' });
let api: TestServer;

beforeAll(() => {
  api = fixture.api;
});

const sendToBob = (message: string, token = api.tokens.user) =>
  post(api.url, SendDirectMessageDocument, { to: 'bob', message }, token);

describe('direct messages', () => {
  it('delivers messages to the recipient oldest first, each once', async () => {
    for (const text of ['one', 'two', 'three']) {
      const sent = await sendToBob(text);
      expect(sent.data?.sendDirectMessage).toMatchObject({ sender: 'alice', message: text });
    }
    const first = await post(api.url, FetchDirectMessagesDocument, { limit: 2 }, api.tokens.other);
    expect(first.data?.fetchDirectMessages.map((m) => [m.id, m.message])).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
    const rest = await post(api.url, FetchDirectMessagesDocument, {}, api.tokens.other);
    expect(rest.data?.fetchDirectMessages.map((m) => m.id)).toEqual([3]);
    expect((await post(api.url, FetchDirectMessagesDocument, {}, api.tokens.other)).data?.fetchDirectMessages).toEqual(
      [],
    );
  });

  it('never hands one message to two concurrent fetches', async () => {
    for (let i = 0; i < 5; i++) await sendToBob(`m${i}`);
    const takes = await Promise.all(
      Array.from({ length: 6 }, () => post(api.url, FetchDirectMessagesDocument, { limit: 1 }, api.tokens.other)),
    );
    const ids = takes.flatMap((take) => take.data!.fetchDirectMessages.map((m) => m.id)).sort();
    expect(ids).toEqual([1, 2, 3, 4, 5]);
  });

  it('lets a client read, show, then acknowledge (at-least-once)', async () => {
    for (const text of ['one', 'two', 'three']) await sendToBob(text);
    const peek = await post(api.url, DirectMessagesDocument, { limit: 2 }, api.tokens.other);
    expect(peek.data?.directMessages.map((m) => m.id)).toEqual([1, 2]);
    expect((await post(api.url, DirectMessagesDocument, { limit: 2 }, api.tokens.other)).data).toEqual(peek.data);

    const acked = await post(api.url, AckDirectMessagesDocument, { upToId: 2 }, api.tokens.other);
    expect(acked.data).toEqual({ ackDirectMessages: 2 });
    expect(
      (await post(api.url, DirectMessagesDocument, {}, api.tokens.other)).data?.directMessages.map((m) => m.id),
    ).toEqual([3]);
    expect((await post(api.url, AckDirectMessagesDocument, { upToId: 2 }, api.tokens.other)).data).toEqual({
      ackDirectMessages: 0,
    });
    await sendToBob('four');
    expect((await post(api.url, AckDirectMessagesDocument, { upToId: 1000 }, api.tokens.other)).data).toEqual({
      ackDirectMessages: 2,
    });
    expect(await api.redis.client.llen('user:{u:bob}:mailbox')).toBe(0);
    await sendToBob('five');
    expect((await post(api.url, AckDirectMessagesDocument, { upToId: 4 }, api.tokens.other)).data).toEqual({
      ackDirectMessages: 0,
    });
    expect(
      (await post(api.url, DirectMessagesDocument, {}, api.tokens.other)).data?.directMessages.map((m) => m.id),
    ).toEqual([5]);
  });

  it('shows a sender how far behind the recipient is', async () => {
    await sendToBob('one');
    await sendToBob('two');
    const status = await post(api.url, MailboxDocument, { user: 'bob' }, api.tokens.user);
    // The sender sees what waits, not how many messages bob ever received.
    expect(status.data?.mailbox).toEqual({
      user: 'bob',
      waiting: 2,
      oldestTs: expect.any(Number),
      latestMessageId: null,
    });
    await post(api.url, FetchDirectMessagesDocument, { limit: 10 }, api.tokens.other);
    const own = await post(api.url, MailboxDocument, {}, api.tokens.other);
    expect(own.data?.mailbox).toEqual({ user: 'bob', waiting: 0, oldestTs: null, latestMessageId: 2 });
  });

  it('refuses a message to a full mailbox with CONFLICT, dropping nothing', async () => {
    for (let i = 1; i <= 5; i++) await sendToBob(`m${i}`);
    const refused = await sendToBob('m6');
    expect(codes(refused)).toEqual(['CONFLICT']);
    const waiting = await post(api.url, FetchDirectMessagesDocument, { limit: 10 }, api.tokens.other);
    expect(waiting.data?.fetchDirectMessages.map((m) => m.message)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect((await sendToBob('m6')).errors).toBeUndefined();
  });

  it('keeps each mailbox to its owner', async () => {
    await sendToBob('for bob only');
    const aliceTakes = await post(api.url, FetchDirectMessagesDocument, {}, api.tokens.user);
    expect(aliceTakes.data?.fetchDirectMessages).toEqual([]);
    expect(await api.redis.client.llen('user:{u:bob}:mailbox')).toBe(1);
    const anonymous = await post(api.url, FetchDirectMessagesDocument, {});
    expect(codes(anonymous)).toEqual(['UNAUTHENTICATED']);
  });

  it.each([
    ['an empty message', { to: 'bob', message: '' }, 'message'],
    ['a message over the maximum', { to: 'bob', message: 'z'.repeat(101) }, 'message'],
    ['a NUL character', { to: 'bob', message: 'a\u0000b' }, 'message'],
    ['a recipient id with a colon', { to: 'bob:mailbox', message: 'hi' }, 'to'],
    ['a recipient id over 128 characters', { to: 'b'.repeat(129), message: 'hi' }, 'to'],
  ])('refuses %s with BAD_USER_INPUT, storing nothing', async (_, variables, argument) => {
    const result = await post(api.url, SendDirectMessageDocument, variables, api.tokens.user);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors?.[0]?.extensions?.argument).toBe(argument);
    expect(await api.redis.client.dbsize()).toBe(0);
  });

  it.each([0, -1, 1001])('refuses a fetch limit of %d, taking nothing', async (limit) => {
    await sendToBob('kept');
    const result = await post(api.url, FetchDirectMessagesDocument, { limit }, api.tokens.other);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(await api.redis.client.llen('user:{u:bob}:mailbox')).toBe(1);
  });

  it('notifies the recipient with how many messages wait, never the message', async () => {
    const socket = fixture.connect(api.tokens.other);
    const bob = wsOperation(socket.client, InboxChangedDocument, {});
    await new Promise((resolve) => setTimeout(resolve, 200));
    await sendToBob('private words');
    await sendToBob('more');
    const events = await bob.take(2);
    expect(events.map((e) => e.data?.inboxChanged)).toEqual([
      { chatId: null, latestMessageId: null, mailbox: true, waiting: 1 },
      { chatId: null, latestMessageId: null, mailbox: true, waiting: 2 },
    ]);
    expect(JSON.stringify(events)).not.toContain('private');
  });
});
