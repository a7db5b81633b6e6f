// A local APNs: an HTTP/2 TLS server (its own certificate for 127.0.0.1 and localhost, which the
// product is told to trust with PUSH_APNS_CA_FILE) answering POST /3/device/<token> as Apple's
// provider API does: token auth checked against the test's key, the apns-* headers validated,
// the payload recorded, and Apple's reasons on refusal (BadDeviceToken, Unregistered, ...).
import { generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { HeldRequests, readBody, Recorder, type Outage } from './recorder';
import { selfSignedCertificate } from './tls';

/** The test's token-signing key, as Apple hands it out: a `.p8` file, its key id and the team id. */
export interface ApnsKey {
  keyFile: string;
  keyId: string;
  teamId: string;
  publicKey: KeyObject;
}

/** @public (for the tests that use this service) */
export interface ApnsDelivery {
  token: string;
  /** The request's headers (lower case, without the pseudo-headers). */
  headers: Record<string, string>;
  payload: unknown;
  at: number;
}

/** @public (for the tests that use this service) */
export interface ApnsAnswer {
  token: string;
  status: number;
  reason: string | undefined;
}

export interface ApnsServer {
  /** `https://127.0.0.1:<port>`. */
  url: string;
  /** The server's self-signed certificate (PEM): the CA to trust. */
  caPem: string;
  received(): ApnsDelivery[];
  answers(): ApnsAnswer[];
  waitFor(n: number, timeoutMs?: number): Promise<ApnsDelivery[]>;
  /** Waits until `n` requests have arrived, answered or not (a 'slow' outage holds them). */
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
  /** The app was removed from the device: 410 Unregistered from now on. */
  setGone(token: string): void;
  setDown(on: Outage): void;
  /**
   * As APNs does when it restarts: answers the requests a 'slow' outage holds with 503 Shutdown,
   * then sends GOAWAY on every open connection and closes them.
   */
  goAway(): void;
  /** TLS connections accepted so far. */
  connections(): number;
  /** The distinct provider tokens (JWTs) taken so far, in the order first seen. */
  providerTokens(): string[];
  /** Every provider token taken so far is refused from now on (ExpiredProviderToken), as if an hour old. */
  expireProviderTokens(): void;
  close(): Promise<void>;
}

export interface ApnsServerOptions {
  key: ApnsKey;
  /** The app's bundle id: a push for another topic is refused with DeviceTokenNotForTopic. */
  topic?: string;
}

const MAX_PAYLOAD = 4096;
const TOKEN_LIFETIME_SECONDS = 3600;
const CLOCK_SKEW_SECONDS = 60;

/** Writes `AuthKey_<keyId>.p8` (PKCS#8 P-256, as Apple's) into `dir`, with fresh key and team ids. */
export async function writeApnsKey(dir: string): Promise<ApnsKey> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const id = () => randomBytes(10).toString('hex').toUpperCase().slice(0, 10);
  const keyId = id();
  const keyFile = path.join(dir, `AuthKey_${keyId}.p8`);
  await writeFile(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  return { keyFile, keyId, teamId: id(), publicKey };
}

/** A device token as iOS hands one to an app: 32 bytes, hex. */
export function deviceToken(): string {
  return randomBytes(32).toString('hex');
}

class Refused extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export async function startApnsServer(options: ApnsServerOptions): Promise<ApnsServer> {
  const tls = await selfSignedCertificate();
  const deliveries = new Recorder<ApnsDelivery>();
  const answers: ApnsAnswer[] = [];
  const arrivals = new Recorder<string>();
  const gone = new Map<string, number>();
  const providerTokens: string[] = [];
  const expired = new Set<string>();
  const sessions = new Set<http2.ServerHttp2Session>();
  const held = new HeldRequests();
  let connections = 0;
  let outage: Outage = false;
  let shuttingDown = false;

  const server = http2.createSecureServer(tls);
  server.on('session', (session) => {
    connections += 1;
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
    // A client that goes away mid-stream is no failure of the server.
    session.on('error', () => undefined);
  });
  server.on('stream', (stream, headers) => {
    stream.on('error', () => undefined);
    const token = /^\/3\/device\/([^/?]*)$/.exec(String(headers[':path']))?.[1] ?? '';
    arrivals.add(token);
    const answer = (status: number, reason?: string, extra: Record<string, unknown> = {}) => {
      if (stream.destroyed || stream.closed) return;
      answers.push({ token, status, reason });
      const apnsId = typeof headers['apns-id'] === 'string' ? headers['apns-id'] : randomUUID();
      if (reason === undefined) {
        stream.respond({ ':status': status, 'apns-id': apnsId }, { endStream: true });
        return;
      }
      stream.respond({ ':status': status, 'apns-id': apnsId, 'content-type': 'application/json' });
      stream.end(JSON.stringify({ reason, ...extra }));
    };
    if (outage === 'slow') {
      held.hold(
        () => answer(503, shuttingDown ? 'Shutdown' : 'ServiceUnavailable'),
        () => stream.close(http2.constants.NGHTTP2_CANCEL),
      );
      return;
    }
    if (outage !== false) {
      if (outage === 'throttled') answer(429, 'TooManyRequests');
      else answer(503, 'ServiceUnavailable');
      return;
    }
    handle(stream, headers, token).then(
      () => answer(200),
      (error: unknown) => {
        if (!(error instanceof Refused)) answer(500, 'InternalServerError');
        else if (error.reason === 'Unregistered') answer(410, error.reason, { timestamp: gone.get(token) });
        else answer(error.status, error.reason);
      },
    );
  });

  async function handle(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, token: string) {
    if (headers[':method'] !== 'POST') throw new Refused(405, 'MethodNotAllowed');
    if (!/^\/3\/device\//.test(String(headers[':path']))) throw new Refused(404, 'BadPath');
    await checkProviderToken(headers.authorization, options.key, providerTokens, expired);
    if (token === '') throw new Refused(400, 'MissingDeviceToken');
    if (!/^([0-9a-f]{2}){32,100}$/i.test(token)) throw new Refused(400, 'BadDeviceToken');
    const topic = headers['apns-topic'];
    if (typeof topic !== 'string' || topic === '') throw new Refused(400, 'MissingTopic');
    if (options.topic !== undefined && topic !== options.topic) throw new Refused(400, 'DeviceTokenNotForTopic');
    const pushType = headers['apns-push-type'];
    if (pushType !== 'alert' && pushType !== 'background') throw new Refused(400, 'InvalidPushType');
    const priority = headers['apns-priority'] ?? '10';
    // Apple: a background push must go at priority 5; 10 is an error.
    if (!['5', '10'].includes(String(priority)) || (pushType === 'background' && priority !== '5')) {
      throw new Refused(400, 'BadPriority');
    }
    const expiration = headers['apns-expiration'];
    if (expiration !== undefined && !/^\d+$/.test(String(expiration))) throw new Refused(400, 'BadExpirationDate');
    const collapseId = headers['apns-collapse-id'];
    if (collapseId !== undefined && Buffer.byteLength(String(collapseId)) > 64) throw new Refused(400, 'BadCollapseId');
    const apnsId = headers['apns-id'];
    if (apnsId !== undefined && !/^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(String(apnsId))) {
      throw new Refused(400, 'BadMessageId');
    }
    const body = await readBody(stream, MAX_PAYLOAD);
    if (body === undefined) throw new Refused(413, 'PayloadTooLarge');
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      payload = undefined;
    }
    // Apple documents no reason for a body that is not a JSON object; PayloadEmpty is the nearest.
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      throw new Refused(400, 'PayloadEmpty');
    }
    if (gone.has(token)) throw new Refused(410, 'Unregistered');
    const recorded: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (!name.startsWith(':') && value !== undefined) recorded[name] = String(value);
    }
    deliveries.add({ token, headers: recorded, payload, at: Date.now() });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    caPem: tls.cert,
    received: () => deliveries.list(),
    answers: () => [...answers],
    waitFor: (n, timeoutMs = 20_000) => deliveries.waitFor(n, timeoutMs, 'APNs deliveries'),
    waitForRequests: async (n, timeoutMs = 20_000) => {
      await arrivals.waitFor(n, timeoutMs, 'APNs requests');
    },
    setGone(token) {
      gone.set(token, Date.now());
    },
    setDown(on) {
      outage = on;
    },
    goAway() {
      shuttingDown = true;
      held.answerAll();
      shuttingDown = false;
      for (const session of sessions) {
        session.goaway(http2.constants.NGHTTP2_NO_ERROR, 0, Buffer.from(JSON.stringify({ reason: 'Shutdown' })));
        session.close();
      }
    },
    connections: () => connections,
    providerTokens: () => [...providerTokens],
    expireProviderTokens() {
      for (const token of providerTokens) expired.add(token);
    },
    async close() {
      held.endAll();
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Apple's token auth: `bearer <ES256 JWT>`, `kid` the key id, `iss` the team, `iat` within the hour. */
async function checkProviderToken(
  authorization: string | undefined,
  key: ApnsKey,
  seen: string[],
  expired: Set<string>,
) {
  const token = /^bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (token === undefined) throw new Refused(403, 'MissingProviderToken');
  let iat: number | undefined;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== 'ES256' || header.kid !== key.keyId) throw new Error('another key');
    ({
      payload: { iat },
    } = await jwtVerify(token, key.publicKey, { algorithms: ['ES256'], issuer: key.teamId, requiredClaims: ['iat'] }));
  } catch {
    throw new Refused(403, 'InvalidProviderToken');
  }
  const now = Math.floor(Date.now() / 1000);
  if (iat === undefined || iat > now + CLOCK_SKEW_SECONDS) throw new Refused(403, 'InvalidProviderToken');
  if (iat < now - TOKEN_LIFETIME_SECONDS || expired.has(token)) throw new Refused(403, 'ExpiredProviderToken');
  if (!seen.includes(token)) seen.push(token);
}
