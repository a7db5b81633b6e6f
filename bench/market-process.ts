// One simulated process of bench/market.ts (the book's Table 6.1): a lister that puts its own
// items up for sale in a loop, or a buyer that keeps buying from the cheapest listings. They run
// as async loops of the bench's process sharing one market, or each in a worker thread of its own
// with its own connections and market (the second half of this file).
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { AppError } from '../src/common/errors';
import { closeRedis, connectRedis } from '../src/redis/client/connection';
import { LeaseRepository } from '../src/redis/leases/repository';
import { LeaseSignals } from '../src/redis/leases/signals';
import { LeaseAcquirer } from '../src/redis/leases/acquirer';
import {
  MarketRepository,
  PURCHASE_OUTCOMES,
  type MarketStrategyName,
  type PurchaseOutcome,
} from '../src/redis/market/repository';
import { createMarketStrategy } from '../src/redis/market/strategies';
import { countTraffic, type Traffic } from './harness/round-trips';
import { seeded } from './harness/support';
import { setTimeout as sleep } from 'node:timers/promises';

/** Funds every buyer starts with: ample, so outcomes come from contention, never from money. */
export const BUYER_FUNDS = 10_000_000_000;
/** Prices are drawn from 1..MAX_PRICE. */
const MAX_PRICE = 100;
/** A buyer picks at random among this many of the cheapest listings. */
const PAGE = 10;
/**
 * Items granted at once when a lister runs low during a run (it should not: bench/market.ts sizes
 * the stock from a warm-up), on a connection of their own and ahead of need, so that neither the
 * lister nor anyone sharing its command connection waits for them.
 */
export const RESTOCK = 500;
/** Grants sent at once while stocking up before a run. */
const GRANT_BATCH = 2_000;
/** The product's defaults (src/config.ts): wait up to 10 s for a lock or for WATCH to succeed, as the book. */
const CONTENTION_TIMEOUT_MS = 10_000;
const LOCK_TTL_MS = 10_000;
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

export interface ProcessResult {
  role: 'lister' | 'buyer';
  id: number;
  /** Listers: items granted in all (before the run and restocks). */
  granted: number;
  restocks: number;
  listed: number;
  /** list() answered "not held": never expected, the lister only lists what it holds. */
  notListed: number;
  listRetries: number;
  listConflicts: number;
  /** Buyers: purchase() calls, and what they came to. */
  attempts: number;
  outcomes: Record<PurchaseOutcome, number>;
  /** Sum of report.retries. */
  retries: number;
  /** Calls that answered with retries > 0. */
  retriedCalls: number;
  /** Calls answered PURCHASED, ITEM_GONE or PRICE_CHANGED at the first attempt: done, no retry, no give-up. */
  completed: number;
  /** Calls that gave up with CONFLICT (WATCH kept losing, or a lock stayed taken). */
  conflicts: number;
  /** Sum of the prices paid, to check against the buyer's funds in Redis. */
  spent: number;
  /** Page reads that found the market empty (the buyer then waits 1 ms). */
  emptyPages: number;
  /** Wait of each purchase() call, ms, retries included. */
  waits: Float64Array;
  /** Requests the process's connections sent during its purchase() calls (undefined when shared). */
  purchaseRequests: number | undefined;
}

export interface Market {
  repository: MarketRepository;
  /** The same market on a connection of its own, for grants during a run. */
  granter: MarketRepository;
  close(): Promise<void>;
}

/**
 * A market as src/app/parts.ts builds one: a command connection, the strategy from
 * createMarketStrategy (WATCH: a pool of `watchConnections`; LOCK: the product's lock acquirer
 * with its own LeaseSignals subscriber connection), and the config's default timeouts.
 */
export async function buildMarket(
  url: string,
  strategy: MarketStrategyName,
  watchConnections: number,
): Promise<Market> {
  const logger = pino({ level: 'silent' });
  const commands = await connectRedis(url, { name: 'bench:market', logger });
  const shutdown = new AbortController();
  // Made before the strategy: createMarketStrategy asks for the lock acquirer synchronously.
  const subscriber = strategy === 'LOCK' ? await connectRedis(url, { name: 'bench:lease-signals', logger }) : undefined;
  const signals = subscriber && new LeaseSignals(subscriber, logger);
  const made = createMarketStrategy(
    {
      strategy,
      watchConnections,
      contentionTimeoutMs: CONTENTION_TIMEOUT_MS,
      lockTtlMs: LOCK_TTL_MS,
      maxFunds: 1_000_000_000_000_000,
      salesKeep: 1000,
      // The product's setting, so that one run measures purchases with the sale task on.
      saleTask: process.env.MARKET_SALE_TASK || undefined,
      taskMaxAttempts: 5,
    },
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
      if (subscriber) await closeRedis(subscriber);
      await closeRedis(grants);
      await closeRedis(commands);
    },
  };
}

/** Grants the lister items number `from` to `to` - 1, GRANT_BATCH at a time. */
export async function grantItems(market: MarketRepository, lister: number, from: number, to: number): Promise<void> {
  for (let start = from; start < to; start += GRANT_BATCH) {
    const grants: Promise<void>[] = [];
    for (let n = start; n < Math.min(to, start + GRANT_BATCH); n++)
      grants.push(market.grantItem(listerName(lister), itemName(lister, n)));
    await Promise.all(grants);
  }
}

/**
 * Before the run, once the lister's items and the buyer's funds are in place: one call that
 * changes nothing, so the first timed call does not open WATCH's pooled connection.
 */
export async function prepare(market: MarketRepository, spec: ProcessSpec): Promise<void> {
  if (spec.role === 'lister') await market.list(listerName(spec.id), 'warm-up', 1);
  else await market.purchase({ buyer: buyerName(spec.id), seller: 'nobody', item: 'warm-up', price: 1 });
}

function emptyResult(spec: ProcessSpec): Omit<ProcessResult, 'waits' | 'purchaseRequests'> {
  const counts = ['restocks', 'listed', 'notListed', 'listRetries', 'listConflicts', 'attempts', 'retries'] as const;
  const more = ['retriedCalls', 'completed', 'conflicts', 'spent', 'emptyPages'] as const;
  return {
    ...(Object.fromEntries([...counts, ...more].map((name) => [name, 0])) as Record<
      (typeof counts | typeof more)[number],
      number
    >),
    role: spec.role,
    id: spec.id,
    granted: spec.role === 'lister' ? spec.stock : 0,
    outcomes: Object.fromEntries(PURCHASE_OUTCOMES.map((o) => [o, 0])) as Record<PurchaseOutcome, number>,
  };
}

const isConflict = (error: unknown): boolean => error instanceof AppError && error.code === 'CONFLICT';
/**
 * Lists or buys until `stopped()`; a call in flight then is finished, not cut short. `requests`
 * attributes requests to purchases, which is only right when nothing else in this thread uses
 * Redis meanwhile (one process per thread).
 */
export async function simulate(
  market: MarketRepository,
  /** The same market on a connection of its own, for restocking. */
  granter: MarketRepository,
  spec: ProcessSpec,
  stopped: () => boolean,
  requests: Traffic | undefined,
): Promise<ProcessResult> {
  const result = emptyResult(spec);
  const random = seeded(spec.seed);
  const waits: number[] = [];
  let purchaseRequests = 0;
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
        if (report.listed) result.listed++;
        else result.notListed++;
        result.listRetries += report.retries;
      } catch (error) {
        if (!isConflict(error)) throw error;
        result.listConflicts++;
      }
    }
    await restocking;
  } else {
    const buyer = buyerName(spec.id);
    while (!stopped()) {
      const cheapest = await market.page(PAGE, undefined);
      if (cheapest.length === 0) {
        result.emptyPages++;
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
      waits.push(performance.now() - started);
      purchaseRequests += (requests?.requests ?? 0) - requestsBefore;
    }
  }
  return { ...result, waits: Float64Array.from(waits), purchaseRequests: requests ? purchaseRequests : undefined };
}

// --- The worker thread's side of the conversation with bench/market.ts ---

export interface WorkerSetup {
  marketProcess: true;
  url: string;
  /** Int32Array over it: [0] is set to 1 when the run is over. */
  stop: SharedArrayBuffer;
}

export type ToWorker =
  { type: 'prepare'; strategy: MarketStrategyName; spec: ProcessSpec } | { type: 'go' } | { type: 'exit' };

export type FromWorker =
  { type: 'ready' } | { type: 'done'; result: ProcessResult } | { type: 'failed'; error: string };

function serveAsWorker(setup: WorkerSetup): void {
  const port = parentPort!;
  const stop = new Int32Array(setup.stop);
  const requests = countTraffic();
  let current: { market: Market; spec: ProcessSpec } | undefined;
  const reply = (message: FromWorker): void => port.postMessage(message);
  const fail = (error: unknown): void =>
    reply({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) });

  port.on('message', (message: ToWorker) => {
    if (message.type === 'prepare') {
      void (async () => {
        const market = await buildMarket(setup.url, message.strategy, 1);
        current = { market, spec: message.spec };
        await prepare(market.repository, message.spec);
        reply({ type: 'ready' });
      })().catch(fail);
    } else if (message.type === 'go') {
      void (async () => {
        const { market, spec } = current!;
        const result = await simulate(
          market.repository,
          market.granter,
          spec,
          () => Atomics.load(stop, 0) === 1,
          requests,
        );
        await market.close();
        current = undefined;
        port.postMessage({ type: 'done', result } satisfies FromWorker, [result.waits.buffer as ArrayBuffer]);
      })().catch(fail);
    } else {
      port.close();
    }
  });
}

if (!isMainThread && (workerData as WorkerSetup | undefined)?.marketProcess) serveAsWorker(workerData as WorkerSetup);
