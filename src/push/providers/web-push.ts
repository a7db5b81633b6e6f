// Web Push (RFC 8030, payload encrypted per RFC 8291, VAPID per RFC 8292): the web-push library
// builds and encrypts the request, this module sends it, through agents whose DNS lookup refuses
// private addresses, so an endpoint's host that points at the server's own network after it was
// registered is still refused when the push connects.
import { createECDH, createHash } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { generateRequestDetails } from 'web-push';
import { endpointProblem, isPrivateAddress } from '../endpoint-policy';
import type { PushConfig } from '../settings';
import type { PushMessage, PushResult, PushSender, PushTarget } from '../types';
import { deadline, describeError, excerpt, pushBody, retryAfterMs, statusResult } from './common';

export interface WebPushSenderOptions {
  /** How host names are resolved (dns.lookup unless a test gives its own resolver). */
  lookup?: LookupFunction;
  /** A CA to trust besides the system's (a test's local push service). */
  ca?: string;
}

type Vapid = NonNullable<PushConfig['webPush']>;

const PRIVATE_CODE = 'EPUSHPRIVATEADDRESS';
const MAX_ANSWER_BYTES = 4096;
const IDLE_SOCKET_MS = 60_000;

/** Throws an Error naming the setting when the VAPID private key is not the public key's. */
function checkVapidPair(vapid: Vapid): void {
  const ecdh = createECDH('prime256v1');
  try {
    ecdh.setPrivateKey(Buffer.from(vapid.privateKey, 'base64url'));
  } catch {
    throw new Error('PUSH_VAPID_PRIVATE_KEY: not a P-256 private key');
  }
  if (ecdh.getPublicKey('base64url') !== vapid.publicKey) {
    throw new Error('PUSH_VAPID_PRIVATE_KEY: not the private key of PUSH_VAPID_PUBLIC_KEY');
  }
}

/**
 * A lookup that resolves every address of a host and fails when any is loopback, private,
 * link-local or otherwise not public: a host with one public and one private address could
 * otherwise be reached on the private one.
 */
export function publicOnlyLookup(resolve: LookupFunction = dns.lookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const all = typeof addresses === 'string' ? [{ address: addresses, family: 0 }] : addresses;
      const refused = all.find(({ address }) => isPrivateAddress(address));
      if (all.length === 0 || refused !== undefined) {
        const problem = Object.assign(
          new Error(`${hostname} resolves to ${refused?.address ?? 'no address'}, not a public address`),
          { code: PRIVATE_CODE },
        );
        callback(problem, '', 0);
        return;
      }
      if (options.all === true) callback(null, all);
      else callback(null, all[0].address, all[0].family);
    });
  };
}

/** The push's Topic: a digest of the collapse key, in the 32 base64url characters RFC 8030 allows. */
function topicOf(collapseKey: string): string {
  return createHash('sha256').update(collapseKey).digest('base64url').slice(0, 32);
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export function createWebPushSender(config: PushConfig, options: WebPushSenderOptions = {}): PushSender {
  const vapid = config.webPush;
  if (vapid === undefined) throw new Error('Web Push is not set up (PUSH_VAPID_* unset)');
  checkVapidPair(vapid);
  const vapidDetails = { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey };
  const lookup = config.allowPrivateEndpoints ? (options.lookup ?? dns.lookup) : publicOnlyLookup(options.lookup);
  const agentOptions = { keepAlive: true, timeout: IDLE_SOCKET_MS, lookup };
  const httpsAgent = new https.Agent({
    ...agentOptions,
    ...(options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca] }),
  });
  const httpAgent = new http.Agent(agentOptions);

  function post(url: URL, headers: http.OutgoingHttpHeaders, body: Buffer, signal: AbortSignal): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const request = (secure ? https : http).request(
        url,
        { method: 'POST', headers, agent: secure ? httpsAgent : httpAgent, signal },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
            size += chunk.length;
          });
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          response.on('error', reject);
          response.on('close', () => {
            if (!response.complete) reject(new Error('the push service cut its answer short'));
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  async function send(target: PushTarget, message: PushMessage, signal?: AbortSignal): Promise<PushResult> {
    if (target.kind !== 'webpush') return { outcome: 'rejected', reason: `not a Web Push target (${target.kind})` };
    // Browsers must show every push they get, so a count-only update would be a notification.
    if (message.badgeOnly) return { outcome: 'rejected', reason: 'a badge-only push is never sent to Web Push' };
    const problem = endpointProblem(target.endpoint, config);
    if (problem !== undefined) return { outcome: 'rejected', reason: `endpoint ${problem}` };
    let details;
    try {
      details = generateRequestDetails(target, JSON.stringify(pushBody(message)), {
        TTL: message.ttlSeconds,
        topic: topicOf(message.collapseKey),
        urgency: 'high',
        contentEncoding: 'aes128gcm',
        vapidDetails,
      });
    } catch (error) {
      return { outcome: 'rejected', reason: `cannot encrypt for this subscription: ${describeError(error)}` };
    }
    if (details.body === null) return { outcome: 'rejected', reason: 'nothing to send' };
    const limit = deadline(config.timeoutMs, signal);
    try {
      const answer = await post(new URL(details.endpoint), details.headers, details.body, limit.signal);
      if (answer.status >= 200 && answer.status < 300) return { outcome: 'sent' };
      const what = `push service answered ${answer.status}${answer.text === '' ? '' : `: ${excerpt(answer.text)}`}`;
      if (answer.status === 404 || answer.status === 410) return { outcome: 'gone', reason: what };
      return statusResult(answer.status, what, retryAfterMs(answer.headers['retry-after']));
    } catch (error) {
      if ((error as { code?: unknown }).code === PRIVATE_CODE) {
        return { outcome: 'rejected', reason: `endpoint ${describeError(error).replace(`${PRIVATE_CODE}: `, '')}` };
      }
      if (limit.signal.aborted) return { outcome: 'retry', reason: limit.reason() };
      return { outcome: 'retry', reason: describeError(error) };
    } finally {
      limit.done();
    }
  }

  return {
    kind: 'webpush',
    send,
    async close() {
      httpsAgent.destroy();
      httpAgent.destroy();
    },
  };
}
