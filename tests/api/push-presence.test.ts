// Presence for push through the real server: a socket whose connection_init names a device makes
// that device online (userKeys.online) while an inboxChanged subscription runs on it, on any API
// instance sharing the Redis; it stops being online when the last such subscription or socket ends.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { createClient } from 'graphql-ws';
import pino from 'pino';
import WebSocket from 'ws';
import { CounterUpdatedDocument, InboxChangedDocument } from '../../src/generated/client/graphql';
import { userKeys } from '../../src/redis/keys';
import { PushPresence } from '../../src/redis/push/presence';
import { eventually, wsOperation, type WsClient } from '../support/graphql';
import { scriptClient } from '../support/redis';
import { startTestServer, type TestServer } from '../support/server';

let api: TestServer;
/** Reads what the push decision would read; holds nothing itself. */
let reader: PushPresence;
const sockets: WsClient[] = [];

beforeAll(async () => {
  api = await startTestServer();
  reader = new PushPresence(scriptClient(api.redis), { ttlMs: 60_000, logger: pino({ level: 'silent' }) });
}, 60_000);
beforeEach(async () => {
  await api.redis.client.flushdb();
});
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((socket) => socket.dispose()));
  // Every socket gone, no device may stay online: a leak would show in the next test's reads.
  await eventually(async () => (await api.redis.client.keys('user:*:online')).length === 0, 20_000, 20);
});
afterAll(async () => {
  await api.stop();
});

/** A graphql-ws client whose connection_init carries `device` (left out when undefined). */
function connect(token: string, device?: unknown, server: TestServer = api): WsClient {
  let closedWith: (event: { code: number; reason: string }) => void = () => undefined;
  const closeEvent = new Promise<{ code: number; reason: string }>((resolve) => (closedWith = resolve));
  const client = createClient({
    url: server.url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${token}`, ...(device === undefined ? {} : { device }) },
    on: {
      closed: (event) => {
        const { code, reason } = event as { code: number; reason?: string };
        closedWith({ code, reason: String(reason ?? '') });
      },
    },
    onNonLazyError: () => undefined,
  });
  const socket = {
    client,
    closed: closeEvent.then((event) => event.code),
    closeEvent,
    dispose: () => client.dispose() as Promise<void>,
  };
  sockets.push(socket);
  return socket;
}

/** Lines of `msg` the server logged for `user` so far. */
const logged = (msg: string, user: string, server: TestServer = api): number =>
  server.logs.filter((line) => line.msg === msg && line.user === user).length;

/** Waits until the server logged one more line of `msg` for `user` than `before`. */
async function nextLine(msg: string, user: string, before: number, server: TestServer = api): Promise<void> {
  await eventually(async () => Promise.resolve(logged(msg, user, server) > before), 20_000, 10);
}

/** Subscribes to inboxChanged on `socket` and waits until the server runs it (the hold is written by then). */
async function subscribeInbox(socket: WsClient, user: string, server: TestServer = api) {
  const before = logged('websocket subscription running', user, server);
  const subscription = wsOperation(socket.client, InboxChangedDocument, {});
  await nextLine('websocket subscription running', user, before, server);
  return subscription;
}

const gone = (user: string) => eventually(async () => (await reader.online(user)).length === 0, 20_000, 20);

/** The instance ids holding the user's devices, by device. */
async function holders(user: string): Promise<string[]> {
  return (await api.redis.client.zrange(userKeys.online(user), 0, -1)).sort();
}

describe('a socket that names its device', () => {
  it('makes the device online while its inboxChanged subscription runs, and not once the client completes it', async () => {
    const socket = connect(api.tokens.user, 'phone');
    const subscription = await subscribeInbox(socket, 'alice');
    expect(await reader.online('alice')).toEqual(['phone']);
    const [member] = await holders('alice');
    expect(member).toMatch(/^phone\n[A-Za-z0-9_-]+$/);

    subscription.unsubscribe();
    await gone('alice');
    expect(await api.redis.client.exists(userKeys.online('alice'))).toBe(0);
  });

  it('stops being online when the socket closes with the subscription running', async () => {
    const socket = connect(api.tokens.user, 'phone');
    await subscribeInbox(socket, 'alice');
    expect(await reader.online('alice')).toEqual(['phone']);
    await socket.dispose();
    await gone('alice');
  });

  it('stays online while either of two sockets of the device runs a subscription', async () => {
    const first = connect(api.tokens.user, 'phone');
    const second = connect(api.tokens.user, 'phone');
    await subscribeInbox(first, 'alice');
    await subscribeInbox(second, 'alice');
    expect(await holders('alice')).toHaveLength(1);

    const closedBefore = logged('websocket closed', 'alice');
    await first.dispose();
    await nextLine('websocket closed', 'alice', closedBefore);
    expect(await reader.online('alice')).toEqual(['phone']);

    await second.dispose();
    await gone('alice');
  });

  it('stays online while either of two subscriptions on one socket runs', async () => {
    const socket = connect(api.tokens.user, 'phone');
    const one = await subscribeInbox(socket, 'alice');
    const two = await subscribeInbox(socket, 'alice');

    const completedBefore = logged('websocket operation completed', 'alice');
    one.unsubscribe();
    await nextLine('websocket operation completed', 'alice', completedBefore);
    expect(await reader.online('alice')).toEqual(['phone']);

    two.unsubscribe();
    await gone('alice');
  });

  it('finds inboxChanged behind an alias and a fragment', async () => {
    const socket = connect(api.tokens.user, 'phone');
    const document = parse(
      'subscription Aliased { ...Inbox } fragment Inbox on Subscription { news: inboxChanged { chatId } }',
    ) as TypedDocumentNode<unknown, Record<string, never>>;
    const before = logged('websocket subscription running', 'alice');
    const subscription = wsOperation(socket.client, document, {});
    await nextLine('websocket subscription running', 'alice', before);
    expect(await reader.online('alice')).toEqual(['phone']);
    subscription.unsubscribe();
    await gone('alice');
  });

  it('is not made online by other subscriptions, and a socket without a device holds nothing', async () => {
    const named = connect(api.tokens.user, 'phone');
    const before = logged('websocket subscription running', 'alice');
    wsOperation(named.client, CounterUpdatedDocument, { name: 'watched' });
    await nextLine('websocket subscription running', 'alice', before);
    const anonymous = connect(api.tokens.user);
    await subscribeInbox(anonymous, 'alice');
    expect(await api.redis.client.exists(userKeys.online('alice'))).toBe(0);
  });

  it("holds only the caller's own key: another user's devices are left untouched", async () => {
    const bobs = connect(api.tokens.other, 'phone');
    await subscribeInbox(bobs, 'bob');
    const alices = connect(api.tokens.user, 'laptop');
    await subscribeInbox(alices, 'alice');
    expect(await reader.online('bob')).toEqual(['phone']);
    expect(await reader.online('alice')).toEqual(['laptop']);

    await alices.dispose();
    await gone('alice');
    expect(await reader.online('bob')).toEqual(['phone']);
  });
});

describe('a bad device name', () => {
  const ONLY = 'connectionParams.device may hold only Unicode letters, digits, marks, emoji and _ - . / @';

  it.each([
    ['a space', 'my phone', ONLY],
    ['a colon', 'phone:1', ONLY],
    ['empty', '', 'connectionParams.device must not be empty'],
    ['not a string', 42, 'connectionParams.device must be a string'],
    ['too long', 'p'.repeat(129), 'connectionParams.device must be at most 128 characters'],
  ])('closes the socket with 4400 and the reason: %s', async (_, device, reason) => {
    const socket = connect(api.tokens.user, device);
    const { code, reason: said } = await socket.closeEvent;
    expect(code).toBe(4400);
    expect(said).toBe(`Bad request: ${reason}`);
  });

  it('is refused before the token is looked at: 4400, not 4403, for a bad device with a bad token', async () => {
    const socket = connect('not-a-token', 'my phone');
    expect(await socket.closed).toBe(4400);
  });
});

describe('several API instances on one Redis', () => {
  it("see each other's devices, each instance releasing only its own, and a stopped one none at all", async () => {
    const second = await startTestServer({}, api.redis);
    let stopped = false;
    try {
      await subscribeInbox(connect(api.tokens.user, 'phone'), 'alice');
      const laptop = connect(second.tokens.user, 'laptop', second);
      await subscribeInbox(laptop, 'alice', second);
      await subscribeInbox(connect(second.tokens.user, 'phone', second), 'alice', second);
      expect(await reader.online('alice')).toEqual(['laptop', 'phone']);
      const members = await holders('alice');
      expect(members).toHaveLength(3);
      const instances = new Set(members.map((member) => member.split('\n')[1]));
      expect(instances.size).toBe(2);

      await laptop.dispose();
      await eventually(async () => (await holders('alice')).length === 2, 20_000, 20);
      expect(await reader.online('alice')).toEqual(['phone']);

      // A graceful stop takes the stopped instance's holds with it, before its Redis connection closes.
      await second.stop();
      stopped = true;
      const left = await holders('alice');
      expect(left).toHaveLength(1);
      expect(await reader.online('alice')).toEqual(['phone']);
    } finally {
      if (!stopped) await second.stop();
    }
  });
});
