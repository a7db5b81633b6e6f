// Push end to end: the API server (its own push workers) against a local Web Push receiver that
// decrypts what it gets, a local APNs over HTTP/2 and TLS, and a local FCM v1, on one Redis and on
// the cluster. Each test has recipients of its own, so what a receiver got is told apart by them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { print } from 'graphql';
import {
  CreateChatDocument,
  FetchDirectMessagesDocument,
  FetchPendingMessagesDocument,
  InboxChangedDocument,
  MarkSeenDocument,
  PauseQueueDocument,
  PushTargetsDocument,
  QueueStatsDocument,
  ResumeQueueDocument,
  SendDirectMessageDocument,
  SendMessageDocument,
  SetPushTargetDocument,
} from '../../src/generated/client/graphql';
import { userKeys } from '../../src/redis/keys';
import { eventually, post } from '../support/graphql';
import { startTestServer, type TestServer } from '../support/server';
import { startWebPushReceiver, type WebPushReceiver } from '../support/push/web-push-receiver';
import { deviceToken, startApnsServer, writeApnsKey, type ApnsServer } from '../support/push/apns-server';
import { startFcmServer, type FcmServer } from '../support/push/fcm-server';

const vapid = webpush.generateVAPIDKeys();
let dir: string;
let receiver: WebPushReceiver;
let apns: ApnsServer;
let fcm: FcmServer;
let api: TestServer;
let env: Record<string, string>;
let users = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'push-scenarios-'));
  receiver = await startWebPushReceiver({ vapidPublicKey: vapid.publicKey });
  const key = await writeApnsKey(dir);
  apns = await startApnsServer({ key, topic: 'com.example.chat' });
  fcm = await startFcmServer();
  const account = await fcm.writeServiceAccount(dir);
  fs.writeFileSync(path.join(dir, 'apns-ca.pem'), apns.caPem);
  env = {
    PUSH_DELAY_MS: '300',
    PUSH_RETRY_MS: '200',
    TASK_MAX_BACKOFF_MS: '1000',
    PUSH_VAPID_PUBLIC_KEY: vapid.publicKey,
    PUSH_VAPID_PRIVATE_KEY: vapid.privateKey,
    PUSH_VAPID_SUBJECT: 'mailto:ops@example.com',
    PUSH_APNS_KEY_FILE: key.keyFile,
    PUSH_APNS_KEY_ID: key.keyId,
    PUSH_APNS_TEAM_ID: key.teamId,
    PUSH_APNS_TOPIC: 'com.example.chat',
    PUSH_APNS_URL: apns.url,
    PUSH_APNS_SANDBOX_URL: apns.url,
    PUSH_APNS_CA_FILE: path.join(dir, 'apns-ca.pem'),
    PUSH_FCM_CREDENTIALS_FILE: account.file,
    PUSH_FCM_URL: fcm.url,
    PUSH_FCM_TOKEN_URL: fcm.tokenUrl,
  };
  api = await startTestServer(env);
}, 60_000);

afterAll(async () => {
  await api?.stop();
  await Promise.all([receiver?.close(), apns?.close(), fcm?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A recipient of this test's own, with a token. */
function person(): { name: string; token: string } {
  users += 1;
  const name = `reader${users}`;
  return { name, token: api.server.verifier.sign(name, [], 3600) };
}

const alice = () => api.tokens.user;
const service = () => api.tokens.service;

async function ok<R>(result: Promise<{ data?: R | null; errors?: unknown }>): Promise<R> {
  const { data, errors } = await result;
  if (errors || !data) throw new Error(`GraphQL errors: ${JSON.stringify(errors)}`);
  return data;
}

async function chatWith(member: string): Promise<string> {
  const created = await ok(post(api.url, CreateChatDocument, { members: [member], message: 'hello' }, alice()));
  return created.createChat.id;
}

const send = (chatId: string, message: string, token = alice(), url = api.url) =>
  ok(post(url, SendMessageDocument, { chatId, message }, token));

const pull = async (token: string, device: string) =>
  (await ok(post(api.url, FetchPendingMessagesDocument, { device, limit: 100 }, token))).fetchPendingMessages;

/** A device that has fetched once, with a push target. */
async function device(who: { token: string }, name: string, target: Record<string, unknown>): Promise<void> {
  await pull(who.token, name);
  await ok(post(api.url, SetPushTargetDocument, { device: name, ...target }, who.token));
}

/** Every push task decided and run: nothing waiting, delayed or running in the push queue. */
async function drained(): Promise<void> {
  await eventually(async () => {
    const { queue } = await ok(post(api.url, QueueStatsDocument, { name: 'push' }, service()));
    return queue.waitingHigh + queue.waitingNormal + queue.waitingLow + queue.delayed + queue.active === 0;
  }, 30_000);
}

/**
 * Runs `steps` with the push queue paused, so that however slowly a busy machine sends them they
 * are one burst: every decision made meanwhile runs after them.
 */
async function burst(steps: () => Promise<unknown>): Promise<void> {
  await ok(post(api.url, PauseQueueDocument, { name: 'push' }, service()));
  try {
    await steps();
  } finally {
    await ok(post(api.url, ResumeQueueDocument, { name: 'push' }, service()));
  }
}

const deliveredTo = (endpoint: string) => receiver.received().filter((one) => one.endpoint === endpoint);

describe('a sleeping device', () => {
  it('gets one push per burst, with ids and counts only, and pulls exactly what it missed', async () => {
    const bob = person();
    const chatId = await chatWith(bob.name);
    const subscription = receiver.subscribe();
    await device(bob, 'phone', { webPush: { endpoint: subscription.endpoint, ...subscription.keys } });

    await burst(async () => {
      for (let i = 1; i <= 5; i++) await send(chatId, `burst one ${i}`);
    });
    await drained();
    const first = deliveredTo(subscription.endpoint);
    expect(first.map((one) => one.payload)).toEqual([{ chatId, mailbox: false, upTo: 6, unread: 5 }]);
    expect(first[0].topic).toBeDefined();
    expect(first[0].ttl).toBeGreaterThan(0);

    const pulled = await pull(bob.token, 'phone');
    expect(pulled.flatMap((chat) => chat.messages.map((message) => message.id))).toEqual([2, 3, 4, 5, 6]);

    await burst(async () => {
      for (let i = 1; i <= 2; i++) await send(chatId, `burst two ${i}`);
    });
    await drained();
    expect(deliveredTo(subscription.endpoint).map((one) => one.payload)).toEqual([
      { chatId, mailbox: false, upTo: 6, unread: 5 },
      { chatId, mailbox: false, upTo: 8, unread: 2 },
    ]);
  });

  it('is pushed for a new chat it was added to', async () => {
    const bob = person();
    const subscription = receiver.subscribe();
    await device(bob, 'phone', { webPush: { endpoint: subscription.endpoint, ...subscription.keys } });
    const chatId = await chatWith(bob.name);
    await drained();
    expect(deliveredTo(subscription.endpoint).map((one) => one.payload)).toEqual([
      { chatId, mailbox: false, upTo: 1, unread: 1 },
    ]);
  });

  it('is not pushed for what it pulled before the delay ran out', async () => {
    const bob = person();
    const chatId = await chatWith(bob.name);
    const subscription = receiver.subscribe();
    await device(bob, 'phone', { webPush: { endpoint: subscription.endpoint, ...subscription.keys } });
    await burst(async () => {
      await send(chatId, 'one');
      await pull(bob.token, 'phone');
    });
    await drained();
    expect(deliveredTo(subscription.endpoint)).toEqual([]);
  });

  it('with a live subscription on its socket is told there, not pushed', async () => {
    const bob = person();
    const chatId = await chatWith(bob.name);
    const subscription = receiver.subscribe();
    await device(bob, 'phone', { webPush: { endpoint: subscription.endpoint, ...subscription.keys } });
    const client = createClient({
      url: api.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${bob.token}`, device: 'phone' },
    });
    const notices: unknown[] = [];
    const stop = client.subscribe(
      { query: print(InboxChangedDocument) },
      { next: (value) => notices.push(value), error: () => undefined, complete: () => undefined },
    );
    try {
      await eventually(async () => (await api.redis.client.zcard(userKeys.online(bob.name))) === 1);
      await send(chatId, 'while the phone is open');
      await drained();
      expect(deliveredTo(subscription.endpoint)).toEqual([]);
      await eventually(async () => notices.length > 0);
    } finally {
      stop();
      await client.dispose();
    }
    // Once the socket is gone, the next message is pushed.
    await eventually(async () => (await api.redis.client.zcard(userKeys.online(bob.name))) === 0);
    await send(chatId, 'after the phone went to sleep');
    await drained();
    expect(deliveredTo(subscription.endpoint).map((one) => one.payload)).toEqual([
      { chatId, mailbox: false, upTo: 3, unread: 2 },
    ]);
  });
});

describe('reading on another device', () => {
  it('cancels a pending push, and sends APNs and FCM devices a badge-only update after one', async () => {
    const bob = person();
    const chatId = await chatWith(bob.name);
    const token = deviceToken();
    const registration = fcm.registrationToken();
    await device(bob, 'phone', { apns: { token, environment: 'SANDBOX' } });
    await device(bob, 'tablet', { fcm: { token: registration } });
    await pull(bob.token, 'laptop');

    // Read on the laptop before the decision runs: nothing is pushed.
    await burst(async () => {
      await send(chatId, 'one');
      await ok(post(api.url, MarkSeenDocument, { chatId, messageId: 2, device: 'laptop' }, bob.token));
    });
    await drained();
    expect(apns.received().filter((one) => one.token === token)).toEqual([]);
    expect(fcm.received().filter((one) => one.token === registration)).toEqual([]);

    // Pushed, then read on the laptop: one silent update each, with the count at zero.
    await burst(async () => {
      await send(chatId, 'two');
      await send(chatId, 'three');
    });
    await drained();
    await ok(post(api.url, MarkSeenDocument, { chatId, messageId: 4, device: 'laptop' }, bob.token));
    await drained();
    const phone = apns.received().filter((one) => one.token === token);
    expect(phone.map((one) => one.headers['apns-push-type'])).toEqual(['alert', 'background']);
    expect(phone.map((one) => one.payload)).toEqual([
      expect.objectContaining({ chatId, mailbox: false, upTo: 4, unread: 2 }),
      expect.objectContaining({ chatId, mailbox: false, upTo: 4, unread: 0 }),
    ]);
    expect(phone[0].headers['apns-collapse-id']).toBe(phone[1].headers['apns-collapse-id']);
    const tablet = fcm.received().filter((one) => one.token === registration);
    expect(tablet.map((one) => (one.message.data as Record<string, string>).unread)).toEqual(['2', '0']);
  });
});

describe('delivery', () => {
  it('removes a target the push service says is gone', async () => {
    const bob = person();
    const chatId = await chatWith(bob.name);
    const subscription = receiver.subscribe();
    await device(bob, 'phone', { webPush: { endpoint: subscription.endpoint, ...subscription.keys } });
    receiver.setGone(subscription.endpoint);
    await send(chatId, 'to a browser that unsubscribed');
    await drained();
    expect(
      receiver
        .answers()
        .filter((one) => one.endpoint === subscription.endpoint)
        .map((one) => one.status),
    ).toEqual([410]);
    expect((await ok(post(api.url, PushTargetsDocument, {}, bob.token))).pushTargets).toEqual([]);
  });

  it('waits out a push service that is down, then delivers once', async () => {
    const bob = person();
    const chatId = await chatWith(bob.name);
    const subscription = receiver.subscribe();
    await device(bob, 'phone', { webPush: { endpoint: subscription.endpoint, ...subscription.keys } });
    receiver.setDown(true);
    try {
      await burst(async () => {
        for (let i = 1; i <= 3; i++) await send(chatId, `during the outage ${i}`);
      });
      await eventually(
        async () =>
          receiver.answers().filter((one) => one.endpoint === subscription.endpoint && one.status === 503).length >= 2,
        30_000,
      );
    } finally {
      receiver.setDown(false);
    }
    await drained();
    expect(deliveredTo(subscription.endpoint).map((one) => one.payload)).toEqual([
      { chatId, mailbox: false, upTo: 4, unread: 3 },
    ]);
  });

  it('pushes a mailbox once per burst, and not once its messages were taken', async () => {
    const bob = person();
    const subscription = receiver.subscribe();
    await device(bob, 'phone', { webPush: { endpoint: subscription.endpoint, ...subscription.keys } });
    await burst(async () => {
      for (let i = 1; i <= 3; i++) {
        await ok(post(api.url, SendDirectMessageDocument, { to: bob.name, message: `dm ${i}` }, alice()));
      }
    });
    await drained();
    expect(deliveredTo(subscription.endpoint).map((one) => one.payload)).toEqual([
      { mailbox: true, upTo: 3, unread: 3 },
    ]);

    await burst(async () => {
      await ok(post(api.url, SendDirectMessageDocument, { to: bob.name, message: 'dm 4' }, alice()));
      await ok(post(api.url, FetchDirectMessagesDocument, { limit: 10 }, bob.token));
    });
    await drained();
    expect(deliveredTo(subscription.endpoint)).toHaveLength(1);
  });
});

describe('several API instances', () => {
  it('each sending and running push workers, push once per burst', async () => {
    const second = await startTestServer(env, api.redis);
    try {
      const bob = person();
      const chatId = await chatWith(bob.name);
      const subscription = receiver.subscribe();
      await device(bob, 'phone', { webPush: { endpoint: subscription.endpoint, ...subscription.keys } });
      await burst(async () => {
        for (let i = 1; i <= 6; i++) await send(chatId, `from both ${i}`, alice(), i % 2 === 0 ? second.url : api.url);
      });
      await drained();
      expect(deliveredTo(subscription.endpoint).map((one) => one.payload)).toEqual([
        { chatId, mailbox: false, upTo: 7, unread: 6 },
      ]);
    } finally {
      await second.stop();
    }
  });
});
