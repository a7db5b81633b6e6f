// The three market strategies against a real redis-server: the same outcomes for the same steps,
// and under concurrency the book's invariants (money conserved, every item in exactly one place,
// no negative funds), checked from what Redis holds at the end.
import Redis, { type Cluster } from 'ioredis';
import pino from 'pino';
import { MARKET_SALES_QUEUE, marketKeys, queueKeys } from '../../src/redis/keys';
import { LeaseRepository } from '../../src/redis/leases/repository';
import { LeaseSignals } from '../../src/redis/leases/signals';
import { LeaseAcquirer } from '../../src/redis/leases/acquirer';
import {
  MarketRepository,
  MARKET_STRATEGIES,
  type MarketStrategyName,
  type PurchaseReport,
} from '../../src/redis/market/repository';
import { createMarketStrategy } from '../../src/redis/market/strategies';
import { captureLogs } from '../support/logs';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';

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

/** A connection for one test: many tests open dozens, so each test's go when it ends. */
function connection(): Redis {
  const client = scriptClient(redis);
  cleanups.push(() => client.disconnect());
  return client;
}

interface MarketOptions {
  lockTtlMs?: number;
  maxFunds?: number;
  /** Stands between the strategy and its command connection (the locks keep the real one). */
  wrap?: (client: Redis) => Redis;
  /** MARKET_SALE_TASK; none unless given. */
  saleTask?: string;
  salesKeep?: number;
  logger?: pino.Logger;
}

function market(strategy: MarketStrategyName, options: MarketOptions = {}): MarketRepository {
  const { lockTtlMs = 10_000, maxFunds = SETTINGS.maxFunds, saleTask, salesKeep = 1000 } = options;
  const real = connection();
  const commands = options.wrap ? options.wrap(real) : real;
  const shutdown = new AbortController();
  cleanups.push(() => shutdown.abort());
  const made = createMarketStrategy(
    {
      strategy,
      watchConnections: 32,
      contentionTimeoutMs: 10_000,
      lockTtlMs,
      maxFunds,
      salesKeep,
      saleTask,
      taskMaxAttempts: 5,
    },
    {
      redis: redis.target,
      commands,
      logger: options.logger ?? logger,
      locks: () => {
        const signals = new LeaseSignals(connection(), logger);
        cleanups.push(() => signals.close());
        return new LeaseAcquirer(new LeaseRepository(real, 'lock', { maxWaiters: 1000 }), signals, shutdown.signal);
      },
    },
  );
  cleanups.push(() => made.close());
  return new MarketRepository(real, made, { ...SETTINGS, maxFunds });
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

const outcome = (report: PurchaseReport) =>
  `${report.outcome} funds=${report.funds} listed=${report.listedPrice ?? '-'}`;

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
    log.push(
      `bob buys shield at a stale price: ${outcome(await m.purchase({ buyer: 'bob', seller: 'ann', item: 'shield', price: 20 }))}`,
    );
    log.push(
      `bob buys shield: ${outcome(await m.purchase({ buyer: 'bob', seller: 'ann', item: 'shield', price: 25 }))}`,
    );
    log.push(
      `bob buys shield again: ${outcome(await m.purchase({ buyer: 'bob', seller: 'ann', item: 'shield', price: 25 }))}`,
    );
    log.push(
      `bob buys bow from the wrong seller: ${outcome(await m.purchase({ buyer: 'bob', seller: 'cy', item: 'bow', price: 30 }))}`,
    );
    log.push(
      `bob buys bow with 5 left: ${outcome(await m.purchase({ buyer: 'bob', seller: 'ann', item: 'bow', price: 30 }))}`,
    );
    log.push(`bob lists the shield he bought: ${(await m.list('bob', 'shield', 60)).listed}`);
    log.push(
      `ann buys it back: ${outcome(await m.purchase({ buyer: 'ann', seller: 'bob', item: 'shield', price: 60 }))}`,
    );
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
      listings: ['bow ann', '30'],
    });
    expect(results[0].page).toEqual([{ item: 'bow', seller: 'ann', price: 30 }]);
    for (const result of results.slice(1)) expect(result).toEqual(results[0]);
  });
});

describe.each(MARKET_STRATEGIES)('%s under concurrency', (strategy) => {
  it('sells a listing to exactly one of five racing buyers', async () => {
    const m = market(strategy);
    const buyers = ['b1', 'b2', 'b3', 'b4', 'b5'];
    for (const buyer of buyers) await m.grantFunds(buyer, 100);
    for (let round = 0; round < 10; round += 1) {
      const item = `gem${round}`;
      await m.grantItem('seller', item);
      expect((await m.list('seller', item, 10)).listed).toBe(true);
      const reports = await Promise.all(
        buyers.map((buyer) => m.purchase({ buyer, seller: 'seller', item, price: 10 })),
      );
      expect(reports.map((r) => r.outcome).sort()).toEqual([
        'ITEM_GONE',
        'ITEM_GONE',
        'ITEM_GONE',
        'ITEM_GONE',
        'PURCHASED',
      ]);
    }
    const state = await snapshot(['seller', ...buyers]);
    expect(state.funds.seller).toBe(100);
    expect(Object.values(state.funds).reduce((a, b) => a + b, 0)).toBe(500);
    expect(buyers.flatMap((buyer) => state.inventories[buyer]).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `gem${i}`),
    );
    expect(state.listings).toEqual([]);
  });

  it('records one sale and one task per purchase, none for a refused or retried attempt, keeping the newest sales', async () => {
    const m = market(strategy, { saleTask: 'sold', salesKeep: 3 });
    const buyers = ['b1', 'b2', 'b3', 'b4', 'b5', 'b6'];
    const items = Array.from({ length: 10 }, (_, i) => `gem${i}`);
    for (const buyer of buyers) await m.grantFunds(buyer, 1000);
    for (const item of items) {
      await m.grantItem('seller', item);
      expect((await m.list('seller', item, 10)).listed).toBe(true);
    }
    const reports = await Promise.all(
      buyers.flatMap((buyer) => items.map((item) => m.purchase({ buyer, seller: 'seller', item, price: 10 }))),
    );
    const sold = reports.filter((report) => report.outcome === 'PURCHASED');
    expect(sold).toHaveLength(items.length);
    // Sixty purchases at once on 32 connections: WATCH throws attempts away, and those must write nothing.
    if (strategy === 'WATCH') expect(reports.reduce((sum, report) => sum + report.retries, 0)).toBeGreaterThan(0);
    expect(reports.filter((report) => report.saleId !== undefined)).toHaveLength(items.length);
    expect(sold.map((report) => report.saleId).sort((a, b) => a! - b!)).toEqual(items.map((_, i) => i + 1));

    const queue = queueKeys(MARKET_SALES_QUEUE);
    expect(await redis.client.get(marketKeys.saleIds())).toBe('10');
    expect(await redis.client.get(queue.seq)).toBe('10');
    const args = Object.values(await redis.client.hgetall(queue.args)).map(
      (json) => (JSON.parse(json) as { saleId: number }).saleId,
    );
    expect(args.sort((a, b) => a - b)).toEqual(items.map((_, i) => i + 1));
    expect(await redis.client.hlen(queue.meta)).toBe(10);
    expect((await redis.client.lrange(queue.lists[3], 0, -1)).map(Number).sort((a, b) => a - b)).toEqual(
      items.map((_, i) => i + 1),
    );
    expect(await redis.client.lrange(queue.workerWake, 0, -1)).toEqual(['1']);
    const kept = (await m.sales('seller', 10, undefined)).map((sale) => sale.saleId);
    expect(kept).toEqual([10, 9, 8]);
  });

  it('never lets one buyer spend the same funds twice', async () => {
    const m = market(strategy);
    for (let round = 0; round < 10; round += 1) {
      const buyer = `buyer${round}`;
      await m.grantFunds(buyer, 30);
      for (const [seller, item] of [
        [`s${round}a`, `left${round}`],
        [`s${round}b`, `right${round}`],
      ]) {
        await m.grantItem(seller, item);
        await m.list(seller, item, 30);
      }
      const reports = await Promise.all([
        m.purchase({ buyer, seller: `s${round}a`, item: `left${round}`, price: 30 }),
        m.purchase({ buyer, seller: `s${round}b`, item: `right${round}`, price: 30 }),
      ]);
      expect(reports.map((r) => r.outcome).sort()).toEqual(['INSUFFICIENT_FUNDS', 'PURCHASED']);
      expect(await redis.client.hget(marketKeys.user(buyer), 'funds')).toBe('0');
      expect(await redis.client.zcard(marketKeys.inventory(buyer))).toBe(1);
    }
  });

  it('conserves money and items, and keeps funds non-negative, with six traders listing and buying at once', async () => {
    const m = market(strategy);
    const users = ['u0', 'u1', 'u2', 'u3', 'u4', 'u5'];
    const items: string[] = [];
    for (const [n, user] of users.entries()) {
      await m.grantFunds(user, 60);
      for (let i = 0; i < 8; i += 1) {
        items.push(`item${n}-${i}`);
        await m.grantItem(user, `item${n}-${i}`);
      }
    }
    // What each trader's own answers say happened to its money.
    const net: Record<string, number> = Object.fromEntries(users.map((user) => [user, 60]));
    let bought = 0;
    const trader = async (user: string, seed: number) => {
      let state = seed * 7919;
      const random = (n: number) => {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        return (state >>> 16) % n;
      };
      for (let step = 0; step < 40; step += 1) {
        if (random(2) === 0) {
          const held = await m.inventory(user, 100, undefined);
          if (held.length > 0) await m.list(user, held[random(held.length)], 1 + random(40));
        } else {
          const others = (await m.page(10, undefined)).filter((listing) => listing.seller !== user);
          if (others.length === 0) continue;
          const pick = others[random(others.length)];
          const report = await m.purchase({ buyer: user, seller: pick.seller, item: pick.item, price: pick.price });
          expect(report.funds).toBeGreaterThanOrEqual(0);
          if (report.outcome === 'PURCHASED') {
            bought += 1;
            net[user] -= pick.price;
            net[pick.seller] += pick.price;
          }
        }
      }
    };
    await Promise.all(users.map((user, n) => trader(user, n + 1)));

    const state = await snapshot(users);
    expect(bought).toBeGreaterThan(5);
    expect(state.funds).toEqual(net);
    expect(Object.values(state.funds).every((funds) => funds >= 0)).toBe(true);
    expect(Object.values(state.funds).reduce((a, b) => a + b, 0)).toBe(360);
    const listed = state.listings.filter((_, i) => i % 2 === 0).map((member) => member.slice(0, member.indexOf(' ')));
    const everywhere = [...users.flatMap((user) => state.inventories[user]), ...listed].sort();
    expect(everywhere).toEqual([...items].sort());
    // Every listing names the seller who held the item, which therefore is not in their inventory.
    for (const member of state.listings.filter((_, i) => i % 2 === 0)) {
      const at = member.indexOf(' ');
      expect(state.inventories[member.slice(at + 1)]).not.toContain(member.slice(0, at));
    }
  });
});

describe('WATCH and the sale task', () => {
  async function oneSale(m: MarketRepository): Promise<PurchaseReport> {
    await m.grantFunds('buyer', 100);
    await m.grantItem('seller', 'lamp');
    expect((await m.list('seller', 'lamp', 30)).listed).toBe(true);
    return m.purchase({ buyer: 'buyer', seller: 'seller', item: 'lamp', price: 30 });
  }

  it("writes the sale's task when the server has forgotten every script (it is sent whole inside the MULTI)", async () => {
    const m = market('WATCH', { saleTask: 'sold' });
    const nodes = 'nodes' in redis.client ? (redis.client as unknown as Cluster).nodes('master') : [redis.client];
    for (const node of nodes) await node.script('FLUSH');
    const report = await oneSale(m);
    expect(report).toMatchObject({ outcome: 'PURCHASED', saleId: 1 });
    const queue = queueKeys(MARKET_SALES_QUEUE);
    expect(await redis.client.hlen(queue.meta)).toBe(1);
    expect(JSON.parse((await redis.client.hget(queue.args, '1'))!)).toMatchObject({
      saleId: 1,
      item: 'lamp',
      price: 30,
    });
  });

  it('answers a purchase that was applied though its task failed, and reports the fault at error level', async () => {
    const { logger: captured, lines } = captureLogs('error');
    const m = market('WATCH', { saleTask: 'sold', logger: captured });
    // The queue's records hold a string: the task's script fails inside EXEC, after the sale.
    await redis.client.set(queueKeys(MARKET_SALES_QUEUE).meta, 'not a hash');
    const report = await oneSale(m);
    expect(report).toMatchObject({ outcome: 'PURCHASED', saleId: 1 });
    expect(await snapshot(['buyer', 'seller'])).toEqual({
      funds: { buyer: 70, seller: 30 },
      inventories: { buyer: ['lamp'], seller: [] },
      listings: [],
    });
    expect(lines.map((line) => [line.msg, line.saleId])).toEqual([
      ['market purchase applied with a failed command', 1],
    ]);
    expect((lines[0].failed as { message: string }[])[0].message).toMatch(/WRONGTYPE/);
  });
});

describe.each(MARKET_STRATEGIES)('%s limits', (strategy) => {
  it('refuses a sale that would take the seller past MARKET_MAX_FUNDS, changing nothing', async () => {
    const m = market(strategy, { maxFunds: 100 });
    await m.grantFunds('rich', 95);
    await m.grantFunds('buyer', 50);
    await m.grantItem('rich', 'vase');
    await m.list('rich', 'vase', 10);
    const before = await snapshot(['rich', 'buyer']);
    await expect(m.purchase({ buyer: 'buyer', seller: 'rich', item: 'vase', price: 10 })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await snapshot(['rich', 'buyer'])).toEqual(before);
    await expect(m.purchase({ buyer: 'buyer', seller: 'rich', item: 'vase', price: 10 })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    // Once the seller has room, the same purchase goes through (WATCH: on a pooled connection left clean).
    await redis.client.hset(marketKeys.user('rich'), 'funds', 90);
    expect(await m.purchase({ buyer: 'buyer', seller: 'rich', item: 'vase', price: 10 })).toMatchObject({
      outcome: 'PURCHASED',
      funds: 40,
    });
    expect((await snapshot(['rich'])).funds.rich).toBe(100);
  });
});

describe('LOCK with a holder that stalls past its lock', () => {
  it('sells the item once: the late holder finds it gone', async () => {
    let stalled = false;
    // The first purchase write waits 400 ms, long after its 100 ms locks ran out.
    const wrap = (client: Redis): Redis =>
      new Proxy(client, {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver) as unknown;
          if (property !== 'marketPurchase' || typeof value !== 'function') return value;
          return async (...args: unknown[]) => {
            if (!stalled) {
              stalled = true;
              await new Promise((resolve) => setTimeout(resolve, 400));
            }
            return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          };
        },
      });
    const m = market('LOCK', { lockTtlMs: 100, wrap });
    await m.grantFunds('slow', 100);
    await m.grantFunds('quick', 100);
    await m.grantItem('seller', 'gem');
    await m.list('seller', 'gem', 50);

    const slow = m.purchase({ buyer: 'slow', seller: 'seller', item: 'gem', price: 50 });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const quick = await m.purchase({ buyer: 'quick', seller: 'seller', item: 'gem', price: 50 });
    expect(quick.outcome).toBe('PURCHASED');
    expect((await slow).outcome).toBe('ITEM_GONE');
    expect(stalled).toBe(true);

    const state = await snapshot(['seller', 'slow', 'quick']);
    expect(state.funds).toEqual({ seller: 50, slow: 100, quick: 50 });
    expect(state.inventories).toEqual({ seller: [], slow: [], quick: ['gem'] });
  });
});
