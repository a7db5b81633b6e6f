// REDIS_WAIT_REPLICAS on one Redis with a real replica (a *.single file: it pauses the replica
// with SIGSTOP). A write is acknowledged only once the replica has it; when the replica cannot
// confirm in time the request fails with STORE_UNAVAILABLE, and a retry with the same
// clientMessageId returns the message already stored, once. Reads do not wait.
import pino from 'pino';
import { AppError } from '../../src/common/errors';
import type { Logger } from '../../src/common/logger';
import { CHAT_DEFAULTS, ChatRepository } from '../../src/redis/chat';
import { closeRedis, connectRedis, warnIfTooFewReplicas, type RedisClient } from '../../src/redis/client/connection';
import { isStoreUnavailable } from '../../src/redis/client/store-errors';
import { chatKeys } from '../../src/redis/keys';
import { requireReplicas } from '../../src/redis/client/scripts';
import { createErrorFormatter } from '../../src/schema/format-error';
import { eventually } from '../support/graphql';
import { captureLogs } from '../support/logs';
import { startRedisProcess, stopRedisProcesses, type RedisProcess } from '../support/redis-process';

const SETTINGS = { maxChatMembers: 100, maxChatsPerUser: 100, dedupeSeconds: 3600, ...CHAT_DEFAULTS };
const WAIT = { replicas: 1, timeoutMs: 300 };

let primary: RedisProcess;
let replica: RedisProcess;
let client: RedisClient;
let chats: ChatRepository;
let paused = false;

const silent = pino({ level: 'silent' });

function pauseReplica(): void {
  process.kill(replica.pid!, 'SIGSTOP');
  paused = true;
}

function resumeReplica(): void {
  if (paused) process.kill(replica.pid!, 'SIGCONT');
  paused = false;
}

/** The texts of a chat's messages as the replica has them. */
async function onReplica(chatId: string): Promise<string[]> {
  const entries = await replica.client().zrange(chatKeys.messages(chatId), 0, -1);
  return entries.map((entry) => (JSON.parse(entry) as { message: string }).message);
}

beforeAll(async () => {
  [primary, replica] = await Promise.all([startRedisProcess(), startRedisProcess()]);
  const link = replica.client();
  await link.config('SET', 'masterauth', new URL(primary.url).password);
  await link.replicaof('127.0.0.1', primary.port);
  await eventually(async () => /master_link_status:up/.test(await link.info('replication')), 20_000, 50);
  client = await connectRedis(primary.url, { name: 'test:replica-wait', logger: silent, replicaWait: WAIT });
  chats = new ChatRepository(client, SETTINGS);
}, 60_000);

afterAll(async () => {
  resumeReplica();
  if (client) await closeRedis(client);
  await stopRedisProcesses();
});

afterEach(() => {
  resumeReplica();
  requireReplicas(client, WAIT);
});

it('acknowledges a write only once the replica has it', async () => {
  const { chat } = await chats.create('alice', ['bob'], 'first', false);
  const sent = await chats.send(chat.id, 'alice', 'second');

  // Read at once from the replica, with no waiting: it has both already.
  expect(sent.stored).toBe(true);
  expect(await onReplica(chat.id)).toEqual(['first', 'second']);
});

it('fails with STORE_UNAVAILABLE when the replica does not confirm in time, and a retry with the same clientMessageId stores nothing twice', async () => {
  const { chat } = await chats.create('alice', ['bob'], 'hello', false);
  pauseReplica();

  const attempt = chats.send(chat.id, 'alice', 'while paused', 'client-1');
  await expect(attempt).rejects.toBeInstanceOf(AppError);
  await expect(attempt).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', details: { replicas: 0, required: 1 } });
  // The primary kept the write: it cannot be taken back.
  expect(await primary.client().zcard(chatKeys.messages(chat.id))).toBe(2);

  resumeReplica();
  const retried = await chats.send(chat.id, 'alice', 'while paused', 'client-1');
  expect(retried.stored).toBe(false);
  expect(retried.message).toMatchObject({ id: 2, message: 'while paused' });
  expect(await onReplica(chat.id)).toEqual(['hello', 'while paused']);
});

it('answers STORE_UNAVAILABLE, logging no error, when the connection drops while WAIT is pending, and a retry stores nothing twice', async () => {
  // The script's reply arrives, WAIT's never does: ioredis rejects WAIT with an AbortError
  // ("Command aborted due to connection close"), which used to surface as INTERNAL_SERVER_ERROR.
  const { chat } = await chats.create('alice', ['bob'], 'hello', false);
  requireReplicas(client, { replicas: 1, timeoutMs: 5000 });
  pauseReplica();
  const attempt = chats.send(chat.id, 'alice', 'cut off', 'client-cut').then(
    () => undefined,
    (error: unknown) => error,
  );
  await eventually(async () => /cmd=wait/.test(String(await primary.client().client('LIST'))), 2000, 20);
  await primary.client().client('KILL', 'SKIPME', 'yes', 'USER', 'default');
  const error = await attempt;
  expect(error).toMatchObject({ name: 'AbortError', message: 'Command aborted due to connection close' });
  expect(isStoreUnavailable(error)).toBe(true);

  const { logger, lines } = captureLogs('debug');
  const formatted = createErrorFormatter({ isProduction: true, logger })(
    { message: String((error as Error).message) },
    error,
  );
  expect(formatted.extensions).toEqual({ code: 'STORE_UNAVAILABLE' });
  expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([]);

  resumeReplica();
  requireReplicas(client, WAIT);
  await eventually(async () => client.status === 'ready', 5000, 20);
  const retried = await chats.send(chat.id, 'alice', 'cut off', 'client-cut');
  expect(retried).toMatchObject({ stored: false, message: { id: 2, message: 'cut off' } });
  expect(await onReplica(chat.id)).toEqual(['hello', 'cut off']);
});

it('does not make reads wait: a read-only script answers while the replica is paused', async () => {
  const { chat } = await chats.create('alice', ['bob'], 'hello', false);
  pauseReplica();

  const summary = await chats.summary(chat.id, 'bob');
  expect(summary).toMatchObject({ id: chat.id, memberCount: 2, latestMessageId: 1, seenMessageId: 0 });
});

it('still reports script errors by their codes', async () => {
  const { chat } = await chats.create('alice', ['bob'], 'hello', false);
  await expect(chats.send(chat.id, 'mallory', 'let me in')).rejects.toMatchObject({ code: 'NOT_FOUND' });
});

it('reloads scripts that Redis forgot (NOSCRIPT inside the pipeline)', async () => {
  const { chat } = await chats.create('alice', ['bob'], 'before', false);
  await primary.client().script('FLUSH');

  const sent = await chats.send(chat.id, 'bob', 'after the flush');
  expect(sent.message).toMatchObject({ id: 2, sender: 'bob', message: 'after the flush' });
  expect(await onReplica(chat.id)).toEqual(['before', 'after the flush']);
});

it('does not wait at all with 0 replicas required', async () => {
  requireReplicas(client, { replicas: 0, timeoutMs: 300 });
  const { chat } = await chats.create('alice', ['bob'], 'hello', false);
  pauseReplica();

  const sent = await chats.send(chat.id, 'alice', 'unconfirmed');
  expect(sent).toMatchObject({ stored: true, message: { id: 2 } });
});

it('warns at start-up when a primary has fewer replicas than writes wait for', async () => {
  const warnings: unknown[][] = [];
  const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;

  expect(await warnIfTooFewReplicas(client, WAIT, logger)).toBe(1);
  expect(warnings).toEqual([]);
  expect(await warnIfTooFewReplicas(client, { replicas: 2, timeoutMs: 300 }, logger)).toBe(1);
  expect(warnings).toHaveLength(1);
  expect(warnings[0][0]).toEqual({ required: 2, replicas: 1 });
});
