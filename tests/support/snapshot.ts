// A complete, deterministic picture of one Redis database: every key with its type, expiry and
// content, so a test can assert that a refused request stored nothing at all.
import type Redis from 'ioredis';

interface KeyState {
  key: string;
  type: string;
  /** Absolute expiry in unix ms (PEXPIRETIME), -1 without one: stable while time passes. */
  expiresAt: number;
  value: unknown;
}

export interface RedisSnapshot {
  /** DBSIZE. */
  size: number;
  /** Every key, in byte order. */
  keys: KeyState[];
}

/** Text when the bytes are UTF-8, otherwise base64, so binary keys and values compare exactly. */
function readable(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : `base64:${bytes.toString('base64')}`;
}

function decode(reply: unknown): unknown {
  if (Buffer.isBuffer(reply)) return readable(reply);
  if (Array.isArray(reply)) return reply.map(decode);
  return reply;
}

function pairs(flat: unknown[]): [unknown, unknown][] {
  const result: [unknown, unknown][] = [];
  for (let i = 0; i < flat.length; i += 2) result.push([flat[i], flat[i + 1]]);
  return result;
}

const byFirst = (a: [unknown, unknown], b: [unknown, unknown]): number => String(a[0]).localeCompare(String(b[0]));

async function contentOf(client: Redis, key: Buffer, type: string): Promise<unknown> {
  const call = async (command: string, ...args: (string | number)[]): Promise<unknown[]> =>
    decode(await client.callBuffer(command, [key, ...args])) as unknown[];
  switch (type) {
    case 'string':
      return decode(await client.getBuffer(key));
    case 'hash':
      return pairs(await call('HGETALL')).sort(byFirst);
    case 'list':
      return call('LRANGE', 0, -1);
    case 'set':
      return (await call('SMEMBERS')).map(String).sort();
    case 'zset':
      // Already in a total order (score, then member bytes).
      return pairs(await call('ZRANGE', 0, -1, 'WITHSCORES'));
    case 'stream':
      return call('XRANGE', '-', '+');
    default:
      // A type this helper does not know: its serialised form still tells a change apart.
      return decode(await client.dumpBuffer(key));
  }
}

/** Reads every key of the database; meant for test databases, where KEYS is fine. */
export async function snapshotRedis(client: Redis): Promise<RedisSnapshot> {
  const size = await client.dbsize();
  const names = (await client.keysBuffer('*')).sort(Buffer.compare);
  const keys: KeyState[] = [];
  for (const name of names) {
    const type = await client.type(name);
    if (type === 'none') continue; // expired between KEYS and TYPE
    keys.push({
      key: readable(name),
      type,
      expiresAt: Number(await client.call('PEXPIRETIME', name)),
      value: await contentOf(client, name, type),
    });
  }
  return { size, keys };
}
