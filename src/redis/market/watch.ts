// WATCH, the book's optimistic strategy (section 4.4): read under WATCH, write in MULTI/EXEC, and
// start again whenever another caller wrote a watched key first. Each caller needs a connection
// of its own for this, so they come from a pool. Kept for comparison: under load most attempts
// are thrown away (bench/market.ts). Notices are published inside the MULTI (PUBLISH, or SPUBLISH
// on a cluster: the channel carries the market's tag), so an aborted attempt announces nothing.
import type { ChainableCommander } from 'ioredis';
import { conflict } from '../../common/errors';
import type { Logger } from '../../common/logger';
import type { RedisClient } from '../client/connection';
import type { ConnectionPool } from '../client/connection-pool';
import { listingMember, marketKeys } from '../keys';
import { repliesOf } from '../client/replies';
import { scriptText } from '../client/scripts';
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
    /** Where a fault inside an applied transaction is reported. */
    private readonly logger?: Logger,
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
          // The sale counter is watched so that the id read here is the one the MULTI takes: two
          // purchases never share a sale id, and an aborted one takes none. Every purchase writes
          // the listings anyway, so this costs no extra aborts between them. (The sale's task
          // takes its number inside the MULTI.)
          await redis.watch(listings, marketKeys.user(buyer), saleIds);
          const reads = redis
            .pipeline()
            .zscore(listings, member)
            .hget(marketKeys.user(buyer), 'funds')
            .hget(marketKeys.user(seller), 'funds')
            .get(saleIds)
            .time();
          const [listed, funds, sellerFunds, lastSale, time] = await repliesOf(reads.exec());
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
          if (taskKeys) this.saleTask(redis, transaction, taskKeys, sale, seller);
          const done = await transaction.exec();
          if (done === null) return undefined;
          // A command of an applied transaction that failed (the task's script on a key of the
          // wrong type, say) is a fault of the store, not of this purchase: the money and the item
          // have moved and SOLD was announced, so the buyer is told so (a retry would only find the
          // item gone) and the operator hears of what is missing, at error level.
          const failed = done.flatMap(([error], index) => (error ? [{ index, message: error.message }] : []));
          if (failed.length > 0) {
            this.logger?.error(
              { saleId: sale.saleId, item, seller, failed },
              'market purchase applied with a failed command',
            );
          }
          return { ...judged, saleId: sale.saleId };
        });
      },
      deadline,
      signal,
    );
  }

  /**
   * The sale's task, written by the Lua that writes it for market-purchase.lua
   * (market-sale-task.lua), run inside this MULTI: it is applied with the sale or not at all. It
   * is sent whole (EVAL): an EVALSHA the server no longer knew would fail at EXEC alone, after
   * the sale was applied. The script takes the task's number itself, so nothing of the queue
   * needs to be read or watched first.
   */
  private saleTask(
    redis: RedisClient,
    transaction: ChainableCommander,
    keys: string[],
    sale: Sale,
    seller: string,
  ): void {
    const { saleTask, taskMaxAttempts } = this.settings;
    transaction.eval(
      scriptText(redis, 'market-sale-task'),
      keys.length,
      ...keys,
      saleTask ?? '',
      taskMaxAttempts,
      sale.soldAt,
      sale.saleId,
      sale.itemId,
      seller,
      sale.buyerId,
      sale.price,
    );
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
