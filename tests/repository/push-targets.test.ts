// Push targets against a real Redis (one, or a cluster): one target per live device, replaced in
// place; the same endpoint or token moves between a user's devices and, through the owner index
// on its own slot, between users; the bound; removals that spare a newer registration; and
// devices pushed out of a user's list losing their targets.
import Redis from 'ioredis';
import { AppError } from '../../src/common/errors';
import type { PushTarget } from '../../src/push/types';
import { CHAT_DEFAULTS, ChatRepository } from '../../src/redis/chat';
import { pushTargetOwner, userKeys } from '../../src/redis/keys';
import { PushTargets, pushTargetDigest } from '../../src/redis/push/targets';
import { snapshotRedis } from '../support/snapshot';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';

let redis: TestRedis;
let client: Redis;
const SETTINGS = { maxChatMembers: 1000, maxChatsPerUser: 1000, dedupeSeconds: 3600, ...CHAT_DEFAULTS, maxDevices: 3 };

beforeAll(async () => {
  redis = await startTestRedis();
  client = scriptClient(redis);
});
afterAll(async () => {
  client.disconnect();
  await redis.stop();
});
beforeEach(async () => {
  await redis.client.flushdb();
});

type WebPushTarget = Extract<PushTarget, { kind: 'webpush' }>;

const webPush = (n: number): WebPushTarget => ({
  kind: 'webpush',
  endpoint: `https://push.example.net/send/${n}`,
  keys: { p256dh: `BKey${n}`, auth: `auth${n}` },
});
const apns = (token: string): PushTarget => ({ kind: 'apns', token, environment: 'production' });
const fcm = (token: string): PushTarget => ({ kind: 'fcm', token });

/** Makes devices live the product's way: a fetch with each, in order. */
async function fetchWith(chats: ChatRepository, user: string, ...devices: string[]): Promise<void> {
  for (const device of devices) await chats.pending(user, 10, true, device);
}

/** Each user's devices and the address of their targets, from Redis itself. */
async function holders(...users: string[]): Promise<Record<string, Record<string, string>>> {
  const all: Record<string, Record<string, string>> = {};
  for (const user of users) {
    const stored = await redis.client.hgetall(userKeys.pushTargets(user));
    all[user] = Object.fromEntries(
      Object.entries(stored).map(([device, json]) => {
        const target = JSON.parse(json) as PushTarget;
        return [device, target.kind === 'webpush' ? target.endpoint : target.token];
      }),
    );
  }
  return all;
}

const ownerOf = (target: PushTarget) => redis.client.get(pushTargetOwner(pushTargetDigest(target)));

async function refusal(attempt: Promise<unknown>): Promise<[string, unknown]> {
  try {
    await attempt;
  } catch (error) {
    if (error instanceof AppError) return [error.code, error.details.reason];
    throw error;
  }
  throw new Error('not refused');
}

describe('push targets in Redis', () => {
  it("replaces a device's target in place, keeping one per device, with Redis's time of registration", async () => {
    const chats = new ChatRepository(client, SETTINGS);
    const targets = new PushTargets(client, SETTINGS);
    await fetchWith(chats, 'alice', 'phone', 'laptop');
    const [seconds] = await redis.client.time();

    const first = await targets.set('alice', 'phone', webPush(1));
    expect(first).toEqual({ device: 'phone', target: webPush(1), at: expect.any(Number) });
    expect(Math.abs(first.at - Number(seconds) * 1000)).toBeLessThan(60_000);
    const second = await targets.set('alice', 'phone', apns('ab'.repeat(32)));
    expect(second.at).toBeGreaterThanOrEqual(first.at);
    await targets.set('alice', 'laptop', fcm('token-1'));

    expect(await targets.get('alice', 'phone')).toEqual(second);
    expect(await targets.get('alice', 'tablet')).toBeUndefined();
    expect((await targets.list('alice')).map((entry) => [entry.device, entry.target])).toEqual([
      ['laptop', fcm('token-1')],
      ['phone', apns('ab'.repeat(32))],
    ]);
    expect(await redis.client.hlen(userKeys.pushTargets('alice'))).toBe(2);
    // The replaced endpoint belongs to nobody any more; the token that replaced it to the phone.
    expect(await ownerOf(webPush(1))).toBeNull();
    expect(await ownerOf(apns('ab'.repeat(32)))).toBe('alice\nphone');
  });

  it('refuses a device that never fetched or was forgotten (NOT_FOUND), writing nothing', async () => {
    const chats = new ChatRepository(client, SETTINGS);
    const targets = new PushTargets(client, SETTINGS);
    await fetchWith(chats, 'alice', 'phone');
    // Silent for longer than the lifetime: its entry stays so its next fetch is told.
    await redis.client.zadd(userKeys.devices('alice'), 1, 'old-phone');
    const before = await snapshotRedis(redis.client);
    expect(await refusal(targets.set('alice', 'tablet', fcm('t')))).toEqual(['NOT_FOUND', 'PUSH_DEVICE_NOT_FOUND']);
    expect(await refusal(targets.set('alice', 'old-phone', fcm('t')))).toEqual(['NOT_FOUND', 'PUSH_DEVICE_NOT_FOUND']);
    // Another user's live device is not the caller's.
    expect(await refusal(targets.set('bob', 'phone', fcm('t')))).toEqual(['NOT_FOUND', 'PUSH_DEVICE_NOT_FOUND']);
    expect(await snapshotRedis(redis.client)).toEqual(before);
  });

  it("moves an endpoint or token registered on another of the user's devices, leaving the others", async () => {
    const chats = new ChatRepository(client, SETTINGS);
    const targets = new PushTargets(client, SETTINGS);
    await fetchWith(chats, 'alice', 'a', 'b', 'c');
    await targets.set('alice', 'a', fcm('shared'));
    await targets.set('alice', 'c', webPush(7));
    await targets.set('alice', 'b', fcm('shared'));
    expect(await holders('alice')).toEqual({ alice: { b: 'shared', c: webPush(7).endpoint } });
    // The same address under another kind is another target.
    await targets.set('alice', 'a', apns('ab'.repeat(32)));
    await targets.set('alice', 'c', fcm('ab'.repeat(32)));
    expect(await holders('alice')).toEqual({ alice: { a: 'ab'.repeat(32), b: 'shared', c: 'ab'.repeat(32) } });
    // A Web Push endpoint moves whatever its keys.
    await targets.set('alice', 'b', { ...webPush(7), keys: { p256dh: 'x', auth: 'y' } });
    expect(await holders('alice')).toEqual({
      alice: { a: 'ab'.repeat(32), b: webPush(7).endpoint, c: 'ab'.repeat(32) },
    });
    expect(await ownerOf(fcm('shared'))).toBeNull();
    expect(await ownerOf(webPush(7))).toBe('alice\nb');
  });

  it('takes a target from the user who had it when a phone signs in to another user', async () => {
    const chats = new ChatRepository(client, SETTINGS);
    const targets = new PushTargets(client, SETTINGS);
    await fetchWith(chats, 'alice', 'phone', 'laptop');
    await fetchWith(chats, 'bob', 'phone');
    const hex = '0f'.repeat(40);
    const token = apns(hex);
    await targets.set('alice', 'phone', token);
    await targets.set('alice', 'laptop', fcm('alice-laptop'));

    await targets.set('bob', 'phone', token);
    expect(await holders('alice', 'bob')).toEqual({
      alice: { laptop: 'alice-laptop' },
      bob: { phone: hex },
    });
    expect(await ownerOf(token)).toBe('bob\nphone');

    // And back again.
    await targets.set('alice', 'phone', token);
    expect(await holders('alice', 'bob')).toEqual({
      alice: { laptop: 'alice-laptop', phone: hex },
      bob: {},
    });
    expect(await ownerOf(token)).toBe('alice\nphone');
  });

  it('spares a newer target of the previous owner: only the one that was claimed goes', async () => {
    const chats = new ChatRepository(client, SETTINGS);
    const targets = new PushTargets(client, SETTINGS);
    await fetchWith(chats, 'alice', 'phone');
    await fetchWith(chats, 'bob', 'phone');
    // The owner index still names alice's phone for a token it no longer holds (its registration
    // of another token raced with the release of this one).
    await targets.set('alice', 'phone', fcm('newer'));
    await redis.client.set(pushTargetOwner(pushTargetDigest(fcm('older'))), 'alice\nphone');

    await targets.set('bob', 'phone', fcm('older'));
    expect(await holders('alice', 'bob')).toEqual({ alice: { phone: 'newer' }, bob: { phone: 'older' } });
  });

  it('never leaves a target with two users when both register it at once, and the owner index names the holder', async () => {
    const chats = new ChatRepository(client, SETTINGS);
    const users = ['alice', 'bob', 'carol'];
    for (const user of users) await fetchWith(chats, user, 'phone');
    const token = fcm('contended');
    const others = [scriptClient(redis), scriptClient(redis)];
    const outcomes = new Map<string, number>();
    for (let round = 0; round < 40; round++) {
      const pair = [users[round % 3], users[(round + 1) % 3]];
      await Promise.all(pair.map((user, i) => new PushTargets(others[i], SETTINGS).set(user, 'phone', token)));
      const held = Object.entries(await holders(...users)).filter(([, devices]) => devices.phone !== undefined);
      expect(held.length).toBeLessThanOrEqual(1);
      const owner = await ownerOf(token);
      expect(pair.map((user) => `${user}\nphone`)).toContain(owner);
      if (held.length === 1) expect(`${held[0][0]}\nphone`).toBe(owner);
      const outcome = held.length === 1 ? 'held by the last to claim' : 'held by nobody';
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    expect([...outcomes.values()].reduce((a, b) => a + b, 0)).toBe(40);
    // The usual outcome: the phone goes to whoever claimed it last.
    expect(outcomes.get('held by the last to claim') ?? 0).toBeGreaterThan(0);
  });

  it('holds at most as many targets as live devices are allowed; targets of devices no longer live give way', async () => {
    const chats = new ChatRepository(client, SETTINGS);
    // Settings lowered after the devices were made: three live devices, room for two targets.
    const targets = new PushTargets(client, { ...SETTINGS, maxDevices: 2 });
    await fetchWith(chats, 'alice', 'a', 'b', 'c');
    await targets.set('alice', 'a', fcm('a'));
    await targets.set('alice', 'b', fcm('b'));
    const before = await snapshotRedis(redis.client);
    expect(await refusal(targets.set('alice', 'c', fcm('c')))).toEqual(['CONFLICT', 'PUSH_TOO_MANY_TARGETS']);
    expect(await snapshotRedis(redis.client)).toEqual(before);
    // Replacing one is not one more.
    await targets.set('alice', 'b', fcm('b2'));
    // Device a falls silent for longer than the lifetime: its target holds no place.
    await redis.client.zadd(userKeys.devices('alice'), 1, 'a');
    await targets.set('alice', 'c', fcm('c'));
    expect(await holders('alice')).toEqual({ alice: { b: 'b2', c: 'c' } });
    expect(await ownerOf(fcm('a'))).toBeNull();
  });

  it('removes a target only while it is the one given (and registered then, with at): a newer one survives', async () => {
    const chats = new ChatRepository(client, SETTINGS);
    const targets = new PushTargets(client, SETTINGS);
    await fetchWith(chats, 'alice', 'phone', 'laptop');
    const first = await targets.set('alice', 'phone', apns('aa'.repeat(32)));
    await targets.set('alice', 'laptop', webPush(3));

    expect(await targets.removeIfSame('alice', 'phone', apns('bb'.repeat(32)))).toBe(false);
    expect(await targets.removeIfSame('alice', 'phone', fcm('aa'.repeat(32)))).toBe(false);
    expect(await targets.removeIfSame('alice', 'tablet', apns('aa'.repeat(32)))).toBe(false);
    // Registered again since the provider's answer: the registration it spoke of is gone already.
    let again = await targets.set('alice', 'phone', apns('aa'.repeat(32)));
    while (again.at === first.at) again = await targets.set('alice', 'phone', apns('aa'.repeat(32)));
    expect(await targets.removeIfSame('alice', 'phone', { ...first.target, at: first.at })).toBe(false);
    expect(await targets.get('alice', 'phone')).toEqual(again);

    expect(await targets.removeIfSame('alice', 'phone', { ...again.target, at: again.at })).toBe(true);
    expect(await targets.get('alice', 'phone')).toBeUndefined();
    expect(await ownerOf(apns('aa'.repeat(32)))).toBeNull();
    // The sender's view: a Web Push endpoint is gone whatever keys were sent with it.
    expect(await targets.removeIfSame('alice', 'laptop', { ...webPush(3), keys: { p256dh: 'other', auth: 'x' } })).toBe(
      true,
    );
    expect(await holders('alice')).toEqual({ alice: {} });
  });

  it('removes one device or several, saying which had a target', async () => {
    const chats = new ChatRepository(client, SETTINGS);
    const targets = new PushTargets(client, SETTINGS);
    await fetchWith(chats, 'alice', 'a', 'b', 'c');
    for (const device of ['a', 'b', 'c']) await targets.set('alice', device, fcm(device));
    expect(await targets.remove('alice', 'a')).toBe(true);
    expect(await targets.remove('alice', 'a')).toBe(false);
    expect(await targets.removeDevices('alice', ['x', 'c', 'a', 'b'])).toEqual(['c', 'b']);
    expect(await targets.removeDevices('alice', [])).toEqual([]);
    expect(await redis.client.exists(userKeys.pushTargets('alice'))).toBe(0);
    for (const device of ['a', 'b', 'c']) expect(await ownerOf(fcm(device))).toBeNull();
  });

  it("drops the target of a device pushed out of the user's list by a newer one, and only that one", async () => {
    const targets = new PushTargets(client, SETTINGS);
    const chats = new ChatRepository(client, { ...SETTINGS, maxDevices: 2 }, targets);
    await fetchWith(chats, 'alice', 'old', 'recent');
    await targets.set('alice', 'old', fcm('old'));
    await targets.set('alice', 'recent', fcm('recent'));
    await fetchWith(chats, 'bob', 'old');
    await targets.set('bob', 'old', fcm('bob-old'));

    await fetchWith(chats, 'alice', 'new');
    expect(await holders('alice', 'bob')).toEqual({ alice: { recent: 'recent' }, bob: { old: 'bob-old' } });
    expect(await ownerOf(fcm('old'))).toBeNull();
    expect(await ownerOf(fcm('recent'))).toBe('alice\nrecent');
    // The pushed-out device must fetch again before it can register.
    expect(await refusal(targets.set('alice', 'old', fcm('old')))).toEqual(['NOT_FOUND', 'PUSH_DEVICE_NOT_FOUND']);
  });
});
