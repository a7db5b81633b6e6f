// Notifications reach only the subscriber they were published for, also when several are
// queued for a subscriber that is not reading yet (a busy socket). A notice published while the
// subscriber connection is down is made up for by a catch-up once it is back.
import type { Cluster } from 'ioredis';
import { isCluster } from '../../src/redis/client/connection';
import { createRedisPubSub, type FilteredId, type NotificationObserver } from '../../src/schema/pubsub';
import { channels } from '../../src/schema/topics';
import { CounterRepository } from '../../src/redis/counter';
import { CHAT_DEFAULTS, ChatRepository } from '../../src/redis/chat';
import { InboxNotifier } from '../../src/resolvers/inbox';
import { CATCH_UP } from '../../src/schema/topics';
import { productPubSub, startTestRedis, withSubscribersDown, type TestRedis } from '../support/redis';

let redis: TestRedis;
const channel = channels({ rowCacheTable: 'inventory' });

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis.stop();
});

async function pubSub(observer?: NotificationObserver) {
  const { publisher, subscriber } = await productPubSub(redis);
  return { bus: createRedisPubSub({ publisher, subscriber, channelOf: channel, observer }), publisher, subscriber };
}

/**
 * On a cluster, the channels ioredis holds to subscribe again after a reconnect (its sharded
 * subscriber group's list per slot; ioredis-patches.ts keeps each channel once).
 */
const channelsHeld = (subscriber: Cluster): string[] =>
  [
    ...(
      subscriber as unknown as { shardedSubscribers: { channels: Map<number, string[]> } }
    ).shardedSubscribers.channels.values(),
  ].flat();

/**
 * How long a test that cuts the subscriber connection may take. Getting it back is ioredis's
 * reconnect backoff (on a cluster, the sharded subscriber's retries, up to 2 s apart, after the
 * refusals while the node is full): 7.7 s on an idle cluster, more on a busy machine.
 */
const RECONNECT_TEST_MS = 120_000;
/** A safety net well inside RECONNECT_TEST_MS, so a notice that never comes is named. */
const NOTICE_WAIT_MS = 90_000;

/** The next value of a subscription, or a failure naming what did not come (no test waits forever). */
async function nextOf(iterator: AsyncIterator<unknown>, what: string, pending = iterator.next()): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${NOTICE_WAIT_MS / 1000} s`)), NOTICE_WAIT_MS);
  });
  try {
    return (await Promise.race([pending, late])).value;
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once Redis reports `count` subscribers on the channel (sharded ones on a cluster). */
async function subscribed(name: string, count = 1): Promise<void> {
  // 30 s is only a safety net that names the failure (a busy machine takes far longer than 2 s).
  for (const end = Date.now() + 30_000; Date.now() < end;) {
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

  it('keeps the newest 64 notices of a subscriber not reading, drops what its filter refuses, and ends a waiting read on return', async () => {
    let received = 0;
    let allReceived: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (allReceived = resolve));
    const { bus } = await pubSub({
      published: () => undefined,
      received: () => void (++received === 201 && allReceived()),
      caughtUp: () => undefined,
    });
    const even: FilteredId = { id: 'carol', accept: (notice) => (notice as { i: number }).i % 2 === 0 };
    const carol = bus.subscribe('INBOX_CHANGED', even)[Symbol.asyncIterator]();
    const first = carol.next();
    await bus.listening('INBOX_CHANGED', 'carol');
    for (let i = 0; i < 200; i++) bus.publish('INBOX_CHANGED', 'carol', { i });
    bus.publish('INBOX_CHANGED', 'carol', { i: 1000 });
    await arrived;
    // The waiting read took 0; of the 100 even notices queued after it, the newest 64 are kept.
    const read = [(await first).value];
    for (let i = 0; i < 64; i++) read.push((await carol.next()).value);
    expect(read).toEqual([0, ...Array.from({ length: 63 }, (_, k) => 74 + 2 * k), 1000].map((i) => ({ i })));
    const waiting = carol.next();
    await carol.return?.();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(await carol.next()).toEqual({ done: true, value: undefined });
    // The last subscriber of the channel is gone: Redis is told to stop sending it here.
    for (const end = Date.now() + 30_000; (await redis.subscribers(channel('INBOX_CHANGED', 'carol'))) > 0;) {
      if (Date.now() > end) throw new Error('the channel is still subscribed');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });

  it('drops a notice its filter throws on, and still gives the channel’s other subscribers every notice', async () => {
    const { bus } = await pubSub();
    // The inbox's own filter (no sale notices), on payloads no script sends: null and a number.
    const saleless: FilteredId = { id: 'dave', accept: (notice) => (notice as { i: number } | null)!.i !== 13 };
    const picky = bus.subscribe('INBOX_CHANGED', saleless)[Symbol.asyncIterator]();
    const plain = bus.subscribe('INBOX_CHANGED', 'dave')[Symbol.asyncIterator]();
    const [pickyFirst, plainFirst] = [picky.next(), plain.next()];
    await bus.listening('INBOX_CHANGED', 'dave');
    bus.publish('INBOX_CHANGED', 'dave', null);
    bus.publish('INBOX_CHANGED', 'dave', { i: 13 });
    bus.publish('INBOX_CHANGED', 'dave', { i: 1 });
    expect(await nextOf(picky, 'the notice after the one that threw', pickyFirst)).toEqual({ i: 1 });
    const plainSeen = [await nextOf(plain, 'null', plainFirst)];
    for (let n = 0; n < 2; n++) plainSeen.push(await nextOf(plain, 'a notice'));
    expect(plainSeen).toEqual([null, { i: 13 }, { i: 1 }]);
    await picky.return?.();
    await plain.return?.();
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

  it(
    'tells a subscriber to catch up once its connection is back, and pulling then shows what was sent while it was down',
    async () => {
      const caughtUp: [string, number][] = [];
      const { bus, publisher, subscriber } = await pubSub({
        published: () => undefined,
        received: () => undefined,
        caughtUp: (topic, subscribers) => caughtUp.push([topic, subscribers]),
      });
      const chats = new ChatRepository(publisher, {
        maxChatMembers: 10,
        maxChatsPerUser: 10,
        dedupeSeconds: 60,
        ...CHAT_DEFAULTS,
      });
      // As the API does: on one Redis the send script publishes the inbox notices itself.
      const inbox = new InboxNotifier(bus, redis.cluster === undefined);
      const { chat } = await chats.create('alice', ['bob'], 'hello', false);
      expect(await chats.pending('bob', 10, true)).toHaveLength(1);

      const bob = bus.subscribe('INBOX_CHANGED', 'bob')[Symbol.asyncIterator]();
      const first = bob.next();
      await bus.listening('INBOX_CHANGED', 'bob');
      await subscribed(channel('INBOX_CHANGED', 'bob'));

      let lost = 0;
      await withSubscribersDown(redis, channel('INBOX_CHANGED', 'bob'), async () => {
        const sent = await chats.send(chat.id, 'alice', 'while down', 'down-1', inbox.forSendScript(chat.id));
        inbox.chat(['alice', 'bob'], chat.id, sent.message.id);
        lost = sent.message.id;
      });

      // The notice of the send reached nobody; the first thing bob hears is the catch-up.
      expect(await nextOf(bob, 'catch-up notice', first)).toEqual(CATCH_UP);
      // Counted for /metrics (ria_notifications_catch_up_total): one subscription of the topic.
      expect(caughtUp).toEqual([['INBOX_CHANGED', 1]]);
      // The catch-up subscribed again to a channel ioredis already held: it is still held once.
      if (isCluster(subscriber)) expect(channelsHeld(subscriber)).toEqual([channel('INBOX_CHANGED', 'bob')]);
      const pulled = await chats.pending('bob', 10, true);
      expect(pulled.map((one) => one.messages.map((message) => [message.id, message.message]))).toEqual([
        [[lost, 'while down']],
      ]);

      // Subscribed again: the next send is told as usual, and nothing else came in between.
      const after = await chats.send(chat.id, 'alice', 'back', 'down-2', inbox.forSendScript(chat.id));
      inbox.chat(['alice', 'bob'], chat.id, after.message.id);
      expect(await nextOf(bob, 'notice after the catch-up')).toEqual({
        chatId: chat.id,
        latestMessageId: after.message.id,
        mailbox: false,
        waiting: null,
        saleId: null,
      });
      await bob.return?.();
    },
    RECONNECT_TEST_MS,
  );
});
