// The contract between the publishers of subscription notifications (Lua scripts, and the API
// process or chat-send.lua for the inbox) and the topic registry (src/schema/topics.ts): each message arrives on
// the channel the registry gives for its topic and id, and holds exactly the registry's payload
// fields with their JSON types. A script that changes its channel or its JSON fails here.
import Redis from 'ioredis';
import pino from 'pino';
import { CHAT_DEFAULTS, ChatRepository } from '../../src/redis/chat';
import { CounterRepository } from '../../src/redis/counter';
import { LeaseRepository, newLeaseId } from '../../src/redis/leases/repository';
import { RowCacheRepository } from '../../src/redis/row-cache';
import { TaskRepository } from '../../src/redis/task';
import { MARKET_STRATEGIES, MarketRepository } from '../../src/redis/market/repository';
import { createMarketStrategy } from '../../src/redis/market/strategies';
import { LeaseAcquirer } from '../../src/redis/leases/acquirer';
import { LeaseSignals } from '../../src/redis/leases/signals';
import { InboxNotifier } from '../../src/resolvers/inbox';
import { createRedisPubSub } from '../../src/schema/pubsub';
import { channels, TOPICS, uploadTopicId, type FieldKind, type TopicSpec } from '../../src/schema/topics';
import { LocationRepository } from '../../src/redis/location/repository';
import { tallyChunk } from '../../src/geo/tally';
import { lazyLocator } from '../../src/geo/ip-locator';
import { eventually } from '../support/graphql';
import { itSingle, listen, productPubSub, scriptClient, startTestRedis, type TestRedis } from '../support/redis';

const SETTINGS = { rowCacheTable: 'inventory' };

let redis: TestRedis;
let client: Redis;
const listeners: Redis[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
  client = scriptClient(redis);
});
afterAll(async () => {
  for (const one of listeners) one.disconnect();
  client.disconnect();
  await redis.stop();
});

const kindOf = (value: unknown): FieldKind | 'other' => {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'other';
};

/** The fields of a message that break the topic's payload shape: none when it conforms. */
function breaches(topic: TopicSpec, message: Record<string, unknown>): string[] {
  const found: string[] = [];
  for (const [field, kind] of Object.entries(topic.payload)) {
    const value = message[field];
    if (!(field in message)) found.push(`${field}: missing`);
    else if (value === null ? !kind.endsWith('|null') : !kind.split('|').includes(kindOf(value))) {
      found.push(`${field}: ${JSON.stringify(value)} is not ${kind}`);
    }
  }
  for (const field of Object.keys(message)) if (!(field in topic.payload)) found.push(`${field}: not in the registry`);
  return found;
}

/** Listens on the registry's channels for `ids` of `topic`; returns the messages heard, per id. */
async function hear(topic: TopicSpec, ids: string[]): Promise<Map<string, Record<string, unknown>[]>> {
  const heard = new Map<string, Record<string, unknown>[]>(ids.map((id) => [id, []]));
  const idOf = new Map(ids.map((id) => [topic.channel(id, SETTINGS), id]));
  listeners.push(
    await listen(redis, [...idOf.keys()], (channel, message) => {
      heard.get(idOf.get(channel)!)!.push(JSON.parse(message) as Record<string, unknown>);
    }),
  );
  return heard;
}

function expectConforming(topic: TopicSpec, heard: Map<string, Record<string, unknown>[]>): void {
  for (const [id, messages] of heard) {
    for (const message of messages) expect({ id, breaches: breaches(topic, message) }).toEqual({ id, breaches: [] });
  }
}

it('the check itself refuses a missing field, a field of the wrong type and a field not in the registry', () => {
  const topic = TOPICS.inboxChanged;
  expect(breaches(topic, { chatId: '1', latestMessageId: 2, mailbox: false, waiting: null, saleId: null })).toEqual([]);
  expect(breaches(topic, { chatId: null, latestMessageId: null, mailbox: true, waiting: 3, saleId: null })).toEqual([]);
  expect(breaches(topic, { chatId: 1, latestMessageId: 2, mailbox: false, waiting: null, saleId: null })).toEqual([
    'chatId: 1 is not string|null',
  ]);
  expect(breaches(topic, { chatId: '1', latestMessageId: 2, mailbox: null, saleId: null, extra: 1 })).toEqual([
    'mailbox: null is not boolean',
    'waiting: missing',
    'extra: not in the registry',
  ]);
});

it('names every topic once, and routes a topic name to its own channel only', () => {
  const names = Object.values(TOPICS).map((topic) => topic.name);
  expect(new Set(names).size).toBe(names.length);
  const channelOf = channels(SETTINGS);
  for (const topic of Object.values(TOPICS)) {
    const id = topic === TOPICS.taskChanged ? 'mail:7' : topic === TOPICS.locationUploadChanged ? 'games:u1' : 'x';
    expect(channelOf(topic.name, id)).toBe(topic.channel(id, SETTINGS));
  }
  expect(() => channelOf('NO_SUCH_TOPIC', 'x')).toThrow('unknown subscription topic');
});

it('counter-update.lua', async () => {
  const names = ['hits', 'é/😀'];
  const heard = await hear(TOPICS.counterUpdated, names);
  const counters = new CounterRepository(
    client,
    { precisions: [1, 60], samples: 120, maxFutureSeconds: 60 },
    TOPICS.counterUpdated.channel,
  );
  for (const name of names) await counters.update(name, 1);
  await eventually(async () => names.every((name) => heard.get(name)!.length === 1), 10_000, 10);
  expectConforming(TOPICS.counterUpdated, heard);
  expect(names.map((name) => heard.get(name)![0].name)).toEqual(names);
});

it.each(['lock', 'semaphore'] as const)('lease-release.lua, for a %s', async (kind) => {
  const topic = kind === 'lock' ? TOPICS.lockReleased : TOPICS.semaphoreReleased;
  const heard = await hear(topic, ['printer']);
  const leases = new LeaseRepository(client, kind, { maxWaiters: 10 });
  const id = newLeaseId();
  const attempt = await leases.attempt({ name: 'printer', id, limit: 1, ttlMs: 10_000, owner: 'svc', holdMs: 0 });
  expect(attempt.granted).toBe(true);
  expect(await leases.release('printer', id)).toBe(true);
  await eventually(async () => heard.get('printer')!.length === 1, 10_000, 10);
  expectConforming(topic, heard);
  expect(heard.get('printer')![0].name).toBe('printer');
});

it('task-next, task-reschedule, task-cancel and task-promote.lua', async () => {
  const tasks = new TaskRepository(client, {
    maxAttempts: 3,
    backoffMs: 100,
    maxBackoffMs: 1000,
    history: 100,
    maxTasksPerQueue: 100,
  });
  const enqueue = async (delayMs: number) =>
    (
      await tasks.enqueue({
        queue: 'mail',
        name: 'send',
        args: undefined,
        priority: 'NORMAL',
        delayMs,
        idempotencyKey: undefined,
      })
    ).task;
  const ran = await enqueue(0);
  const cancelled = await enqueue(0);
  const delayed = await enqueue(60_000);
  const ids = [ran.id, cancelled.id, delayed.id];
  const heard = await hear(TOPICS.taskChanged, ids);
  const number = (id: string) => id.split(':')[1];

  const [taken] = await tasks.take('mail', 1, 10_000);
  expect(taken.id).toBe(ran.id);
  await tasks.settle('mail', taken, { kind: 'COMPLETED', result: undefined });
  expect(await tasks.cancel('mail', number(cancelled.id))).toBe(true);
  await tasks.reschedule('mail', number(delayed.id), 0);
  await tasks.promote('mail');

  await eventually(
    async () => ids.every((id) => heard.get(id)!.length > 0) && heard.get(ran.id)!.length >= 2,
    10_000,
    10,
  );
  expectConforming(TOPICS.taskChanged, heard);
  for (const id of ids) expect(heard.get(id)!.every((message) => message.id === id)).toBe(true);
  expect(heard.get(ran.id)!.map((message) => message.state)).toEqual(['ACTIVE', 'COMPLETED']);
  expect(heard.get(cancelled.id)!.map((message) => message.state)).toEqual(['CANCELLED']);
});

it('chat-send, chat-fetch, chat-mark-seen, chat-typing, chat-join and chat-leave.lua', async () => {
  const chats = new ChatRepository(client, {
    maxChatMembers: 10,
    maxChatsPerUser: 10,
    dedupeSeconds: 60,
    ...CHAT_DEFAULTS,
  });
  const { chat } = await chats.create('alice', ['bób/😀'], 'hi', true);
  const heard = await hear(TOPICS.chatChanged, [chat.id]);
  await chats.send(chat.id, 'alice', 'two');
  await chats.edit(chat.id, 'alice', 2, 'two!');
  await chats.pending('bób/😀', 10, true, 'phone');
  await chats.markSeen(chat.id, 'alice', 3);
  await chats.typing(chat.id, 'alice', true);
  await chats.join(chat.id, 'carol');
  await chats.leave(chat.id, 'carol');
  const expected = [
    { chatId: chat.id, change: 'ENTRY', user: 'alice', messageId: 2 },
    { chatId: chat.id, change: 'ENTRY', user: 'alice', messageId: 3 },
    { chatId: chat.id, change: 'READ', user: 'bób/😀', messageId: 3 },
    { chatId: chat.id, change: 'READ', user: 'alice', messageId: 3 },
    { chatId: chat.id, change: 'TYPING', user: 'alice', messageId: null },
    { chatId: chat.id, change: 'JOINED', user: 'carol', messageId: 3 },
    { chatId: chat.id, change: 'LEFT', user: 'carol', messageId: null },
  ];
  await eventually(async () => heard.get(chat.id)!.length === expected.length, 10_000, 10);
  expectConforming(TOPICS.chatChanged, heard);
  expect(heard.get(chat.id)).toEqual(expected);
});

it('row-cache-store.lua and row-cache-schedule.lua', async () => {
  const rows = new RowCacheRepository(client, { table: SETTINGS.rowCacheTable, maxRows: 100 });
  const heard = await hear(TOPICS.rowCacheUpdated, ['sku-1', 'sku 2/é']);
  for (const rowId of heard.keys()) await rows.schedule(rowId, 60_000);
  const claimed = await rows.claim(10);
  expect(claimed.rows.map((row) => row.rowId).sort()).toEqual([...heard.keys()].sort());
  await rows.store(claimed.rows.map((row) => ({ ...row, json: `{"qty":${row.rowId.length}}` })));
  await rows.schedule('sku-1', -1); // unscheduled: its copy goes, and that is told too
  await eventually(async () => heard.get('sku-1')!.length === 2 && heard.get('sku 2/é')!.length === 1, 10_000, 10);
  expectConforming(TOPICS.rowCacheUpdated, heard);
  expect(heard.get('sku-1')!.map((message) => [message.rowId, message.cached])).toEqual([
    ['sku-1', true],
    ['sku-1', false],
  ]);
  expect(heard.get('sku 2/é')!.map((message) => [message.rowId, message.cached])).toEqual([['sku 2/é', true]]);
});

it('location-append.lua and location-commit.lua', async () => {
  const locations = new LocationRepository(client, {
    maxDatasets: 10,
    maxHeldBytes: 1 << 20,
    maxUploadBytes: 1 << 20,
    maxUploads: 10,
    maxSamples: 5,
  });
  await locations.createDataset('spiele/é');
  const uploads = await hear(TOPICS.locationUploadChanged, [uploadTopicId('spiele/é', 'u1')]);
  const totals = await hear(TOPICS.locationTotalsChanged, ['spiele/é']);
  const data = Buffer.from('8.8.8.8 2011-10-10 00:00:01 a\nbad line\n');
  await locations.append('spiele/é', 'u1', 0, { data, lines: 2 }, true);
  const [entry] = await locations.take('spiele/é', 'c', 1, 60_000);
  expect(
    await locations.commit('spiele/é', entry, await tallyChunk(entry.data, entry.firstLine, lazyLocator([])(), 5)),
  ).toBe('UPLOAD_COUNTED');
  await eventually(
    async () => uploads.get('spiele/é:u1')!.length === 2 && totals.get('spiele/é')!.length === 1,
    10_000,
    10,
  );
  expectConforming(TOPICS.locationUploadChanged, uploads);
  expectConforming(TOPICS.locationTotalsChanged, totals);
  expect(uploads.get('spiele/é:u1')).toEqual([
    { dataset: 'spiele/é', upload: 'u1', lines: 2, doneLines: 0, complete: true },
    { dataset: 'spiele/é', upload: 'u1', lines: 2, doneLines: 2, complete: true },
  ]);
  expect(totals.get('spiele/é')).toEqual([{ dataset: 'spiele/é', day: '2011-10-10' }]);
});

it.each(MARKET_STRATEGIES)(
  'market-list, market-purchase, market-reprice and market-delist.lua, or the %s strategy in their place',
  async (strategy) => {
    const heard = await hear(TOPICS.marketChanged, ['any']);
    const logger = pino({ level: 'silent' });
    const subscriber = strategy === 'LOCK' ? redis.newClient() : undefined;
    if (subscriber) listeners.push(subscriber);
    const signals = subscriber && new LeaseSignals(subscriber, logger);
    const stop = new AbortController();
    const made = createMarketStrategy(
      {
        strategy,
        watchConnections: 2,
        contentionTimeoutMs: 10_000,
        lockTtlMs: 10_000,
        maxFunds: 1_000_000,
        salesKeep: 10,
        saleTask: undefined,
        taskMaxAttempts: 1,
      },
      {
        redis: redis.target,
        commands: client,
        logger,
        locks: () => new LeaseAcquirer(new LeaseRepository(client, 'lock', { maxWaiters: 10 }), signals!, stop.signal),
      },
    );
    const market = new MarketRepository(client, made, { maxFunds: 1_000_000, maxInventory: 10 });
    try {
      const item = `cup-${strategy}/😀`;
      await market.grantItem('bób', item);
      await market.grantFunds('alice', 10);
      expect((await market.list('bób', item, 5)).listed).toBe(true);
      await market.reprice('bób', item, 6);
      await market.delist('bób', item);
      await market.list('bób', item, 7);
      expect((await market.purchase({ buyer: 'alice', seller: 'bób', item, price: 7 })).outcome).toBe('PURCHASED');
      await eventually(async () => heard.get('any')!.length === 5, 10_000, 10);
      expectConforming(TOPICS.marketChanged, heard);
      expect(heard.get('any')).toEqual([
        { kind: 'LISTED', itemId: item, sellerId: 'bób', price: 5 },
        { kind: 'REPRICED', itemId: item, sellerId: 'bób', price: 6 },
        { kind: 'DELISTED', itemId: item, sellerId: 'bób', price: 6 },
        { kind: 'LISTED', itemId: item, sellerId: 'bób', price: 7 },
        { kind: 'SOLD', itemId: item, sellerId: 'bób', price: 7 },
      ]);
    } finally {
      stop.abort();
      await made.close();
      signals?.close();
    }
  },
);

it('the inbox, told by the API process for a chat message, a mailbox and a sale', async () => {
  const logger = pino({ level: 'silent' });
  const { publisher, subscriber } = await productPubSub(redis);
  const inbox = new InboxNotifier(
    createRedisPubSub({ publisher, subscriber, channelOf: channels(SETTINGS), logger }),
    false,
  );
  expect(inbox.forSendScript('12')).toBeUndefined();
  const heard = await hear(TOPICS.inboxChanged, ['alice', 'bób/😀']);
  inbox.chat(['alice', 'bób/😀'], '12', 3);
  inbox.mailbox('alice', 4);
  inbox.sale('alice', 9);
  await eventually(async () => heard.get('alice')!.length === 3 && heard.get('bób/😀')!.length === 1, 10_000, 10);
  expectConforming(TOPICS.inboxChanged, heard);
  expect(heard.get('alice')).toEqual([
    { chatId: '12', latestMessageId: 3, mailbox: false, waiting: null, saleId: null },
    { chatId: null, latestMessageId: null, mailbox: true, waiting: 4, saleId: null },
    { chatId: null, latestMessageId: null, mailbox: false, waiting: null, saleId: 9 },
  ]);
  expect(heard.get('bób/😀')).toEqual([
    { chatId: '12', latestMessageId: 3, mailbox: false, waiting: null, saleId: null },
  ]);
});

// On a cluster the send script may not publish on the members' channels (other shards): the
// notifier publishes instead (above).
itSingle('chat-send.lua, telling each member with the notice the notifier built, again on a retry', async () => {
  const pubSub = createRedisPubSub({ publisher: client, subscriber: client, channelOf: channels(SETTINGS) });
  const inbox = new InboxNotifier(pubSub, true);
  const chats = new ChatRepository(client, {
    maxChatMembers: 10,
    maxChatsPerUser: 10,
    dedupeSeconds: 60,
    ...CHAT_DEFAULTS,
  });
  const members = ['alice', 'bób/😀'];
  const heard = await hear(TOPICS.inboxChanged, members);
  const { chat } = await chats.create('alice', ['bób/😀'], 'hi', false);
  for (let i = 0; i < 2; i++) {
    const sent = await chats.send(chat.id, 'alice', 'x', 'c1', inbox.forSendScript(chat.id));
    expect([sent.told, sent.stored, sent.message.id]).toEqual([true, i === 0, 2]);
  }
  await eventually(async () => members.every((member) => heard.get(member)!.length === 2), 10_000, 10);
  expectConforming(TOPICS.inboxChanged, heard);
  const notice = { chatId: chat.id, latestMessageId: 2, mailbox: false, waiting: null, saleId: null };
  for (const member of members) expect(heard.get(member)).toEqual([notice, notice]);
});
