// The state every fuzzed call starts from: data of every domain, stored once through the API and
// put back before each case (FLUSHDB and RESTORE of the dumped keys, expiry times kept), so a
// case gives the same answer however often it is replayed or shrunk, and a refused call is
// compared against one known picture.
import type Redis from 'ioredis';
import type { Caller } from '../hostile';
import { ok } from '../hostile';
import type { TestServer } from '../server';
import { snapshotRedis, type RedisSnapshot } from '../snapshot';

/** Every domain, with the names the value pools use (values.ts SEED_NAMES), so calls meet stored state. */
const SEED: [string, Caller][] = [
  ['mutation { addRecentContact(contact: "bob") }', 'user'],
  ['mutation { addRecentContact(contact: "Zoë") }', 'user'],
  ['mutation { sendDirectMessage(to: "alice", message: "hi alice") { id } }', 'other'],
  ['mutation { sendDirectMessage(to: "alice", message: "again") { id } }', 'other'],
  ['mutation { sendDirectMessage(to: "bob", message: "hi bob") { id } }', 'user'],
  ['mutation { createChat(members: ["alice"], message: "hello") { id } }', 'other'],
  ['mutation { sendMessage(chatId: "1", message: "hi", clientMessageId: "c1") { id } }', 'user'],
  ['mutation { createChat(members: ["bob", "carol"], message: "open to all", open: true) { id } }', 'user'],
  ['mutation { joinGuild(guild: "guild1") }', 'user'],
  ['mutation { joinGuild(guild: "guild1", user: "bob") }', 'service'],
  ['mutation { updateCounter(name: "hits", count: 3) }', 'service'],
  ['mutation { updateCounter(name: "page/home") }', 'service'],
  [
    'mutation { enqueueTask(queue: "q", name: "t", args: { a: 1 }, idempotencyKey: "k1", delayMs: 60000) { id } }',
    'service',
  ],
  ['mutation { enqueueTask(queue: "q", name: "t", priority: HIGH) { id } }', 'service'],
  ['mutation { grantFunds(userId: "alice", amount: 100) }', 'service'],
  ['mutation { grantFunds(userId: "bob", amount: 100) }', 'service'],
  ['mutation { grantItem(userId: "alice", itemId: "sword") }', 'service'],
  ['mutation { grantItem(userId: "alice", itemId: "axe") }', 'service'],
  ['mutation { grantItem(userId: "bob", itemId: "shield") }', 'service'],
  ['mutation { listItem(itemId: "shield", price: 50) }', 'other'],
  // Held for LEASE_MAX_TIMEOUT_MS (an hour): longer runs seed again before they lapse.
  ['mutation { acquireLock(name: "l1", lockTimeoutMs: 3600000) { token } }', 'service'],
  ['mutation { acquireSemaphore(name: "s1", limit: 1, timeoutMs: 3600000) { id } }', 'service'],
  ['mutation { scheduleRowCache(rowId: "7", delaySeconds: 60) }', 'service'],
];

interface DumpedKey {
  key: Buffer;
  payload: Buffer;
  /** Absolute expiry in unix ms, -1 without one. */
  expiresAt: number;
}

/** A cheap, exact picture for comparing: every key's DUMP payload and expiry. */
type Fingerprint = Map<string, string>;

export class SeedState {
  private keys: DumpedKey[] = [];
  private fingerprint: Fingerprint = new Map();
  /** The readable picture, for the diff shown when a refused call changed something. */
  snapshot: RedisSnapshot = { size: 0, keys: [] };
  /** Comparisons the DUMP fingerprint could not settle. */
  slowChecks = 0;

  constructor(private readonly api: TestServer) {}

  private get client(): Redis {
    return this.api.redis.client;
  }

  /** Stores the seed through the API and records it. */
  async create(): Promise<void> {
    await this.client.flushdb();
    for (const [query, caller] of SEED) await ok(this.api, query, {}, caller);
    this.keys = await dumpAll(this.client);
    // Compared against the state as restored: RESTORE may store a value in another encoding than
    // the commands that made it (so DUMP differs), and does so the same way every time.
    await this.restore();
    this.fingerprint = fingerprintOf(await dumpAll(this.client));
    this.snapshot = await snapshotRedis(this.client);
    if (this.snapshot.size < 30) throw new Error(`the seed stored only ${this.snapshot.size} keys`);
  }

  /** Puts the seed back, seeding again first if its leases are about to lapse. */
  async restore(): Promise<void> {
    const soonest = Math.min(...this.keys.map((k) => (k.expiresAt < 0 ? Infinity : k.expiresAt)));
    if (soonest < Date.now() + 5 * 60_000) return this.create();
    await this.client.flushdb();
    await Promise.all(
      this.keys.map((k) =>
        k.expiresAt < 0
          ? this.client.call('RESTORE', k.key, '0', k.payload)
          : this.client.call('RESTORE', k.key, String(k.expiresAt), k.payload, 'ABSTTL'),
      ),
    );
  }

  /** Whether Redis holds exactly the seed (same keys, contents and expiry times). */
  async unchanged(): Promise<boolean> {
    const now = fingerprintOf(await dumpAll(this.client));
    if (now.size === this.fingerprint.size && [...now].every(([key, value]) => this.fingerprint.get(key) === value))
      return true;
    // A different DUMP can still be the same data (an encoding changed): the readable picture decides.
    this.slowChecks++;
    return JSON.stringify(await snapshotRedis(this.client)) === JSON.stringify(this.snapshot);
  }

  /** What differs from the seed, key by key, for a failure message. */
  async difference(): Promise<string> {
    const after = await snapshotRedis(this.client);
    const before = new Map(this.snapshot.keys.map((k) => [k.key, k]));
    const lines: string[] = [];
    const show = (value: unknown): string => {
      const text = JSON.stringify(value);
      return text.length > 300 ? `${text.slice(0, 300)}…` : text;
    };
    for (const k of after.keys) {
      const old = before.get(k.key);
      before.delete(k.key);
      if (!old) lines.push(`  added ${k.key} (${k.type}): ${show(k.value)}`);
      else if (JSON.stringify(old) !== JSON.stringify(k))
        lines.push(
          `  changed ${k.key}: ${show(old.value)} (expires ${old.expiresAt}) -> ${show(k.value)} (expires ${k.expiresAt})`,
        );
    }
    for (const k of before.values()) lines.push(`  deleted ${k.key} (${k.type}): ${show(k.value)}`);
    const shown = 12;
    return lines.length <= shown
      ? lines.join('\n')
      : `${lines.slice(0, shown).join('\n')}\n  …and ${lines.length - shown} more keys`;
  }
}

async function dumpAll(client: Redis): Promise<DumpedKey[]> {
  const names = await client.keysBuffer('*');
  const dumped = await Promise.all(
    names.map(async (key) => {
      const [payload, expiresAt] = await Promise.all([client.dumpBuffer(key), client.call('PEXPIRETIME', key)]);
      return { key, payload, expiresAt: Number(expiresAt) };
    }),
  );
  // A key that expired between KEYS and DUMP is gone: leave it out.
  return dumped.filter((k): k is DumpedKey => k.payload !== null);
}

function fingerprintOf(keys: DumpedKey[]): Fingerprint {
  return new Map(keys.map((k) => [k.key.toString('base64'), `${k.payload.toString('base64')}@${k.expiresAt}`]));
}
