// The marketplace (book sections 4.4 and 6.2): users hold funds and items, the market lists
// items by price. Listing and buying go through one of three interchangeable strategies
// (MARKET_STRATEGY): the book's WATCH/MULTI/EXEC with retries, the book's lock per item, or one
// Lua script (the default). Reads and the service's grants are the same for all three. Every
// change is announced on marketChanged, and a purchase records its sale for the seller (and its
// task, with MARKET_SALE_TASK) in the same atomic step as the purchase.
import type { RedisClient } from '../client/connection';
import { badInput, conflict, notFound } from '../../common/errors';
import { listingMember, MARKET_SALES_QUEUE, marketKeys, queueKeys, TASK_PRIORITIES } from '../keys';
import { repliesOf } from '../client/replies';
import { runScript } from '../client/scripts';

export const MARKET_STRATEGIES = ['SCRIPT', 'WATCH', 'LOCK'] as const;
export type MarketStrategyName = (typeof MARKET_STRATEGIES)[number];

/** In the order market-purchase.lua numbers its outcomes (0-based). */
export const PURCHASE_OUTCOMES = ['PURCHASED', 'ITEM_GONE', 'PRICE_CHANGED', 'INSUFFICIENT_FUNDS'] as const;
export type PurchaseOutcome = (typeof PURCHASE_OUTCOMES)[number];

export interface PurchaseRequest {
  buyer: string;
  seller: string;
  item: string;
  /** The price the buyer saw and agrees to pay. */
  price: number;
}

export interface PurchaseReport {
  outcome: PurchaseOutcome;
  /** The buyer's funds afterwards. */
  funds: number;
  /** The listing's price when it is still listed (PRICE_CHANGED, INSUFFICIENT_FUNDS, PURCHASED). */
  listedPrice: number | undefined;
  /** Attempts thrown away because of other callers (WATCH aborts, waits for a lock). */
  retries: number;
  /** PURCHASED only: the sale's id, from the market's counter of sales. */
  saleId?: number;
}

export interface ListReport {
  /** False when the seller does not hold the item. */
  listed: boolean;
  retries: number;
}

export interface ChangeReport {
  /** The price the listing had before the change; undefined when the seller has no such listing. */
  before: number | undefined;
  retries: number;
}

/** The kinds of marketChanged notices, in the `kind` field. */
export const MARKET_CHANGES = ['LISTED', 'SOLD', 'DELISTED', 'REPRICED'] as const;
export type MarketChange = (typeof MARKET_CHANGES)[number];

/** A change in the market: ids and numbers only; subscribers pull the market to see more. */
export interface MarketNotice {
  kind: MarketChange;
  itemId: string;
  sellerId: string;
  /** LISTED, REPRICED: the new price; SOLD: what it sold for; DELISTED: what it was listed at. */
  price: number;
}

/** How listing and buying are carried out; every strategy gives the same results. */
export interface MarketStrategy {
  readonly name: MarketStrategyName;
  list(seller: string, item: string, price: number, signal?: AbortSignal): Promise<ListReport>;
  purchase(request: PurchaseRequest, signal?: AbortSignal): Promise<PurchaseReport>;
  /** Takes the seller's own listing off the market, back into their inventory. */
  delist(seller: string, item: string, signal?: AbortSignal): Promise<ChangeReport>;
  /** Sets a new price on the seller's own listing. */
  reprice(seller: string, item: string, price: number, signal?: AbortSignal): Promise<ChangeReport>;
  close(): Promise<void>;
}

export interface Listing {
  item: string;
  seller: string;
  price: number;
}

/** A sale as the seller reads it (mySales); stored as JSON with these fields. */
export interface Sale {
  saleId: number;
  itemId: string;
  buyerId: string;
  price: number;
  /** Unix ms, by the Redis server's clock. */
  soldAt: number;
}

/** What every strategy's purchase writes besides the purchase itself. */
export interface SaleSettings {
  /** MARKET_SALES_KEEP: the newest sales kept per seller. */
  salesKeep: number;
  /** MARKET_SALE_TASK: the task enqueued on the market-sales queue for each sale; undefined for none. */
  saleTask: string | undefined;
  /** TASK_MAX_ATTEMPTS, for the sale task's record. */
  taskMaxAttempts: number;
}

/** The market-sales queue's keys a purchase writes its task to: counter, records, arguments, NORMAL ready list, wake-up list. */
export function saleTaskKeys(): string[] {
  const keys = queueKeys(MARKET_SALES_QUEUE);
  return [keys.seq, keys.meta, keys.args, keys.lists[TASK_PRIORITIES.indexOf('NORMAL') * 2 + 1], keys.workerWake];
}

export interface MarketSettings {
  /** Largest balance: a grant or a sale that would go beyond it is refused. */
  maxFunds: number;
  /** Most items a grant may bring one inventory to. */
  maxInventory: number;
}

/** NOT_FOUND when there was no listing: as for listItem, not listed and listed by someone else look alike. */
function changed(report: ChangeReport): ChangeReport {
  if (report.before === undefined) throw notFound('you have no listing of this item', 'itemId');
  return report;
}

/**
 * What a purchase comes to, from the listing's price and the buyer's funds as read: the rule that
 * market-purchase.lua applies, in the same order, for the strategies that read before writing.
 * With the seller's funds, a sale that would take them beyond `maxFunds` is CONFLICT.
 */
export function judgePurchase(
  listed: string | null,
  fundsText: string | null,
  price: number,
  seller?: { fundsText: string | null; maxFunds: number },
): Omit<PurchaseReport, 'retries'> {
  const funds = Number(fundsText ?? 0);
  if (listed === null) return { outcome: 'ITEM_GONE', funds, listedPrice: undefined };
  const listedPrice = Number(listed);
  if (listedPrice !== price) return { outcome: 'PRICE_CHANGED', funds, listedPrice };
  if (funds < listedPrice) return { outcome: 'INSUFFICIENT_FUNDS', funds, listedPrice };
  if (seller && Number(seller.fundsText ?? 0) + listedPrice > seller.maxFunds) {
    throw conflict(`the seller's balance would exceed MARKET_MAX_FUNDS (${seller.maxFunds})`, 'sellerId');
  }
  return { outcome: 'PURCHASED', funds: funds - listedPrice, listedPrice };
}

export function parseListingMember(member: string): { item: string; seller: string } {
  const at = member.indexOf(' ');
  return { item: member.slice(0, at), seller: member.slice(at + 1) };
}

export class MarketRepository {
  constructor(
    private readonly redis: RedisClient,
    readonly strategy: MarketStrategy,
    private readonly settings: MarketSettings,
  ) {}

  list(seller: string, item: string, price: number, signal?: AbortSignal): Promise<ListReport> {
    return this.strategy.list(seller, item, price, signal);
  }

  async purchase(request: PurchaseRequest, signal?: AbortSignal): Promise<PurchaseReport> {
    if (request.buyer === request.seller) throw badInput('you cannot buy your own listing', 'sellerId');
    return this.strategy.purchase(request, signal);
  }

  /** Fails NOT_FOUND when the seller has no listing of the item (someone else's looks the same). */
  async delist(seller: string, item: string, signal?: AbortSignal): Promise<ChangeReport> {
    return changed(await this.strategy.delist(seller, item, signal));
  }

  /** Fails NOT_FOUND when the seller has no listing of the item (someone else's looks the same). */
  async reprice(seller: string, item: string, price: number, signal?: AbortSignal): Promise<ChangeReport> {
    return changed(await this.strategy.reprice(seller, item, price, signal));
  }

  /** The seller's sales, newest first, older than the sale `before` if given. */
  async sales(seller: string, first: number, before: number | undefined): Promise<Sale[]> {
    const members = await this.redis.zrevrangebyscore(
      marketKeys.sales(seller),
      before === undefined ? '+inf' : `(${before}`,
      '-inf',
      'LIMIT',
      0,
      first,
    );
    return members.map((member) => JSON.parse(member) as Sale);
  }

  async grantItem(user: string, item: string): Promise<void> {
    await runScript(
      this.redis,
      'market-grant-item',
      [marketKeys.items(), marketKeys.inventory(user)],
      [item, this.settings.maxInventory],
    );
  }

  /** The new balance. */
  async grantFunds(user: string, amount: number): Promise<number> {
    return Number(
      await runScript(this.redis, 'market-grant-funds', [marketKeys.user(user)], [amount, this.settings.maxFunds]),
    );
  }

  async account(user: string): Promise<{ funds: number; items: number }> {
    const [funds, items] = await repliesOf(
      this.redis.multi().hget(marketKeys.user(user), 'funds').zcard(marketKeys.inventory(user)).exec(),
    );
    return { funds: Number(funds ?? 0), items: Number(items) };
  }

  /** Items the user holds, in name order, after `after` (an item id) if given. */
  async inventory(user: string, first: number, after: string | undefined): Promise<string[]> {
    const from = after === undefined ? '-' : `(${after}`;
    return this.redis.zrangebylex(marketKeys.inventory(user), from, '+', 'LIMIT', 0, first);
  }

  /** Listings cheapest first (then by item and seller), after the listing `after` if given. */
  async page(first: number, after: Listing | undefined): Promise<Listing[]> {
    const reply = (await runScript(
      this.redis,
      'market-page',
      [marketKeys.listings()],
      after === undefined ? ['', '', first] : [after.price, listingMember(after.item, after.seller), first],
    )) as string[];
    const listings: Listing[] = [];
    for (let i = 0; i + 1 < reply.length; i += 2) {
      listings.push({ ...parseListingMember(reply[i]), price: Number(reply[i + 1]) });
    }
    return listings;
  }
}
