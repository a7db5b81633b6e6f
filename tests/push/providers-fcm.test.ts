// The FCM sender against the local FCM v1 stand-in: the data-only message it sends, the access
// token it trades for and keeps (renewed before expiry, after a 401, one trade at a time), and
// how each answer becomes a result.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFcmSender } from '../../src/push/providers/fcm';
import type { PushConfig } from '../../src/push/settings';
import type { PushMessage, PushSender } from '../../src/push/types';
import { captureLogs } from '../support/logs';
import { startFcmServer, type FcmServer } from '../support/push/fcm-server';
import { testPushConfig } from '../support/push/push-config';

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

let dir: string;
const fixtures: { close(): Promise<void> }[] = [];
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-push-fcm-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

async function serverOf(options: Parameters<typeof startFcmServer>[0] = {}): Promise<FcmServer> {
  const server = await startFcmServer(options);
  fixtures.push(server);
  return server;
}

async function senderOf(server: FcmServer, fcm: Partial<NonNullable<PushConfig['fcm']>> = {}, timeoutMs = 10_000) {
  const credentialsFile = fcm.credentialsFile ?? (await server.writeServiceAccount(dir)).file;
  const config = testPushConfig({ timeoutMs, fcm: { credentialsFile, url: server.url, tokenUrl: undefined, ...fcm } });
  const sender: PushSender = await createFcmSender(config, captureLogs().logger);
  fixtures.push(sender);
  return sender;
}

const fcmTarget = (token: string) => ({ kind: 'fcm' as const, token });

describe('the FCM sender', () => {
  it('sends a data-only message of ids and counts as strings, with collapse key, TTL and priority', async () => {
    const server = await serverOf();
    const sender = await senderOf(server);
    const token = server.registrationToken();
    const before = Math.floor(Date.now() / 1000);
    expect(await sender.send(fcmTarget(token), chatPush())).toEqual({ outcome: 'sent' });
    expect(
      await sender.send(
        fcmTarget(token),
        chatPush({
          chatId: undefined,
          mailbox: true,
          upTo: 9,
          unread: 0,
          badgeOnly: true,
          collapseKey: 'mailbox',
          ttlSeconds: 0,
        }),
      ),
    ).toEqual({ outcome: 'sent' });
    const [chat, badge] = await server.waitFor(2);
    const expiration = Number((chat.message.apns as { headers: Record<string, string> }).headers['apns-expiration']);
    expect(expiration - before).toBeGreaterThanOrEqual(3600);
    expect(expiration - before).toBeLessThan(3700);
    expect(chat.message).toEqual({
      token,
      data: { chatId: '12', mailbox: 'false', upTo: '57', unread: '3' },
      android: { collapse_key: 'chat:12', ttl: '3600s', priority: 'high' },
      apns: {
        headers: {
          'apns-push-type': 'background',
          'apns-priority': '5',
          'apns-expiration': String(expiration),
          'apns-collapse-id': 'chat:12',
        },
        payload: { aps: { 'content-available': 1 } },
      },
    });
    expect(badge.message).toMatchObject({
      data: { mailbox: 'true', upTo: '9', unread: '0' },
      android: { collapse_key: 'mailbox', ttl: '0s', priority: 'normal' },
      apns: { headers: { 'apns-expiration': '0' } },
    });
    expect(Object.keys(badge.message.data as object)).toEqual(['mailbox', 'upTo', 'unread']);
  });

  it('keeps one access token for many pushes, traded once even when they start together', async () => {
    const server = await serverOf();
    const sender = await senderOf(server);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => sender.send(fcmTarget(server.registrationToken()), chatPush())),
    );
    expect(results).toEqual(Array.from({ length: 10 }, () => ({ outcome: 'sent' })));
    expect(await sender.send(fcmTarget(server.registrationToken()), chatPush())).toEqual({ outcome: 'sent' });
    expect(server.accessTokensIssued()).toBe(1);
    expect(server.received()).toHaveLength(11);
  });

  it('trades again for a token that expires within 5 minutes', async () => {
    const server = await serverOf({ accessTokenTtlSeconds: 300 });
    const sender = await senderOf(server);
    for (let i = 0; i < 3; i += 1) {
      expect(await sender.send(fcmTarget(server.registrationToken()), chatPush())).toEqual({ outcome: 'sent' });
    }
    expect(server.accessTokensIssued()).toBe(3);
  });

  it('trades for a new access token once after a 401, and sends with it', async () => {
    const server = await serverOf();
    const sender = await senderOf(server);
    expect(await sender.send(fcmTarget(server.registrationToken()), chatPush())).toEqual({ outcome: 'sent' });
    server.revokeAccessTokens();
    expect(await sender.send(fcmTarget(server.registrationToken()), chatPush())).toEqual({ outcome: 'sent' });
    expect(server.accessTokensIssued()).toBe(2);
    expect(server.answers().map((answer) => answer.status)).toEqual([200, 200, 401, 200, 200]);
  });

  it('reports unregistered and malformed registration tokens as gone', async () => {
    const server = await serverOf();
    const sender = await senderOf(server);
    const token = server.registrationToken();
    server.setGone(token);
    expect(await sender.send(fcmTarget(token), chatPush())).toEqual({
      outcome: 'gone',
      reason: 'FCM answered 404 UNREGISTERED: Requested entity was not found.',
    });
    expect(await sender.send(fcmTarget('not a token'), chatPush())).toEqual({
      outcome: 'gone',
      reason: 'FCM answered 400 INVALID_ARGUMENT: The registration token is not a valid FCM registration token',
    });
    expect(server.received()).toEqual([]);
  });

  it('tries again while FCM is down, throttles or does not answer in time, honouring Retry-After', async () => {
    const server = await serverOf({ retryAfterSeconds: 30 });
    const sender = await senderOf(server);
    const token = server.registrationToken();
    server.setDown(true);
    expect(await sender.send(fcmTarget(token), chatPush())).toEqual({
      outcome: 'retry',
      reason: 'FCM answered 503 UNAVAILABLE: The service is currently unavailable.',
      retryAfterMs: 30_000,
    });
    server.setDown('throttled');
    expect(await sender.send(fcmTarget(token), chatPush())).toEqual({
      outcome: 'retry',
      reason: 'FCM answered 429 QUOTA_EXCEEDED: Quota exceeded.',
      retryAfterMs: 30_000,
    });
    // Only the push that meets a hung service waits for this shorter timeout; the token endpoint stays up.
    const hasty = await senderOf(server, {}, 2000);
    server.setDown('slow');
    expect(await hasty.send(fcmTarget(token), chatPush())).toEqual({
      outcome: 'retry',
      reason: 'no answer within 2000 ms',
    });
    server.setDown(false);
    expect(await sender.send(fcmTarget(token), chatPush())).toEqual({ outcome: 'sent' });
    expect(server.received()).toHaveLength(1);
  });

  it('rejects pushes while the token endpoint refuses the credentials', async () => {
    const server = await serverOf();
    const elsewhere = await serverOf();
    // A key the stand-in never issued: its token endpoint answers invalid_grant.
    const stranger = await elsewhere.writeServiceAccount(dir);
    const sender = await senderOf(server, { credentialsFile: stranger.file, tokenUrl: server.tokenUrl });
    expect(await sender.send(fcmTarget(server.registrationToken()), chatPush())).toEqual({
      outcome: 'rejected',
      reason: expect.stringMatching(/^token endpoint answered 400: .*invalid_grant/),
    });
    expect(server.received()).toEqual([]);
  });

  it('trades at PUSH_FCM_TOKEN_URL instead of the key file’s token_uri when set', async () => {
    const server = await serverOf();
    const account = await server.writeServiceAccount(dir);
    const json = JSON.parse(fs.readFileSync(account.file, 'utf8'));
    const moved = path.join(dir, 'moved-token-uri.json');
    fs.writeFileSync(moved, JSON.stringify({ ...json, token_uri: 'https://oauth2.invalid/token' }));
    const sender = await senderOf(server, { credentialsFile: moved, tokenUrl: server.tokenUrl });
    expect(await sender.send(fcmTarget(server.registrationToken()), chatPush())).toEqual({ outcome: 'sent' });
    expect(server.accessTokensIssued()).toBe(1);
  });
});
