// The Web Push sender against the local RFC 8030 receiver: what arrives (decrypted), the headers
// it carries, how each answer becomes a result, and the endpoint policy applied when connecting.
import { createHash } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import webpush from 'web-push';
import { createWebPushSender, publicOnlyLookup } from '../../src/push/providers/web-push';
import type { PushConfig } from '../../src/push/settings';
import type { PushMessage, PushSender, PushTarget } from '../../src/push/types';
import { testPushConfig } from '../support/push/push-config';
import { startWebPushReceiver, type Subscription, type WebPushReceiver } from '../support/push/web-push-receiver';

const vapid = webpush.generateVAPIDKeys();
const webPush = { ...vapid, subject: 'mailto:push@example.com' };

const chatPush = (overrides: Partial<PushMessage> = {}): PushMessage => ({
  chatId: '12',
  mailbox: false,
  upTo: 57,
  unread: 3,
  badgeOnly: false,
  collapseKey: 'chat:12',
  ttlSeconds: 3600,
  ...overrides,
});

const target = (subscription: Subscription): PushTarget => ({ kind: 'webpush', ...subscription });
const digest = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 32);

/** A resolver that sends every name to the given addresses, as a DNS record a test controls. */
function fakeDns(addresses: string[]): LookupFunction {
  const all = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  return (_hostname, options, callback) => {
    if (options.all === true) callback(null, all);
    else callback(null, all[0].address, all[0].family);
  };
}

const fixtures: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

async function receiverOf(options: Parameters<typeof startWebPushReceiver>[0] = {}): Promise<WebPushReceiver> {
  const receiver = await startWebPushReceiver({ vapidPublicKey: vapid.publicKey, ...options });
  fixtures.push(receiver);
  return receiver;
}

function senderOf(
  config: Partial<PushConfig> = {},
  options: Parameters<typeof createWebPushSender>[1] = {},
): PushSender {
  const sender = createWebPushSender(testPushConfig({ webPush, ...config }), options);
  fixtures.push(sender);
  return sender;
}

describe('the Web Push sender', () => {
  it('delivers ids and counts only, encrypted, with TTL, a Topic digest of the collapse key and high urgency', async () => {
    const receiver = await receiverOf();
    const sender = senderOf();
    const subscription = receiver.subscribe();
    expect(await sender.send(target(subscription), chatPush())).toEqual({ outcome: 'sent' });
    expect(
      await sender.send(
        target(subscription),
        chatPush({ chatId: undefined, mailbox: true, upTo: 9, unread: 2, collapseKey: 'mailbox', ttlSeconds: 0 }),
      ),
    ).toEqual({ outcome: 'sent' });
    const [chat, mailbox] = await receiver.waitFor(2);
    expect(chat).toEqual({
      endpoint: subscription.endpoint,
      payload: { chatId: '12', mailbox: false, upTo: 57, unread: 3 },
      topic: digest('chat:12'),
      ttl: 3600,
      urgency: 'high',
      at: expect.any(Number),
    });
    expect(chat.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(mailbox).toMatchObject({ payload: { mailbox: true, upTo: 9, unread: 2 }, topic: digest('mailbox'), ttl: 0 });
    expect(Object.keys(mailbox.payload as object)).toEqual(['mailbox', 'upTo', 'unread']);
    expect(receiver.answers().map((answer) => answer.status)).toEqual([201, 201]);
  });

  it("collapses a chat's pushes for a sleeping browser into its latest, one per chat", async () => {
    const receiver = await receiverOf();
    const sender = senderOf();
    const subscription = receiver.subscribe();
    receiver.setAsleep(subscription.endpoint, true);
    for (const message of [
      chatPush({ upTo: 57, unread: 1 }),
      chatPush({ chatId: '13', collapseKey: 'chat:13', upTo: 4, unread: 1 }),
      chatPush({ upTo: 58, unread: 2 }),
      chatPush({ upTo: 60, unread: 4 }),
    ]) {
      expect(await sender.send(target(subscription), message)).toEqual({ outcome: 'sent' });
    }
    receiver.setAsleep(subscription.endpoint, false);
    expect(receiver.received().map((delivery) => delivery.payload)).toEqual([
      { chatId: '13', mailbox: false, upTo: 4, unread: 1 },
      { chatId: '12', mailbox: false, upTo: 60, unread: 4 },
    ]);
  });

  it('reports a subscription the push service no longer knows as gone', async () => {
    const receiver = await receiverOf();
    const sender = senderOf();
    const expired = receiver.subscribe();
    receiver.setGone(expired.endpoint);
    expect(await sender.send(target(expired), chatPush())).toEqual({
      outcome: 'gone',
      reason: expect.stringMatching(/^push service answered 410/),
    });
    const unknown = { ...receiver.subscribe(), endpoint: `${receiver.url}/push/never-issued` };
    expect(await sender.send(target(unknown), chatPush())).toMatchObject({
      outcome: 'gone',
      reason: expect.stringMatching(/404/),
    });
    expect(receiver.received()).toEqual([]);
  });

  it('tries again when the push service is down, throttles, or does not answer in time, honouring Retry-After', async () => {
    const receiver = await receiverOf({ retryAfterSeconds: 7 });
    const sender = senderOf();
    // Only the push that meets a hung service waits for this short timeout.
    const hasty = senderOf({ timeoutMs: 2000 });
    const subscription = receiver.subscribe();
    receiver.setDown(true);
    expect(await sender.send(target(subscription), chatPush())).toEqual({
      outcome: 'retry',
      reason: 'push service answered 503',
      retryAfterMs: 7000,
    });
    receiver.setDown('throttled');
    expect(await sender.send(target(subscription), chatPush())).toEqual({
      outcome: 'retry',
      reason: 'push service answered 429',
      retryAfterMs: 7000,
    });
    receiver.setDown('slow');
    expect(await hasty.send(target(subscription), chatPush())).toEqual({
      outcome: 'retry',
      reason: 'no answer within 2000 ms',
    });
    const caller = new AbortController();
    caller.abort();
    expect(await sender.send(target(subscription), chatPush(), caller.signal)).toEqual({
      outcome: 'retry',
      reason: 'aborted',
    });
    receiver.setDown(false);
    expect(await sender.send(target(subscription), chatPush())).toEqual({ outcome: 'sent' });
    expect(receiver.received()).toHaveLength(1);
  });

  it('tries again when the push service cannot be reached', async () => {
    const receiver = await startWebPushReceiver();
    const subscription = receiver.subscribe();
    await receiver.close();
    expect(await senderOf().send(target(subscription), chatPush())).toEqual({
      outcome: 'retry',
      reason: expect.stringMatching(/ECONNREFUSED/),
    });
  });

  it('rejects a badge-only push, a push the service refuses for its VAPID key, and a target of another kind', async () => {
    const receiver = await receiverOf({ vapidPublicKey: webpush.generateVAPIDKeys().publicKey });
    const sender = senderOf();
    const subscription = receiver.subscribe();
    expect(await sender.send(target(subscription), chatPush({ badgeOnly: true }))).toEqual({
      outcome: 'rejected',
      reason: 'a badge-only push is never sent to Web Push',
    });
    expect(await sender.send(target(subscription), chatPush())).toEqual({
      outcome: 'rejected',
      reason: 'push service answered 403: signed with another VAPID key',
    });
    expect(await sender.send({ kind: 'fcm', token: 'x'.repeat(40) }, chatPush())).toMatchObject({
      outcome: 'rejected',
    });
    expect(receiver.answers()).toHaveLength(1);
  });

  it('refuses to start with a VAPID private key that is not the public key’s', () => {
    const other = webpush.generateVAPIDKeys();
    expect(() =>
      createWebPushSender(testPushConfig({ webPush: { ...webPush, privateKey: other.privateKey } })),
    ).toThrow('PUSH_VAPID_PRIVATE_KEY: not the private key of PUSH_VAPID_PUBLIC_KEY');
  });
});

describe('the Web Push endpoint policy', () => {
  const host = 'push.example.test';

  it('refuses a host that resolves to a private address when it connects, and reaches it when private endpoints are allowed', async () => {
    const receiver = await receiverOf({ tls: true, host });
    const subscription = receiver.subscribe();
    expect(subscription.endpoint).toMatch(/^https:\/\/push\.example\.test:\d+\/push\//);
    const dns = fakeDns(['127.0.0.1']);
    const strict = senderOf({ allowPrivateEndpoints: false }, { lookup: dns, ca: receiver.caPem });
    // The URL itself passes (https, a public-looking name): the address is what is refused.
    expect(await strict.send(target(subscription), chatPush())).toEqual({
      outcome: 'rejected',
      reason: `endpoint ${host} resolves to 127.0.0.1, not a public address`,
    });
    expect(receiver.answers()).toEqual([]);
    const open = senderOf({ allowPrivateEndpoints: true }, { lookup: dns, ca: receiver.caPem });
    expect(await open.send(target(subscription), chatPush())).toEqual({ outcome: 'sent' });
    expect((await receiver.waitFor(1))[0].payload).toEqual({ chatId: '12', mailbox: false, upTo: 57, unread: 3 });
  });

  it('refuses a host with any private address among its addresses, IPv4-mapped IPv6 included', async () => {
    const receiver = await receiverOf({ tls: true, host });
    const subscription = receiver.subscribe();
    for (const addresses of [['203.0.113.9', '10.1.2.3'], ['::ffff:127.0.0.1'], ['fd00::1'], ['169.254.169.254']]) {
      const sender = senderOf({ allowPrivateEndpoints: false }, { lookup: fakeDns(addresses), ca: receiver.caPem });
      expect(await sender.send(target(subscription), chatPush())).toMatchObject({
        outcome: 'rejected',
        reason: expect.stringContaining('not a public address'),
      });
    }
    expect(receiver.answers()).toEqual([]);
  });

  it('refuses loopback and private literals, plain http and hosts outside the allow-list without connecting', async () => {
    const receiver = await receiverOf();
    const subscription = receiver.subscribe();
    const strict = senderOf({ allowPrivateEndpoints: false });
    expect(await strict.send(target(subscription), chatPush())).toEqual({
      outcome: 'rejected',
      reason: 'endpoint must not be on a loopback or private address',
    });
    const path = new URL(subscription.endpoint).pathname;
    expect(
      await strict.send(target({ ...subscription, endpoint: `https://[::ffff:a00:1]${path}` }), chatPush()),
    ).toMatchObject({
      outcome: 'rejected',
      reason: 'endpoint must not be on a loopback or private address',
    });
    expect(await strict.send(target({ ...subscription, endpoint: `http://${host}${path}` }), chatPush())).toEqual({
      outcome: 'rejected',
      reason: 'endpoint must be an https URL',
    });
    const listed = senderOf({ allowPrivateEndpoints: true, endpointHosts: ['push.services.mozilla.com'] });
    expect(await listed.send(target(subscription), chatPush())).toEqual({
      outcome: 'rejected',
      reason: 'endpoint must be on one of the push services this server takes (push.services.mozilla.com)',
    });
    expect(receiver.answers()).toEqual([]);
  });

  it('passes public addresses through, in the form asked for', async () => {
    const lookup = publicOnlyLookup(fakeDns(['203.0.113.9', '2001:db8::1']));
    const one = await new Promise((resolve, reject) =>
      lookup(host, {}, (error, address, family) => (error ? reject(error) : resolve([address, family]))),
    );
    expect(one).toEqual(['203.0.113.9', 4]);
    const all = await new Promise((resolve, reject) =>
      lookup(host, { all: true }, (error, address) => (error ? reject(error) : resolve(address))),
    );
    expect(all).toEqual([
      { address: '203.0.113.9', family: 4 },
      { address: '2001:db8::1', family: 6 },
    ]);
  });
});
