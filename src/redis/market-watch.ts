// WATCH, the book's optimistic strategy (section 4.4): read under WATCH, write in MULTI/EXEC, and
// start again whenever another caller wrote a watched key first. Each caller needs a connection
// of its own for this, so they come from a pool. Kept for comparison: under load most attempts
// are thrown away (bench/market.ts).
import type Redis from 'ioredis';
import { conflict } from '../errors';
import type { ConnectionPool } from './connection-pool';
import { listingMember, marketKeys } from './keys';
import { judgePurchase, type ListReport, type MarketStrategy, type PurchaseReport, type PurchaseRequest } from './market';

export class WatchStrategy implements MarketStrategy {
  readonly name = 'WATCH';

  constructor(
    private readonly pool: ConnectionPool,
    /** How long one call keeps retrying before CONFLICT (the book gives up after 10 s). */
    private readonly retryForMs: number,
  ) {}

  list(seller: string, item: string, price: number, signal?: AbortSignal): Promise<ListReport> {
    const inventory = marketKeys.inventory(seller);
    return this.pool.use(async (redis) => {
      return this.retrying(signal, async () => {
        await redis.watch(inventory);
        if ((await redis.zscore(inventory, item)) === null) {
          await redis.unwatch();
          return { listed: false };
        }
        const done = await redis.multi().zadd(marketKeys.listings(), price, listingMember(item, seller)).zrem(inventory, item).exec();
        return done === null ? undefined : { listed: true };
      });
    });
  }

  purchase({ buyer, seller, item, price }: PurchaseRequest, signal?: AbortSignal): Promise<PurchaseReport> {
    const listings = marketKeys.listings();
    const member = listingMember(item, seller);
    return this.pool.use(async (redis) => {
      return this.retrying(signal, async () => {
        await redis.watch(listings, marketKeys.user(buyer));
        const [listed, funds] = await readListingAndFunds(redis, member, buyer);
        const judged = judgePurchase(listed, funds, price);
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
    });
  }

  /** Runs `attempt` until it returns a result (undefined: EXEC was aborted), counting retries. */
  private async retrying<T extends object>(
    signal: AbortSignal | undefined,
    attempt: () => Promise<T | undefined>,
  ): Promise<T & { retries: number }> {
    const deadline = performance.now() + this.retryForMs;
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

async function readListingAndFunds(redis: Redis, member: string, buyer: string): Promise<[string | null, string | null]> {
  const replies = (await redis.pipeline().zscore(marketKeys.listings(), member).hget(marketKeys.user(buyer), 'funds').exec())!;
  for (const [error] of replies) if (error) throw error;
  return [replies[0][1] as string | null, replies[1][1] as string | null];
}
