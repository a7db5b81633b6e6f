// FCM HTTP v1: the service account's RS256 assertion is traded for an OAuth2 access token (kept
// until 5 minutes before it expires, one trade at a time), and each push is one data-only
// messages:send: the app wakes, pulls, and shows its own notification.
import { importPKCS8, SignJWT, type KeyLike } from 'jose';
import type { Logger } from '../../common/logger';
import type { PushConfig } from '../settings';
import type { PushMessage, PushResult, PushSender, PushTarget } from '../types';
import {
  deadline,
  describeError,
  excerpt,
  fitCollapseKey,
  pushBody,
  readSettingFile,
  retryAfterMs,
  statusResult,
} from './common';

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const ASSERTION_LIFETIME_SECONDS = 3600;
const RENEW_BEFORE_EXPIRY_MS = 5 * 60_000;
const MAX_COLLAPSE_KEY_BYTES = 64;

interface ServiceAccount {
  projectId: string;
  clientEmail: string;
  privateKeyId: string | undefined;
  key: KeyLike;
  tokenUrl: string;
}

/** What an FCM error answer says: `error.status`, the FcmError code, the message. */
interface FcmError {
  status: string | undefined;
  errorCode: string | undefined;
  message: string;
}

/** A token endpoint's refusal: a credential it will not take is no reason to try the push again. */
class TokenRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
  }
}

function isServiceUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      url.protocol === 'https:' ||
      (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))
    );
  } catch {
    return false;
  }
}

async function loadServiceAccount(fcm: NonNullable<PushConfig['fcm']>): Promise<ServiceAccount> {
  const file = fcm.credentialsFile;
  const text = await readSettingFile('PUSH_FCM_CREDENTIALS_FILE', file);
  const bad = (why: string, cause?: unknown) =>
    new Error(`PUSH_FCM_CREDENTIALS_FILE: ${file} is not a service account key (${why})`, { cause });
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw bad('not JSON', error);
  }
  if (typeof json !== 'object' || json === null || json.type !== 'service_account') {
    throw bad('type is not "service_account"');
  }
  for (const field of ['project_id', 'client_email', 'private_key']) {
    if (typeof json[field] !== 'string' || json[field] === '') throw bad(`no ${field}`);
  }
  let key: KeyLike;
  try {
    key = await importPKCS8(json.private_key as string, 'RS256');
  } catch (error) {
    throw bad('private_key is not an RSA key in PKCS#8 PEM', error);
  }
  const tokenUrl = fcm.tokenUrl ?? (typeof json.token_uri === 'string' ? json.token_uri : GOOGLE_TOKEN_URL);
  if (!isServiceUrl(tokenUrl)) throw bad('token_uri is not an https URL');
  return {
    projectId: json.project_id as string,
    clientEmail: json.client_email as string,
    privateKeyId: typeof json.private_key_id === 'string' ? json.private_key_id : undefined,
    key,
    tokenUrl,
  };
}

function fcmError(text: string): FcmError {
  try {
    const { error } = JSON.parse(text) as {
      error?: { status?: unknown; message?: unknown; details?: { errorCode?: unknown }[] };
    };
    const errorCode = error?.details?.find((detail) => typeof detail.errorCode === 'string')?.errorCode;
    return {
      status: typeof error?.status === 'string' ? error.status : undefined,
      errorCode: typeof errorCode === 'string' ? errorCode : undefined,
      message: typeof error?.message === 'string' ? error.message : excerpt(text),
    };
  } catch {
    return { status: undefined, errorCode: undefined, message: excerpt(text) };
  }
}

/** The v1 message: data only, every value a string; on iOS through FCM a silent background push. */
function messageOf(token: string, message: PushMessage) {
  const data = Object.fromEntries(Object.entries(pushBody(message)).map(([name, value]) => [name, String(value)]));
  const collapseKey = fitCollapseKey(message.collapseKey, MAX_COLLAPSE_KEY_BYTES);
  const expiration = message.ttlSeconds === 0 ? 0 : Math.floor(Date.now() / 1000) + message.ttlSeconds;
  return {
    message: {
      token,
      data,
      android: {
        collapse_key: collapseKey,
        ttl: `${message.ttlSeconds}s`,
        priority: message.badgeOnly ? 'normal' : 'high',
      },
      apns: {
        headers: {
          'apns-push-type': 'background',
          'apns-priority': '5',
          'apns-expiration': String(expiration),
          'apns-collapse-id': collapseKey,
        },
        payload: { aps: { 'content-available': 1 } },
      },
    },
  };
}

export async function createFcmSender(config: PushConfig, logger: Logger): Promise<PushSender> {
  if (config.fcm === undefined) throw new Error('FCM is not set up (PUSH_FCM_CREDENTIALS_FILE unset)');
  const account = await loadServiceAccount(config.fcm);
  const sendUrl = `${config.fcm.url}/v1/projects/${encodeURIComponent(account.projectId)}/messages:send`;
  const log = logger.child({ provider: 'fcm' });
  let cached: { token: string; renewAt: number } | undefined;
  let trading: Promise<string> | undefined;

  async function trade(): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) })
      .setIssuer(account.clientEmail)
      .setAudience(account.tokenUrl)
      .setIssuedAt(now)
      .setExpirationTime(now + ASSERTION_LIFETIME_SECONDS)
      .sign(account.key);
    // Shared by every push waiting for it, so bounded by the push timeout, not by one caller.
    const limit = deadline(config.timeoutMs);
    try {
      const response = await fetch(account.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
        signal: limit.signal,
      });
      const text = await response.text();
      if (!response.ok) {
        throw new TokenRefused(
          response.status,
          `token endpoint answered ${response.status}: ${excerpt(text)}`,
          retryAfterMs(response.headers.get('retry-after')),
        );
      }
      const body = JSON.parse(text) as { access_token?: unknown; expires_in?: unknown };
      if (typeof body.access_token !== 'string' || typeof body.expires_in !== 'number') {
        throw new TokenRefused(502, 'token endpoint answered without access_token and expires_in', undefined);
      }
      cached = { token: body.access_token, renewAt: Date.now() + body.expires_in * 1000 - RENEW_BEFORE_EXPIRY_MS };
      log.debug({ expiresIn: body.expires_in }, 'FCM access token obtained');
      return body.access_token;
    } catch (error) {
      if (limit.signal.aborted) throw new Error(`token endpoint: ${limit.reason()}`, { cause: error });
      throw error;
    } finally {
      limit.done();
    }
  }

  /** The cached access token; `refused`: FCM did not take it, get another (once for all callers). */
  async function accessToken(refused?: string): Promise<string> {
    if (cached !== undefined && cached.token !== refused && Date.now() < cached.renewAt) return cached.token;
    trading ??= trade().finally(() => {
      trading = undefined;
    });
    return trading;
  }

  async function send(target: PushTarget, message: PushMessage, signal?: AbortSignal): Promise<PushResult> {
    if (target.kind !== 'fcm') return { outcome: 'rejected', reason: `not an FCM target (${target.kind})` };
    const body = JSON.stringify(messageOf(target.token, message));
    const limit = deadline(config.timeoutMs, signal);
    try {
      let token = await accessToken();
      for (let attempt = 1; ; attempt += 1) {
        const response = await fetch(sendUrl, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' },
          body,
          signal: limit.signal,
        });
        const text = await response.text();
        if (response.ok) return { outcome: 'sent' };
        const error = fcmError(text);
        const what = `FCM answered ${response.status} ${error.errorCode ?? error.status ?? ''}: ${error.message}`;
        if (response.status === 401 && attempt === 1) {
          token = await accessToken(token);
          continue;
        }
        if (error.errorCode === 'UNREGISTERED') return { outcome: 'gone', reason: what };
        // INVALID_ARGUMENT is also a malformed message; only one about the token means the target is bad.
        if (response.status === 400 && /registration token/i.test(error.message))
          return { outcome: 'gone', reason: what };
        // A 404 without UNREGISTERED, or SENDER_ID_MISMATCH, says this server is set up wrong (its
        // URL, project or credentials): the target may be fine, and is not removed for it.
        if (response.status === 404 || response.status === 403) return { outcome: 'rejected', reason: what };
        return statusResult(response.status, what, retryAfterMs(response.headers.get('retry-after')));
      }
    } catch (error) {
      if (error instanceof TokenRefused) return statusResult(error.status, error.message, error.retryAfterMs);
      if (limit.signal.aborted) return { outcome: 'retry', reason: limit.reason() };
      return { outcome: 'retry', reason: describeError(error) };
    } finally {
      limit.done();
    }
  }

  return {
    kind: 'fcm',
    send,
    async close() {
      cached = undefined;
    },
  };
}
