// Push targets through the real server, over HTTP and WebSocket: each kind registered, listed
// (without keys or whole tokens), replaced and removed; every refusal with its code, argument and
// reason, writing nothing; private endpoints refused in production unless allowed; a kind whose
// provider is not set up refused; another user's devices out of reach; a device pushed out of
// its user's list losing its target.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createECDH, generateKeyPairSync } from 'node:crypto';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { GraphQLFormattedError } from 'graphql';
import { generateVAPIDKeys } from 'web-push';
import {
  FetchPendingMessagesDocument,
  PushProvidersDocument,
  PushTargetsDocument,
  RemovePushTargetDocument,
  SetPushTargetDocument,
  type SetPushTargetMutationVariables,
} from '../../src/generated/client/graphql';
import { userKeys } from '../../src/redis/keys';
import { serverForThisFile } from '../support/fixture';
import { connectWs, post, wsOperation } from '../support/graphql';
import { snapshotRedis } from '../support/snapshot';
import { startTestServer, type TestServer } from '../support/server';

// Credentials of all three providers: well-formed, never used to send (PUSH_WORKER off). The key
// files are real keys, so a server that reads them at start finds what it expects.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'push-targets-'));
const apnsKeyFile = path.join(dir, 'AuthKey_ABCDEFGHIJ.p8');
fs.writeFileSync(
  apnsKeyFile,
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
);
const fcmCredentialsFile = path.join(dir, 'service-account.json');
fs.writeFileSync(
  fcmCredentialsFile,
  JSON.stringify({
    type: 'service_account',
    project_id: 'push-targets-test',
    private_key_id: 'k1',
    private_key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }),
    client_email: 'sender@push-targets-test.iam.gserviceaccount.com',
    token_uri: 'http://127.0.0.1:9/token',
  }),
);
const vapid = generateVAPIDKeys();
const WEB_PUSH = {
  PUSH_VAPID_PUBLIC_KEY: vapid.publicKey,
  PUSH_VAPID_PRIVATE_KEY: vapid.privateKey,
  PUSH_VAPID_SUBJECT: 'mailto:ops@example.net',
  PUSH_WORKER: 'off',
};
const ALL_PROVIDERS = {
  ...WEB_PUSH,
  PUSH_APNS_KEY_FILE: apnsKeyFile,
  PUSH_APNS_KEY_ID: 'ABCDEFGHIJ',
  PUSH_APNS_TEAM_ID: 'KLMNOPQRST',
  PUSH_APNS_TOPIC: 'net.example.chat',
  PUSH_FCM_CREDENTIALS_FILE: fcmCredentialsFile,
};

// Three live devices per user: a fourth pushes the least recently used out.
const fixture = serverForThisFile({ ...ALL_PROVIDERS, CHAT_MAX_DEVICES: '3' });
let api: TestServer;
/** Servers sharing the fixture's Redis, started by the tests that need them and stopped at the end. */
const others: TestServer[] = [];

beforeAll(() => {
  api = fixture.api;
});
afterAll(async () => {
  await Promise.all(others.map((server) => server.stop()));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function otherServer(env: Record<string, string>): Promise<TestServer> {
  const server = await startTestServer(env, api.redis);
  others.push(server);
  return server;
}

type Transport = 'HTTP' | 'WebSocket';
const TRANSPORTS: Transport[] = ['HTTP', 'WebSocket'];

interface Outcome<R> {
  data?: R | null;
  errors?: readonly GraphQLFormattedError[];
}

/** One operation over the given transport, with its one result. */
async function call<R, V>(
  transport: Transport,
  token: string,
  document: TypedDocumentNode<R, V>,
  variables: V,
  server: TestServer = api,
): Promise<Outcome<R>> {
  if (transport === 'HTTP') {
    const result = await post(server.url, document, variables, token);
    return { data: result.data, errors: result.errors };
  }
  const socket = server === api ? fixture.connect(token) : undefined;
  const client = socket ?? connectWs(server.url, token);
  try {
    const results = await wsOperation(client.client, document, variables).completion();
    expect(results).toHaveLength(1);
    return results[0];
  } finally {
    if (!socket) await client.dispose();
  }
}

async function ok<R, V>(
  transport: Transport,
  token: string,
  document: TypedDocumentNode<R, V>,
  variables: V,
  server?: TestServer,
): Promise<R> {
  const result = await call(transport, token, document, variables, server);
  if (result.errors || !result.data) throw new Error(`unexpected errors: ${JSON.stringify(result.errors)}`);
  return result.data;
}

/** The code and extensions of the one error, the data null. */
function refusedWith(outcome: Outcome<unknown>): Record<string, unknown> {
  expect(outcome.data ?? null).toBeNull();
  expect(outcome.errors).toHaveLength(1);
  return outcome.errors![0].extensions ?? {};
}

/** Fetches once with each device, as an app does before registering its target. */
async function fetchWith(token: string, ...devices: string[]): Promise<void> {
  for (const device of devices) await ok('HTTP', token, FetchPendingMessagesDocument, { device });
}

const browser = createECDH('prime256v1').generateKeys();
const subscription = (n: number, endpoint = `https://updates.push.example.net/wpush/v2/gAAAA${n}`) => ({
  endpoint,
  p256dh: browser.toString('base64url'),
  auth: Buffer.alloc(16, n).toString('base64url'),
});
const APNS_TOKEN = `${'5c'.repeat(31)}A1B2C3`.toUpperCase();
const FCM_TOKEN = `dXNlcjEyMzQ:APA91b${'Hk_-'.repeat(40)}Zq9x12`;

describe.each(TRANSPORTS)('push targets over %s', (transport) => {
  it('registers each kind on a live device, lists them without keys or whole tokens, replaces and removes them', async () => {
    const alice = api.tokens.user;
    await fetchWith(alice, 'browser', 'iphone', 'pixel');
    const [seconds] = await api.redis.client.time();

    const web = await ok(transport, alice, SetPushTargetDocument, { device: 'browser', webPush: subscription(1) });
    expect(web.setPushTarget).toEqual({
      device: 'browser',
      kind: 'WEB_PUSH',
      registeredAt: expect.any(Number),
      endpointHost: 'updates.push.example.net',
      tokenEnd: null,
    });
    expect(Math.abs(web.setPushTarget.registeredAt - Number(seconds))).toBeLessThan(60);
    const apple = await ok(transport, alice, SetPushTargetDocument, {
      device: 'iphone',
      apns: { token: APNS_TOKEN, environment: 'SANDBOX' },
    });
    expect(apple.setPushTarget).toMatchObject({
      device: 'iphone',
      kind: 'APNS',
      endpointHost: null,
      tokenEnd: 'a1b2c3',
    });
    const google = await ok(transport, alice, SetPushTargetDocument, { device: 'pixel', fcm: { token: FCM_TOKEN } });
    expect(google.setPushTarget).toMatchObject({
      device: 'pixel',
      kind: 'FCM',
      endpointHost: null,
      tokenEnd: 'Zq9x12',
    });

    const listed = (await ok(transport, alice, PushTargetsDocument, {})).pushTargets;
    expect([...listed].sort((a, b) => a.device.localeCompare(b.device))).toEqual([
      web.setPushTarget,
      apple.setPushTarget,
      google.setPushTarget,
    ]);
    const times = listed.map((target) => target.registeredAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // What a push needs is stored; none of it is shown.
    const shown = JSON.stringify(listed);
    for (const secret of [browser.toString('base64url'), subscription(1).auth, APNS_TOKEN.toLowerCase(), FCM_TOKEN]) {
      expect(shown).not.toContain(secret);
    }
    expect(JSON.parse((await api.redis.client.hget(userKeys.pushTargets('alice'), 'iphone'))!)).toEqual({
      kind: 'apns',
      token: APNS_TOKEN.toLowerCase(),
      environment: 'sandbox',
      at: Math.round(apple.setPushTarget.registeredAt * 1000),
    });

    // One target per device: the browser's subscription gives way to a token.
    const replaced = await ok(transport, alice, SetPushTargetDocument, {
      device: 'browser',
      fcm: { token: 'other-token' },
    });
    expect(replaced.setPushTarget).toMatchObject({ device: 'browser', kind: 'FCM', tokenEnd: '-token' });
    expect(await ok(transport, alice, RemovePushTargetDocument, { device: 'iphone' })).toEqual({
      removePushTarget: true,
    });
    expect(await ok(transport, alice, RemovePushTargetDocument, { device: 'iphone' })).toEqual({
      removePushTarget: false,
    });
    expect(
      (await ok(transport, alice, PushTargetsDocument, {})).pushTargets.map((t) => [t.device, t.kind]).sort(),
    ).toEqual([
      ['browser', 'FCM'],
      ['pixel', 'FCM'],
    ]);
  });

  it('refuses each malformed target with its code, argument and reason, and writes nothing', async () => {
    const alice = api.tokens.user;
    await fetchWith(alice, 'phone');
    const web = (change: Partial<ReturnType<typeof subscription>>) => ({ ...subscription(1), ...change });
    const cases: [SetPushTargetMutationVariables, string, string, string | undefined][] = [
      [{ device: 'phone' }, 'BAD_USER_INPUT', 'webPush, apns, fcm', 'PUSH_TARGET_ONE_KIND'],
      [
        { device: 'phone', webPush: subscription(1), fcm: { token: 'x' } },
        'BAD_USER_INPUT',
        'webPush, fcm',
        'PUSH_TARGET_ONE_KIND',
      ],
      [
        { device: 'phone', webPush: web({ endpoint: 'push.example.net/x' }) },
        'BAD_USER_INPUT',
        'webPush.endpoint',
        'PUSH_ENDPOINT_INVALID',
      ],
      [
        { device: 'phone', webPush: web({ endpoint: 'http://push.example.net/x' }) },
        'BAD_USER_INPUT',
        'webPush.endpoint',
        'PUSH_ENDPOINT_NOT_HTTPS',
      ],
      [
        { device: 'phone', webPush: web({ p256dh: Buffer.alloc(65, 4).toString('base64url') }) },
        'BAD_USER_INPUT',
        'webPush.p256dh',
        'PUSH_KEY_INVALID',
      ],
      [{ device: 'phone', webPush: web({ auth: 'c2hvcnQ' }) }, 'BAD_USER_INPUT', 'webPush.auth', 'PUSH_KEY_INVALID'],
      [{ device: 'phone', apns: { token: 'abc' } }, 'BAD_USER_INPUT', 'apns.token', 'PUSH_TOKEN_INVALID'],
      [{ device: 'phone', fcm: { token: 'not a token' } }, 'BAD_USER_INPUT', 'fcm.token', 'PUSH_TOKEN_INVALID'],
      [{ device: 'tablet', fcm: { token: FCM_TOKEN } }, 'NOT_FOUND', 'device', 'PUSH_DEVICE_NOT_FOUND'],
      [{ device: 'no spaces', fcm: { token: FCM_TOKEN } }, 'BAD_USER_INPUT', 'device', undefined],
    ];
    const before = await snapshotRedis(api.redis.client);
    const answers = [];
    for (const [variables] of cases)
      answers.push(refusedWith(await call(transport, alice, SetPushTargetDocument, variables)));
    expect(answers).toEqual(
      cases.map(([, code, argument, reason]) => (reason ? { code, argument, reason } : { code, argument })),
    );
    expect(await snapshotRedis(api.redis.client)).toEqual(before);
  });

  it("keeps another user's devices out of reach, and moves a token when the phone signs in to another user", async () => {
    const [alice, bob] = [api.tokens.user, api.tokens.other];
    await fetchWith(alice, 'phone');
    await ok(transport, alice, SetPushTargetDocument, { device: 'phone', fcm: { token: FCM_TOKEN } });
    const before = await snapshotRedis(api.redis.client);

    // Bob has no device of that name: neither registering nor removing reaches alice's.
    expect(
      refusedWith(await call(transport, bob, SetPushTargetDocument, { device: 'phone', fcm: { token: 'x' } })),
    ).toEqual({
      code: 'NOT_FOUND',
      argument: 'device',
      reason: 'PUSH_DEVICE_NOT_FOUND',
    });
    expect(await ok(transport, bob, RemovePushTargetDocument, { device: 'phone' })).toEqual({
      removePushTarget: false,
    });
    expect(await ok(transport, bob, PushTargetsDocument, {})).toEqual({ pushTargets: [] });
    expect(await snapshotRedis(api.redis.client)).toEqual(before);

    // A device of bob's own with the same name is bob's alone.
    await fetchWith(bob, 'phone');
    await ok(transport, bob, SetPushTargetDocument, { device: 'phone', apns: { token: APNS_TOKEN } });
    expect((await ok(transport, alice, PushTargetsDocument, {})).pushTargets.map((t) => [t.device, t.kind])).toEqual([
      ['phone', 'FCM'],
    ]);
    // The phone alice registered is signed in to bob now: alice's pushes stop reaching it.
    await ok(transport, bob, SetPushTargetDocument, { device: 'phone', fcm: { token: FCM_TOKEN } });
    expect(await ok(transport, alice, PushTargetsDocument, {})).toEqual({ pushTargets: [] });
    expect(
      (await ok(transport, bob, PushTargetsDocument, {})).pushTargets.map((t) => [t.device, t.kind, t.tokenEnd]),
    ).toEqual([['phone', 'FCM', 'Zq9x12']]);
  });

  it('drops the target of a device pushed out by a fourth one', async () => {
    const alice = api.tokens.user;
    await fetchWith(alice, 'a', 'b', 'c');
    for (const device of ['a', 'b', 'c']) {
      await ok(transport, alice, SetPushTargetDocument, { device, fcm: { token: `token-${device}` } });
    }
    // Each fetch makes its device the most recent: b is now the least recently used.
    await fetchWith(alice, 'a', 'c', 'd');
    expect((await ok(transport, alice, PushTargetsDocument, {})).pushTargets.map((t) => t.device).sort()).toEqual([
      'a',
      'c',
    ]);
  });

  it('tells which kinds this server sends and its VAPID key', async () => {
    expect(await ok(transport, api.tokens.user, PushProvidersDocument, {})).toEqual({
      pushProviders: { kinds: ['WEB_PUSH', 'APNS', 'FCM'], webPushPublicKey: vapid.publicKey },
    });
  });
});

describe('in production', () => {
  let production: TestServer;
  let allowing: TestServer;
  let lowered: TestServer;

  beforeAll(async () => {
    const env = { ...WEB_PUSH, NODE_ENV: 'production', HOST: '127.0.0.1' };
    production = await otherServer({ ...env, PUSH_ENDPOINT_HOSTS: 'push.example.net' });
    allowing = await otherServer({ ...env, PUSH_ALLOW_PRIVATE_ENDPOINTS: 'on' });
    lowered = await otherServer({ ...ALL_PROVIDERS, CHAT_MAX_DEVICES: '2' });
  }, 60_000);

  it.each(TRANSPORTS)(
    'over %s, refuses a private endpoint unless allowed, an endpoint off the listed hosts, and kinds not set up',
    async (transport) => {
      const alice = api.tokens.user;
      await fetchWith(alice, 'laptop');
      const register = (server: TestServer, variables: SetPushTargetMutationVariables) =>
        call(transport, alice, SetPushTargetDocument, variables, server);
      for (const endpoint of ['http://127.0.0.1:8080/push/1', 'https://[::1]/push/1', 'https://192.168.1.20/push/1']) {
        expect(
          refusedWith(await register(production, { device: 'laptop', webPush: subscription(2, endpoint) })),
        ).toEqual({
          code: 'BAD_USER_INPUT',
          argument: 'webPush.endpoint',
          reason: 'PUSH_ENDPOINT_PRIVATE',
        });
      }
      expect(
        refusedWith(
          await register(production, { device: 'laptop', webPush: subscription(2, 'https://push.example.org/1') }),
        ),
      ).toMatchObject({ reason: 'PUSH_ENDPOINT_HOST' });
      expect(refusedWith(await register(production, { device: 'laptop', apns: { token: APNS_TOKEN } }))).toEqual({
        code: 'BAD_USER_INPUT',
        argument: 'apns',
        reason: 'PUSH_KIND_NOT_CONFIGURED',
      });
      expect(refusedWith(await register(production, { device: 'laptop', fcm: { token: FCM_TOKEN } }))).toMatchObject({
        argument: 'fcm',
        reason: 'PUSH_KIND_NOT_CONFIGURED',
      });
      expect(await api.redis.client.exists(userKeys.pushTargets('alice'))).toBe(0);

      const local = await register(allowing, {
        device: 'laptop',
        webPush: subscription(2, 'http://127.0.0.1:8080/push/1'),
      });
      expect(local.data?.setPushTarget).toMatchObject({ kind: 'WEB_PUSH', endpointHost: '127.0.0.1' });
      const listed = await register(production, {
        device: 'laptop',
        webPush: subscription(2, 'https://eu.push.example.net/1'),
      });
      expect(listed.data?.setPushTarget).toMatchObject({ endpointHost: 'eu.push.example.net' });
      expect(await ok(transport, alice, PushProvidersDocument, {}, production)).toEqual({
        pushProviders: { kinds: ['WEB_PUSH'], webPushPublicKey: vapid.publicKey },
      });
    },
  );

  it('refuses a target beyond the live devices allowed once CHAT_MAX_DEVICES is lowered (CONFLICT), replacing one still', async () => {
    const alice = api.tokens.user;
    await fetchWith(alice, 'a', 'b', 'c');
    for (const device of ['a', 'b']) await ok('HTTP', alice, SetPushTargetDocument, { device, fcm: { token: device } });
    for (const transport of TRANSPORTS) {
      const refused = await call(
        transport,
        alice,
        SetPushTargetDocument,
        { device: 'c', fcm: { token: 'c' } },
        lowered,
      );
      expect(refusedWith(refused)).toEqual({ code: 'CONFLICT', argument: 'device', reason: 'PUSH_TOO_MANY_TARGETS' });
      const replaced = await call(
        transport,
        alice,
        SetPushTargetDocument,
        { device: 'a', fcm: { token: transport } },
        lowered,
      );
      expect(replaced.errors).toBeUndefined();
    }
  });
});
