// The APNs sender against the local HTTP/2 APNs: the payload and apns-* headers of an alert and
// of a badge-only push, one connection and one provider token for many pushes (renewed after 50
// minutes or when APNs refuses it), the environments, GOAWAY, and how each answer becomes a result.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApnsSender } from '../../src/push/providers/apns';
import type { PushConfig } from '../../src/push/settings';
import type { PushMessage, PushSender, PushTarget } from '../../src/push/types';
import { captureLogs, waitForLine } from '../support/logs';
import { deviceToken, startApnsServer, writeApnsKey, type ApnsKey, type ApnsServer } from '../support/push/apns-server';
import { testPushConfig } from '../support/push/push-config';

const TOPIC = 'com.example.chat';

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

const device = (token = deviceToken(), environment: 'production' | 'sandbox' = 'production'): PushTarget => ({
  kind: 'apns',
  token,
  environment,
});

let dir: string;
let key: ApnsKey;
let production: ApnsServer;
let sandbox: ApnsServer;
let caFile: string;
const senders: PushSender[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-push-apns-'));
  key = await writeApnsKey(dir);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

beforeEach(async () => {
  production = await startApnsServer({ key, topic: TOPIC });
  sandbox = await startApnsServer({ key, topic: TOPIC });
  caFile = path.join(dir, 'apns-ca.pem');
  fs.writeFileSync(caFile, `${production.caPem}\n${sandbox.caPem}\n`);
});
afterEach(async () => {
  jest.restoreAllMocks();
  await Promise.all(senders.splice(0).map((sender) => sender.close()));
  await Promise.all([production.close(), sandbox.close()]);
});

function apnsConfig(overrides: Partial<NonNullable<PushConfig['apns']>> = {}, timeoutMs = 10_000) {
  return testPushConfig({
    timeoutMs,
    apns: {
      keyFile: key.keyFile,
      keyId: key.keyId,
      teamId: key.teamId,
      topic: TOPIC,
      url: production.url,
      sandboxUrl: sandbox.url,
      caFile,
      ...overrides,
    },
  });
}

async function senderOf(overrides: Partial<NonNullable<PushConfig['apns']>> = {}, timeoutMs?: number) {
  const logs = captureLogs('debug');
  const sender = await createApnsSender(apnsConfig(overrides, timeoutMs), logs.logger);
  senders.push(sender);
  return { sender, lines: logs.lines };
}

describe('the APNs sender', () => {
  it('sends a content-free alert push with the apns-* headers a new entry needs', async () => {
    const { sender } = await senderOf();
    const token = deviceToken();
    const before = Math.floor(Date.now() / 1000);
    expect(await sender.send(device(token), chatPush())).toEqual({ outcome: 'sent' });
    const after = Math.floor(Date.now() / 1000);
    const [delivery] = await production.waitFor(1);
    expect(delivery.token).toBe(token);
    expect(delivery.payload).toEqual({
      aps: { alert: { 'loc-key': 'NEW_ACTIVITY' }, 'mutable-content': 1 },
      chatId: '12',
      mailbox: false,
      upTo: 57,
      unread: 3,
    });
    expect(delivery.headers).toMatchObject({
      'apns-topic': TOPIC,
      'apns-push-type': 'alert',
      'apns-priority': '10',
      'apns-collapse-id': 'chat:12',
      authorization: expect.stringMatching(/^bearer [\w-]+\.[\w-]+\.[\w-]+$/),
    });
    const expiration = Number(delivery.headers['apns-expiration']);
    expect(expiration).toBeGreaterThanOrEqual(before + 3600);
    expect(expiration).toBeLessThanOrEqual(after + 3600);
    expect(sandbox.received()).toEqual([]);
  });

  it('sends a badge-only update as a silent background push at priority 5, and TTL 0 as expiration 0', async () => {
    const { sender } = await senderOf();
    const message = chatPush({
      chatId: undefined,
      mailbox: true,
      upTo: 9,
      unread: 0,
      badgeOnly: true,
      collapseKey: 'mailbox',
      ttlSeconds: 0,
    });
    expect(await sender.send(device(), message)).toEqual({ outcome: 'sent' });
    const [delivery] = await production.waitFor(1);
    expect(delivery.payload).toEqual({ aps: { 'content-available': 1 }, mailbox: true, upTo: 9, unread: 0 });
    expect(delivery.headers).toMatchObject({
      'apns-push-type': 'background',
      'apns-priority': '5',
      'apns-expiration': '0',
      'apns-collapse-id': 'mailbox',
    });
  });

  it('cuts a collapse key longer than 64 bytes to the same digest each time', async () => {
    const { sender } = await senderOf();
    const long = chatPush({ collapseKey: `chat:${'9'.repeat(80)}` });
    expect(await sender.send(device(), long)).toEqual({ outcome: 'sent' });
    expect(await sender.send(device(), long)).toEqual({ outcome: 'sent' });
    const [first, second] = await production.waitFor(2);
    expect(Buffer.byteLength(first.headers['apns-collapse-id'])).toBeLessThanOrEqual(64);
    expect(first.headers['apns-collapse-id']).toBe(second.headers['apns-collapse-id']);
  });

  it('sends sandbox tokens to the sandbox APNs and production tokens to production', async () => {
    const { sender } = await senderOf();
    const [dev, store] = [deviceToken(), deviceToken()];
    expect(await sender.send(device(dev, 'sandbox'), chatPush())).toEqual({ outcome: 'sent' });
    expect(await sender.send(device(store, 'production'), chatPush())).toEqual({ outcome: 'sent' });
    expect((await sandbox.waitFor(1)).map((d) => d.token)).toEqual([dev]);
    expect((await production.waitFor(1)).map((d) => d.token)).toEqual([store]);
  });

  it('sends many pushes over one connection with one provider token, and makes a new token after 50 minutes', async () => {
    const { sender } = await senderOf();
    const results = await Promise.all(Array.from({ length: 20 }, () => sender.send(device(), chatPush())));
    expect(results).toEqual(Array.from({ length: 20 }, () => ({ outcome: 'sent' })));
    expect(production.connections()).toBe(1);
    expect(production.providerTokens()).toHaveLength(1);
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + 49 * 60_000);
    expect(await sender.send(device(), chatPush())).toEqual({ outcome: 'sent' });
    expect(production.providerTokens()).toHaveLength(1);
    jest.spyOn(Date, 'now').mockReturnValue(now + 51 * 60_000);
    expect(await sender.send(device(), chatPush())).toEqual({ outcome: 'sent' });
    expect(await sender.send(device(), chatPush())).toEqual({ outcome: 'sent' });
    expect(production.providerTokens()).toHaveLength(2);
    expect(production.received()).toHaveLength(23);
  });

  it('makes a new provider token once when APNs says it expired, and sends with it', async () => {
    const { sender } = await senderOf();
    expect(await sender.send(device(), chatPush())).toEqual({ outcome: 'sent' });
    production.expireProviderTokens();
    expect(await sender.send(device(), chatPush())).toEqual({ outcome: 'sent' });
    expect(production.answers().map((a) => [a.status, a.reason])).toEqual([
      [200, undefined],
      [403, 'ExpiredProviderToken'],
      [200, undefined],
    ]);
    expect(production.providerTokens()).toHaveLength(2);
  });

  it('rejects the push after a fresh provider token is refused too', async () => {
    const other = await writeApnsKey(dir);
    const { sender } = await senderOf({ keyFile: other.keyFile, keyId: key.keyId });
    expect(await sender.send(device(), chatPush())).toEqual({
      outcome: 'rejected',
      reason: 'APNs answered 403 InvalidProviderToken',
    });
    expect(production.answers().map((a) => a.reason)).toEqual(['InvalidProviderToken', 'InvalidProviderToken']);
    expect(production.received()).toEqual([]);
  });

  it('reports unregistered, malformed and other-app tokens as gone', async () => {
    const { sender } = await senderOf();
    const token = deviceToken();
    production.setGone(token);
    expect(await sender.send(device(token), chatPush())).toEqual({
      outcome: 'gone',
      reason: 'APNs answered 410 Unregistered',
    });
    expect(await sender.send(device('not/hex?'), chatPush())).toEqual({
      outcome: 'gone',
      reason: 'BadDeviceToken (malformed)',
    });
    const { sender: otherApp } = await senderOf({ topic: 'com.example.other' });
    expect(await otherApp.send(device(), chatPush())).toEqual({
      outcome: 'gone',
      reason: 'APNs answered 400 DeviceTokenNotForTopic',
    });
    expect(production.answers().map((a) => a.status)).toEqual([410, 400]);
  });

  it('tries again while APNs is down, throttles or does not answer in time', async () => {
    const { sender } = await senderOf();
    // Only the push that meets a hung service waits for this shorter timeout.
    const { sender: hasty } = await senderOf({}, 2000);
    production.setDown(true);
    expect(await sender.send(device(), chatPush())).toEqual({
      outcome: 'retry',
      reason: 'APNs answered 503 ServiceUnavailable',
    });
    production.setDown('throttled');
    expect(await sender.send(device(), chatPush())).toEqual({
      outcome: 'retry',
      reason: 'APNs answered 429 TooManyRequests',
    });
    production.setDown('slow');
    expect(await hasty.send(device(), chatPush())).toEqual({ outcome: 'retry', reason: 'no answer within 2000 ms' });
    production.setDown(false);
    expect(await sender.send(device(), chatPush())).toEqual({ outcome: 'sent' });
    expect(await hasty.send(device(), chatPush())).toEqual({ outcome: 'sent' });
    expect(production.received()).toHaveLength(2);
  });

  it('opens a new connection after APNs sends GOAWAY', async () => {
    const { sender, lines } = await senderOf();
    expect(await sender.send(device(), chatPush())).toEqual({ outcome: 'sent' });
    production.goAway();
    await waitForLine(lines, (line) => String(line.msg).startsWith('APNs sent GOAWAY'), 10_000);
    expect(await sender.send(device(), chatPush())).toEqual({ outcome: 'sent' });
    expect(production.connections()).toBe(2);
    expect(production.received()).toHaveLength(2);
  });

  it('tries again a push in flight when APNs shuts down, and sends the next over a new connection', async () => {
    const { sender } = await senderOf();
    production.setDown('slow');
    const inFlight = sender.send(device(), chatPush());
    await production.waitForRequests(1);
    production.goAway();
    expect(await inFlight).toEqual({ outcome: 'retry', reason: 'APNs answered 503 Shutdown' });
    production.setDown(false);
    expect(await sender.send(device(), chatPush())).toEqual({ outcome: 'sent' });
    expect(production.connections()).toBe(2);
  });

  it('does not trust a local APNs whose certificate it was not given', async () => {
    const { sender } = await senderOf({ caFile: undefined });
    expect(await sender.send(device(), chatPush())).toMatchObject({
      outcome: 'retry',
      reason: expect.stringMatching(/certificate/i),
    });
    expect(production.answers()).toEqual([]);
  });
});
