// A local stand-in for FCM HTTP v1 on loopback: Google's OAuth2 token endpoint for a service
// account (an RS256 JWT assertion traded for an access token) and messages:send, which checks the
// bearer and the v1 message shape, records the message and answers with FCM's errors.
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { decodeJwt, jwtVerify } from 'jose';
import { HeldRequests, readBody, Recorder, type Outage } from './recorder';

/** @public (for the tests that use this service) */
export interface ServiceAccount {
  /** The JSON key file, as the Firebase console hands it out, with token_uri at this stand-in. */
  file: string;
  projectId: string;
  clientEmail: string;
}

/** @public (for the tests that use this service) */
export interface FcmDelivery {
  token: string;
  /** The v1 `message` object as sent. */
  message: Record<string, unknown>;
  at: number;
}

/** @public (for the tests that use this service) */
export interface FcmAnswer {
  token: string | undefined;
  status: number;
  /** `error.status`, or the OAuth `error` of the token endpoint. */
  error: string | undefined;
}

export interface FcmServer {
  /** The API's base URL, `http://127.0.0.1:<port>` (PUSH_FCM_URL). */
  url: string;
  /** `<url>/token`, the OAuth2 token endpoint. */
  tokenUrl: string;
  /** A new service account of `projectId` (default `test-project`), its key file written into `dir`. */
  writeServiceAccount(dir: string, projectId?: string): Promise<ServiceAccount>;
  /** A registration token as the FCM SDK hands one to an app. */
  registrationToken(): string;
  received(): FcmDelivery[];
  /** Every answer of messages:send and of the token endpoint, in order. */
  answers(): FcmAnswer[];
  waitFor(n: number, timeoutMs?: number): Promise<FcmDelivery[]>;
  /** The app was uninstalled: 404 UNREGISTERED from now on. */
  setGone(token: string): void;
  /** An outage of messages:send (the token endpoint stays up). */
  setDown(on: Outage): void;
  /** Access tokens handed out so far. */
  accessTokensIssued(): number;
  /** Every access token handed out so far is refused from now on (401). */
  revokeAccessTokens(): void;
  close(): Promise<void>;
}

export interface FcmServerOptions {
  /** `expires_in` of the access tokens handed out; default 3600. */
  accessTokenTtlSeconds?: number;
  /** Retry-After on 429 and 503 (seconds); default 1. */
  retryAfterSeconds?: number;
}

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const MAX_DATA_BYTES = 4096;
const MESSAGE_FIELDS = [
  'name',
  'data',
  'notification',
  'android',
  'webpush',
  'apns',
  'fcm_options',
  'token',
  'topic',
  'condition',
];
const ANDROID_FIELDS = [
  'collapse_key',
  'priority',
  'ttl',
  'restricted_package_name',
  'data',
  'notification',
  'fcm_options',
  'direct_boot_ok',
];
const APNS_FIELDS = ['headers', 'payload', 'fcm_options', 'live_activity_token'];
const RESERVED_DATA = /^(from|notification|message_type)$|^(google|gcm)\./;

interface Account {
  projectId: string;
  publicKey: KeyObject;
  privateKeyId: string;
}

interface AccessToken {
  projectId: string;
  expiresAt: number;
  revoked: boolean;
}

class Refused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errorCode?: string,
  ) {
    super(message);
  }
}

export async function startFcmServer(options: FcmServerOptions = {}): Promise<FcmServer> {
  const accounts = new Map<string, Account>();
  const accessTokens = new Map<string, AccessToken>();
  const gone = new Set<string>();
  const deliveries = new Recorder<FcmDelivery>();
  const answers: FcmAnswer[] = [];
  const held = new HeldRequests();
  const ttl = options.accessTokenTtlSeconds ?? 3600;
  const retryAfter = String(options.retryAfterSeconds ?? 1);
  let outage: Outage = false;
  let url = '';

  const server = http.createServer((req, res) => {
    const reply = (status: number, body: unknown, token: string | undefined, headers: Record<string, string> = {}) => {
      const error = (body as { error?: string | { status?: string } }).error;
      answers.push({ token, status, error: typeof error === 'string' ? error : error?.status });
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && req.url === '/token') {
      grant(req).then(
        (body) => reply(200, body, undefined),
        (error: unknown) => {
          const refused = error instanceof Refused ? error : new Refused(500, 'server_error', String(error));
          reply(refused.status, { error: refused.code, error_description: refused.message }, undefined);
        },
      );
      return;
    }
    if (outage === 'slow') {
      held.hold(
        () =>
          reply(503, googleError(new Refused(503, 'UNAVAILABLE', 'The service is currently unavailable.')), undefined),
        () => res.destroy(),
      );
      return;
    }
    if (outage !== false) {
      const refused =
        outage === 'throttled'
          ? new Refused(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded.', 'QUOTA_EXCEEDED')
          : new Refused(503, 'UNAVAILABLE', 'The service is currently unavailable.', 'UNAVAILABLE');
      reply(refused.status, googleError(refused), undefined, { 'retry-after': retryAfter });
      return;
    }
    let token: string | undefined;
    send(req, (seen) => (token = seen)).then(
      (body) => reply(200, body, token),
      (error: unknown) => {
        const refused = error instanceof Refused ? error : new Refused(500, 'INTERNAL', String(error), 'INTERNAL');
        reply(refused.status, googleError(refused), token);
      },
    );
  });

  /** Google's jwt-bearer grant for a service account. */
  async function grant(req: http.IncomingMessage) {
    const body = await readBody(req, 64 * 1024);
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      throw new Refused(400, 'invalid_request', 'form-encoded body required');
    }
    const form = new URLSearchParams(body?.toString('utf8') ?? '');
    if (form.get('grant_type') !== GRANT_TYPE) throw new Refused(400, 'unsupported_grant_type', 'Invalid grant_type');
    const assertion = form.get('assertion') ?? '';
    let account: Account | undefined;
    let claims;
    try {
      const iss = decodeJwt(assertion).iss ?? '';
      account = accounts.get(iss);
      if (account === undefined) throw new Error('unknown service account');
      ({ payload: claims } = await jwtVerify(assertion, account.publicKey, {
        algorithms: ['RS256'],
        issuer: iss,
        audience: `${url}/token`,
        requiredClaims: ['iat', 'exp', 'scope'],
      }));
    } catch (error) {
      throw new Refused(400, 'invalid_grant', `Invalid JWT: ${String(error)}`);
    }
    const now = Math.floor(Date.now() / 1000);
    const iat = claims.iat ?? 0;
    if (iat > now + 60 || (claims.exp ?? 0) - iat > 3600) {
      throw new Refused(400, 'invalid_grant', 'Invalid JWT: Token must be a short-lived token (60 minutes)');
    }
    if (typeof claims.scope !== 'string' || !claims.scope.split(' ').includes(SCOPE)) {
      throw new Refused(400, 'invalid_scope', `scope must include ${SCOPE}`);
    }
    const accessToken = `ya29.${randomBytes(32).toString('base64url')}`;
    accessTokens.set(accessToken, { projectId: account.projectId, expiresAt: Date.now() + ttl * 1000, revoked: false });
    return { access_token: accessToken, expires_in: ttl, token_type: 'Bearer' };
  }

  async function send(req: http.IncomingMessage, saw: (token: string) => void) {
    const project = /^\/v1\/projects\/([a-z0-9-]+)\/messages:send$/.exec(req.url ?? '')?.[1];
    if (req.method !== 'POST' || project === undefined) throw new Refused(404, 'NOT_FOUND', 'no such method');
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const access = bearer === undefined ? undefined : accessTokens.get(bearer);
    if (access === undefined || access.revoked || access.expiresAt <= Date.now()) {
      throw new Refused(
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials.',
        'THIRD_PARTY_AUTH_ERROR',
      );
    }
    if (access.projectId !== project) throw new Refused(403, 'PERMISSION_DENIED', 'Permission denied on project.');
    const body = await readBody(req, 64 * 1024);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body?.toString('utf8') ?? '');
    } catch {
      throw new Refused(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    }
    const message = checkMessage(parsed);
    saw(message.token as string);
    if (gone.has(message.token as string)) {
      throw new Refused(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED');
    }
    deliveries.add({ token: message.token as string, message, at: Date.now() });
    return { name: `projects/${project}/messages/0:${Date.now()}%${randomBytes(8).toString('hex')}` };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    tokenUrl: `${url}/token`,
    async writeServiceAccount(dir, projectId = 'test-project') {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const privateKeyId = randomBytes(20).toString('hex');
      const clientEmail = `push-${randomBytes(4).toString('hex')}@${projectId}.iam.gserviceaccount.com`;
      accounts.set(clientEmail, { projectId, publicKey, privateKeyId });
      const file = path.join(dir, `${projectId}-${privateKeyId.slice(0, 12)}.json`);
      const json = {
        type: 'service_account',
        project_id: projectId,
        private_key_id: privateKeyId,
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
        client_email: clientEmail,
        client_id: String(BigInt(`0x${randomBytes(8).toString('hex')}`)),
        auth_uri: 'https://accounts.google.com/o/oauth2/auth',
        token_uri: `${url}/token`,
      };
      await writeFile(file, JSON.stringify(json, null, 2), { mode: 0o600 });
      return { file, projectId, clientEmail };
    },
    registrationToken: () =>
      `${randomBytes(16).toString('base64url').slice(0, 22)}:APA91b${randomBytes(100).toString('base64url')}`,
    received: () => deliveries.list(),
    answers: () => [...answers],
    waitFor: (n, timeoutMs = 20_000) => deliveries.waitFor(n, timeoutMs, 'FCM deliveries'),
    setGone(token) {
      gone.add(token);
    },
    setDown(on) {
      outage = on;
    },
    accessTokensIssued: () => accessTokens.size,
    revokeAccessTokens() {
      for (const access of accessTokens.values()) access.revoked = true;
    },
    async close() {
      held.endAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function googleError(refused: Refused) {
  const details =
    refused.errorCode === undefined
      ? []
      : [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: refused.errorCode }];
  return { error: { code: refused.status, message: refused.message, status: refused.code, details } };
}

const invalid = (message: string) => new Refused(400, 'INVALID_ARGUMENT', message, 'INVALID_ARGUMENT');

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkFields(value: Record<string, unknown>, allowed: string[], where: string) {
  const unknown = Object.keys(value).find((name) => !allowed.includes(name));
  if (unknown !== undefined) throw invalid(`Invalid JSON payload received. Unknown name "${unknown}" at '${where}'`);
}

/** The v1 message as FCM checks it: one registration token, string data, the android and apns blocks. */
function checkMessage(body: unknown): Record<string, unknown> {
  if (!isObject(body) || !isObject(body.message)) throw invalid('message is required');
  checkFields(body, ['message', 'validate_only'], '');
  const message = body.message;
  checkFields(message, MESSAGE_FIELDS, 'message');
  if (typeof message.token !== 'string') throw invalid('message.token is required (this stand-in has no topics)');
  if (!/^[A-Za-z0-9_:-]{32,4096}$/.test(message.token)) {
    throw invalid('The registration token is not a valid FCM registration token');
  }
  if (message.data !== undefined) {
    if (!isObject(message.data)) throw invalid("Invalid value at 'message.data'");
    let size = 0;
    for (const [key, value] of Object.entries(message.data)) {
      if (typeof value !== 'string') throw invalid(`Invalid value at 'message.data[${key}].value' (TYPE_STRING)`);
      if (RESERVED_DATA.test(key)) throw invalid(`Invalid data payload key: ${key}`);
      size += Buffer.byteLength(key) + Buffer.byteLength(value);
    }
    if (size > MAX_DATA_BYTES) throw invalid('Message is too big');
  }
  if (message.android !== undefined) {
    const android = message.android;
    if (!isObject(android)) throw invalid("Invalid value at 'message.android'");
    checkFields(android, ANDROID_FIELDS, 'message.android');
    if (android.collapse_key !== undefined && typeof android.collapse_key !== 'string') {
      throw invalid("Invalid value at 'message.android.collapse_key'");
    }
    if (android.ttl !== undefined && (typeof android.ttl !== 'string' || !/^\d+(\.\d{1,9})?s$/.test(android.ttl))) {
      throw invalid("Invalid value at 'message.android.ttl' (Duration)");
    }
    if (android.priority !== undefined && !['normal', 'high', 'NORMAL', 'HIGH'].includes(String(android.priority))) {
      throw invalid("Invalid value at 'message.android.priority'");
    }
  }
  if (message.apns !== undefined) {
    const apns = message.apns;
    if (!isObject(apns)) throw invalid("Invalid value at 'message.apns'");
    checkFields(apns, APNS_FIELDS, 'message.apns');
    if (apns.headers !== undefined) {
      if (!isObject(apns.headers) || !Object.values(apns.headers).every((v) => typeof v === 'string')) {
        throw invalid("Invalid value at 'message.apns.headers'");
      }
    }
    if (apns.payload !== undefined && !isObject(apns.payload)) throw invalid("Invalid value at 'message.apns.payload'");
  }
  return message;
}
