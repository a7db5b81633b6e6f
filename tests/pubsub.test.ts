// Notifications reach only the subscriber they were published for, also when several are
// queued for a subscriber that is not reading yet (a busy socket).
import Redis from 'ioredis';
import { channelOf, createRedisPubSub } from '../src/schema/pubsub';
import { startTestRedis, type TestRedis } from './support/redis';

let redis: TestRedis;
const clients: Redis[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await redis.stop();
});

function pubSub() {
  const publisher = new Redis(redis.url);
  const subscriber = new Redis(redis.url);
  clients.push(publisher, subscriber);
  return createRedisPubSub(publisher, subscriber);
}

/** Resolves once Redis reports `count` subscribers on the channel. */
async function subscribed(channel: string, count = 1): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const [, n] = (await redis.client.pubsub('NUMSUB', channel)) as [string, number];
    if (n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`nobody subscribed to ${channel}`);
}

describe('Redis PubSub', () => {
  it('keeps each subscriber its own queue: a slow subscriber’s notifications never reach another', async () => {
    const bus = pubSub();
    const alice = bus.subscribe('INBOX_CHANGED', 'alice')[Symbol.asyncIterator]();
    const bob = bus.subscribe('INBOX_CHANGED', 'bob')[Symbol.asyncIterator]();
    // A repeater starts listening when first read; bob's read stays pending, alice reads later.
    const bobFirst = bob.next();
    const aliceFirst = alice.next();
    await subscribed('INBOX_CHANGED:alice');
    await subscribed('INBOX_CHANGED:bob');

    for (let i = 1; i <= 3; i++) await redis.client.publish(channelOf('INBOX_CHANGED', 'alice'), JSON.stringify({ for: 'alice', i }));
    await redis.client.publish(channelOf('INBOX_CHANGED', 'bob'), JSON.stringify({ for: 'bob', i: 1 }));
    await redis.client.publish(channelOf('INBOX_CHANGED', 'bob'), JSON.stringify({ for: 'bob', i: 2 }));

    const got = { alice: [] as unknown[], bob: [] as unknown[] };
    got.bob.push((await bobFirst).value);
    got.alice.push((await aliceFirst).value);
    got.bob.push((await bob.next()).value);
    got.alice.push((await alice.next()).value, (await alice.next()).value);
    expect(got.alice).toEqual([1, 2, 3].map((i) => ({ for: 'alice', i })));
    expect(got.bob).toEqual([1, 2].map((i) => ({ for: 'bob', i })));
    await alice.return?.();
    await bob.return?.();
  });
});
