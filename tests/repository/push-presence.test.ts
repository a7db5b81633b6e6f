// Presence for push against a real redis-server: which devices an API instance tells over a
// socket, counted per process, renewed while held, gone at once on release and after the ttl
// when a process stops renewing; and the Lua include the push decision reads it with.
import type Redis from 'ioredis';
import pino from 'pino';
import { userKeys } from '../../src/redis/keys';
import { PushPresence } from '../../src/redis/push/presence';
import { eventually } from '../support/graphql';
import { captureLogs } from '../support/logs';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';

let redis: TestRedis;
let commands: Redis;
const made: PushPresence[] = [];
const silent = pino({ level: 'silent' });

/** One API process's presence, stopped after the test. */
function instance(ttlMs = 60_000, client: Redis = commands, logger = silent): PushPresence {
  const presence = new PushPresence(client, { ttlMs, logger });
  made.push(presence);
  return presence;
}

/** Redis's clock, in unix ms, as the scripts read it. */
async function redisNow(node: Redis): Promise<number> {
  const [seconds, micros] = await node.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/** The members of a user's online key with their scores, in member order. */
async function members(user: string): Promise<[string, number][]> {
  const flat = await redis.client.zrange(userKeys.online(user), 0, -1, 'WITHSCORES');
  const pairs: [string, number][] = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i], Number(flat[i + 1])]);
  return pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

beforeAll(async () => {
  redis = await startTestRedis();
  commands = scriptClient(redis);
});
afterAll(async () => {
  await redis.stop();
});
beforeEach(async () => {
  await redis.client.flushdb();
});
afterEach(async () => {
  await Promise.all(made.splice(0).map((presence) => presence.stop()));
});

describe('hold and release', () => {
  it('writes the first hold at once with a lapse one ttl ahead by the Redis clock, and a key that expires with it', async () => {
    const presence = instance(20_000);
    const node = await redis.nodeFor(userKeys.online('alice'));
    const before = await redisNow(node);
    await presence.hold('alice', 'phone');
    const after = await redisNow(node);

    const [[member, lapses]] = await members('alice');
    expect(member).toBe(`phone\n${presence.instance}`);
    expect(lapses).toBeGreaterThanOrEqual(before + 20_000);
    expect(lapses).toBeLessThanOrEqual(after + 20_000);
    const pttl = await redis.client.pttl(userKeys.online('alice'));
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(20_000);
    expect(await presence.online('alice')).toEqual(['phone']);
  });

  it('counts holds of one device in the process: online until the last of two is released', async () => {
    const presence = instance();
    await presence.hold('alice', 'phone');
    await presence.hold('alice', 'phone');
    await presence.hold('alice', 'laptop');
    expect(await members('alice')).toHaveLength(2);

    await presence.release('alice', 'phone');
    expect(await presence.online('alice')).toEqual(['laptop', 'phone']);
    await presence.release('alice', 'phone');
    expect(await presence.online('alice')).toEqual(['laptop']);
    await presence.release('alice', 'laptop');
    expect(await presence.online('alice')).toEqual([]);
    // The last member gone, so is the key.
    expect(await redis.client.exists(userKeys.online('alice'))).toBe(0);
    // A release with nothing held changes nothing.
    await presence.hold('alice', 'tablet');
    await presence.release('alice', 'phone');
    expect(await presence.online('alice')).toEqual(['tablet']);
  });

  it("keeps one member per instance: one instance's release leaves another's hold of the device", async () => {
    const one = instance();
    const two = instance();
    expect(one.instance).not.toBe(two.instance);
    await one.hold('alice', 'phone');
    await two.hold('alice', 'phone');
    await two.hold('bob', 'phone');
    expect((await members('alice')).map(([member]) => member)).toEqual(
      [`phone\n${one.instance}`, `phone\n${two.instance}`].sort(),
    );

    await one.release('alice', 'phone');
    expect(await one.online('alice')).toEqual(['phone']);
    expect((await members('alice')).map(([member]) => member)).toEqual([`phone\n${two.instance}`]);
    await two.release('alice', 'phone');
    expect(await one.online('alice')).toEqual([]);
    expect(await two.online('bob')).toEqual(['phone']);
  });

  it("removes on stop() every member of its own, and no other instance's; holds after stop() write nothing", async () => {
    const one = instance();
    const two = instance();
    for (let n = 0; n < 5; n++) await one.hold(`user-${n}`, 'phone');
    await one.hold('user-0', 'laptop');
    await one.hold('user-0', 'laptop');
    await two.hold('user-0', 'tablet');

    await one.stop();
    for (let n = 1; n < 5; n++) expect(await redis.client.exists(userKeys.online(`user-${n}`))).toBe(0);
    expect(await two.online('user-0')).toEqual(['tablet']);
    await one.hold('user-1', 'phone');
    expect(await redis.client.exists(userKeys.online('user-1'))).toBe(0);
  });
});

describe('renewal', () => {
  it('moves every held lapse forward every third of the ttl, so a device stays online past its first lapse', async () => {
    const presence = instance(1500);
    await presence.hold('alice', 'phone');
    await presence.hold('bob', 'phone');
    const [[, first]] = await members('alice');
    presence.start();

    // Renewed: the lapse moved, and at the first lapse the device still counts as online.
    await eventually(async () => (await members('alice'))[0][1] > first, 15_000, 20);
    expect(await presence.online('alice', first)).toEqual(['phone']);
    // Past the first lapse by Redis's clock, still held.
    const node = await redis.nodeFor(userKeys.online('alice'));
    await eventually(async () => (await redisNow(node)) > first, 15_000, 50);
    expect(await presence.online('alice')).toEqual(['phone']);
    expect(await presence.online('bob')).toEqual(['phone']);
  });

  it('renews 10,000 held devices of 10,000 users, each one member moved forward', async () => {
    // Long enough that the 10,000 first holds, one at a time, are written well within it on a busy cluster.
    const ttl = 20_000;
    const presence = instance(ttl);
    const users = Array.from({ length: 10_000 }, (_, n) => `u${n}`);
    await Promise.all(users.map((user) => presence.hold(user, 'phone')));
    // Every first hold lapses by `written + ttl`; every renewal, made later, after it.
    const node = await redis.nodeFor(userKeys.online(users[0]));
    const written = await redisNow(node);
    await eventually(async () => (await redisNow(node)) > written, 5000, 1);
    presence.start();

    const lapse = async (user: string) =>
      Number(await redis.client.zscore(userKeys.online(user), `phone\n${presence.instance}`));
    const last = users[users.length - 1];
    await eventually(async () => (await lapse(last)) > written + ttl, 90_000, 50);
    const lapses = await Promise.all(users.map(lapse));
    expect(lapses.filter((at) => at > written + ttl)).toHaveLength(users.length);
    expect(await redis.client.zcard(userKeys.online(users[0]))).toBe(1);
  }, 120_000);

  it('lapses after the ttl when the process stops renewing, and the next hold drops the lapsed member', async () => {
    const alive = instance(60_000);
    await alive.hold('alice', 'laptop');
    // A crashed instance: it held, then never renewed (its loop never ran).
    const crashed = instance(1000);
    await crashed.hold('alice', 'phone');
    const lapses = Number(await redis.client.zscore(userKeys.online('alice'), `phone\n${crashed.instance}`));
    expect(await crashed.online('alice', lapses - 1)).toEqual(['laptop', 'phone']);
    expect(await crashed.online('alice', lapses)).toEqual(['laptop']);

    await eventually(async () => (await crashed.online('alice')).length === 1, 20_000, 50);
    expect(await crashed.online('alice')).toEqual(['laptop']);
    // Lapsed, not removed: the member stays until a script drops it; the key lives as long as the longest hold.
    expect(await redis.client.zcard(userKeys.online('alice'))).toBe(2);
    expect(await redis.client.pttl(userKeys.online('alice'))).toBeGreaterThan(50_000);
    await alive.hold('alice', 'tablet');
    expect((await members('alice')).map(([member]) => member)).toEqual([
      `laptop\n${alive.instance}`,
      `tablet\n${alive.instance}`,
    ]);
  });

  it('lets the key expire with its last hold when no instance renews it', async () => {
    const crashed = instance(1000);
    await crashed.hold('alice', 'phone');
    await eventually(async () => (await redis.client.exists(userKeys.online('alice'))) === 0, 20_000, 50);
    expect(await crashed.online('alice')).toEqual([]);
  });

  it('logs a failed write as one warning in 30 s, never rejects, and writes the hold again at the next renewal', async () => {
    const { logger, lines } = captureLogs('warn');
    // A key of the wrong type fails every write to it, as a Redis that is down would.
    await redis.client.set(userKeys.online('alice'), 'not a zset');
    const presence = instance(900, commands, logger);
    await expect(presence.hold('alice', 'phone')).resolves.toBeUndefined();
    await expect(presence.hold('alice', 'laptop')).resolves.toBeUndefined();
    await expect(presence.release('alice', 'laptop')).resolves.toBeUndefined();
    expect(lines.map((line) => [line.code, line.script])).toEqual([['PUSH_PRESENCE_FAILED', 'push-presence-hold']]);

    await redis.client.del(userKeys.online('alice'));
    presence.start();
    await eventually(async () => (await presence.online('alice')).length > 0, 15_000, 20);
    expect(await presence.online('alice')).toEqual(['phone']);
    expect(lines).toHaveLength(1);
  });
});

describe('the push-online include', () => {
  it('names each device with a member after `now` once, whoever holds it, and skips lapsed and malformed members', async () => {
    const presence = instance();
    const key = userKeys.online('alice');
    await redis.client.zadd(
      key,
      2000,
      'phone\ninstance-a',
      2000,
      'phone\ninstance-b',
      1000,
      'tablet\ninstance-a',
      1001,
      'laptop\ninstance-c',
      3000,
      'no-instance',
      3000,
      'téléphone-📱\ninstance-a',
    );
    expect(await presence.online('alice', 999)).toEqual(['laptop', 'phone', 'tablet', 'téléphone-📱']);
    expect(await presence.online('alice', 1000)).toEqual(['laptop', 'phone', 'téléphone-📱']);
    expect(await presence.online('alice', 1001)).toEqual(['phone', 'téléphone-📱']);
    expect(await presence.online('alice', 2000)).toEqual(['téléphone-📱']);
    expect(await presence.online('alice', 3000)).toEqual([]);
    expect(await presence.online('nobody', 0)).toEqual([]);
  });
});
