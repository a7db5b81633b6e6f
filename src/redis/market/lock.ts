// LOCK, the book's fine-grained locking (section 6.2): a purchase holds the item's lock and the
// buyer's funds lock, a listing the item's lock (the product's own fair locks, leases/acquirer.ts).
// Under the locks the write itself re-checks the listing and the funds: the book wrote what it
// read, so a holder that stalled past its lock's time sold an item twice; here it finds it gone.
// Delisting and repricing hold the item's lock too, so they wait for a purchase of the item and
// a purchase waits for them; the write (SCRIPT's scripts) records sales and announces changes.
import type { RedisClient } from '../client/connection';
import { conflict } from '../../common/errors';
import { listingMember, marketKeys } from '../keys';
import { repliesOf } from '../client/replies';
import type { Lease } from '../leases/repository';
import type { LeaseAcquirer } from '../leases/acquirer';
import {
  judgePurchase,
  type ChangeReport,
  type ListReport,
  type MarketStrategy,
  type PurchaseReport,
  type PurchaseRequest,
} from './repository';
import { ScriptStrategy, type WriteSettings } from './script';

export interface LockTiming {
  /** How long a lock is held at most, in case its holder dies (the book's lock_timeout). */
  ttlMs: number;
  /** How long a caller waits for a lock before CONFLICT (the book's acquire_timeout). */
  waitMs: number;
}

// Lock names hold a colon, which names from clients never do, so a client's own lock can never
// be one of these.
const itemLock = (item: string): string => `market:item:${item}`;
const fundsLock = (user: string): string => `market:funds:${user}`;

export class LockStrategy implements MarketStrategy {
  readonly name = 'LOCK';

  /** The atomic check-and-write done under the locks. */
  private readonly write: ScriptStrategy;

  constructor(
    private readonly redis: RedisClient,
    private readonly locks: LeaseAcquirer,
    private readonly timing: LockTiming,
    settings: WriteSettings,
  ) {
    this.write = new ScriptStrategy(redis, settings);
  }

  // Both calls read first and lock only when the call can succeed: a refusal read from a
  // consistent snapshot is as true as one read under the lock, and a lock leaves its fencing
  // counter behind for good, so a name must not be locked just because a client typed it.

  async list(seller: string, item: string, price: number, signal?: AbortSignal): Promise<ListReport> {
    if ((await this.redis.zscore(marketKeys.inventory(seller), item)) === null) return { listed: false, retries: 0 };
    return this.holding([itemLock(item)], signal, () => this.write.list(seller, item, price));
  }

  async purchase(request: PurchaseRequest, signal?: AbortSignal): Promise<PurchaseReport> {
    const { buyer, seller, item, price } = request;
    const replies = await repliesOf(
      this.redis
        .multi()
        .zscore(marketKeys.listings(), listingMember(item, seller))
        .hget(marketKeys.user(buyer), 'funds')
        .exec(),
    );
    const early = judgePurchase(replies[0] as string | null, replies[1] as string | null, price);
    if (early.outcome !== 'PURCHASED') return { ...early, retries: 0 };
    return this.holding([itemLock(item), fundsLock(buyer)], signal, () => this.write.purchase(request));
  }

  async delist(seller: string, item: string, signal?: AbortSignal): Promise<ChangeReport> {
    if (!(await this.isListed(seller, item))) return { before: undefined, retries: 0 };
    return this.holding([itemLock(item)], signal, () => this.write.delist(seller, item));
  }

  async reprice(seller: string, item: string, price: number, signal?: AbortSignal): Promise<ChangeReport> {
    if (!(await this.isListed(seller, item))) return { before: undefined, retries: 0 };
    return this.holding([itemLock(item)], signal, () => this.write.reprice(seller, item, price));
  }

  private async isListed(seller: string, item: string): Promise<boolean> {
    return (await this.redis.zscore(marketKeys.listings(), listingMember(item, seller))) !== null;
  }

  /**
   * Runs `work` holding every lock in `names`, taken in name order so that two callers never
   * wait for each other. A lock that is free is taken at once; one that is not counts a retry
   * and is waited for.
   */
  private async holding<T extends { retries: number }>(
    names: string[],
    signal: AbortSignal | undefined,
    work: () => Promise<T>,
  ): Promise<T> {
    const held: Lease[] = [];
    let retries = 0;
    try {
      for (const name of [...names].sort()) {
        const request = { name, limit: 1, ttlMs: this.timing.ttlMs, owner: 'market' };
        let lease = await this.locks.acquire({ ...request, waitMs: 0 }, signal);
        if (!lease) {
          retries += 1;
          lease = await this.locks.acquire({ ...request, waitMs: this.timing.waitMs }, signal);
        }
        if (!lease) throw conflict('the market is busy (an item or account stayed locked); try again');
        held.push(lease);
      }
      return { ...(await work()), retries };
    } finally {
      await Promise.all(held.map((lease) => this.locks.repository.release(lease.name, lease.id).catch(() => false)));
    }
  }

  async close(): Promise<void> {}
}
