// ioredis connections. Commands, pub/sub and (later) blocking reads each get their own
// connection, as a subscribed or blocked connection cannot serve other commands.
import Redis from 'ioredis';
import type { Logger } from '../logger';
import { withTimeout } from '../timeout';
import { UNREACHABLE_POLICY } from './retry-policy';
import { defineScripts } from './scripts';

export interface ConnectOptions {
  /** Shown in CLIENT LIST, which helps when several processes share one Redis. */
  name: string;
  logger: Logger;
  /** Fail a command after this long instead of letting a request hang on a stuck Redis. */
  commandTimeoutMs?: number;
}

export async function connectRedis(url: string, options: ConnectOptions): Promise<Redis> {
  const logger = options.logger.child({ component: 'redis', connection: options.name });
  const client = new Redis(url, {
    lazyConnect: true,
    connectionName: options.name,
    ...UNREACHABLE_POLICY,
    // A command whose reply was lost with the connection may have run: sending it again could
    // run a script twice (a task enqueued twice, a task taken and stranded). Fail it instead;
    // callers retry with their idempotency keys.
    autoResendUnfulfilledCommands: false,
    commandTimeout: options.commandTimeoutMs,
    // How long a closing socket to a dead Redis may linger; shutdown should not wait on it.
    disconnectTimeout: 200,
  });
  defineScripts(client);

  // ioredis emits an error on every failed reconnect; log the change of state, not each attempt.
  let healthy = true;
  client.on('error', (error: Error) => {
    if (healthy) logger.warn({ err: error.message }, 'redis connection lost; reconnecting');
    healthy = false;
  });
  client.on('ready', () => {
    if (!healthy) logger.info('redis connection restored');
    healthy = true;
  });

  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new Error(`Cannot reach Redis at ${redactUrl(url)}: ${(error as Error).message}`);
  }
  return client;
}

/**
 * Warns when Redis may evict keys: an evicted lock frees it while held, and an evicted fencing
 * counter starts again at 1. Managed services may refuse CONFIG GET; that is not an error.
 */
export async function warnIfEvicting(client: Redis, logger: Logger): Promise<string | undefined> {
  try {
    const [, policy] = (await client.config('GET', 'maxmemory-policy')) as [string, string];
    if (policy && policy !== 'noeviction') {
      logger.warn({ policy }, 'Redis may evict keys (maxmemory-policy is not noeviction): locks could be freed while held and fencing tokens could repeat');
    }
    return policy;
  } catch {
    return undefined;
  }
}

/** For the readiness probe: resolves when Redis answers. */
export async function pingRedis(client: Redis): Promise<void> {
  await client.ping();
}

/** Closes politely, and gives up on a Redis that no longer answers. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  // QUIT on a connection that is down would wait in the offline queue; just stop reconnecting.
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  // A Redis that stops answering mid-QUIT is simply dropped.
  await withTimeout(client.quit(), 2000).catch(() => undefined);
  client.disconnect();
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'an unparsable URL';
  }
}

const UNAVAILABLE_MESSAGES = [
  /^Connection is closed/,
  /^Command timed out/,
  /^Stream isn't writeable/,
  /^Reached the max retries per request limit/,
  /^(LOADING|BUSY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|READONLY) /,
  /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND)\b/,
];

/** True for errors that mean "Redis could not be reached or cannot serve now", not a bug. */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  return UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(error.message));
}
