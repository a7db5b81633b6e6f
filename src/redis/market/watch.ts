// WATCH, the book's optimistic strategy (section 4.4): read under WATCH, write in MULTI/EXEC, and
// start again whenever another caller wrote a watched key first. Each caller needs a connection
// of its own for this, so they come from a pool. Kept for comparison: under load most attempts
// are thrown away (bench/market.ts). Notices are published inside the MULTI (PUBLISH, or SPUBLISH
// on a cluster: the channel carries the market's tag), so an aborted attempt announces nothing.
import type { ChainableCommander } from 'ioredis';
import { conflict } from '../../common/errors';
import type { RedisClient } from '../client/connection';
import type { ConnectionPool } from '../client/connection-pool';
import { listingMember, marketKeys } from '../keys';
import { repliesOf } from '../client/replies';
import {
  judgePurchase,
  saleTaskKeys,
  type ChangeReport,
  type ListReport,
  type MarketChange,
  type MarketNotice,
  type MarketStrategy,
  type PurchaseReport,
  type PurchaseRequest,
  type Sale,
} from './repository';
import type { WriteSettings } from './script';

export class WatchStrategy implements MarketStrategy {
  readonly name = 'WATCH';

  /** The market-sales queue's keys, when there is a sale task. */
  private readonly taskKeys: string[] | undefined;

  constructor(
    private readonly pool: ConnectionPool,
    /** How long one call waits for a connection and retries, together, before CONFLICT (the book gives up after 10 s). */
    private readonly retryForMs: number,
    private readonly settings: WriteSettings,
  ) {
    this.taskKeys = settings.saleTask === undefined ? undefined : saleTaskKeys();
  }

  list(seller: string, item: string, price: number, signal?: AbortSignal): Promise<ListReport> {
    const inventory = marketKeys.inventory(seller);
    const deadline = performance.now() + this.retryForMs;
    return this.pool.use(
      async (redis) => {
        return this.retrying(deadline, signal, async () => {
          await redis.watch(inventory);
          if ((await redis.zscore(inventory, item)) === null) {
            await redis.unwatch();
            return { listed: false };
          }
          const transaction = redis
            .multi()
            .zadd(marketKeys.listings(), price, listingMember(item, seller))
            .zrem(inventory, item);
          const done = await announce(redis, transaction, 'LISTED', item, seller, price).exec();
          return done === null ? undefined : { listed: true };
        });
      },
      deadline,
      signal,
    );
  }

  purchase({ buyer, seller, item, price }: PurchaseRequest, signal?: AbortSignal): Promise<PurchaseReport> {
    const listings = marketKeys.listings();
    const member = listingMember(item, seller);
    const saleIds = marketKeys.saleIds();
    const taskKeys = this.taskKeys;
    const deadline = performance.now() + this.retryForMs;
    return this.pool.use(
      async (redis) => {
        return this.retrying(deadline, signal, async () => {
          // The counters are watched so that the numbers read here are the ones the MULTI takes:
          // two purchases never share a sale id or a task number, and an aborted one takes none.
          // Every purchase writes the listings anyway, so this costs no extra aborts between them.
          await redis.watch(listings, marketKeys.user(buyer), saleIds, ...(taskKeys ? [taskKeys[0]] : []));
          const reads = redis
            .pipeline()
            .zscore(listings, member)
            .hget(marketKeys.user(buyer), 'funds')
            .hget(marketKeys.user(seller), 'funds')
            .get(saleIds)
            .time();
          if (taskKeys) reads.get(taskKeys[0]);
          const [listed, funds, sellerFunds, lastSale, time, lastTask] = await repliesOf(reads.exec());
          let judged: ReturnType<typeof judgePurchase>;
          try {
            judged = judgePurchase(listed as string | null, funds as string | null, price, {
              fundsText: sellerFunds as string | null,
              maxFunds: this.settings.maxFunds,
            });
          } catch (error) {
            // The seller's cap: the connection goes back to the pool, so without a WATCH.
            await redis.unwatch();
            throw error;
          }
          if (judged.outcome !== 'PURCHASED') {
            await redis.unwatch();
            return judged;
          }
          const [seconds, micros] = time as [string, string];
          const sale: Sale = {
            saleId: Number(lastSale ?? 0) + 1,
            itemId: item,
            buyerId: buyer,
            price,
            soldAt: Number(seconds) * 1000 + Math.floor(Number(micros) / 1000),
          };
          const transaction = redis
            .multi()
            .hincrby(marketKeys.user(seller), 'funds', price)
            .hincrby(marketKeys.user(buyer), 'funds', -price)
            .zadd(marketKeys.inventory(buyer), 0, item)
            .zrem(listings, member)
            .incr(saleIds)
            .zadd(marketKeys.sales(seller), sale.saleId, JSON.stringify(sale))
            .zremrangebyrank(marketKeys.sales(seller), 0, -this.settings.salesKeep - 1);
          announce(redis, transaction, 'SOLD', item, seller, price);
          if (taskKeys) this.saleTask(transaction, taskKeys, Number(lastTask ?? 0) + 1, sale, seller);
          const done = await transaction.exec();
          return done === null ? undefined : { ...judged, saleId: sale.saleId };
        });
      },
      deadline,
      signal,
    );
  }

  /**
   * The sale's task, as market-purchase.lua writes it and as task-enqueue.lua writes a task
   * without delay or idempotency key at NORMAL priority: the same record fields, ready list and
   * wake-up token. The number was read under WATCH. task-enqueue pushes the token only when the
   * list is empty, which a MULTI cannot ask; pushing and trimming to one leaves the same list.
   * The queue's limit (TASK_MAX_PER_QUEUE) is not checked: a sale that happened must have its
   * task, and the sales themselves bound the queue (one task per sale).
   */
  private saleTask(transaction: ChainableCommander, keys: string[], number: number, sale: Sale, seller: string): void {
    const [seq, meta, args, ready, wake] = keys;
    const now = sale.soldAt;
    const record = {
      name: this.settings.saleTask,
      priority: 'NORMAL',
      state: 'WAITING',
      runAt: now,
      attempts: 0,
      maxAttempts: this.settings.taskMaxAttempts,
      createdAt: now,
    };
    const taskArgs = { saleId: sale.saleId, item: sale.itemId, seller, buyer: sale.buyerId, price: sale.price };
    transaction
      .incr(seq)
      .hset(meta, number, JSON.stringify(record))
      .hset(args, number, JSON.stringify(taskArgs))
      .rpush(ready, number)
      .rpush(wake, '1')
      .ltrim(wake, 0, 0);
  }

  delist(seller: string, item: string, signal?: AbortSignal): Promise<ChangeReport> {
    return this.changing(seller, item, signal, (transaction, redis, before) => {
      transaction.zrem(marketKeys.listings(), listingMember(item, seller)).zadd(marketKeys.inventory(seller), 0, item);
      announce(redis, transaction, 'DELISTED', item, seller, before);
    });
  }

  reprice(seller: string, item: string, price: number, signal?: AbortSignal): Promise<ChangeReport> {
    return this.changing(seller, item, signal, (transaction, redis) => {
      transaction.zadd(marketKeys.listings(), 'XX', price, listingMember(item, seller));
      announce(redis, transaction, 'REPRICED', item, seller, price);
    });
  }

  /** Reads the seller's listing under WATCH and, when there is one, writes `change` in a MULTI. */
  private changing(
    seller: string,
    item: string,
    signal: AbortSignal | undefined,
    change: (transaction: ChainableCommander, redis: RedisClient, before: number) => void,
  ): Promise<ChangeReport> {
    const listings = marketKeys.listings();
    const deadline = performance.now() + this.retryForMs;
    return this.pool.use(
      async (redis) => {
        return this.retrying(deadline, signal, async () => {
          await redis.watch(listings);
          const listed = await redis.zscore(listings, listingMember(item, seller));
          if (listed === null) {
            await redis.unwatch();
            return { before: undefined };
          }
          const transaction = redis.multi();
          change(transaction, redis, Number(listed));
          const done = await transaction.exec();
          return done === null ? undefined : { before: Number(listed) };
        });
      },
      deadline,
      signal,
    );
  }

  /** Runs `attempt` until it returns a result (undefined: EXEC was aborted), counting retries. */
  private async retrying<T extends object>(
    deadline: number,
    signal: AbortSignal | undefined,
    attempt: () => Promise<T | undefined>,
  ): Promise<T & { retries: number }> {
    for (let retries = 0; ; retries += 1) {
      const result = await attempt();
      if (result !== undefined) return { ...result, retries };
      if (performance.now() >= deadline || signal?.aborted) {
        throw conflict(`the market is busy (gave up after ${retries + 1} attempts); try again`);
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** Adds the marketChanged notice to a MULTI, as the scripts' NOTIFY would publish it. */
function announce(
  redis: RedisClient,
  transaction: ChainableCommander,
  kind: MarketChange,
  itemId: string,
  sellerId: string,
  price: number,
): ChainableCommander {
  const notice: MarketNotice = { kind, itemId, sellerId, price };
  const json = JSON.stringify(notice);
  return redis.isCluster
    ? transaction.spublish(marketKeys.changed(), json)
    : transaction.publish(marketKeys.changed(), json);
}
