// Notifications reach only the subscriber they were published for, also when several are
// queued for a subscriber that is not reading yet (a busy socket).
import pino from 'pino';
import { closeRedis, connectRedis, type RedisClient } from '../../src/redis/client/connection';
import { createRedisPubSub } from '../../src/schema/pubsub';
import { channels } from '../../src/schema/topics';
import { CounterRepository } from '../../src/redis/counter';
import { startTestRedis, type TestRedis } from '../support/redis';

let redis: TestRedis;
const clients: RedisClient[] = [];
const channel = channels({ rowCacheTable: 'inventory' });

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  for (const client of clients) await closeRedis(client);
  await redis.stop();
});

async function pubSub() {
  const logger = pino({ level: 'silent' });
  const publisher = await connectRedis(redis.target, { name: 'test:publisher', logger });
  const subscriber = await connectRedis(redis.target, { name: 'test:subscriber', logger, shardedSubscriber: true });
  clients.push(publisher, subscriber);
  return { bus: createRedisPubSub({ publisher, subscriber, channelOf: channel }), publisher };
}

/** Resolves once Redis reports `count` subscribers on the channel (sharded ones on a cluster). */
async function subscribed(name: string, count = 1): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await redis.subscribers(name)) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`nobody subscribed to ${name}`);
}

describe('Redis PubSub', () => {
  it('keeps each subscriber its own queue: a slow subscriber’s notifications never reach another', async () => {
    const { bus } = await pubSub();
    const alice = bus.subscribe('INBOX_CHANGED', 'alice')[Symbol.asyncIterator]();
    const bob = bus.subscribe('INBOX_CHANGED', 'bob')[Symbol.asyncIterator]();
    // A repeater starts listening when first read; bob's read stays pending, alice reads later.
    const bobFirst = bob.next();
    const aliceFirst = alice.next();
    await subscribed(channel('INBOX_CHANGED', 'alice'));
    await subscribed(channel('INBOX_CHANGED', 'bob'));

    for (let i = 1; i <= 3; i++) bus.publish('INBOX_CHANGED', 'alice', { for: 'alice', i });
    bus.publish('INBOX_CHANGED', 'bob', { for: 'bob', i: 1 });
    bus.publish('INBOX_CHANGED', 'bob', { for: 'bob', i: 2 });

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

  it('carries a script’s notification on the channel of its topic and id: a counter update reaches its subscriber only', async () => {
    const { bus, publisher } = await pubSub();
    const page = bus.subscribe('COUNTER_UPDATED', 'page/home')[Symbol.asyncIterator]();
    const other = bus.subscribe('COUNTER_UPDATED', 'page/other')[Symbol.asyncIterator]();
    const first = page.next();
    void other.next();
    await subscribed(channel('COUNTER_UPDATED', 'page/home'));
    await subscribed(channel('COUNTER_UPDATED', 'page/other'));
    const counters = new CounterRepository(
      publisher,
      { precisions: [1, 60], samples: 10, maxFutureSeconds: 60 },
      (name) => channel('COUNTER_UPDATED', name),
    );
    await counters.update('page/home', 3);
    expect((await first).value).toEqual({ name: 'page/home', time: expect.any(Number) });
    await page.return?.();
    await other.return?.();
  });
});
