// The push senders as the server builds them: only the providers set up, every key file read and
// checked at start with an error naming its setting, and one push through each to its local service.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { closePushSenders, createPushSenders, type PushSenders } from '../../src/push/providers';
import type { PushConfig } from '../../src/push/settings';
import type { PushMessage } from '../../src/push/types';
import { captureLogs } from '../support/logs';
import { deviceToken, startApnsServer, writeApnsKey, type ApnsKey, type ApnsServer } from '../support/push/apns-server';
import { startFcmServer, type FcmServer } from '../support/push/fcm-server';
import { testPushConfig } from '../support/push/push-config';
import { startWebPushReceiver, type WebPushReceiver } from '../support/push/web-push-receiver';

const message: PushMessage = {
  chatId: '12',
  mailbox: false,
  upTo: 57,
  unread: 3,
  badgeOnly: false,
  collapseKey: 'chat:12',
  ttlSeconds: 60,
};
const vapid = webpush.generateVAPIDKeys();
const webPush = { ...vapid, subject: 'mailto:push@example.com' };

let dir: string;
let key: ApnsKey;
let apnsServer: ApnsServer;
let fcmServer: FcmServer;
let receiver: WebPushReceiver;
let caFile: string;
let credentialsFile: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-push-senders-'));
  key = await writeApnsKey(dir);
  [apnsServer, fcmServer, receiver] = await Promise.all([
    startApnsServer({ key, topic: 'com.example.chat' }),
    startFcmServer(),
    startWebPushReceiver({ vapidPublicKey: vapid.publicKey }),
  ]);
  caFile = path.join(dir, 'apns-ca.pem');
  fs.writeFileSync(caFile, apnsServer.caPem);
  credentialsFile = (await fcmServer.writeServiceAccount(dir)).file;
});
afterAll(async () => {
  await Promise.all([apnsServer.close(), fcmServer.close(), receiver.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const apns = (overrides: Partial<NonNullable<PushConfig['apns']>> = {}): PushConfig['apns'] => ({
  keyFile: key.keyFile,
  keyId: key.keyId,
  teamId: key.teamId,
  topic: 'com.example.chat',
  url: apnsServer.url,
  sandboxUrl: apnsServer.url,
  caFile,
  ...overrides,
});
const fcm = (file = credentialsFile): PushConfig['fcm'] => ({
  credentialsFile: file,
  url: fcmServer.url,
  tokenUrl: undefined,
});

/** The error createPushSenders throws for `config`. */
async function startError(config: Partial<PushConfig>): Promise<string> {
  let senders: PushSenders | undefined;
  try {
    senders = await createPushSenders(testPushConfig(config), captureLogs().logger);
  } catch (error) {
    return (error as Error).message;
  }
  await closePushSenders(senders);
  throw new Error('the senders started');
}

function write(name: string, content: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

describe('createPushSenders', () => {
  it('builds no sender when no provider is set up', async () => {
    expect(await createPushSenders(testPushConfig(), captureLogs().logger)).toEqual({});
  });

  it('builds one sender per provider set up, each pushing to its service, and closes them', async () => {
    const senders = await createPushSenders(
      testPushConfig({ webPush, apns: apns(), fcm: fcm() }),
      captureLogs().logger,
    );
    try {
      expect(Object.keys(senders).sort()).toEqual(['apns', 'fcm', 'webpush']);
      expect(Object.entries(senders).map(([kind, sender]) => [kind, sender.kind])).toEqual(
        Object.keys(senders).map((kind) => [kind, kind]),
      );
      const subscription = receiver.subscribe();
      const token = deviceToken();
      const registration = fcmServer.registrationToken();
      expect(
        await Promise.all([
          senders.webpush?.send({ kind: 'webpush', ...subscription }, message),
          senders.apns?.send({ kind: 'apns', token, environment: 'production' }, message),
          senders.fcm?.send({ kind: 'fcm', token: registration }, message),
        ]),
      ).toEqual([{ outcome: 'sent' }, { outcome: 'sent' }, { outcome: 'sent' }]);
      expect((await receiver.waitFor(1))[0].endpoint).toBe(subscription.endpoint);
      expect((await apnsServer.waitFor(1))[0].token).toBe(token);
      expect((await fcmServer.waitFor(1))[0].token).toBe(registration);
    } finally {
      await closePushSenders(senders);
    }
    const after = await senders.apns?.send({ kind: 'apns', token: deviceToken(), environment: 'production' }, message);
    expect(after).toEqual({ outcome: 'retry', reason: 'the APNs sender is closed' });
  });

  it('names the setting whose file cannot be read or is not what it should be', async () => {
    const missing = path.join(dir, 'missing.p8');
    expect(await startError({ apns: apns({ keyFile: missing }) })).toBe(
      `PUSH_APNS_KEY_FILE: cannot read ${missing} (ENOENT)`,
    );
    const notKey = write('not-a-key.p8', 'hello');
    expect(await startError({ apns: apns({ keyFile: notKey }) })).toBe(
      `PUSH_APNS_KEY_FILE: ${notKey} is not an APNs signing key (PKCS#8 P-256 PEM, AuthKey_<id>.p8)`,
    );
    const notCa = write('not-a-ca.pem', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    expect(await startError({ apns: apns({ caFile: notCa }) })).toBe(
      `PUSH_APNS_CA_FILE: ${notCa} is not a PEM certificate`,
    );
    const account = JSON.parse(fs.readFileSync(credentialsFile, 'utf8'));
    for (const [name, content, why] of [
      ['not-json.json', '{', 'not JSON'],
      ['user.json', JSON.stringify({ ...account, type: 'authorized_user' }), 'type is not "service_account"'],
      ['no-email.json', JSON.stringify({ ...account, client_email: undefined }), 'no client_email'],
      ['bad-key.json', JSON.stringify({ ...account, private_key: 'x' }), 'private_key is not an RSA key in PKCS#8 PEM'],
      [
        'http.json',
        JSON.stringify({ ...account, token_uri: 'http://oauth.example.com/token' }),
        'token_uri is not an https URL',
      ],
    ]) {
      const file = write(name, content);
      expect(await startError({ fcm: fcm(file) })).toBe(
        `PUSH_FCM_CREDENTIALS_FILE: ${file} is not a service account key (${why})`,
      );
    }
    expect(await startError({ fcm: fcm(path.join(dir, 'none.json')) })).toMatch(
      /^PUSH_FCM_CREDENTIALS_FILE: cannot read .*ENOENT/,
    );
    const other = webpush.generateVAPIDKeys();
    expect(await startError({ webPush: { ...webPush, privateKey: other.privateKey } })).toBe(
      'PUSH_VAPID_PRIVATE_KEY: not the private key of PUSH_VAPID_PUBLIC_KEY',
    );
  });

  it('fails on a bad file of one provider when others are set up too', async () => {
    const missing = path.join(dir, 'missing.json');
    expect(await startError({ webPush, apns: apns(), fcm: fcm(missing) })).toMatch(
      /^PUSH_FCM_CREDENTIALS_FILE: cannot read/,
    );
  });
});
