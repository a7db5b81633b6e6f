// A push service on loopback that speaks RFC 8030 as a browser's push service does: it hands out
// subscriptions (a P-256 key pair and an auth secret it keeps), checks each push's VAPID token
// (RFC 8292), decrypts the aes128gcm body (RFC 8291) and records what the browser would be given.
import { createECDH, createPublicKey, randomBytes, randomUUID, type ECDH, type KeyObject } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { decrypt } from 'http_ece';
import { jwtVerify } from 'jose';
import { HeldRequests, readBody, Recorder, type Outage } from './recorder';
import { selfSignedCertificate } from './tls';

export interface Subscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** @public (for the tests that use this service) */
export interface Delivery {
  endpoint: string;
  /** The decrypted body, parsed as JSON. */
  payload: unknown;
  topic: string | undefined;
  ttl: number;
  urgency: string;
  /** When the push service took it (ms since the epoch). */
  at: number;
}

/**
 * Every answer given, in order: to count attempts, including refused ones.
 * @public (for the tests that use this service)
 */
export interface Answer {
  endpoint: string;
  status: number;
}

export interface WebPushReceiver {
  /** The origin: `http://127.0.0.1:<port>`, or `https://<host>:<port>` with `tls`. */
  url: string;
  /** With `tls`: the self-signed certificate (PEM) to trust. */
  caPem: string | undefined;
  subscribe(): Subscription;
  received(): Delivery[];
  answers(): Answer[];
  waitFor(n: number, timeoutMs?: number): Promise<Delivery[]>;
  /** The subscription expired: 410 from now on. */
  setGone(endpoint: string): void;
  setDown(on: Outage): void;
  /**
   * The browser is unreachable: pushes are taken (201) but held, a later one with the same Topic
   * replacing a held one, a TTL-0 one dropped; when woken, those still within their TTL are delivered.
   */
  setAsleep(endpoint: string, asleep: boolean): void;
  close(): Promise<void>;
}

export interface WebPushReceiverOptions {
  /** Pushes signed with another VAPID key are refused (403), as for a subscription made with this key. */
  vapidPublicKey?: string;
  /** Retry-After on 429 and 503 (seconds); default 1. */
  retryAfterSeconds?: number;
  /**
   * Serve https with a certificate for `host` (and 127.0.0.1, localhost), as a push service on
   * the internet does; endpoints are then `https://<host>:<port>/push/...`. `host` need not be in
   * any DNS: the client under test is given a resolver that sends it to 127.0.0.1.
   */
  tls?: boolean;
  /** The host name in endpoints (and in the VAPID audience); default 127.0.0.1. */
  host?: string;
}

const MAX_PAYLOAD = 4096; // RFC 8030 section 7.2: at least 4096 bytes must be taken
const URGENCIES = ['very-low', 'low', 'normal', 'high'];
const DAY_SECONDS = 86_400;

interface Endpoint {
  ecdh: ECDH;
  auth: string;
  gone: boolean;
  asleep: boolean;
  held: Delivery[];
}

class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startWebPushReceiver(options: WebPushReceiverOptions = {}): Promise<WebPushReceiver> {
  const endpoints = new Map<string, Endpoint>();
  const deliveries = new Recorder<Delivery>();
  const answers: Answer[] = [];
  const held = new HeldRequests();
  const retryAfter = String(options.retryAfterSeconds ?? 1);
  let outage: Outage = false;
  let origin = '';

  const host = options.host ?? '127.0.0.1';
  const tls = options.tls === true ? await selfSignedCertificate([host]) : undefined;
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const endpoint = `${origin}${req.url ?? ''}`;
    const answer = (status: number, headers: Record<string, string> = {}, body = '') => {
      answers.push({ endpoint, status });
      res.writeHead(status, { 'content-type': 'text/plain', ...headers });
      res.end(body);
    };
    if (outage === 'slow') {
      held.hold(
        () => answer(503),
        () => res.destroy(),
      );
      return;
    }
    if (outage !== false) {
      answer(outage === 'throttled' ? 429 : 503, { 'retry-after': retryAfter });
      return;
    }
    handle(req, endpoint).then(
      (location) => answer(201, { location }),
      (error: unknown) => {
        if (error instanceof Refused) answer(error.status, {}, error.message);
        else answer(500, {}, String(error));
      },
    );
  };
  const server = tls === undefined ? http.createServer(onRequest) : https.createServer(tls, onRequest);

  async function handle(req: http.IncomingMessage, endpoint: string): Promise<string> {
    if (req.method !== 'POST') throw new Refused(405, 'only POST');
    const id = /^\/push\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '')?.[1];
    const target = id === undefined ? undefined : endpoints.get(id);
    if (target === undefined) throw new Refused(404, 'no such subscription');
    if (target.gone) throw new Refused(410, 'subscription expired');
    await checkVapid(req.headers.authorization, origin, options.vapidPublicKey);
    const ttlHeader = req.headers.ttl;
    if (typeof ttlHeader !== 'string' || !/^\d+$/.test(ttlHeader)) throw new Refused(400, 'TTL header required');
    const topic = header(req, 'topic');
    if (topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(topic)) {
      throw new Refused(400, 'Topic must be at most 32 base64url characters');
    }
    const urgency = header(req, 'urgency') ?? 'normal';
    if (!URGENCIES.includes(urgency)) throw new Refused(400, `Urgency must be one of ${URGENCIES.join(', ')}`);
    if (header(req, 'content-encoding') !== 'aes128gcm') throw new Refused(400, 'Content-Encoding must be aes128gcm');
    const body = await readBody(req, MAX_PAYLOAD);
    if (body === undefined) throw new Refused(413, `body over ${MAX_PAYLOAD} bytes`);
    let plain: Buffer;
    try {
      plain = decrypt(body, { version: 'aes128gcm', privateKey: target.ecdh, authSecret: target.auth });
    } catch (error) {
      throw new Refused(400, `cannot decrypt: ${String(error)}`);
    }
    let payload: unknown;
    try {
      payload = JSON.parse(plain.toString('utf8'));
    } catch {
      // A real push service cannot read the body; this one refuses what the app could not parse.
      throw new Refused(400, 'decrypted body is not JSON');
    }
    const delivery: Delivery = { endpoint, payload, topic, ttl: Number(ttlHeader), urgency, at: Date.now() };
    if (!target.asleep) deliveries.add(delivery);
    else if (delivery.ttl > 0) {
      const index = topic === undefined ? -1 : target.held.findIndex((h) => h.topic === topic);
      if (index >= 0) target.held.splice(index, 1);
      target.held.push(delivery);
    }
    return `${origin}/message/${randomUUID()}`;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `${tls === undefined ? 'http' : 'https'}://${host.includes(':') ? `[${host}]` : host}:${port}`;

  const find = (endpoint: string): Endpoint => {
    const id = endpoint.startsWith(`${origin}/push/`) ? endpoint.slice(`${origin}/push/`.length) : '';
    const target = endpoints.get(id);
    if (target === undefined) throw new Error(`not a subscription of this receiver: ${endpoint}`);
    return target;
  };

  return {
    url: origin,
    caPem: tls?.cert,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const id = randomBytes(18).toString('base64url');
      const auth = randomBytes(16).toString('base64url');
      endpoints.set(id, { ecdh, auth, gone: false, asleep: false, held: [] });
      return { endpoint: `${origin}/push/${id}`, keys: { p256dh: ecdh.getPublicKey('base64url'), auth } };
    },
    received: () => deliveries.list(),
    answers: () => [...answers],
    waitFor: (n, timeoutMs = 20_000) => deliveries.waitFor(n, timeoutMs, 'Web Push deliveries'),
    setGone(endpoint) {
      find(endpoint).gone = true;
    },
    setDown(on) {
      outage = on;
    },
    setAsleep(endpoint, asleep) {
      const target = find(endpoint);
      target.asleep = asleep;
      if (asleep) return;
      const now = Date.now();
      for (const delivery of target.held.splice(0)) {
        if (now - delivery.at <= delivery.ttl * 1000) deliveries.add(delivery);
      }
    },
    async close() {
      held.endAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** RFC 8292: `vapid t=<ES256 JWT>, k=<the signer's P-256 public key>`; 401 when wrong, 403 for another key. */
async function checkVapid(authorization: string | undefined, audience: string, expectedKey: string | undefined) {
  const match = /^vapid\s+(.*)$/i.exec(authorization ?? '');
  if (!match) throw new Refused(401, 'Authorization: vapid t=..., k=... required');
  const params = new Map<string, string>();
  for (const part of match[1].split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) params.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const token = params.get('t');
  const k = params.get('k');
  if (token === undefined || k === undefined) throw new Refused(401, 'vapid t and k required');
  if (expectedKey !== undefined && k !== expectedKey) throw new Refused(403, 'signed with another VAPID key');
  let key: KeyObject;
  try {
    key = p256PublicKey(k);
  } catch {
    throw new Refused(401, 'k is not a P-256 public key');
  }
  let claims;
  try {
    ({ payload: claims } = await jwtVerify(token, key, {
      algorithms: ['ES256'],
      audience,
      requiredClaims: ['exp', 'sub'],
    }));
  } catch (error) {
    throw new Refused(401, `bad VAPID token: ${String(error)}`);
  }
  if ((claims.exp ?? 0) > Math.floor(Date.now() / 1000) + DAY_SECONDS) {
    throw new Refused(401, 'VAPID token expires more than 24 hours ahead');
  }
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) {
    throw new Refused(401, 'VAPID sub must be a mailto: or https: URL');
  }
}

function p256PublicKey(raw: string): KeyObject {
  const bytes = Buffer.from(raw, 'base64url');
  if (bytes.length !== 65 || bytes[0] !== 4) throw new Error('not an uncompressed P-256 point');
  return createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: bytes.subarray(1, 33).toString('base64url'),
      y: bytes.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
}
