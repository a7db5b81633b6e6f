// Every way a task is made writes the same task: an enqueue through the repository, a purchase
// by each market strategy (its sale's task), and a schedule's tick all record it through
// includes/task-add.lua. Read back from Redis on the market-sales queue, where all of them can
// write, and compared field by field: record, arguments, ready list, delayed zset, wake-up token.
import type Redis from 'ioredis';
import pino from 'pino';
import { MARKET_SALES_QUEUE, queueKeys } from '../../src/redis/keys';
import { LeaseAcquirer } from '../../src/redis/leases/acquirer';
import { LeaseRepository } from '../../src/redis/leases/repository';
import { LeaseSignals } from '../../src/redis/leases/signals';
import { MARKET_STRATEGIES, MarketRepository, type MarketStrategyName } from '../../src/redis/market/repository';
import { createMarketStrategy } from '../../src/redis/market/strategies';
import { scriptNamesBySha } from '../../src/redis/client/scripts';
import { TaskRepository } from '../../src/redis/task';
import { TaskScheduleRepository } from '../../src/redis/task-schedule';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';

let redis: TestRedis;
const cleanups: (() => Promise<unknown> | void)[] = [];
const logger = pino({ level: 'silent' });
const MAX_ATTEMPTS = 4;
const TASK = 'sold';
const QUEUE = queueKeys(MARKET_SALES_QUEUE);

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
  const client = scriptClient(redis);
  cleanups.push(() => client.disconnect());
  return client;
}

function market(strategy: MarketStrategyName): MarketRepository {
  const commands = connection();
  const shutdown = new AbortController();
  cleanups.push(() => shutdown.abort());
  const settings = { maxFunds: 1_000_000, maxInventory: 100 };
  const made = createMarketStrategy(
    {
      ...settings,
      strategy,
      watchConnections: 2,
      contentionTimeoutMs: 10_000,
      lockTtlMs: 10_000,
      salesKeep: 100,
      saleTask: TASK,
      taskMaxAttempts: MAX_ATTEMPTS,
    },
    {
      redis: redis.target,
      commands,
      logger,
      locks: () => {
        const signals = new LeaseSignals(connection(), logger);
        cleanups.push(() => signals.close());
        return new LeaseAcquirer(new LeaseRepository(commands, 'lock', { maxWaiters: 10 }), signals, shutdown.signal);
      },
    },
  );
  cleanups.push(() => made.close());
  return new MarketRepository(commands, made, settings);
}

interface Written {
  /** The record as stored (JSON), with its times. */
  json: string;
  record: Record<string, unknown>;
  args: Record<string, unknown>;
  readyLists: string[][];
  delayed: string[];
  wake: string[];
  idempotency: Record<string, string>;
}

/** What Redis holds of task `number`, and of the lists every writer touches. */
async function written(number: number): Promise<Written> {
  const json = await redis.client.hget(QUEUE.meta, String(number));
  const args = await redis.client.hget(QUEUE.args, String(number));
  if (json === null || args === null) throw new Error(`task ${number} was not recorded`);
  return {
    json,
    record: JSON.parse(json) as Record<string, unknown>,
    args: JSON.parse(args) as Record<string, unknown>,
    // HIGH, NORMAL and LOW (each priority's ready list is the odd entry of lists).
    readyLists: await Promise.all([1, 3, 5].map((i) => redis.client.lrange(QUEUE.lists[i], 0, -1))),
    delayed: await redis.client.zrange(QUEUE.delayed, 0, -1),
    wake: await redis.client.lrange(QUEUE.workerWake, 0, -1),
    idempotency: await redis.client.hgetall(QUEUE.idempotency),
  };
}

/** Empties the ready and wake-up lists, so that each writer is seen filling them itself. */
async function drain(): Promise<void> {
  for (const key of [QUEUE.lists[1], QUEUE.lists[3], QUEUE.lists[5], QUEUE.workerWake]) await redis.client.del(key);
}

async function serverNow(): Promise<number> {
  const [seconds, micros] = await redis.client.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/** A sale's arguments as the purchase scripts write them. */
const saleArgs = (saleId: number, item: string) => ({ saleId, item, seller: 'ann', buyer: 'bob', price: 10 });

describe('every task writer', () => {
  it('records the same task: record fields, arguments, ready list, no delay, one wake-up token', async () => {
    const made: { writer: string; number: number; saleId?: number; item: string; at: [number, number] }[] = [];

    // 1. An enqueue through the repository, with what a sale's task carries.
    await drain();
    const tasks = new TaskRepository(connection(), {
      maxAttempts: MAX_ATTEMPTS,
      backoffMs: 100,
      maxBackoffMs: 1000,
      history: 100,
      maxTasksPerQueue: 1000,
    });
    let before = await serverNow();
    const enqueued = await tasks.enqueue({
      queue: MARKET_SALES_QUEUE,
      name: TASK,
      args: JSON.stringify(saleArgs(0, 'enqueued')),
      priority: 'NORMAL',
      delayMs: 0,
      idempotencyKey: undefined,
    });
    made.push({ writer: 'enqueue', number: enqueued.task.number, item: 'enqueued', at: [before, await serverNow()] });
    const observed = [{ writer: 'enqueue', ...(await written(enqueued.task.number)) }];

    // 2. A purchase by each strategy, each of a new item.
    for (const strategy of MARKET_STRATEGIES) {
      await drain();
      const m = market(strategy);
      const item = `gem-${strategy}`;
      await m.grantFunds('bob', 10);
      await m.grantItem('ann', item);
      expect((await m.list('ann', item, 10)).listed).toBe(true);
      before = await serverNow();
      const report = await m.purchase({ buyer: 'bob', seller: 'ann', item, price: 10 });
      expect(report.outcome).toBe('PURCHASED');
      const number = Number(await redis.client.get(QUEUE.seq));
      made.push({ writer: strategy, number, saleId: report.saleId, item, at: [before, await serverNow()] });
      observed.push({ writer: strategy, ...(await written(number)) });
    }

    // 3. A schedule's tick, with the same arguments.
    await drain();
    const schedules = new TaskScheduleRepository(connection(), {
      maxSchedules: 5,
      maxAttempts: MAX_ATTEMPTS,
      maxTasksPerQueue: 1000,
    });
    await schedules.set(MARKET_SALES_QUEUE, 'hourly', {
      task: TASK,
      priority: 'NORMAL',
      args: JSON.stringify(saleArgs(0, 'scheduled')),
      everySeconds: 3600,
    });
    // Its next run put in the past, as if it had come.
    const tick = (Math.floor((await serverNow()) / 1000) - 5) * 1000;
    await redis.client.zadd(QUEUE.scheduleNext, tick, 'hourly');
    const due = (await schedules.due(MARKET_SALES_QUEUE, 10)).due;
    expect(due.map((one) => one.name)).toEqual(['hourly']);
    before = await serverNow();
    const ticked = await schedules.tick(MARKET_SALES_QUEUE, due[0], tick + 3_600_000, 0);
    expect(ticked.status).toBe('ENQUEUED');
    const number = Number(await redis.client.get(QUEUE.seq));
    made.push({ writer: 'tick', number, item: 'scheduled', at: [before, await serverNow()] });
    observed.push({ writer: 'tick', ...(await written(number)) });

    // One task per writer, numbered in order.
    expect(made.map((one) => one.writer)).toEqual(['enqueue', ...MARKET_STRATEGIES, 'tick']);
    expect(made.map((one) => one.number)).toEqual(made.map((_, i) => i + 1));

    const [first, ...others] = observed;
    // The record's fields, but for the times each was made at.
    const { createdAt: _c, runAt: _r, ...fields } = first.record;
    expect(fields).toEqual({
      name: TASK,
      priority: 'NORMAL',
      state: 'WAITING',
      attempts: 0,
      maxAttempts: MAX_ATTEMPTS,
    });
    const withoutTimes = (json: string) => json.replace(/"(createdAt|runAt)":\d+/g, '"$1":0');
    for (const [i, one] of observed.entries()) {
      const { createdAt, runAt, ...rest } = one.record;
      expect({ writer: one.writer, ...rest }).toEqual({ writer: one.writer, ...fields });
      // Written by the same Lua, the JSON is the same text, field order included.
      expect(withoutTimes(one.json)).toBe(withoutTimes(first.json));
      // Made within the call, by the server's clock; runAt is then, or the tick for a schedule.
      const [from, to] = made[i].at;
      expect(createdAt).toBeGreaterThanOrEqual(from);
      expect(createdAt).toBeLessThanOrEqual(to);
      expect(runAt).toBe(one.writer === 'tick' ? tick : createdAt);

      const { saleId, item, ...args } = one.args;
      expect({ writer: one.writer, ...args }).toEqual({ writer: one.writer, seller: 'ann', buyer: 'bob', price: 10 });
      expect(item).toBe(made[i].item);
      expect(saleId).toBe(made[i].saleId ?? 0);

      // In the NORMAL ready list alone, not delayed, one wake-up token, no idempotency key.
      expect({ writer: one.writer, ready: one.readyLists }).toEqual({
        writer: one.writer,
        ready: [[], [String(made[i].number)], []],
      });
      expect(one.delayed).toEqual([]);
      expect(one.wake).toEqual(['1']);
      expect(one.idempotency).toEqual({});
    }
    expect(others).toHaveLength(MARKET_STRATEGIES.length + 1);
  });

  it('is loaded by the SHA of its text with the includes expanded', async () => {
    const client = connection();
    const tasks = new TaskRepository(client, {
      maxAttempts: MAX_ATTEMPTS,
      backoffMs: 100,
      maxBackoffMs: 1000,
      history: 100,
      maxTasksPerQueue: 1000,
    });
    const shas = [...scriptNamesBySha(client)].filter(([, name]) => name === 'task-enqueue').map(([sha]) => sha);
    expect(shas).toHaveLength(1);
    const node = await redis.nodeFor(QUEUE.meta);
    // The first test ran this script already: start from an empty cache.
    await node.script('FLUSH');
    expect(await node.script('EXISTS', shas[0])).toEqual([0]);
    // Twice: the first call sends the text (EVAL), the next the SHA, which Redis must know.
    for (const name of ['first', 'second']) {
      await tasks.enqueue({
        queue: MARKET_SALES_QUEUE,
        name,
        args: undefined,
        priority: 'HIGH',
        delayMs: 0,
        idempotencyKey: undefined,
      });
    }
    expect(await node.script('EXISTS', shas[0])).toEqual([1]);
    expect(await redis.client.lrange(QUEUE.lists[1], 0, -1)).toEqual(['1', '2']);
  });
});
