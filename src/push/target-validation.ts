// The checks a push target passes before it reaches Redis, and every reason a registration is
// refused, each a stable `reason` in the error's extensions beside its `code` and `argument`.
import { createPublicKey } from 'node:crypto';
import { AppError, type ErrorCode } from '../common/errors';
import { endpointProblem } from './endpoint-policy';
import type { PushConfig } from './settings';
import type { PushKind, PushTarget } from './types';

/**
 * Why setPushTarget refuses a target: `reason` in the error's extensions, with this `code`. The
 * reference (docs/push.md) is written from this table; a reason is never renamed.
 */
export const PUSH_REFUSALS = {
  PUSH_TARGET_ONE_KIND: {
    code: 'BAD_USER_INPUT',
    when: 'Not exactly one of webPush, apns and fcm was given (argument: those given, or all three).',
  },
  PUSH_KIND_NOT_CONFIGURED: {
    code: 'BAD_USER_INPUT',
    when: "The kind's provider is not set up on this server; pushProviders lists those that are.",
  },
  PUSH_ENDPOINT_INVALID: {
    code: 'BAD_USER_INPUT',
    when: 'The endpoint is not an absolute URL of at most 2048 characters without user, password or fragment.',
  },
  PUSH_ENDPOINT_NOT_HTTPS: {
    code: 'BAD_USER_INPUT',
    when: 'The endpoint is not https (http is taken only on a local address, where private endpoints are allowed).',
  },
  PUSH_ENDPOINT_PRIVATE: {
    code: 'BAD_USER_INPUT',
    when: 'The endpoint is on localhost or a loopback, private, link-local, CGNAT or multicast address, and PUSH_ALLOW_PRIVATE_ENDPOINTS is off (the default in production).',
  },
  PUSH_ENDPOINT_HOST: {
    code: 'BAD_USER_INPUT',
    when: 'The endpoint is not on a host of PUSH_ENDPOINT_HOSTS (or a subdomain of one).',
  },
  PUSH_KEY_INVALID: {
    code: 'BAD_USER_INPUT',
    when: 'p256dh is not an uncompressed P-256 public key on the curve (65 bytes), or auth is not 16 bytes; each base64url or base64.',
  },
  PUSH_TOKEN_INVALID: {
    code: 'BAD_USER_INPUT',
    when: 'An APNs token is not 64 to 200 hex digits (whole bytes), or an FCM token is not 1 to 4096 of A-Z a-z 0-9 _ : -.',
  },
  PUSH_DEVICE_NOT_FOUND: {
    code: 'NOT_FOUND',
    when: 'The device is not a live device of the caller: fetch with it once (fetchPendingMessages with `device`) first.',
  },
  PUSH_TOO_MANY_TARGETS: {
    code: 'CONFLICT',
    when: 'The caller has as many targets as CHAT_MAX_DEVICES allows live devices (after lowering it).',
  },
} as const satisfies Record<string, { code: ErrorCode; when: string }>;

export type PushRefusal = keyof typeof PUSH_REFUSALS;

export function pushRefused(reason: PushRefusal, message: string, argument: string): AppError {
  return new AppError(PUSH_REFUSALS[reason].code, message, { argument, reason });
}

/** What setPushTarget takes: exactly one of the three is given. */
export interface PushTargetInput {
  webPush?: { endpoint: string; p256dh: string; auth: string } | null;
  apns?: { token: string; environment: 'PRODUCTION' | 'SANDBOX' } | null;
  fcm?: { token: string } | null;
}

const ARGUMENT_OF: Record<PushKind, keyof PushTargetInput> = { webpush: 'webPush', apns: 'apns', fcm: 'fcm' };

/** The kinds whose provider is set up on this server. */
export function pushKindsSetUp(config: PushConfig): PushKind[] {
  const on: Record<PushKind, boolean> = {
    webpush: config.webPush !== undefined,
    apns: config.apns !== undefined,
    fcm: config.fcm !== undefined,
  };
  return (Object.keys(on) as PushKind[]).filter((kind) => on[kind]);
}

/** The target to store, normalised (keys base64url, APNs tokens lower case); refused with a reason otherwise. */
export function validPushTarget(input: PushTargetInput, config: PushConfig): PushTarget {
  const given = (Object.keys(ARGUMENT_OF) as PushKind[]).filter((kind) => {
    const value = input[ARGUMENT_OF[kind]];
    return value !== null && value !== undefined;
  });
  if (given.length !== 1) {
    const named = (given.length === 0 ? Object.values(ARGUMENT_OF) : given.map((kind) => ARGUMENT_OF[kind])).join(', ');
    throw pushRefused(
      'PUSH_TARGET_ONE_KIND',
      `give exactly one of webPush, apns and fcm (given: ${given.length})`,
      named,
    );
  }
  const kind = given[0];
  if (!pushKindsSetUp(config).includes(kind)) {
    throw pushRefused(
      'PUSH_KIND_NOT_CONFIGURED',
      `${ARGUMENT_OF[kind]} is not set up on this server; pushProviders says which kinds are`,
      ARGUMENT_OF[kind],
    );
  }
  if (input.webPush) return webPushTarget(input.webPush, config);
  if (input.apns) return apnsTarget(input.apns);
  return fcmTarget(input.fcm!);
}

function webPushTarget(input: NonNullable<PushTargetInput['webPush']>, config: PushConfig): PushTarget {
  const problem = endpointProblem(input.endpoint, config);
  if (problem !== undefined) {
    throw pushRefused(endpointReason(input.endpoint, config), `endpoint ${problem}`, 'webPush.endpoint');
  }
  const p256dh = base64Bytes(input.p256dh);
  if (p256dh === undefined || !isP256Point(p256dh)) {
    throw pushRefused(
      'PUSH_KEY_INVALID',
      'p256dh must be an uncompressed P-256 public key (65 bytes), base64url or base64',
      'webPush.p256dh',
    );
  }
  const auth = base64Bytes(input.auth);
  if (auth === undefined || auth.length !== 16) {
    throw pushRefused('PUSH_KEY_INVALID', 'auth must be 16 bytes, base64url or base64', 'webPush.auth');
  }
  return {
    kind: 'webpush',
    endpoint: input.endpoint,
    keys: { p256dh: p256dh.toString('base64url'), auth: auth.toString('base64url') },
  };
}

type Policy = Pick<PushConfig, 'allowPrivateEndpoints' | 'endpointHosts'>;

/**
 * Which of the policy's checks refused an endpoint, found by asking the policy again with its
 * rules relaxed one at a time, so the reason follows the policy as it is, whatever its wording.
 * Its checks run in the order form, private address, https, host list: the reason is the first
 * that fails, as its message is.
 */
function endpointReason(endpoint: string, policy: Policy): PushRefusal {
  const anyHost: Policy = { ...policy, endpointHosts: undefined };
  const open: Policy = { allowPrivateEndpoints: true, endpointHosts: undefined };
  if (endpointProblem(endpoint, open) === undefined) {
    return endpointProblem(endpoint, anyHost) === undefined ? 'PUSH_ENDPOINT_HOST' : 'PUSH_ENDPOINT_PRIVATE';
  }
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(endpoint)?.[0];
  if (scheme !== undefined && URL.canParse(endpoint)) {
    const overHttps = `https:${endpoint.slice(scheme.length)}`;
    if (endpointProblem(overHttps, open) === undefined) {
      // Over https it would pass but for a private address, which the policy checks first.
      return endpointProblem(overHttps, anyHost) === undefined ? 'PUSH_ENDPOINT_NOT_HTTPS' : 'PUSH_ENDPOINT_PRIVATE';
    }
  }
  return 'PUSH_ENDPOINT_INVALID';
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The bytes of canonical base64url (unpadded) or base64 text; undefined for anything else. */
function base64Bytes(text: string): Buffer | undefined {
  if (text.length > 200) return undefined;
  let bare: string;
  if (BASE64URL.test(text)) bare = text;
  else if (BASE64.test(text)) bare = text.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  else return undefined;
  const bytes = Buffer.from(bare, 'base64url');
  // Node decodes leniently (stray bits, impossible lengths): only text that is exactly these bytes counts.
  return bytes.toString('base64url') === bare ? bytes : undefined;
}

/** An uncompressed point (0x04, x, y) on P-256: what a browser's PushSubscription gives. */
function isP256Point(bytes: Buffer): boolean {
  if (bytes.length !== 65 || bytes[0] !== 0x04) return false;
  try {
    // Node refuses a JWK whose point is not on the curve.
    createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: bytes.subarray(1, 33).toString('base64url'),
        y: bytes.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}

const APNS_TOKEN = /^(?:[0-9a-fA-F]{2}){32,100}$/;
const FCM_TOKEN = /^[A-Za-z0-9_:-]{1,4096}$/;

function apnsTarget(input: NonNullable<PushTargetInput['apns']>): PushTarget {
  if (!APNS_TOKEN.test(input.token)) {
    throw pushRefused('PUSH_TOKEN_INVALID', 'token must be 64 to 200 hex digits, whole bytes', 'apns.token');
  }
  return {
    kind: 'apns',
    token: input.token.toLowerCase(),
    environment: input.environment === 'SANDBOX' ? 'sandbox' : 'production',
  };
}

function fcmTarget(input: NonNullable<PushTargetInput['fcm']>): PushTarget {
  if (!FCM_TOKEN.test(input.token)) {
    throw pushRefused('PUSH_TOKEN_INVALID', 'token must be 1 to 4096 of A-Z a-z 0-9 _ : -', 'fcm.token');
  }
  return { kind: 'fcm', token: input.token };
}
