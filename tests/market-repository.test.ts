// The three market strategies against a real redis-server: the same outcomes for the same steps,
// and under concurrency the book's invariants (money conserved, every item in exactly one place,
// no negative funds), checked from what Redis holds at the end.
import Redis from 'ioredis';
import pino from 'pino';
import { listingMember, marketKeys } from '../src/redis/keys';
import { LeaseRepository } from '../src/redis/lease';
import { LeaseSignals } from '../src/redis/lease-signals';
import { LeaseAcquirer } from '../src/redis/lease-wait';
import { MarketRepository, MARKET_STRATEGIES, type MarketStrategyName, type PurchaseReport } from '../src/redis/market';
import { createMarketStrategy } from '../src/redis/market-strategies';
import { defineScripts } from '../src/redis/scripts';
import { startTestRedis, type TestRedis } from './support/redis';

let redis: TestRedis;
const cleanups: (() => Promise<unknown> | void)[] = [];
const logger = pino({ level: 'silent' });
const SETTINGS = { maxFunds: 1_000_000_000_000, maxInventory: 10_000 };

beforeAll(async () => {
  redis = await startTestRedis();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await redis.client.flushdb();
});

afterAll(async () => {
  await redis.stop();
});

function connection(): Redis {
  const client = new Redis(redis.url);
  defineScripts(client);
  cleanups.push(() => client.disconnect());
  return client;
}

function market(strategy: MarketStrategyName, contentionTimeoutMs = 10_000): MarketRepository {
  const commands = connection();
  const shutdown = new AbortController();
  cleanups.push(() => shutdown.abort());
  const made = createMarketStrategy(
    { strategy, watchConnections: 32, contentionTimeoutMs, lockTtlMs: 10_000 },
    {
      redisUrl: redis.url,
      commands,
      logger,
      locks: () => {
        const signals = new LeaseSignals(connection(), logger);
        cleanups.push(() => signals.close());
        return new LeaseAcquirer(new LeaseRepository(commands, 'lock', { maxWaiters: 1000 }), signals, shutdown.signal);
      },
    },
  );
  cleanups.push(() => made.close());
  return new MarketRepository(commands, made, SETTINGS);
}

/** Everything the market holds, read straight from Redis. */
async function snapshot(users: string[]) {
  const funds: Record<string, number> = {};
  const inventories: Record<string, string[]> = {};
  for (const user of users) {
    funds[user] = Number((await redis.client.hget(marketKeys.user(user), 'funds')) ?? 0);
    inventories[user] = await redis.client.zrange(marketKeys.inventory(user), 0, -1);
  }
  const listings = await redis.client.zrange(marketKeys.listings(), 0, -1, 'WITHSCORES');
  return { funds, inventories, listings };
}

const outcome = (report: PurchaseReport) => `${report.outcome} funds=${report.funds} listed=${report.listedPrice ?? '-'}`;

describe('every strategy gives the same results', () => {
  async function scenario(strategy: MarketStrategyName) {
    const m = market(strategy);
    const log: string[] = [];
    await m.grantFunds('ann', 100);
    await m.grantFunds('bob', 70);
    for (const item of ['sword', 'shield', 'bow']) await m.grantItem('ann', item);

    log.push(`list sword: ${(await m.list('ann', 'sword', 40)).listed}`);
    log.push(`list sword again: ${(await m.list('ann', 'sword', 40)).listed}`);
    log.push(`bob lists ann's shield: ${(await m.list('bob', 'shield', 5)).listed}`);
    log.push(`list shield: ${(await m.list('ann', 'shield', 25)).listed}`);
    log.push(`list bow: ${(await m.list('ann', 'bow', 30)).listed}`);
    log.push(`bob buys sword: ${outcome(await m.purchase({ buyer: 'bob', seller: 'ann', item: 'sword', price: 40 }))}`);
    log.push(`bob buys shield at a stale price: ${outcome(await m.purchase({ buyer: 'bob', seller: 'ann', item: 'shield', price: 20 }))}`);
    log.push(`bob buys shield: ${outcome(await m.purchase({ buyer: 'bob', seller: 'ann', item: 'shield', price: 25 }))}`);
    log.push(`bob buys shield again: ${outcome(await m.purchase({ buyer: 'bob', seller: 'ann', item: 'shield', price: 25 }))}`);
    log.push(`bob buys bow from the wrong seller: ${outcome(await m.purchase({ buyer: 'bob', seller: 'cy', item: 'bow', price: 30 }))}`);
    log.push(`bob buys bow with 5 left: ${outcome(await m.purchase({ buyer: 'bob', seller: 'ann', item: 'bow', price: 30 }))}`);
    log.push(`bob lists the shield he bought: ${(await m.list('bob', 'shield', 60)).listed}`);
    log.push(`ann buys it back: ${outcome(await m.purchase({ buyer: 'ann', seller: 'bob', item: 'shield', price: 60 }))}`);
    await expect(m.purchase({ buyer: 'ann', seller: 'ann', item: 'bow', price: 30 })).rejects.toThrow(/own listing/);
    return { log, state: await snapshot(['ann', 'bob', 'cy']), page: await m.page(10, undefined) };
  }

  it('matches the expected outcomes step by step, for SCRIPT, WATCH and LOCK alike', async () => {
    const results = [];
    for (const strategy of MARKET_STRATEGIES) {
      results.push(await scenario(strategy));
      await redis.client.flushdb();
    }
    expect(results[0].log).toEqual([
      'list sword: true',
      'list sword again: false',
      "bob lists ann's shield: false",
      'list shield: true',
      'list bow: true',
      'bob buys sword: PURCHASED funds=30 listed=40',
      'bob buys shield at a stale price: PRICE_CHANGED funds=30 listed=25',
      'bob buys shield: PURCHASED funds=5 listed=25',
      'bob buys shield again: ITEM_GONE funds=5 listed=-',
      'bob buys bow from the wrong seller: ITEM_GONE funds=5 listed=-',
      'bob buys bow with 5 left: INSUFFICIENT_FUNDS funds=5 listed=30',
      'bob lists the shield he bought: true',
      'ann buys it back: PURCHASED funds=105 listed=60',
    ]);
    expect(results[0].state).toEqual({
      funds: { ann: 105, bob: 65, cy: 0 },
      inventories: { ann: ['shield'], bob: ['sword'], cy: [] },
      listings: ['bow:ann', '30'],
    });
    expect(results[0].page).toEqual([{ item: 'bow', seller: 'ann', price: 30 }]);
    for (const result of results.slice(1)) expect(result).toEqual(results[0]);
  });
});
