// The checks of a push target before Redis: every refusal with its code, argument and reason,
// what is taken and how it is normalised, and a reasons table that says what actually happens.
import { createECDH, ECDH } from 'node:crypto';
import { AppError } from '../../src/common/errors';
import type { PushConfig } from '../../src/push/settings';
import { PUSH_REFUSALS, pushKindsSetUp, validPushTarget, type PushTargetInput } from '../../src/push/target-validation';
import { translateScriptError } from '../../src/redis/client/scripts';

const ALL: PushConfig = {
  delayMs: 3000,
  maxAgeSeconds: 86_400,
  retryMs: 5000,
  timeoutMs: 10_000,
  concurrency: 32,
  presenceTtlMs: 30_000,
  worker: false,
  webPush: { publicKey: 'pub', privateKey: 'priv', subject: 'mailto:ops@example.net' },
  endpointHosts: undefined,
  allowPrivateEndpoints: false,
  apns: {
    keyFile: '/nonexistent/AuthKey.p8',
    keyId: 'ABCDEFGHIJ',
    teamId: 'KLMNOPQRST',
    topic: 'net.example.app',
    url: 'https://api.push.apple.com',
    sandboxUrl: 'https://api.sandbox.push.apple.com',
    caFile: undefined,
  },
  fcm: { credentialsFile: '/nonexistent/fcm.json', url: 'https://fcm.googleapis.com', tokenUrl: undefined },
};

const browserKey = createECDH('prime256v1').generateKeys();
const P256DH = browserKey.toString('base64url');
const AUTH = Buffer.alloc(16, 7).toString('base64url');
const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/c1:APA91b';

const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** 65 bytes take 87 characters with 2 bits to spare in the last: the same character with one of them set. */
const spareBitSet = (last: string): string => BASE64URL_ALPHABET[BASE64URL_ALPHABET.indexOf(last) | 1];

const subscription = (change: Partial<{ endpoint: string; p256dh: string; auth: string }> = {}): PushTargetInput => ({
  webPush: { endpoint: ENDPOINT, p256dh: P256DH, auth: AUTH, ...change },
});

/** The refusal as a client sees it: code, then the extensions. */
function refusal(input: PushTargetInput, config: PushConfig = ALL): [string, Record<string, unknown>] {
  try {
    validPushTarget(input, config);
  } catch (error) {
    if (error instanceof AppError) return [error.code, error.details];
    throw error;
  }
  throw new Error('taken');
}

const bad = (argument: string, reason: string) => ['BAD_USER_INPUT', { argument, reason }];

describe('validPushTarget', () => {
  it('takes each kind, keys as base64url, APNs tokens in lower case with their environment', () => {
    expect(validPushTarget(subscription(), ALL)).toEqual({
      kind: 'webpush',
      endpoint: ENDPOINT,
      keys: { p256dh: P256DH, auth: AUTH },
    });
    // Standard base64 with padding, as some clients send it.
    expect(
      validPushTarget(
        subscription({ p256dh: browserKey.toString('base64'), auth: Buffer.alloc(16, 7).toString('base64') }),
        ALL,
      ),
    ).toEqual({ kind: 'webpush', endpoint: ENDPOINT, keys: { p256dh: P256DH, auth: AUTH } });
    expect(validPushTarget({ apns: { token: 'AB'.repeat(32), environment: 'SANDBOX' } }, ALL)).toEqual({
      kind: 'apns',
      token: 'ab'.repeat(32),
      environment: 'sandbox',
    });
    expect(validPushTarget({ apns: { token: '0a'.repeat(100), environment: 'PRODUCTION' } }, ALL)).toMatchObject({
      environment: 'production',
    });
    const fcm = `cT4-x_Y:${'A'.repeat(150)}`;
    expect(validPushTarget({ fcm: { token: fcm }, webPush: null, apns: null }, ALL)).toEqual({
      kind: 'fcm',
      token: fcm,
    });
    expect(validPushTarget({ fcm: { token: 'x'.repeat(4096) } }, ALL)).toEqual({
      kind: 'fcm',
      token: 'x'.repeat(4096),
    });
  });

  it('asks for exactly one kind, naming those given', () => {
    expect(refusal({})).toEqual(bad('webPush, apns, fcm', 'PUSH_TARGET_ONE_KIND'));
    expect(refusal({ webPush: null, apns: null, fcm: null })).toEqual(
      bad('webPush, apns, fcm', 'PUSH_TARGET_ONE_KIND'),
    );
    expect(refusal({ ...subscription(), fcm: { token: 'x' } })).toEqual(bad('webPush, fcm', 'PUSH_TARGET_ONE_KIND'));
  });

  it('refuses a kind whose provider this server has not set up, before looking at it', () => {
    expect(refusal(subscription({ endpoint: 'nonsense' }), { ...ALL, webPush: undefined })).toEqual(
      bad('webPush', 'PUSH_KIND_NOT_CONFIGURED'),
    );
    expect(
      refusal({ apns: { token: 'ab'.repeat(32), environment: 'PRODUCTION' } }, { ...ALL, apns: undefined }),
    ).toEqual(bad('apns', 'PUSH_KIND_NOT_CONFIGURED'));
    expect(refusal({ fcm: { token: 'x' } }, { ...ALL, fcm: undefined })).toEqual(
      bad('fcm', 'PUSH_KIND_NOT_CONFIGURED'),
    );
    expect(pushKindsSetUp(ALL)).toEqual(['webpush', 'apns', 'fcm']);
    expect(pushKindsSetUp({ ...ALL, webPush: undefined, fcm: undefined })).toEqual(['apns']);
  });

  it.each([
    ['/relative', 'PUSH_ENDPOINT_INVALID'],
    ['https://user:pw@push.example.net/1', 'PUSH_ENDPOINT_INVALID'],
    ['https://push.example.net/1#fragment', 'PUSH_ENDPOINT_INVALID'],
    [`https://push.example.net/${'a'.repeat(2100)}`, 'PUSH_ENDPOINT_INVALID'],
    ['http://push.example.net/1', 'PUSH_ENDPOINT_NOT_HTTPS'],
    ['ws://push.example.net/1', 'PUSH_ENDPOINT_NOT_HTTPS'],
    ['http://push.example.net/1#fragment', 'PUSH_ENDPOINT_INVALID'],
    ['https://127.0.0.1:9000/push', 'PUSH_ENDPOINT_PRIVATE'],
    ['http://localhost:9000/push', 'PUSH_ENDPOINT_PRIVATE'],
    ['ftp://10.0.0.1/push', 'PUSH_ENDPOINT_PRIVATE'],
    ['https://[fd00::1]/push', 'PUSH_ENDPOINT_PRIVATE'],
  ])('refuses the endpoint %s (%s) in production', (endpoint, reason) => {
    const [code, details] = refusal(subscription({ endpoint }));
    expect([code, details]).toEqual(bad('webPush.endpoint', reason));
  });

  it('takes a local endpoint where private endpoints are allowed, and only listed hosts where a list is set', () => {
    const local = { ...ALL, allowPrivateEndpoints: true };
    expect(validPushTarget(subscription({ endpoint: 'http://127.0.0.1:9000/push/1' }), local)).toMatchObject({
      endpoint: 'http://127.0.0.1:9000/push/1',
    });
    expect(refusal(subscription({ endpoint: 'http://push.example.net/1' }), local)).toEqual(
      bad('webPush.endpoint', 'PUSH_ENDPOINT_NOT_HTTPS'),
    );
    const listed = { ...ALL, endpointHosts: ['push.services.mozilla.com'] };
    expect(
      validPushTarget(subscription({ endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/x' }), listed),
    ).toMatchObject({ kind: 'webpush' });
    expect(refusal(subscription(), listed)).toEqual(bad('webPush.endpoint', 'PUSH_ENDPOINT_HOST'));
    // A private address is named as such, list or not.
    expect(refusal(subscription({ endpoint: 'https://10.1.1.1/x' }), listed)).toEqual(
      bad('webPush.endpoint', 'PUSH_ENDPOINT_PRIVATE'),
    );
    expect(refusal(subscription({ endpoint: 'http://push.example.net/x' }), listed)).toEqual(
      bad('webPush.endpoint', 'PUSH_ENDPOINT_NOT_HTTPS'),
    );
  });

  it('refuses a p256dh that is not an uncompressed P-256 point on the curve, and an auth that is not 16 bytes', () => {
    const point = (bytes: Buffer) => subscription({ p256dh: bytes.toString('base64url') });
    const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(32, 1), Buffer.alloc(32, 2)]);
    const compressed = ECDH.convertKey(browserKey, 'prime256v1', undefined, undefined, 'compressed') as Buffer;
    const outOfField = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 0xff)]);
    const wrongPrefix = Buffer.from(browserKey);
    wrongPrefix[0] = 3;
    const p256dh = bad('webPush.p256dh', 'PUSH_KEY_INVALID');
    for (const input of [
      point(offCurve),
      point(compressed),
      point(outOfField),
      point(wrongPrefix),
      point(browserKey.subarray(0, 64)),
      subscription({ p256dh: '' }),
      subscription({ p256dh: P256DH.replace(/.$/, '!') }),
      // Mixed alphabets, and a last character whose spare bits are set.
      subscription({ p256dh: `+${P256DH.slice(1, -1)}_` }),
      subscription({ p256dh: P256DH.slice(0, -1) + spareBitSet(P256DH.at(-1)!) }),
    ]) {
      expect(refusal(input)).toEqual(p256dh);
    }
    const auth = bad('webPush.auth', 'PUSH_KEY_INVALID');
    expect(refusal(subscription({ auth: Buffer.alloc(15).toString('base64url') }))).toEqual(auth);
    expect(refusal(subscription({ auth: Buffer.alloc(17).toString('base64url') }))).toEqual(auth);
    expect(refusal(subscription({ auth: 'not base64!' }))).toEqual(auth);
  });

  it('refuses APNs tokens that are not 64 to 200 hex digits of whole bytes, and FCM tokens of other characters', () => {
    const apns = bad('apns.token', 'PUSH_TOKEN_INVALID');
    for (const token of [
      'ab'.repeat(31),
      'ab'.repeat(101),
      `${'ab'.repeat(32)}a`,
      'zz'.repeat(32),
      ` ${'ab'.repeat(32)}`,
    ]) {
      expect(refusal({ apns: { token, environment: 'PRODUCTION' } })).toEqual(apns);
    }
    const fcm = bad('fcm.token', 'PUSH_TOKEN_INVALID');
    for (const token of ['', 'x'.repeat(4097), 'has space', 'slash/ed', 'dot.ted', 'ünïcode', 'line\nbreak']) {
      expect(refusal({ fcm: { token } })).toEqual(fcm);
    }
  });
});

describe('PUSH_REFUSALS', () => {
  it('lists exactly the reasons given, each with the code it comes with', () => {
    const seen = new Map<string, string>();
    const note = ([code, details]: [string, Record<string, unknown>]) => seen.set(String(details.reason), code);
    note(refusal({}));
    note(refusal({ fcm: { token: 'x' } }, { ...ALL, fcm: undefined }));
    for (const endpoint of ['/x', 'http://push.example.net/', 'https://10.0.0.1/'])
      note(refusal(subscription({ endpoint })));
    note(refusal(subscription(), { ...ALL, endpointHosts: ['push.apple.com'] }));
    note(refusal(subscription({ auth: '' })));
    note(refusal({ fcm: { token: '' } }));
    // The two that only Redis can tell, as the script's error codes come back.
    for (const reply of ['E_PUSH_DEVICE_NOT_FOUND device is not live', 'E_PUSH_TOO_MANY_TARGETS the most is 5']) {
      const error = translateScriptError(new Error(reply)) as AppError;
      expect(error.details.argument).toBe('device');
      seen.set(String(error.details.reason), error.code);
    }
    expect(Object.fromEntries(seen)).toEqual(
      Object.fromEntries(Object.entries(PUSH_REFUSALS).map(([reason, { code }]) => [reason, code])),
    );
  });
});
