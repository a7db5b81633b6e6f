// WATCH, the book's optimistic strategy (section 4.4): read under WATCH, write in MULTI/EXEC, and
// start again whenever another caller wrote a watched key first. Each caller needs a connection
// of its own for this, so they come from a pool. Kept for comparison: under load most attempts
// are thrown away (bench/market.ts).
import { conflict } from '../../common/errors';
import type { ConnectionPool } from '../client/connection-pool';
import { listingMember, marketKeys } from '../keys';
import { repliesOf } from '../client/replies';
import {
  judgePurchase,
  type ListReport,
  type MarketStrategy,
  type PurchaseReport,
  type PurchaseRequest,
} from './repository';

export class WatchStrategy implements MarketStrategy {
  readonly name = 'WATCH';

  constructor(
    private readonly pool: ConnectionPool,
    /** How long one call waits for a connection and retries, together, before CONFLICT (the book gives up after 10 s). */
    private readonly retryForMs: number,
    /** MARKET_MAX_FUNDS: no sale takes a seller's balance beyond it. */
    private readonly maxFunds: number,
  ) {}

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
          const done = await redis
            .multi()
            .zadd(marketKeys.listings(), price, listingMember(item, seller))
            .zrem(inventory, item)
            .exec();
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
    const deadline = performance.now() + this.retryForMs;
    return this.pool.use(
      async (redis) => {
        return this.retrying(deadline, signal, async () => {
          await redis.watch(listings, marketKeys.user(buyer));
          const [listed, funds, sellerFunds] = await repliesOf(
            redis
              .pipeline()
              .zscore(listings, member)
              .hget(marketKeys.user(buyer), 'funds')
              .hget(marketKeys.user(seller), 'funds')
              .exec(),
          );
          let judged: ReturnType<typeof judgePurchase>;
          try {
            judged = judgePurchase(listed as string | null, funds as string | null, price, {
              fundsText: sellerFunds as string | null,
              maxFunds: this.maxFunds,
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
          const done = await redis
            .multi()
            .hincrby(marketKeys.user(seller), 'funds', price)
            .hincrby(marketKeys.user(buyer), 'funds', -price)
            .zadd(marketKeys.inventory(buyer), 0, item)
            .zrem(listings, member)
            .exec();
          return done === null ? undefined : judged;
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
