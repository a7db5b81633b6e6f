// The five operations of the GraphQL-path benchmark: the data they need (made through the
// product's repositories before any server is measured) and, per peer, the request bytes one
// operation sends and how its answer is checked. Every peer gets the same arguments in the same
// order, so each does the same work in Redis.
import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import { loadConfig } from '../../src/config';
import { ChatRepository } from '../../src/redis/chat';
import { GuildRepository } from '../../src/redis/guild';
import { inParallel, post, seeded, shuffle, type Connection } from '../harness';
import { signToken, type TokenKind } from './provider';

/**
 * A connection to a peer: raw takes its own routes, product# a registered document's hash, the others its text.
 * `compare`: check answers against other peers' (off in the timed rounds, where it would load the load generator).
 */
export type Via = { peer: string; connection: Connection; compare?: boolean };

export interface OperationSpec {
  name: string;
  /** The target for the Redis commands the product sends per operation: one per mutation, where it is one write. */
  roundTrips?: number;
  /** Makes the data round `round` uses (rounds that change data get their own). */
  prepare?(redis: Redis, round: number, count: number): Promise<void>;
  /** One operation (n-th of the round, on connection `slot`) against a peer. */
  run(via: Via, n: number, slot: number, round: number): Promise<void>;
}

const USERS = 1000;
const CHAT_SIZE = 4;
const GUILD = 'bench-guild';
const GUILD_MEMBERS = 10_000;
const SERVICE = 'bench-service';
const MESSAGE = 'Meet at the usual place at 10; bring the maps. ☕';

/** Each user's token of each kind, signed once: signing per request would load the load generator. */
const tokens = new Map<string, Promise<string>>();
const tokenOf = (kind: TokenKind, user: string) =>
  tokens.get(kind + user) ??
  tokens.set(kind + user, signToken(kind, user, user === SERVICE ? ['service'] : [])).get(kind + user)!;

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The document each operation sends, by the field it asks for. */
const DOCUMENTS: Record<string, string> = {
  sendMessage:
    'mutation Send($chatId: ID!, $message: String!) { sendMessage(chatId: $chatId, message: $message) { id chatId sender ts } }',
  fetchPendingMessages:
    'mutation Fetch($limit: Int) { fetchPendingMessages(limit: $limit) { chatId remaining messages { id sender message ts } } }',
  updateCounter: 'mutation Count($name: String!) { updateCounter(name: $name, count: 1) }',
  acquireSemaphore:
    'mutation Acquire($name: String!, $limit: Int!) { acquireSemaphore(name: $name, limit: $limit, timeoutMs: 10000) { id fencingToken expiresAt } }',
  releaseSemaphore: 'mutation Release($name: String!, $id: String!) { releaseSemaphore(name: $name, id: $id) }',
  guildMembers:
    'query Members($guild: String!, $prefix: String!) { guildMembers(guild: $guild, prefix: $prefix, limit: 10) }',
};

/** The benchmark's documents as a trusted-documents manifest (the client preset's format), for the product to load. */
export const benchManifest = (): Record<string, string> =>
  Object.fromEntries(Object.values(DOCUMENTS).map((text) => [`sha256:${hashOf(text)}`, text]));

// Sends one operation as the peer takes it (its own route, the document's text, or its hash) with `user`'s token
// of the peer's kind (HS256 but for product:ES256 and :RS256); returns its data or throws naming what came back.
async function call<T>({ peer, connection, compare }: Via, operation: string, variables: object, user: string) {
  const query = DOCUMENTS[operation];
  const kind = peer === 'raw' ? 'raw' : peer === 'product#' ? 'hash' : 'graphql';
  const persisted = () => ({ extensions: { persistedQuery: { version: 1, sha256Hash: hashOf(query) } }, variables });
  const body = kind === 'raw' ? variables : kind === 'hash' ? persisted() : { query, variables };
  const token = await tokenOf((peer.split(':')[1] ?? 'HS256') as TokenKind, user);
  const headers = { authorization: `Bearer ${token}` };
  const answer = await connection.send(post(kind === 'raw' ? `/op/${operation}` : '/graphql', body, headers));
  const text = answer.body.toString();
  const parsed = JSON.parse(text) as { data?: Record<string, unknown> | null; errors?: unknown };
  if (answer.status !== 200 || parsed.errors || !parsed.data)
    throw new Error(`${operation} over ${peer}: HTTP ${answer.status} ${text.slice(0, 300)}`);
  if (kind === 'raw' || !compare) return (kind === 'raw' ? parsed.data : parsed.data[operation]) as T;
  // Each GraphQL peer's answers must have the shape of the first answer any gave: the same fields
  // in the same order, each value of the same type (a peer leaving one out or retyping it fails the run).
  const shape = JSON.stringify(shapeOf(parsed.data[operation]));
  const first = shapes.get(operation) ?? shapes.set(operation, shape).get(operation);
  if (shape !== first) throw new Error(`${operation} over ${peer} answered ${shape}, the first answer ${first}`);
  return parsed.data[operation] as T;
}

const shapes = new Map<string, string>();
const shapeOf = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.slice(0, 1).map(shapeOf)
    : value !== null && typeof value === 'object'
      ? Object.entries(value).map(([key, field]) => [key, shapeOf(field)])
      : value === null
        ? 'null'
        : typeof value;

const settings = () => loadConfig({ ...process.env, NODE_ENV: 'test' });

/** Chats for sendMessage: users u0..u999 in chats of four; entry i is (sender, chat id). */
const sendPool: { user: string; chatId: string }[] = [];
/** Two-letter prefixes of the guild's member names, for guildMembers. */
const prefixes: string[] = [];
/** The first answer to guildMembers per prefix, as its names joined. */
const answers = new Map<string, string>();

const each = <T>(items: T[], inFlight: number, work: (item: T) => Promise<unknown>) =>
  inParallel(items.length, inFlight, (i) => work(items[i]));

export const OPERATIONS: OperationSpec[] = [
  {
    name: 'sendMessage',
    roundTrips: 1,
    async prepare(redis) {
      if (sendPool.length) return;
      const chats = new ChatRepository(redis, settings().messaging);
      const groups = Array.from({ length: USERS / CHAT_SIZE }, (_, g) =>
        Array.from({ length: CHAT_SIZE }, (_, m) => `u${g * CHAT_SIZE + m}`),
      );
      await each(groups, 50, async ([first, ...others]) => {
        const { chat } = await chats.create(first, others, 'hello', false);
        for (const user of [first, ...others]) sendPool.push({ user, chatId: chat.id });
      });
      shuffle(sendPool, seeded(7));
    },
    async run(via, n) {
      const { user, chatId } = sendPool[n % sendPool.length];
      const sent = await call<{ id?: unknown }>(via, 'sendMessage', { chatId, message: MESSAGE }, user);
      if (typeof sent.id !== 'number') throw new Error('sendMessage returned no id');
    },
  },
  {
    // Each round has its own users, each in two chats of four with three messages waiting in
    // each, and each user fetches once: every peer's round pulls the same 6 messages per call.
    name: 'fetchPendingMessages',
    async prepare(redis, round, count) {
      const chats = new ChatRepository(redis, settings().messaging);
      const users = Math.ceil(count / CHAT_SIZE) * CHAT_SIZE;
      const user = (i: number): string => `f${round}-${i % users}`;
      const groups: string[][] = [];
      for (let start = 0; start < users; start += CHAT_SIZE) {
        groups.push([0, 1, 2, 3].map((m) => user(start + m)));
        groups.push([0, 1, 2, 3].map((m) => user(start + 2 + m)));
      }
      await each(groups, 100, async ([first, ...others]) => {
        const { chat } = await chats.create(first, others, 'one', false);
        await chats.send(chat.id, others[0], 'two');
        await chats.send(chat.id, others[1], 'three');
      });
    },
    async run(via, n, _slot, round) {
      const user = `f${round}-${n}`;
      const pending = await call<{ messages: unknown[] }[]>(via, 'fetchPendingMessages', { limit: 100 }, user);
      const messages = pending.reduce((sum, chat) => sum + chat.messages.length, 0);
      if (messages !== 6) throw new Error(`fetchPendingMessages over ${via.peer} pulled ${messages} messages, not 6`);
    },
  },
  {
    name: 'updateCounter',
    roundTrips: 1,
    async run(via, n) {
      const counted = await call(via, 'updateCounter', { name: `hits/page-${n % 1000}` }, SERVICE);
      if (counted !== true) throw new Error('updateCounter did not return true');
    },
  },
  {
    // One semaphore per connection, so every acquire is granted and the pair measures the path,
    // not contention (the locks benchmark measures contention).
    name: 'acquireSemaphore+releaseSemaphore',
    roundTrips: 2,
    async run(via, _n, slot) {
      const name = `bench/sem-${slot}`;
      const lease = await call<{ id?: string } | null>(via, 'acquireSemaphore', { name, limit: 1 }, SERVICE);
      if (!lease?.id) throw new Error(`acquireSemaphore over ${via.peer} was not granted`);
      const released = await call(via, 'releaseSemaphore', { name, id: lease.id }, SERVICE);
      if (released !== true) throw new Error('releaseSemaphore did not return true');
    },
  },
  {
    name: 'guildMembers',
    async prepare(redis) {
      if (prefixes.length) return;
      const guilds = new GuildRepository(redis, settings().autocomplete);
      const random = seeded(11);
      const letters = 'abcdefghijklmnopqrstuvwxyzéüøßж';
      const names = Array.from({ length: GUILD_MEMBERS }, (_, i) => {
        let name = '';
        for (let k = 0; k < 6; k++) name += letters[Math.floor(random() * letters.length)];
        return `${i % 3 === 0 ? name[0].toUpperCase() + name.slice(1) : name}${i}`;
      });
      await each(names, 200, (name) => guilds.join(GUILD, name));
      prefixes.push(...names.map((name) => name.slice(0, 2).toLowerCase()));
    },
    async run(via, n) {
      const prefix = prefixes[n % prefixes.length];
      const found = await call<string[]>(via, 'guildMembers', { guild: GUILD, prefix }, SERVICE);
      if (found.length === 0) throw new Error(`guildMembers over ${via.peer} found nobody for ${prefix}`);
      // The data does not change, so every peer must find the same members in the same order.
      const names = found.join();
      if (via.compare && names !== (answers.get(prefix) ?? answers.set(prefix, names).get(prefix)))
        throw new Error(`guildMembers over ${via.peer} found ${names} for ${prefix}, not ${answers.get(prefix)}`);
    },
  },
];
