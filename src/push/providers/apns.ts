// APNs over HTTP/2 with token auth: one session per APNs origin (production, sandbox), opened
// again when it closes or the server sends GOAWAY; the provider token (ES256, signed with the
// team's .p8 key) made once and renewed every 50 minutes, as Apple asks (at most one new token
// per 20 minutes, each valid for an hour).
import { X509Certificate } from 'node:crypto';
import http2 from 'node:http2';
import { rootCertificates } from 'node:tls';
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

type ApnsConfig = NonNullable<PushConfig['apns']>;

const TOKEN_RENEW_MS = 50 * 60_000;
const MAX_COLLAPSE_ID_BYTES = 64;
const MAX_ANSWER_BYTES = 4096;
const GONE_REASONS = ['BadDeviceToken', 'DeviceTokenNotForTopic', 'Unregistered', 'ExpiredToken'];
const TOKEN_REASONS = ['InvalidProviderToken', 'ExpiredProviderToken'];

interface Connection {
  session: http2.ClientHttp2Session;
  streams: Set<http2.ClientHttp2Stream>;
}

interface Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  text: string;
}

async function loadKey(apns: ApnsConfig): Promise<KeyLike> {
  const pem = await readSettingFile('PUSH_APNS_KEY_FILE', apns.keyFile);
  try {
    return await importPKCS8(pem, 'ES256');
  } catch (error) {
    throw new Error(
      `PUSH_APNS_KEY_FILE: ${apns.keyFile} is not an APNs signing key (PKCS#8 P-256 PEM, AuthKey_<id>.p8)`,
      {
        cause: error,
      },
    );
  }
}

async function loadCa(file: string | undefined): Promise<string[] | undefined> {
  if (file === undefined) return undefined;
  const text = await readSettingFile('PUSH_APNS_CA_FILE', file);
  const certificates = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  try {
    if (certificates.length === 0) throw new Error('no certificate');
    for (const pem of certificates) new X509Certificate(pem);
  } catch (error) {
    throw new Error(`PUSH_APNS_CA_FILE: ${file} is not a PEM certificate`, { cause: error });
  }
  return [...rootCertificates, ...certificates];
}

/** The APNs payload: content-free, ids and counts the app pulls with. */
function payloadOf(message: PushMessage): string {
  // No badge: `unread` is one chat's count, the app's badge is its total, which it sets after pulling.
  const aps = message.badgeOnly
    ? { 'content-available': 1 }
    : { alert: { 'loc-key': 'NEW_ACTIVITY' }, 'mutable-content': 1 };
  return JSON.stringify({ aps, ...pushBody(message) });
}

export async function createApnsSender(config: PushConfig, logger: Logger): Promise<PushSender> {
  if (config.apns === undefined) throw new Error('APNs is not set up (PUSH_APNS_* unset)');
  const apns: ApnsConfig = config.apns;
  const key = await loadKey(apns);
  const ca = await loadCa(apns.caFile);
  const log = logger.child({ provider: 'apns' });
  const connections = new Map<string, Connection>();
  const pinging = new Set<http2.ClientHttp2Session>();
  let token: { jwt: string; madeAt: number } | undefined;
  let signing: Promise<string> | undefined;
  let closed = false;

  /** The provider token, the same one for 50 minutes; `failed`: APNs refused it, make another. */
  async function providerToken(failed?: string): Promise<string> {
    if (token !== undefined && token.jwt !== failed && Date.now() - token.madeAt < TOKEN_RENEW_MS) return token.jwt;
    signing ??= (async () => {
      const madeAt = Date.now();
      const jwt = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: apns.keyId })
        .setIssuer(apns.teamId)
        .setIssuedAt(Math.floor(madeAt / 1000))
        .sign(key);
      token = { jwt, madeAt };
      log.debug({ renewed: failed !== undefined }, 'APNs provider token made');
      return jwt;
    })().finally(() => {
      signing = undefined;
    });
    return signing;
  }

  /** The open connection to `origin`, or a new one; its streams in flight, for GOAWAY. */
  function connection(origin: string): Connection {
    const open = connections.get(origin);
    if (open !== undefined && !open.session.closed && !open.session.destroyed) return open;
    const created: Connection = { session: http2.connect(origin, ca === undefined ? {} : { ca }), streams: new Set() };
    const { session } = created;
    const forget = () => {
      if (connections.get(origin) === created) connections.delete(origin);
    };
    session.on('goaway', (code, lastStreamId) => {
      log.info({ origin, code }, 'APNs sent GOAWAY; the next push opens a new connection');
      forget();
      // Streams APNs did not take will never be answered: refused now, so their pushes are tried again.
      for (const stream of created.streams) {
        if (stream.id === undefined || stream.id > lastStreamId) stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
      }
    });
    session.on('close', forget);
    // Its streams fail with it and are tried again; the session's error is only told.
    session.on('error', (error) => log.warn({ origin, err: describeError(error) }, 'APNs connection failed'));
    connections.set(origin, created);
    return created;
  }

  /** A push went unanswered: a connection that does not answer a PING either is dropped. */
  function checkAlive(origin: string) {
    const open = connections.get(origin)?.session;
    if (open === undefined || pinging.has(open)) return;
    pinging.add(open);
    const timer = setTimeout(() => open.destroy(), config.timeoutMs);
    const settle = (alive: boolean) => {
      clearTimeout(timer);
      pinging.delete(open);
      if (!alive) open.destroy();
    };
    try {
      if (!open.ping((error) => settle(error === null))) settle(false);
    } catch {
      settle(false);
    }
  }

  function post(origin: string, headers: http2.OutgoingHttpHeaders, body: string, signal: AbortSignal) {
    return new Promise<Answer>((resolve, reject) => {
      let stream: http2.ClientHttp2Stream;
      try {
        const { session, streams } = connection(origin);
        stream = session.request(headers, { signal });
        streams.add(stream);
        stream.on('close', () => streams.delete(stream));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      let answer: http2.IncomingHttpHeaders | undefined;
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('response', (received) => (answer = received));
      stream.on('data', (chunk: Buffer) => {
        if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      stream.on('end', () => {
        if (answer === undefined) reject(new Error('APNs closed the stream without an answer'));
        else
          resolve({ status: Number(answer[':status']), headers: answer, text: Buffer.concat(chunks).toString('utf8') });
      });
      stream.on('error', reject);
      // A stream refused after GOAWAY, or reset (before or during the answer), closes without
      // 'end'; after 'end' this rejection is a no-op.
      stream.on('close', () => {
        const refused = stream.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM;
        reject(
          new Error(
            refused ? 'APNs went away before taking the push' : `APNs stream closed (HTTP/2 code ${stream.rstCode})`,
          ),
        );
      });
      stream.end(body);
    });
  }

  async function send(target: PushTarget, message: PushMessage, signal?: AbortSignal): Promise<PushResult> {
    if (target.kind !== 'apns') return { outcome: 'rejected', reason: `not an APNs target (${target.kind})` };
    if (closed) return { outcome: 'retry', reason: 'the APNs sender is closed' };
    // The token goes into the request path: anything but hex is no device token.
    if (!/^([0-9a-f]{2}){32,100}$/i.test(target.token))
      return { outcome: 'gone', reason: 'BadDeviceToken (malformed)' };
    const origin = target.environment === 'sandbox' ? apns.sandboxUrl : apns.url;
    const body = payloadOf(message);
    const now = Math.floor(Date.now() / 1000);
    const headers = {
      ':method': 'POST',
      ':path': `/3/device/${target.token}`,
      'apns-topic': apns.topic,
      'apns-push-type': message.badgeOnly ? 'background' : 'alert',
      'apns-priority': message.badgeOnly ? '5' : '10',
      'apns-expiration': message.ttlSeconds === 0 ? '0' : String(now + message.ttlSeconds),
      'apns-collapse-id': fitCollapseKey(message.collapseKey, MAX_COLLAPSE_ID_BYTES),
      'content-type': 'application/json',
    };
    const limit = deadline(config.timeoutMs, signal);
    try {
      let jwt = await providerToken();
      for (let attempt = 1; ; attempt += 1) {
        const answer = await post(origin, { ...headers, authorization: `bearer ${jwt}` }, body, limit.signal);
        if (answer.status === 200) return { outcome: 'sent' };
        const reason = apnsReason(answer.text);
        const what = `APNs answered ${answer.status} ${reason ?? excerpt(answer.text)}`;
        if (reason !== undefined && GONE_REASONS.includes(reason) && (answer.status === 400 || answer.status === 410)) {
          return { outcome: 'gone', reason: what };
        }
        if (answer.status === 403 && reason !== undefined && TOKEN_REASONS.includes(reason)) {
          if (attempt > 1) return { outcome: 'rejected', reason: what };
          jwt = await providerToken(jwt);
          continue;
        }
        return statusResult(answer.status, what, retryAfterMs(answer.headers['retry-after']));
      }
    } catch (error) {
      if (limit.signal.aborted) {
        checkAlive(origin);
        return { outcome: 'retry', reason: limit.reason() };
      }
      return { outcome: 'retry', reason: describeError(error) };
    } finally {
      limit.done();
    }
  }

  return {
    kind: 'apns',
    send,
    async close() {
      closed = true;
      const open = [...connections.values()].map((c) => c.session);
      connections.clear();
      await Promise.all(
        open.map(
          (s) =>
            new Promise<void>((resolve) => {
              if (s.closed || s.destroyed) resolve();
              else {
                s.close(() => resolve());
                // Streams still in flight get the push timeout to finish, then the connection goes.
                setTimeout(() => s.destroy(), config.timeoutMs).unref();
              }
            }),
        ),
      );
    },
  };
}

function apnsReason(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { reason?: unknown };
    return typeof parsed.reason === 'string' ? parsed.reason : undefined;
  } catch {
    return undefined;
  }
}
