// The simulated processes of bench/market.ts (the book's Table 6.1): a lister that puts its own
// items up for sale in a loop, or a buyer that keeps buying from the cheapest listings; run as
// async loops of one process sharing one market, or (threads) each in a worker thread of its own.
import { once } from 'node:events';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import pino from 'pino';
import { AppError } from '../src/common/errors';
import { closeRedis, connectRedis } from '../src/redis/client/connection';
import { LeaseRepository } from '../src/redis/leases/repository';
import { LeaseSignals } from '../src/redis/leases/signals';
import { LeaseAcquirer } from '../src/redis/leases/acquirer';
import { MarketRepository, PURCHASE_OUTCOMES } from '../src/redis/market/repository';
import type { MarketStrategyName, PurchaseOutcome } from '../src/redis/market/repository';
import { readMarket } from '../src/redis/market/settings';
import { createMarketStrategy } from '../src/redis/market/strategies';
import { SettingsReader } from '../src/common/settings';
import type Redis from 'ioredis';
import { measure } from './harness/measure';
import { inParallel } from './harness/rounds';
import { countTraffic, type Traffic } from './harness/round-trips';
import { seeded } from './harness/support';
import { setTimeout as sleep } from 'node:timers/promises';

/** Funds every buyer starts with: ample, so outcomes come from contention, never from money. */
export const BUYER_FUNDS = 10_000_000_000;
/** Prices are drawn from 1..MAX_PRICE. */
const MAX_PRICE = 100;
/** A buyer picks at random among this many of the cheapest listings. */
const PAGE = 10;
/** Items granted at once, on a connection of their own and ahead of need, when a lister runs low during a run. */
export const RESTOCK = 500;
/** Grants in flight at once while stocking up before a run. */
const GRANT_BATCH = 2_000;
const SETTINGS = { maxFunds: 1_000_000_000_000, maxInventory: 10_000_000 };

export const listerName = (id: number): string => `lister-${id}`;
export const buyerName = (id: number): string => `buyer-${id}`;
export const itemName = (lister: number, n: number): string => `l${lister}-${n}`;

export interface ProcessSpec {
  role: 'lister' | 'buyer';
  id: number;
  seed: number;
  /** Listers: items granted before the run, numbered from 0. */
  stock: number;
}

/**
 * A market as src/app/parts.ts builds one (WATCH: a pool of `watchConnections`; LOCK: the lock
 * acquirer with its LeaseSignals subscriber); `granter`: the same on its own connection, for restocks.
 */
export async function buildMarket(url: string, strategy: MarketStrategyName, watchConnections: number) {
  const logger = pino({ level: 'silent' });
  const commands = await connectRedis(url, { name: 'bench:market', logger });
  const shutdown = new AbortController();
  // Made before the strategy: createMarketStrategy asks for the lock acquirer synchronously.
  const subscriber = strategy === 'LOCK' ? await connectRedis(url, { name: 'bench:lease-signals', logger }) : undefined;
  const signals = subscriber && new LeaseSignals(subscriber, logger);
  // The product's defaults (a lock or WATCH waited for up to 10 s, as the book), and its MARKET_SALE_TASK,
  // so that one run measures purchases with the sale task on.
  const defaults = readMarket(new SettingsReader({ MARKET_SALE_TASK: process.env.MARKET_SALE_TASK }));
  const made = createMarketStrategy(
    { ...defaults, strategy, watchConnections, maxFunds: 1_000_000_000_000_000, taskMaxAttempts: 5 },
    {
      redis: url,
      commands,
      logger,
      locks: () =>
        new LeaseAcquirer(new LeaseRepository(commands, 'lock', { maxWaiters: 1000 }), signals!, shutdown.signal),
    },
  );
  const grants = await connectRedis(url, { name: 'bench:market-grants', logger });
  return {
    repository: new MarketRepository(commands, made, SETTINGS),
    granter: new MarketRepository(grants, made, SETTINGS),
    close: async () => {
      shutdown.abort();
      await made.close();
      signals?.close();
      for (const connection of [subscriber, grants, commands]) if (connection) await closeRedis(connection);
    },
  };
}
type Market = Awaited<ReturnType<typeof buildMarket>>;

/** Grants the lister items number `from` to `to` - 1, GRANT_BATCH in flight at a time. */
export const grantItems = (market: MarketRepository, lister: number, from: number, to: number): Promise<void> =>
  inParallel(to - from, GRANT_BATCH, (n) => market.grantItem(listerName(lister), itemName(lister, from + n)));

/** A call that changes nothing, so that the first timed call does not open WATCH's pooled connection. */
async function prepare(market: MarketRepository, spec: ProcessSpec): Promise<void> {
  if (spec.role === 'lister') await market.list(listerName(spec.id), 'warm-up', 1);
  else await market.purchase({ buyer: buyerName(spec.id), seller: 'nobody', item: 'warm-up', price: 1 });
}

/** Redis commands (those inside scripts too) and client requests of one list and one purchase, no contention. */
export async function measureCost(url: string, admin: Redis, strategy: MarketStrategyName, ops: number) {
  await admin.flushdb();
  const { repository, close } = await buildMarket(url, strategy, 1);
  try {
    await Promise.all([grantItems(repository, 0, 0, ops), repository.grantFunds(buyerName(0), BUYER_FUNDS)]);
    for (const role of ['lister', 'buyer'] as const) await prepare(repository, { role, id: 0, seed: 0, stock: 0 });
    const cost = async (work: (n: number) => Promise<unknown>) => {
      const sample = await measure(ops, () => inParallel(ops, 1, work), { admin });
      return { commands: sample.executed / ops, requests: sample.requests / ops };
    };
    const list = await cost((n) => repository.list(listerName(0), itemName(0, n), 10));
    const purchase = await cost((n) =>
      repository.purchase({ buyer: buyerName(0), seller: listerName(0), item: itemName(0, n), price: 10 }),
    );
    return { strategy, list, purchase };
  } finally {
    await close();
  }
}

/** What one process did, checked against Redis by the invariants. */
const newResult = (spec: ProcessSpec) => ({
  role: spec.role,
  id: spec.id,
  /** Listers: items granted in all (before the run and restocks). */
  granted: spec.role === 'lister' ? spec.stock : 0,
  restocks: 0,
  listed: 0,
  /** list() answered "not held": never expected, the lister only lists what it holds. */
  notListed: 0,
  /** Buyers: purchase() calls, and what they came to. */
  attempts: 0,
  outcomes: Object.fromEntries(PURCHASE_OUTCOMES.map((o) => [o, 0])) as Record<PurchaseOutcome, number>,
  /** Sum of report.retries, and the calls that answered with retries > 0. */
  retries: 0,
  retriedCalls: 0,
  /** Calls answered PURCHASED, ITEM_GONE or PRICE_CHANGED at the first attempt: done, no retry, no give-up. */
  completed: 0,
  /** Calls that gave up with CONFLICT (WATCH kept losing, or a lock stayed taken). */
  conflicts: 0,
  /** Sum of the prices paid, to check against the buyer's funds in Redis. */
  spent: 0,
  /** Wait of each purchase() call, ms, retries included. */
  waits: [] as number[],
  /** Requests the process's connections sent during its purchase() calls (threads only). */
  purchaseRequests: 0,
});
export type ProcessResult = ReturnType<typeof newResult>;

const isConflict = (error: unknown): boolean => error instanceof AppError && error.code === 'CONFLICT';
/** Lists or buys until stop[0] is 1 (a call in flight is finished); `requests` only with one process per thread. */
async function simulate(built: Market, spec: ProcessSpec, stop: Int32Array, requests?: Traffic) {
  const { repository: market, granter } = built;
  const result = newResult(spec);
  const stopped = (): boolean => Atomics.load(stop, 0) === 1;
  const random = seeded(spec.seed);
  if (spec.role === 'lister') {
    const seller = listerName(spec.id);
    let available = spec.stock;
    let restocking: Promise<void> | undefined;
    for (let next = 0; !stopped(); next++) {
      if (restocking === undefined && result.granted - next < RESTOCK) {
        const from = result.granted;
        result.granted += RESTOCK;
        result.restocks++;
        restocking = grantItems(granter, spec.id, from, from + RESTOCK).then(() => {
          available = from + RESTOCK;
          restocking = undefined;
        });
      }
      if (next >= available) await restocking;
      const price = 1 + Math.floor(random() * MAX_PRICE);
      try {
        const report = await market.list(seller, itemName(spec.id, next), price);
        result[report.listed ? 'listed' : 'notListed']++;
      } catch (error) {
        if (!isConflict(error)) throw error;
      }
    }
    await restocking;
  } else {
    const buyer = buyerName(spec.id);
    while (!stopped()) {
      const cheapest = await market.page(PAGE, undefined);
      if (cheapest.length === 0) {
        await sleep(1);
        continue;
      }
      const pick = cheapest[Math.floor(random() * cheapest.length)];
      result.attempts++;
      const requestsBefore = requests?.requests ?? 0;
      const started = performance.now();
      try {
        const report = await market.purchase({ buyer, seller: pick.seller, item: pick.item, price: pick.price });
        result.outcomes[report.outcome]++;
        result.retries += report.retries;
        if (report.retries > 0) result.retriedCalls++;
        else if (report.outcome !== 'INSUFFICIENT_FUNDS') result.completed++;
        if (report.outcome === 'PURCHASED') result.spent += report.listedPrice!;
      } catch (error) {
        if (!isConflict(error)) throw error;
        result.conflicts++;
      }
      result.waits.push(performance.now() - started);
      result.purchaseRequests += (requests?.requests ?? 0) - requestsBefore;
    }
  }
  return result;
}

/** Every simulated process an async loop of this thread, all sharing one market. */
function inlineRunner(url: string, stop: Int32Array, requests?: Traffic) {
  let market: Market | undefined;
  let specs: ProcessSpec[] = [];
  let started = performance.eventLoopUtilization();
  return {
    /** Builds the market on the state already in Redis and warms up its connections; not timed. */
    async prepare(strategy: MarketStrategyName, next: ProcessSpec[]): Promise<void> {
      Atomics.store(stop, 0, 0);
      market = await buildMarket(url, strategy, next.length);
      specs = next;
      await Promise.all(specs.map((spec) => prepare(market!.repository, spec)));
    },
    /** Runs every process; resolves when all have stopped. */
    async go(): Promise<ProcessResult[]> {
      started = performance.eventLoopUtilization();
      const results = await Promise.all(specs.map((spec) => simulate(market!, spec, stop, requests)));
      await market!.close();
      return results;
    },
    /** Busiest client thread's event-loop utilisation since go() (1 = never idle). */
    busiestThread: (): number => performance.eventLoopUtilization(started).utilization,
    close: async (): Promise<void> => {},
  };
}
type Runner = ReturnType<typeof inlineRunner>;

/** One worker thread per simulated process (the same for a role and id every run), each an inline runner of one. */
function threadRunner(url: string, stop: Int32Array): Runner {
  const workerData = { marketProcess: true, url, stop };
  const workers: Worker[] = [];
  const ask = async (worker: Worker, message: unknown): Promise<unknown> => {
    worker.postMessage(message);
    return ((await once(worker, 'message')) as unknown[])[0];
  };
  let active: Worker[] = [];
  let started: EventLoopUtilization[] = [];
  return {
    async prepare(strategy, specs) {
      active = specs.map(
        (s) => (workers[2 * s.id + (s.role === 'lister' ? 0 : 1)] ??= new Worker(__filename, { workerData })),
      );
      await Promise.all(specs.map((spec, i) => ask(active[i], { strategy, spec })));
    },
    async go() {
      started = active.map((w) => w.performance.eventLoopUtilization());
      return (await Promise.all(active.map((w) => ask(w, 'go')))) as ProcessResult[];
    },
    busiestThread: () => Math.max(...active.map((w, i) => w.performance.eventLoopUtilization(started[i]).utilization)),
    close: async () => void (await Promise.all(workers.map((w) => w.terminate()))),
  };
}

/** Runs a scenario's simulated processes, inline or one worker thread each. */
export function startRunner(url: string, threads: boolean) {
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const runner = threads ? threadRunner(url, stop) : inlineRunner(url, stop);
  return { ...runner, stop: (): void => void Atomics.store(stop, 0, 1) };
}

if (!isMainThread && (workerData as { marketProcess?: true } | undefined)?.marketProcess) {
  const setup = workerData as { url: string; stop: Int32Array };
  const runner = inlineRunner(setup.url, setup.stop, countTraffic());
  type Message = 'go' | { strategy: MarketStrategyName; spec: ProcessSpec };
  const answer = async (message: Message) =>
    message === 'go' ? (await runner.go())[0] : runner.prepare(message.strategy, [message.spec]);
  // A failure is left unhandled: it ends the worker, and the bench's `once` rejects with it.
  parentPort!.on('message', (message: Message) => void answer(message).then((reply) => parentPort!.postMessage(reply)));
}
