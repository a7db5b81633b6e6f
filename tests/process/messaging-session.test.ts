// The scripted session that says group chats and mailboxes are done: three users on two server
// processes sharing one Redis (one in-process, one `node dist/main.js`), over real HTTP and
// WebSocket. Carol is offline for most of it; Bob's WebSocket drops mid-stream and he reconnects
// to the other server. Everyone ends with exactly the messages sent to them, in order, and the
// stored messages are cleaned up.
import {
  CreateChatDocument,
  FetchDirectMessagesDocument,
  FetchPendingMessagesDocument,
  InboxChangedDocument,
  SendDirectMessageDocument,
  SendMessageDocument,
} from '../../src/generated/client/graphql';
import { connectWs, eventually, post, wsOperation, type WsClient } from '../support/graphql';
import { cleanUpProcesses, ensureBuilt, startAndWait, tempDir, type Started } from '../support/process';
import { startTestRedis, type TestRedis } from '../support/redis';
import { startTestServer, TEST_SECRET, type TestServer } from '../support/server';

let redis: TestRedis;
let inProcess: TestServer;
let child: Started;
const sockets: WsClient[] = [];

beforeAll(async () => {
  ensureBuilt();
  redis = await startTestRedis();
  inProcess = await startTestServer({}, redis);
  child = await startAndWait({ ...redis.env, JWT_SECRET: TEST_SECRET, DATA_DIR: tempDir() });
}, 60_000);
afterAll(async () => {
  await Promise.all(sockets.map((socket) => socket.dispose()));
  cleanUpProcesses();
  await inProcess.stop();
  await redis.stop();
});

interface Received {
  id: number;
  sender: string;
  message: string;
}

/** Pulls everything pending for a user in small batches, as a phone with little memory would. */
async function pull(url: string, token: string, into: Received[]): Promise<void> {
  for (;;) {
    const result = await post(url, FetchPendingMessagesDocument, { limit: 7 }, token);
    expect(result.errors).toBeUndefined();
    const chats = result.data!.fetchPendingMessages;
    for (const chat of chats) into.push(...chat.messages.map(({ id, sender, message }) => ({ id, sender, message })));
    if (chats.every((chat) => chat.remaining === 0)) return;
  }
}

function subscribe(url: string, token: string) {
  const socket = connectWs(url, token);
  sockets.push(socket);
  return { socket, inbox: wsOperation(socket.client, InboxChangedDocument, {}) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

it('ends with every user holding exactly the messages sent to them, in order', async () => {
  const sign = (user: string) => inProcess.server.verifier.sign(user, [], 3600);
  const token = { alice: sign('alice'), bob: sign('bob'), carol: sign('carol') };
  const serverA = inProcess.url;
  const serverB = child.url;
  const sent: Received[] = [];
  const send = async (url: string, user: keyof typeof token, message: string, clientMessageId?: string) => {
    const result = await post(url, SendMessageDocument, { chatId: '1', message, clientMessageId }, token[user]);
    expect(result.errors).toBeUndefined();
    return result.data!.sendMessage;
  };

  // Alice opens the chat on server A; Bob listens on server B; Carol is offline.
  const created = await post(
    serverA,
    CreateChatDocument,
    // The book's retention, so that everything seen by everyone is gone at the end.
    { members: ['bob', 'carol'], message: 'welcome', retention: { mode: 'SEEN' } },
    token.alice,
  );
  expect(created.data?.createChat.id).toBe('1');
  sent.push({ id: 1, sender: 'alice', message: 'welcome' });
  const bobOnB = subscribe(serverB, token.bob);
  await settle();

  // Phase 1: Alice on A and Bob on B send at the same time; Bob pulls when told.
  const bobReceived: Received[] = [];
  const phase = async (round: number) => {
    const batch = await Promise.all(
      Array.from({ length: 10 }, (_, i) => [
        send(serverA, 'alice', `alice ${round}.${i}`),
        send(serverB, 'bob', `bob ${round}.${i}`, `bob-${round}-${i}`),
      ]).flat(),
    );
    sent.push(...batch.map(({ id, sender, message }) => ({ id, sender, message })));
    return Math.max(...batch.map((message) => message.id));
  };
  const afterPhase1 = await phase(1);
  await bobOnB.inbox.take(1);
  await eventually(
    async () => bobOnB.inbox.results.some((r) => r.data?.inboxChanged.latestMessageId === afterPhase1),
    5000,
    20,
  );
  await pull(serverB, token.bob, bobReceived);

  // Phase 2: Bob's connection drops in the middle of the stream.
  const phase2 = phase(2);
  await new Promise((resolve) => setTimeout(resolve, 5));
  await bobOnB.socket.dispose();
  const afterPhase2 = await phase2;

  // Bob's phone retries three of its sends on the other server after the drop: no duplicates.
  for (let i = 0; i < 3; i++) {
    const retried = await send(serverA, 'bob', `bob 2.${i}`, `bob-2-${i}`);
    expect(retried.id).toBeLessThanOrEqual(afterPhase2);
  }

  // Bob reconnects, to server A this time, and pulls what he missed before new messages arrive.
  const bobOnA = subscribe(serverA, token.bob);
  await settle();
  await pull(serverA, token.bob, bobReceived);

  // Phase 3, then Carol comes online, pulls everything and the mailbox, and speaks.
  const afterPhase3 = await phase(3);
  await eventually(
    async () => bobOnA.inbox.results.some((r) => r.data?.inboxChanged.latestMessageId === afterPhase3),
    5000,
    20,
  );
  for (let i = 1; i <= 3; i++) {
    const dm = await post(serverB, SendDirectMessageDocument, { to: 'carol', message: `psst ${i}` }, token.alice);
    expect(dm.errors).toBeUndefined();
  }
  const carolReceived: Received[] = [];
  const carolOnB = subscribe(serverB, token.carol);
  await settle();
  expect(carolOnB.inbox.results).toHaveLength(0); // nothing is replayed: she pulls instead
  await pull(serverB, token.carol, carolReceived);
  const carolMail = await post(serverB, FetchDirectMessagesDocument, { limit: 100 }, token.carol);
  expect(carolMail.data?.fetchDirectMessages.map((m) => [m.id, m.sender, m.message])).toEqual([
    [1, 'alice', 'psst 1'],
    [2, 'alice', 'psst 2'],
    [3, 'alice', 'psst 3'],
  ]);

  const last = await send(serverB, 'carol', 'hi, I was away');
  sent.push({ id: last.id, sender: 'carol', message: last.message });
  await eventually(
    async () => bobOnA.inbox.results.some((r) => r.data?.inboxChanged.latestMessageId === last.id),
    5000,
    20,
  );
  await eventually(
    async () => carolOnB.inbox.results.some((r) => r.data?.inboxChanged.latestMessageId === last.id),
    5000,
    20,
  );
  await pull(serverA, token.bob, bobReceived);
  await pull(serverB, token.carol, carolReceived);
  const aliceReceived: Received[] = [];
  await pull(serverA, token.alice, aliceReceived);

  // Ids are 1..N without gaps, and everyone holds exactly those messages in that order.
  const expected = [...sent].sort((a, b) => a.id - b.id);
  expect(expected.map((m) => m.id)).toEqual(Array.from({ length: 62 }, (_, i) => i + 1));
  expect(bobReceived).toEqual(expected);
  expect(carolReceived).toEqual(expected);
  expect(aliceReceived).toEqual(expected);

  // Everything has been seen by everyone, so nothing is left stored.
  expect(await redis.client.zcard('chat:{c1}:msgs')).toBe(0);
  expect(await redis.client.llen('user:{u:carol}:mailbox')).toBe(0);
  // Both transports carried notifications from both servers.
  expect(bobOnB.inbox.results.length).toBeGreaterThan(0);
  expect(bobOnA.inbox.results.length).toBeGreaterThan(0);
}, 60_000);
