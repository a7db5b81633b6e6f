// Loads every Lua script in ./scripts once per connection with defineCommand, so each is sent
// by SHA (EVALSHA) and reloaded by ioredis if Redis forgets it. Includes are expanded first, so
// the SHA is that of the text Redis runs. Scripts take a variable number of keys, so the key
// count is passed on each call.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ChainableCommander, Cluster } from 'ioredis';
import type { RedisClient } from './redis-client';
import { loadScriptSources } from './script-includes';
import { AppError, badInput, conflict, forbidden, notFound, storeUnavailable } from '../../common/errors';
import { uploadOffset, uploadTooLarge } from '../location/errors';
import { pushRefused } from '../../push/target-validation';

const SCRIPTS_DIR = path.join(__dirname, '..', 'scripts');

export type ScriptName =
  | 'counter-update'
  | 'counter-clean'
  | 'counter-delete'
  | 'counter-series'
  | 'chat-create'
  | 'chat-details'
  | 'chat-device-add'
  | 'chat-device-check'
  | 'chat-fetch'
  | 'chat-forget-devices'
  | 'chat-history'
  | 'chat-index-add'
  | 'chat-index-hold'
  | 'chat-index-remove'
  | 'chat-join'
  | 'chat-leave'
  | 'chat-manage'
  | 'chat-mark-seen'
  | 'chat-send'
  | 'chat-status'
  | 'chat-typing'
  | 'contacts-add'
  | 'contacts-remove'
  | 'guild-info'
  | 'guild-join'
  | 'guild-mine'
  | 'guild-reindex'
  | 'guild-release'
  | 'guild-reserve'
  | 'guild-search'
  | 'lease-acquire'
  | 'lease-refresh'
  | 'lease-release'
  | 'lease-state'
  | 'location-append'
  | 'location-commit'
  | 'location-create'
  | 'location-forget'
  | 'location-prune-consumers'
  | 'mailbox-ack'
  | 'mailbox-send'
  | 'mailbox-take'
  | 'market-delist'
  | 'market-grant-funds'
  | 'market-grant-item'
  | 'market-list'
  | 'market-page'
  | 'market-purchase'
  | 'market-reprice'
  | 'market-sale-task'
  | 'push-target-release'
  | 'push-target-remove'
  | 'push-target-set'
  | 'row-cache-claim'
  | 'row-cache-list'
  | 'row-cache-retry'
  | 'row-cache-schedule'
  | 'row-cache-store'
  | 'task-cancel'
  | 'task-depth'
  | 'task-enqueue'
  | 'task-extend'
  | 'task-list'
  | 'task-next'
  | 'task-pause'
  | 'task-progress'
  | 'task-promote'
  | 'task-remove'
  | 'task-reschedule'
  | 'task-retry'
  | 'task-schedule-due'
  | 'task-schedule-remove'
  | 'task-schedule-set'
  | 'task-schedule-tick';

/** Arguments may be bytes: log chunks are stored as sent, whatever their encoding. */
export type ScriptArg = string | number | Buffer;

type ScriptCommand = (numKeys: number, ...keysAndArgs: ScriptArg[]) => Promise<unknown>;

let sources: Map<string, string> | undefined;

/** Each script's text as Redis runs it (without the prelude): its includes expanded (script-includes.ts). */
export function scriptSources(): Map<string, string> {
  sources ??= loadScriptSources(SCRIPTS_DIR);
  return sources;
}

const commandNames = new Map<string, string>();

/** `task-enqueue` -> `taskEnqueue`, the name defineCommand gives it; remembered, as it is asked on every script call. */
function commandName(script: string): string {
  let name = commandNames.get(script);
  if (name === undefined) {
    name = script.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    commandNames.set(script, name);
  }
  return name;
}

/**
 * Put before every script, on one line so that line numbers in script errors stay right.
 * Scripts announce changes with `redis.call(NOTIFY, channel, message)`. On a cluster NOTIFY is
 * SPUBLISH: the message goes only to the shard that owns the channel, which is why every channel
 * a script publishes on carries the script's hash tag (keys.ts). On one Redis it is PUBLISH,
 * which Redis 6.2 has too. now_ms() and now_us() read Redis's clock (TIME) in unix milliseconds
 * (whole) and microseconds.
 */
const scriptPrelude = (cluster: boolean): string =>
  `local NOTIFY = '${cluster ? 'SPUBLISH' : 'PUBLISH'}'; ` +
  "local function now_ms() local t = redis.call('TIME') return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) end; " +
  "local function now_us() local t = redis.call('TIME') return tonumber(t[1]) * 1000000 + tonumber(t[2]) end\n";

export function defineScripts(client: RedisClient): void {
  const prelude = scriptPrelude(client.isCluster);
  for (const [name, lua] of scriptSources()) client.defineCommand(commandName(name), { lua: prelude + lua });
}

/**
 * A script's whole text as defineScripts sends it, for EVAL inside a MULTI. There an EVALSHA that
 * Redis answered NOSCRIPT (its cache flushed since the connection sent the script) would fail
 * alone at EXEC, after the rest of the transaction was applied; EVAL cannot miss.
 */
export function scriptText(client: RedisClient, name: ScriptName): string {
  const key = `${client.isCluster ? 'cluster' : 'single'} ${name}`;
  let text = scriptTexts.get(key);
  if (text === undefined) {
    const lua = scriptSources().get(name);
    if (lua === undefined) throw new Error(`no Lua script ${name}`);
    text = scriptPrelude(client.isCluster) + lua;
    scriptTexts.set(key, text);
  }
  return text;
}

const scriptTexts = new Map<string, string>();

/** Each script's SHA1 as defineScripts sends it (EVALSHA's first argument), to its name. */
export function scriptNamesBySha(client: RedisClient): Map<string, string> {
  const prelude = scriptPrelude(client.isCluster);
  const names = new Map<string, string>();
  for (const [name, lua] of scriptSources()) {
    const sha = createHash('sha1')
      .update(prelude + lua)
      .digest('hex');
    names.set(sha, name);
  }
  return names;
}

/**
 * Writes acknowledged only once `replicas` replicas have them (WAIT), for deployments that would
 * rather fail a request than acknowledge a write a failover could lose.
 */
export interface ReplicaWait {
  replicas: number;
  timeoutMs: number;
}

const replicaWaits = new WeakMap<RedisClient, ReplicaWait>();

/** From now on, scripts that write run on `client` only with WAIT after them (0 replicas: never). */
export function requireReplicas(client: RedisClient, wait: ReplicaWait): void {
  if (wait.replicas > 0) replicaWaits.set(client, wait);
  else replicaWaits.delete(client);
}

/** Scripts that only read: nothing of theirs needs to reach a replica. */
export const READ_ONLY_SCRIPTS: ReadonlySet<ScriptName> = new Set([
  'counter-series',
  'chat-details',
  'chat-history',
  'chat-status',
  'guild-info',
  'guild-mine',
  'guild-search',
  'lease-state',
  'market-page',
  'row-cache-list',
  'task-depth',
  'task-list',
  'task-schedule-due',
]);

export async function runScript(
  client: RedisClient,
  name: ScriptName,
  keys: string[],
  args: ScriptArg[],
): Promise<unknown> {
  const wait = READ_ONLY_SCRIPTS.has(name) ? undefined : replicaWaits.get(client);
  if (wait) return runAndWait(client, name, keys, args, wait);
  const command = scriptCommand(client, name);
  try {
    return await command.call(client, keys.length, ...keys, ...args);
  } catch (error) {
    throw translateScriptError(error);
  }
}

function scriptCommand(client: RedisClient | ChainableCommander, name: ScriptName): ScriptCommand {
  const command = (client as unknown as Record<string, ScriptCommand>)[commandName(name)];
  if (typeof command !== 'function') throw new Error(`Lua script ${name} is not defined on this connection`);
  return command;
}

/**
 * The script and WAIT go together in one pipeline: on a cluster a pipeline goes to the node of its
 * keys, and WAIT counts the replicas that have every write of that connection so far. A write that
 * too few replicas confirmed stays on the primary (it cannot be taken back), so the caller gets
 * STORE_UNAVAILABLE and retries with its idempotency key, which returns the first result.
 */
async function runAndWait(
  client: RedisClient,
  name: ScriptName,
  keys: string[],
  args: ScriptArg[],
  wait: ReplicaWait,
): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    const pipeline = client.pipeline();
    // Queued on the pipeline; its reply comes with exec().
    void scriptCommand(pipeline, name).call(pipeline, keys.length, ...keys, ...args);
    pipeline.wait(wait.replicas, wait.timeoutMs);
    const replies = await pipeline.exec();
    if (!replies) throw new Error(`the ${name} pipeline was aborted`);
    const [[scriptError, result], [waitError, confirmed]] = replies as [
      [Error | null, unknown],
      [Error | null, number],
    ];
    if (scriptError && client.isCluster && NOT_RUN_ON_THIS_NODE.test(scriptError.message)) {
      // ioredis follows a redirection for a pipeline only when every command in it was
      // redirected, and WAIT (no keys) is not. The script did not run: learn the new slot
      // owner and send both again, as the cluster client does for single commands.
      if (attempt >= MAX_REDIRECTIONS) throw storeUnavailable();
      (client as Cluster).refreshSlotsCache();
      await new Promise((resolve) => setTimeout(resolve, REDIRECTION_DELAY_MS));
      continue;
    }
    if (scriptError) throw translateScriptError(scriptError);
    // The connection dropped after the script's reply (a failover): the write was made but is
    // unconfirmed, like one too few replicas confirmed. The error (ioredis's AbortError) passes
    // unchanged, so it answers STORE_UNAVAILABLE (store-errors.ts).
    if (waitError) throw waitError;
    if (confirmed < wait.replicas) throw notReplicated(confirmed, wait);
    return result;
  }
}

/** counter-update's E_TOO_OLD reply: `<start of the longest retention> <its precision> <its slices>`. */
function tooOld(reply: string): AppError {
  const [retainedFrom, precision, samples] = reply.split(' ').map(Number);
  return new AppError(
    'BAD_USER_INPUT',
    `at is older than the longest retention: ${samples} slices of ${precision} seconds, from ${retainedFrom} ` +
      `(${new Date(retainedFrom * 1000).toISOString()}) by the server clock`,
    { argument: 'at', retainedFrom, precision, samples },
  );
}

/** Replies that mean the script was not run on the node it was sent to. */
const NOT_RUN_ON_THIS_NODE = /^(MOVED|ASK|TRYAGAIN|CLUSTERDOWN) /;
const MAX_REDIRECTIONS = 16;
const REDIRECTION_DELAY_MS = 100;

const notReplicated = (confirmed: number, wait: ReplicaWait): AppError =>
  new AppError(
    'STORE_UNAVAILABLE',
    `The write reached ${confirmed} of the ${wait.replicas} replicas required within ${wait.timeoutMs} ms; retry (with the same idempotency key)`,
    { replicas: confirmed, required: wait.replicas },
  );

/**
 * Scripts fail with `redis.error_reply('E_<CODE> <message>')`; this is the one place such codes
 * become typed errors. The message is not optional: Redis puts `ERR ` before a bare code. Anything else (connection loss, a bug) passes through unchanged.
 */
const SCRIPT_ERRORS: Record<string, (message: string) => AppError> = {
  E_FUTURE: (message) => badInput(message || 'at is too far in the future', 'at'),
  E_TOO_OLD: (message) => tooOld(message),
  E_OVERFLOW: (message) => badInput(message || 'the counter would leave the safe integer range', 'count'),
  E_TOO_MANY_POINTS: (message) => badInput(message || 'the range holds too many steps', 'step'),
  E_FROM_AFTER_NOW: (message) => badInput(message || 'from is after the server clock', 'from'),
  // A chat the caller is not in looks exactly like one that does not exist.
  E_CHAT_NOT_FOUND: () => notFound('chat not found', 'chatId'),
  E_CHAT_FULL: (message) => conflict(message || 'the chat is full', 'members'),
  E_TOO_MANY_CHATS: (message) => conflict(message || 'a user belongs to too many chats'),
  E_NO_SUCH_MESSAGE: (message) => badInput(message || 'no such message', 'messageId'),
  // Worded as markSeen words a device its list does not know: both must fetch first.
  E_DEVICE_MUST_FETCH: () => badInput('device has not fetched yet, or was forgotten: fetch with it first', 'device'),
  E_CLIENT_MESSAGE_ID_REUSED: (message) => conflict(message || 'clientMessageId was already used', 'clientMessageId'),
  E_MESSAGE_NOT_FOUND: (message) => notFound(message || 'message not found', 'messageId'),
  E_NOT_A_MESSAGE: (message) => badInput(message || 'not a message', 'messageId'),
  E_NOT_YOURS: (message) => forbidden(message || 'only its sender may change a message'),
  E_MESSAGE_DELETED: (message) => conflict(message || 'the message was deleted', 'messageId'),
  E_TOO_MANY_EDITS: (message) => conflict(message || 'the message was edited too often', 'messageId'),
  E_STALE_EDIT: (message) => conflict(message || 'the message was edited since that version', 'version'),
  E_NO_SUCH_VERSION: (message) => badInput(message || 'no such version of the message', 'version'),
  E_NOT_CHAT_OWNER: (message) => forbidden(message || 'only an owner of the chat may do this'),
  E_NO_SUCH_MEMBER: (message) => notFound(message || 'no such member', 'user'),
  E_MAILBOX_FULL: (message) => conflict(message || 'the mailbox is full', 'to'),
  E_TOO_MANY_WAITERS: (message) => conflict(message || 'too many callers are waiting for this name', 'name'),
  E_LIMIT_MISMATCH: (message) => conflict(message || 'this semaphore is in use with another limit', 'limit'),
  E_GUILD_FULL: (message) => conflict(`the guild is full (${message})`, 'guild'),
  E_TOO_MANY_GUILDS: (message) => conflict(`the user belongs to too many guilds (${message})`, 'guild'),
  E_IDEMPOTENCY_KEY_REUSED: (message) =>
    conflict(message || 'idempotencyKey was used for a different task', 'idempotencyKey'),
  E_QUEUE_FULL: (message) => conflict(message || 'the queue is full', 'queue'),
  E_TASK_STARTED: (message) => conflict(message || 'the task has started', 'id'),
  E_TASK_NOT_FAILED: (message) => conflict(message || 'only a FAILED task can be retried', 'id'),
  E_TASK_NOT_FINISHED: (message) => conflict(message || 'the task has not finished', 'id'),
  E_TOO_MANY_SCHEDULES: (message) => conflict(message || 'the queue has too many schedules', 'name'),
  E_ITEM_EXISTS: (message) => conflict(message || 'an item with this id exists already', 'itemId'),
  E_INVENTORY_FULL: (message) => conflict(`the inventory is full (${message})`, 'userId'),
  E_FUNDS_CAP: (message) => conflict(`the balance would exceed MARKET_MAX_FUNDS (${message})`, 'amount'),
  E_SELLER_FUNDS_CAP: (message) =>
    conflict(`the seller's balance would exceed MARKET_MAX_FUNDS (${message})`, 'sellerId'),
  E_ROW_CACHE_FULL: (message) => conflict(`no more rows can be scheduled (${message})`, 'rowId'),
  E_NO_DATASET: () => notFound('no such dataset; create it with createLocationDataset', 'dataset'),
  E_UPLOAD_OFFSET: (message) => uploadOffset(Number(message), 'fromLine'),
  E_UPLOAD_COMPLETE: (message) =>
    new AppError('CONFLICT', `the upload is complete (${message} lines); use a new upload id`, {
      argument: 'upload',
      lines: Number(message),
    }),
  E_UPLOAD_TOO_LARGE: (message) => uploadTooLarge(Number(message)),
  E_TOO_MANY_UPLOADS: (message) => conflict(`the dataset keeps at most ${message} uploads`, 'upload'),
  E_NOT_GUILD_MEMBER: (message) => forbidden(message || 'only members of a guild may search it'),
  E_PUSH_DEVICE_NOT_FOUND: () =>
    pushRefused(
      'PUSH_DEVICE_NOT_FOUND',
      'device is not a live device of the caller: fetch with it once, then register its target',
      'device',
    ),
  E_PUSH_TOO_MANY_TARGETS: (message) =>
    pushRefused('PUSH_TOO_MANY_TARGETS', `the caller has as many push targets as live devices (${message})`, 'device'),
};

export function translateScriptError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const match = /^(E_[A-Z_]+)\s*(.*)$/.exec(error.message);
  const make = match ? SCRIPT_ERRORS[match[1]] : undefined;
  return make ? make(match![2]) : error;
}
