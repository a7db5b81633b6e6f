// The five operations of the GraphQL-path benchmark: the data they need (made through the
// product's repositories before any server is measured) and, per peer, the request bytes one
// operation sends and how its answer is checked. Every peer gets the same arguments in the same
// order, so each does the same work in Redis.
import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import { loadConfig } from '../../src/config';
import { ChatRepository } from '../../src/redis/chat';
import { GuildRepository } from '../../src/redis/guild';
import { benchTokens } from '../harness/server-process';
import { seeded } from '../harness/support';
import { post, type Connection } from '../harness/http-load';

/** raw: the raw server's own routes; graphql: the document's text; hash: its hash alone (trusted documents). */
export type PeerKind = 'raw' | 'graphql' | 'hash';

export interface OperationSpec {
  name: string;
  /** Mutations must take one round trip to Redis. */
  mutation: boolean;
  /** Makes the data round `round` uses (rounds that change data get their own). */
  prepare(redis: Redis, round: number, count: number): Promise<void>;
  /** One operation (n-th of the round, on connection `slot`) against a peer. */
  run(kind: PeerKind, connection: Connection, n: number, slot: number, round: number): Promise<void>;
}

const USERS = 1000;
const CHAT_SIZE = 4;
const GUILD = 'bench-guild';
const GUILD_MEMBERS = 10_000;
const SERVICE = benchTokens.sign('bench-service', ['service'], 24 * 3600);
const MESSAGE = 'Meet at the usual place at 10; bring the maps. ☕';

const tokens = new Map<string, string>();
const tokenOf = (user: string): string => {
  let token = tokens.get(user);
  if (!token) tokens.set(user, (token = benchTokens.sign(user, [], 24 * 3600)));
  return token;
};

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Sends one operation as the peer takes it (its own route, the document's text, or its hash) and
 * returns the answer's data for it, or throws naming what came back instead.
 */
async function call(
  kind: PeerKind,
  connection: Connection,
  operation: string,
  query: string,
  variables: Record<string, unknown>,
  token: string,
): Promise<unknown> {
  const headers = { authorization: `Bearer ${token}` };
  const persisted = (): unknown => ({
    extensions: { persistedQuery: { version: 1, sha256Hash: hashOf(query) } },
    variables,
  });
  const body = kind === 'raw' ? variables : kind === 'hash' ? persisted() : { query, variables };
  const answer = await connection.send(post(kind === 'raw' ? `/op/${operation}` : '/graphql', body, headers));
  const text = answer.body.toString();
  const parsed = JSON.parse(text) as { data?: Record<string, unknown> | null; errors?: unknown };
  if (answer.status !== 200 || parsed.errors || !parsed.data)
    throw new Error(`${operation} over ${kind}: HTTP ${answer.status} ${text.slice(0, 300)}`);
  return kind === 'raw' ? parsed.data : parsed.data[operation];
}

const chatSettings = () => loadConfig({ ...process.env, NODE_ENV: 'test' }).messaging;

/** Chats for sendMessage: users u0..u999 in chats of four; entry i is (sender, chat id). */
const sendPool: { user: string; chatId: string }[] = [];
/** Two-letter prefixes of the guild's member names, for guildMembers. */
const prefixes: string[] = [];

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

const SEND =
  'mutation Send($chatId: ID!, $message: String!) { sendMessage(chatId: $chatId, message: $message) { id chatId sender ts } }';
const FETCH =
  'mutation Fetch($limit: Int) { fetchPendingMessages(limit: $limit) { chatId remaining messages { id sender message ts } } }';
const COUNT = 'mutation Count($name: String!) { updateCounter(name: $name, count: 1) }';
const ACQUIRE =
  'mutation Acquire($name: String!, $limit: Int!) { acquireSemaphore(name: $name, limit: $limit, timeoutMs: 10000) { id fencingToken expiresAt } }';
const RELEASE = 'mutation Release($name: String!, $id: String!) { releaseSemaphore(name: $name, id: $id) }';
const MEMBERS =
  'query Members($guild: String!, $prefix: String!) { guildMembers(guild: $guild, prefix: $prefix, limit: 10) }';

/** The benchmark's documents as a trusted-documents manifest (the client preset's format), for the product to load. */
export function benchManifest(): Record<string, string> {
  const texts = [SEND, FETCH, COUNT, ACQUIRE, RELEASE, MEMBERS];
  return Object.fromEntries(texts.map((text) => [`sha256:${hashOf(text)}`, text]));
}

export const OPERATIONS: OperationSpec[] = [
  {
    name: 'sendMessage',
    mutation: true,
    async prepare(redis) {
      if (sendPool.length) return;
      const chats = new ChatRepository(redis, chatSettings());
      const groups = Array.from({ length: USERS / CHAT_SIZE }, (_, g) =>
        Array.from({ length: CHAT_SIZE }, (_, m) => `u${g * CHAT_SIZE + m}`),
      );
      await inBatches(groups, 50, async ([first, ...others]) => {
        const { chat } = await chats.create(first, others, 'hello', false);
        for (const user of [first, ...others]) sendPool.push({ user, chatId: chat.id });
      });
      const random = seeded(7);
      for (let i = sendPool.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [sendPool[i], sendPool[j]] = [sendPool[j], sendPool[i]];
      }
    },
    async run(kind, connection, n) {
      const { user, chatId } = sendPool[n % sendPool.length];
      const sent = await call(kind, connection, 'sendMessage', SEND, { chatId, message: MESSAGE }, tokenOf(user));
      if (typeof (sent as { id?: unknown }).id !== 'number') throw new Error('sendMessage returned no id');
    },
  },
  {
    // Each round has its own users, each in two chats of four with three messages waiting in
    // each, and each user fetches once: every peer's round pulls the same 6 messages per call.
    name: 'fetchPendingMessages',
    mutation: true,
    async prepare(redis, round, count) {
      const chats = new ChatRepository(redis, chatSettings());
      const users = Math.ceil(count / CHAT_SIZE) * CHAT_SIZE;
      const user = (i: number): string => `f${round}-${i % users}`;
      const groups: string[][] = [];
      for (let start = 0; start < users; start += CHAT_SIZE) {
        groups.push([0, 1, 2, 3].map((m) => user(start + m)));
        groups.push([0, 1, 2, 3].map((m) => user(start + 2 + m)));
      }
      await inBatches(groups, 100, async ([first, ...others]) => {
        const { chat } = await chats.create(first, others, 'one', false);
        await chats.send(chat.id, others[0], 'two');
        await chats.send(chat.id, others[1], 'three');
      });
    },
    async run(kind, connection, n, _slot, round) {
      const token = tokenOf(`f${round}-${n}`);
      const pending = (await call(kind, connection, 'fetchPendingMessages', FETCH, { limit: 100 }, token)) as {
        messages: unknown[];
      }[];
      const messages = pending.reduce((sum, chat) => sum + chat.messages.length, 0);
      if (messages !== 6) throw new Error(`fetchPendingMessages over ${kind} pulled ${messages} messages, not 6`);
    },
  },
  {
    name: 'updateCounter',
    mutation: true,
    async prepare() {},
    async run(kind, connection, n) {
      const counted = await call(kind, connection, 'updateCounter', COUNT, { name: `hits/page-${n % 1000}` }, SERVICE);
      if (counted !== true) throw new Error('updateCounter did not return true');
    },
  },
  {
    // One semaphore per connection, so every acquire is granted and the pair measures the path,
    // not contention (the locks benchmark measures contention).
    name: 'acquireSemaphore+releaseSemaphore',
    mutation: true,
    async prepare() {},
    async run(kind, connection, _n, slot) {
      const name = `bench/sem-${slot}`;
      const acquired = call(kind, connection, 'acquireSemaphore', ACQUIRE, { name, limit: 1 }, SERVICE);
      const lease = (await acquired) as { id?: string } | null;
      if (!lease?.id) throw new Error(`acquireSemaphore over ${kind} was not granted`);
      const released = await call(kind, connection, 'releaseSemaphore', RELEASE, { name, id: lease.id }, SERVICE);
      if (released !== true) throw new Error('releaseSemaphore did not return true');
    },
  },
  {
    name: 'guildMembers',
    mutation: false,
    async prepare(redis) {
      const guilds = new GuildRepository(redis, loadConfig({ ...process.env, NODE_ENV: 'test' }).autocomplete);
      if (prefixes.length) return;
      const random = seeded(11);
      const letters = 'abcdefghijklmnopqrstuvwxyzéüøßж';
      const names = Array.from({ length: GUILD_MEMBERS }, (_, i) => {
        let name = '';
        for (let k = 0; k < 6; k++) name += letters[Math.floor(random() * letters.length)];
        return `${i % 3 === 0 ? name[0].toUpperCase() + name.slice(1) : name}${i}`;
      });
      await inBatches(names, 200, async (name) => {
        await guilds.join(GUILD, name);
      });
      prefixes.push(...names.map((name) => name.slice(0, 2).toLowerCase()));
    },
    async run(kind, connection, n) {
      const prefix = prefixes[n % prefixes.length];
      const found = (await call(
        kind,
        connection,
        'guildMembers',
        MEMBERS,
        { guild: GUILD, prefix },
        SERVICE,
      )) as string[];
      if (found.length === 0) throw new Error(`guildMembers over ${kind} found nobody for ${prefix}`);
    },
  },
];
