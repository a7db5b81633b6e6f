// The tests' local push services themselves: each takes what the real service takes and refuses,
// with the real service's answer, what it refuses. Driven here by independent clients (the
// web-push library's request builder, a bare HTTP/2 client, fetch), not by the product's senders.
import { createECDH, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import { importPKCS8, SignJWT } from 'jose';
import webpush from 'web-push';
import { deviceToken, startApnsServer, writeApnsKey, type ApnsKey, type ApnsServer } from '../support/push/apns-server';
import { startFcmServer, type FcmServer } from '../support/push/fcm-server';
import { startWebPushReceiver, type Subscription, type WebPushReceiver } from '../support/push/web-push-receiver';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-push-services-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the Web Push receiver', () => {
  const vapid = webpush.generateVAPIDKeys();
  let receiver: WebPushReceiver;
  beforeEach(async () => {
    receiver = await startWebPushReceiver({ vapidPublicKey: vapid.publicKey });
  });
  afterEach(() => receiver.close());

  type PushOptions = webpush.RequestOptions & { keys?: { publicKey: string; privateKey: string } };
  /** Sends what the web-push library builds, over plain http (the receiver is on loopback). */
  async function push(subscription: Subscription, payload: string, options: PushOptions = {}) {
    const { keys = vapid, ...rest } = options;
    const details = webpush.generateRequestDetails(subscription, payload, {
      TTL: 60,
      ...rest,
      vapidDetails: { subject: 'mailto:ops@example.com', ...keys },
    });
    const response = await fetch(details.endpoint, {
      method: 'POST',
      headers: Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k, String(v)])),
      body: details.body,
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after') };
  }

  it('decrypts and records a push with its TTL, Topic and Urgency', async () => {
    const subscription = receiver.subscribe();
    expect(Buffer.from(subscription.keys.p256dh, 'base64url')).toHaveLength(65);
    expect(Buffer.from(subscription.keys.auth, 'base64url')).toHaveLength(16);
    expect(await push(subscription, '{"chatId":"7","upTo":3}', { TTL: 120, topic: 'chat7', urgency: 'high' })).toEqual({
      status: 201,
      retryAfter: null,
    });
    const [delivery] = await receiver.waitFor(1);
    expect(delivery).toMatchObject({
      endpoint: subscription.endpoint,
      payload: { chatId: '7', upTo: 3 },
      topic: 'chat7',
      ttl: 120,
      urgency: 'high',
    });
    expect(receiver.received()).toHaveLength(1);
  });

  it('refuses pushes without a valid VAPID token, TTL or body, and answers 404, 410, 503 and 429', async () => {
    const subscription = receiver.subscribe();
    const other = receiver.subscribe();
    expect((await push(subscription, '{}', { keys: webpush.generateVAPIDKeys() })).status).toBe(403);
    const unsigned = await fetch(subscription.endpoint, { method: 'POST', headers: { TTL: '60' }, body: 'x' });
    expect(unsigned.status).toBe(401);
    // Signed for another push service: the audience is not this receiver's origin.
    const details = webpush.generateRequestDetails({ ...subscription, endpoint: 'https://push.example.com/x' }, '{}', {
      TTL: 60,
      vapidDetails: { subject: 'mailto:ops@example.com', ...vapid },
    });
    const wrongAudience = await fetch(subscription.endpoint, {
      method: 'POST',
      headers: { ...(details.headers as Record<string, string>), TTL: '60' },
      body: details.body,
    });
    expect(wrongAudience.status).toBe(401);
    // Encrypted for another subscription's keys.
    expect((await push({ ...subscription, keys: other.keys }, '{}')).status).toBe(400);
    const noTtl = webpush.generateRequestDetails(subscription, '{}', {
      vapidDetails: { subject: 'mailto:ops@example.com', ...vapid },
    });
    const { TTL: _ttl, ...headers } = noTtl.headers as Record<string, string>;
    expect((await fetch(subscription.endpoint, { method: 'POST', headers, body: noTtl.body })).status).toBe(400);
    expect((await push(subscription, 'x'.repeat(5000))).status).toBe(413);
    expect((await push({ ...subscription, endpoint: `${receiver.url}/push/unknown` }, '{}')).status).toBe(404);
    receiver.setGone(other.endpoint);
    expect((await push(other, '{}')).status).toBe(410);
    receiver.setDown(true);
    expect(await push(subscription, '{}')).toEqual({ status: 503, retryAfter: '1' });
    receiver.setDown('throttled');
    expect(await push(subscription, '{}')).toEqual({ status: 429, retryAfter: '1' });
    receiver.setDown(false);
    expect((await push(subscription, '{"ok":true}')).status).toBe(201);
    expect(receiver.received().map((d) => d.payload)).toEqual([{ ok: true }]);
    expect(receiver.answers().map((a) => a.status)).toEqual([403, 401, 401, 400, 400, 413, 404, 410, 503, 429, 201]);
  });

  it('holds pushes for a sleeping browser, one per Topic, and drops those with TTL 0', async () => {
    const subscription = receiver.subscribe();
    receiver.setAsleep(subscription.endpoint, true);
    for (const [payload, options] of [
      ['{"n":1}', { topic: 'a' }],
      ['{"n":2}', { topic: 'b' }],
      ['{"n":3}', { topic: 'a' }],
      ['{"n":4}', { TTL: 0 }],
      ['{"n":5}', {}],
    ] as const) {
      expect((await push(subscription, payload, options)).status).toBe(201);
    }
    expect(receiver.received()).toEqual([]);
    receiver.setAsleep(subscription.endpoint, false);
    expect(receiver.received().map((d) => d.payload)).toEqual([{ n: 2 }, { n: 3 }, { n: 5 }]);
  });

  it('leaves a push unanswered while slow, until closed', async () => {
    const subscription = receiver.subscribe();
    receiver.setDown('slow');
    const pending = push(subscription, '{}').then(
      () => 'answered',
      () => 'cut off',
    );
    await new Promise((resolve) => setImmediate(resolve));
    await receiver.close();
    expect(await pending).toBe('cut off');
    expect(receiver.answers()).toEqual([]);
    receiver = await startWebPushReceiver();
  });
});

describe('the APNs server', () => {
  let key: ApnsKey;
  let server: ApnsServer;
  let session: http2.ClientHttp2Session;
  beforeAll(async () => {
    key = await writeApnsKey(dir);
  });
  beforeEach(async () => {
    server = await startApnsServer({ key, topic: 'com.example.chat' });
    session = http2.connect(server.url, { ca: server.caPem });
  });
  afterEach(async () => {
    session.destroy();
    await server.close();
  });

  async function providerToken(options: { iat?: number; keyFile?: string; keyId?: string } = {}) {
    const privateKey = await importPKCS8(fs.readFileSync(options.keyFile ?? key.keyFile, 'utf8'), 'ES256');
    return new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: options.keyId ?? key.keyId })
      .setIssuer(key.teamId)
      .setIssuedAt(options.iat ?? Math.floor(Date.now() / 1000))
      .sign(privateKey);
  }

  async function post(token: string, headers: Record<string, string>, body: string) {
    const stream = session.request({
      ':method': 'POST',
      ':path': `/3/device/${token}`,
      authorization: `bearer ${await providerToken()}`,
      'apns-topic': 'com.example.chat',
      'apns-push-type': 'alert',
      ...headers,
    });
    stream.end(body);
    const [response, text] = await Promise.all([
      new Promise<http2.IncomingHttpHeaders>((resolve) => stream.once('response', resolve)),
      (async () => {
        let all = '';
        for await (const chunk of stream) all += String(chunk);
        return all;
      })(),
    ]);
    return {
      status: Number(response[':status']),
      apnsId: String(response['apns-id']),
      body: text === '' ? undefined : JSON.parse(text),
    };
  }

  it('records an alert push with its headers, over TLS the test trusts, and answers with an apns-id', async () => {
    const token = deviceToken();
    const answer = await post(token, { 'apns-priority': '10', 'apns-collapse-id': 'chat-7' }, '{"aps":{"alert":"x"}}');
    expect(answer).toMatchObject({ status: 200, body: undefined });
    expect(answer.apnsId).toMatch(/^[0-9a-f-]{36}$/);
    const [delivery] = await server.waitFor(1);
    expect(delivery).toMatchObject({
      token,
      payload: { aps: { alert: 'x' } },
      headers: { 'apns-topic': 'com.example.chat', 'apns-push-type': 'alert', 'apns-collapse-id': 'chat-7' },
    });
    expect(server.providerTokens()).toHaveLength(1);
    expect(server.connections()).toBe(1);
  });

  it("answers Apple's reasons for what it refuses", async () => {
    const token = deviceToken();
    const other = await writeApnsKey(dir);
    const reasons: [number, string | undefined][] = [];
    const record = (answer: { status: number; body: { reason?: string } | undefined }) =>
      reasons.push([answer.status, answer.body?.reason]);
    record(await post(token, { authorization: `bearer ${await providerToken({ keyFile: other.keyFile })}` }, '{}'));
    const hourAgo = Math.floor(Date.now() / 1000) - 3700;
    record(await post(token, { authorization: `bearer ${await providerToken({ iat: hourAgo })}` }, '{}'));
    record(await post('zz12', {}, '{}'));
    record(await post(token, { 'apns-topic': 'com.example.other' }, '{}'));
    record(await post(token, { 'apns-push-type': 'voip' }, '{}'));
    record(await post(token, { 'apns-push-type': 'background', 'apns-priority': '10' }, '{}'));
    record(await post(token, { 'apns-collapse-id': 'c'.repeat(65) }, '{}'));
    record(await post(token, {}, JSON.stringify({ aps: {}, pad: 'x'.repeat(4096) })));
    server.setGone(token);
    const gone = await post(token, {}, '{}');
    record(gone);
    server.setDown(true);
    record(await post(deviceToken(), {}, '{}'));
    expect(reasons).toEqual([
      [403, 'InvalidProviderToken'],
      [403, 'ExpiredProviderToken'],
      [400, 'BadDeviceToken'],
      [400, 'DeviceTokenNotForTopic'],
      [400, 'InvalidPushType'],
      [400, 'BadPriority'],
      [400, 'BadCollapseId'],
      [413, 'PayloadTooLarge'],
      [410, 'Unregistered'],
      [503, 'ServiceUnavailable'],
    ]);
    expect(gone.body.timestamp).toBeGreaterThan(0);
    expect(server.received()).toEqual([]);
  });

  it('sends GOAWAY to open connections when told', async () => {
    expect((await post(deviceToken(), {}, '{}')).status).toBe(200);
    const goaway = new Promise<number>((resolve) => session.once('goaway', resolve));
    server.goAway();
    expect(await goaway).toBe(http2.constants.NGHTTP2_NO_ERROR);
    session = http2.connect(server.url, { ca: server.caPem });
    expect((await post(deviceToken(), {}, '{}')).status).toBe(200);
    expect(server.connections()).toBe(2);
  });
});

describe('the FCM stand-in', () => {
  let server: FcmServer;
  beforeEach(async () => {
    server = await startFcmServer();
  });
  afterEach(() => server.close());

  async function assertion(file: string, claims: { aud?: string; scope?: string } = {}) {
    const account = JSON.parse(fs.readFileSync(file, 'utf8'));
    const privateKey = await importPKCS8(account.private_key, 'RS256');
    return new SignJWT({ scope: claims.scope ?? 'https://www.googleapis.com/auth/firebase.messaging' })
      .setProtectedHeader({ alg: 'RS256', kid: account.private_key_id })
      .setIssuer(account.client_email)
      .setAudience(claims.aud ?? account.token_uri)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
  }

  async function trade(signed: string) {
    const response = await fetch(server.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: signed }),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  async function send(project: string, accessToken: string, message: Record<string, unknown>) {
    const response = await fetch(`${server.url}/v1/projects/${project}/messages:send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as any,
    };
  }

  it('trades a signed assertion for an access token and records a v1 message', async () => {
    const account = await server.writeServiceAccount(dir, 'chat-app');
    const file = JSON.parse(fs.readFileSync(account.file, 'utf8'));
    expect(file).toMatchObject({ type: 'service_account', project_id: 'chat-app', token_uri: server.tokenUrl });
    const granted = await trade(await assertion(account.file));
    expect(granted).toMatchObject({ status: 200, body: { expires_in: 3600, token_type: 'Bearer' } });
    const token = server.registrationToken();
    const message = { token, data: { upTo: '3' }, android: { collapse_key: 'c7', ttl: '60s', priority: 'high' } };
    const sent = await send('chat-app', granted.body.access_token, message);
    expect(sent.status).toBe(200);
    expect(sent.body.name).toMatch(/^projects\/chat-app\/messages\//);
    expect(await server.waitFor(1)).toEqual([{ token, message, at: expect.any(Number) }]);
    expect(server.accessTokensIssued()).toBe(1);
  });

  it("refuses bad assertions, bearers and messages with FCM's errors", async () => {
    const account = await server.writeServiceAccount(dir);
    expect(
      (await trade(await assertion(account.file, { aud: 'https://oauth2.googleapis.com/token' }))).body.error,
    ).toBe('invalid_grant');
    expect((await trade(await assertion(account.file, { scope: 'email' }))).body.error).toBe('invalid_scope');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = await new SignJWT({ scope: 'https://www.googleapis.com/auth/firebase.messaging' })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(account.clientEmail)
      .setAudience(server.tokenUrl)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    expect((await trade(forged)).body.error).toBe('invalid_grant');

    const access = (await trade(await assertion(account.file))).body.access_token as string;
    const token = server.registrationToken();
    const status = async (message: Record<string, unknown>, bearer = access) => {
      const answer = await send('test-project', bearer, message);
      return [answer.status, answer.body.error?.status, answer.body.error?.details?.[0]?.errorCode, answer.retryAfter];
    };
    expect(await status({ token }, 'ya29.not-issued')).toEqual([
      401,
      'UNAUTHENTICATED',
      'THIRD_PARTY_AUTH_ERROR',
      null,
    ]);
    expect(await status({ token, data: { n: 3 } })).toEqual([400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', null]);
    expect(await status({ token, android: { ttl: '60' } })).toEqual([
      400,
      'INVALID_ARGUMENT',
      'INVALID_ARGUMENT',
      null,
    ]);
    expect(await status({ token: 'short' })).toEqual([400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', null]);
    expect(await status({ token, extra: 1 })).toEqual([400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', null]);
    server.setGone(token);
    expect(await status({ token })).toEqual([404, 'NOT_FOUND', 'UNREGISTERED', null]);
    const live = server.registrationToken();
    server.setDown(true);
    expect(await status({ token: live })).toEqual([503, 'UNAVAILABLE', 'UNAVAILABLE', '1']);
    server.setDown('throttled');
    expect(await status({ token: live })).toEqual([429, 'RESOURCE_EXHAUSTED', 'QUOTA_EXCEEDED', '1']);
    server.setDown(false);
    server.revokeAccessTokens();
    expect((await status({ token: live }))[0]).toBe(401);
    expect(server.received()).toEqual([]);
  });
});

it('uses a fresh P-256 key pair and auth secret for each Web Push subscription', async () => {
  const receiver = await startWebPushReceiver();
  try {
    const [a, b] = [receiver.subscribe(), receiver.subscribe()];
    expect(new Set([a.endpoint, b.endpoint, a.keys.p256dh, b.keys.p256dh, a.keys.auth, b.keys.auth]).size).toBe(6);
    // A valid point: ECDH with it succeeds.
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    expect(ecdh.computeSecret(Buffer.from(a.keys.p256dh, 'base64url'))).toHaveLength(32);
  } finally {
    await receiver.close();
  }
});
