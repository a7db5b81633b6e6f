// A subscriber that goes away: its WebSocket dropped mid-stream (the TCP connection cut, no close
// frame), or offline for a full minute while messages keep coming. Subscriptions only say that
// something is new; the first pull after reconnecting fills the gap exactly, in order, once.
import { print } from 'graphql';
import WebSocket from 'ws';
import { FetchPendingMessagesDocument, InboxChangedDocument } from '../../src/generated/client/graphql';
import { createChat, oneTo, pullAll, trySend, type Stored } from '../support/chat-faults';
import { serverForThisFile } from '../support/fixture';
import { eventually, post } from '../support/graphql';
import { closeRawSockets, rawSocket, type RawSocket } from '../support/raw-ws';
import type { TestServer } from '../support/server';
import { setTimeout as sleep } from 'node:timers/promises';

const fixture = serverForThisFile();
let api: TestServer;
const token = (user: string): string => api.server.verifier.sign(user, [], 3600);

beforeAll(() => {
  api = fixture.api;
});
afterEach(closeRawSockets);

interface Notice {
  chatId: string | null;
  latestMessageId: number | null;
}

type Listener = RawSocket & { notices: () => Notice[] };

/** A graphql-ws client by hand, so its TCP connection can be cut without a close frame. */
async function subscribe(user: string): Promise<Listener> {
  const raw = await rawSocket(api.url);
  raw.send({ type: 'connection_init', payload: { authorization: `Bearer ${token(user)}` } });
  await raw.next((frame) => frame.type === 'connection_ack');
  raw.send({ id: 'inbox', type: 'subscribe', payload: { query: print(InboxChangedDocument) } });
  const notices = (): Notice[] =>
    raw.frames
      .filter((frame) => frame.type === 'next' && frame.id === 'inbox')
      .map((frame) => (frame.payload as { data: { inboxChanged: Notice } }).data.inboxChanged);
  return Object.assign(raw, { notices });
}

/**
 * The first pull after reconnecting: fetchPendingMessages in small pages while `remaining` says
 * there is more. Returns the messages and how many fetches it took.
 */
async function pullWhileRemaining(
  user: string,
  chatId: string,
  limit: number,
): Promise<{ messages: Stored[]; fetches: number }> {
  const messages: Stored[] = [];
  for (let fetches = 1; fetches <= 1000; fetches++) {
    const result = await post(api.url, FetchPendingMessagesDocument, { limit }, token(user));
    expect(result.errors).toBeUndefined();
    const chats = result.data!.fetchPendingMessages;
    expect(chats.every((chat) => chat.chatId === chatId)).toBe(true);
    messages.push(
      ...chats.flatMap((chat) => chat.messages.map(({ id, sender, message }) => ({ id, sender, message }))),
    );
    if (chats.every((chat) => chat.remaining === 0)) return { messages, fetches };
  }
  throw new Error('remaining never reached 0');
}

let sends = 0;

/** Sends as `sender`; every send must be acknowledged here (nothing is faulty but the subscriber). */
async function send(chatId: string, sender: string, message: string, into: Stored[]): Promise<number> {
  const sent = await trySend(api.url, token(sender), chatId, message, `send-${++sends}`);
  if (sent.kind !== 'acked') throw new Error(`send failed: ${JSON.stringify(sent)}`);
  into.push({ id: sent.id, sender, message });
  return sent.id;
}

/** Sends until the subscriber has heard of one: then its subscription is certainly live. */
async function untilHeard(chatId: string, listener: Listener, sent: Stored[]): Promise<void> {
  for (let probe = 1; probe <= 20; probe++) {
    const id = await send(chatId, 'alice', `probe ${sent.length + 1}`, sent);
    const deadline = Date.now() + 500;
    while (Date.now() < deadline) {
      if (listener.notices().some((notice) => notice.latestMessageId === id)) return;
      await sleep(20);
    }
  }
  throw new Error(`never heard of a send; frames: ${JSON.stringify(listener.frames)}`);
}

it('gives a subscriber whose socket dropped mid-stream exactly what it missed in its first pull after reconnecting', async () => {
  const chatId = await createChat(api.url, 'alice', ['bob', 'carol'], 'welcome');
  const sent: Stored[] = [{ id: 1, sender: 'alice', message: 'welcome' }];

  // bob is online: on every notice he pulls, as an app would.
  const online = await subscribe('bob');
  await untilHeard(chatId, online, sent);
  const pulledOnline: Stored[] = [];
  let handled = 0;
  const puller = (async () => {
    while (online.socket.readyState === WebSocket.OPEN) {
      const count = online.notices().length;
      if (count > handled) {
        handled = count;
        pulledOnline.push(...(await pullAll(api.url, token('bob'), chatId, 4)));
      } else {
        await sleep(5);
      }
    }
  })();

  // alice and carol keep sending; bob's connection is cut part-way through.
  const stream = (async () => {
    for (let n = 1; n <= 30; n++) {
      await send(chatId, n % 2 ? 'alice' : 'carol', `message ${n}`, sent);
      await sleep(15);
    }
  })();
  await eventually(async () => pulledOnline.length >= 8, 10_000, 5);
  online.socket.terminate();
  const sentAtDrop = sent.length;
  await puller;
  await stream;
  expect(sent.length - sentAtDrop).toBeGreaterThanOrEqual(10);

  // bob comes back and pulls once: exactly the messages he had not pulled, in order.
  const back = await subscribe('bob');
  const { messages: missed, fetches } = await pullWhileRemaining('bob', chatId, 7);
  const all = [...sent].sort((x, y) => x.id - y.id);
  expect(all.map((m) => m.id)).toEqual(oneTo(all.length));
  expect(pulledOnline).toEqual(all.slice(0, pulledOnline.length));
  expect(missed).toEqual(all.slice(pulledOnline.length));
  expect(missed.length).toBeGreaterThanOrEqual(10);
  expect(fetches).toBe(Math.ceil(missed.length / 7));
  // Nothing is replayed over the new socket, and nothing is left to fetch.
  expect(back.notices()).toEqual([]);
  expect(await pullAll(api.url, token('bob'), chatId)).toEqual([]);

  // And the new subscription is live: the next send is heard and pulled alone.
  const afterwards: Stored[] = [];
  await untilHeard(chatId, back, afterwards);
  expect(await pullAll(api.url, token('bob'), chatId)).toEqual(afterwards);
  // carol, who never listened, has everything once.
  expect(await pullAll(api.url, token('carol'), chatId)).toEqual([...all, ...afterwards]);
  if (process.env.FAULT_FIGURES)
    process.stdout.write(`${JSON.stringify({ pulledOnline: pulledOnline.length, missed: missed.length, fetches })}\n`);
});

it('fills a full minute offline exactly with the next pull', async () => {
  const chatId = await createChat(api.url, 'alice', ['bob', 'carol'], 'welcome');
  const sent: Stored[] = [{ id: 1, sender: 'alice', message: 'welcome' }];
  const online = await subscribe('bob');
  await untilHeard(chatId, online, sent);
  const before = await pullAll(api.url, token('bob'), chatId);
  expect(before).toEqual(sent);

  // Offline for 60 s (the socket cut), while alice and carol send every 2.5 s.
  online.socket.terminate();
  const offlineSince = Date.now();
  const gap: Stored[] = [];
  for (let n = 1; Date.now() - offlineSince < 60_000; n++) {
    await send(chatId, n % 2 ? 'alice' : 'carol', `while away ${n}`, gap);
    await sleep(Math.min(2500, Math.max(0, 60_000 - (Date.now() - offlineSince))));
  }
  const offlineMs = Date.now() - offlineSince;
  expect(offlineMs).toBeGreaterThanOrEqual(60_000);
  expect(gap.length).toBeGreaterThanOrEqual(20);

  const back = await subscribe('bob');
  const { messages } = await pullWhileRemaining('bob', chatId, 5);
  expect(gap.map((m) => m.id)).toEqual(oneTo(gap.length).map((i) => i + sent.length));
  expect(messages).toEqual(gap);
  expect(back.notices()).toEqual([]);
  expect(await pullAll(api.url, token('bob'), chatId)).toEqual([]);
  if (process.env.FAULT_FIGURES) process.stdout.write(`${JSON.stringify({ offlineMs, gap: gap.length })}\n`);
}, 120_000);
