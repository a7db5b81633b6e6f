// The marketplace. Any signed-in caller trades as themselves: lists items from their own
// inventory, delists and reprices their own listings, buys with their own funds and reads their
// own sales. Creating items and funds is for service callers. Every change is announced on
// marketChanged (by the write itself); a seller is told of a sale on their inboxChanged.
import { GraphQLSafeInt } from 'graphql-scalars';
import { Args, Authorized, Ctx, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { SERVICE_ROLE } from '../security/auth';
import type { MarketConfig } from '../config';
import { badInput, notFound } from '../common/errors';
import type { Listing as StoredListing, MarketNotice, MarketRepository } from '../redis/market/repository';
import type { InboxNotifier } from './inbox';
import { isCatchUp, TOPICS, type CatchUpNotice } from '../schema/topics';
import { callerId, type GraphQLContext } from '../schema/context';
import {
  Account,
  DelistItemArgs,
  GrantFundsArgs,
  GrantItemArgs,
  InventoryArgs,
  ListItemArgs,
  Listing,
  MarketArgs,
  MarketNotification,
  MARKET_TOPIC_ID,
  MySalesArgs,
  PurchaseItemArgs,
  PurchaseResult,
  RepriceItemArgs,
  Sale,
} from '../schema/market';
import { intInRange, validName } from '../common/validation';

const MAX_GRANT = 1_000_000_000;
const MAX_SALE_ID = Number.MAX_SAFE_INTEGER;

@Resolver()
export class MarketResolver {
  constructor(
    private readonly repository: MarketRepository,
    private readonly settings: MarketConfig,
    private readonly inbox: InboxNotifier,
  ) {}

  @Authorized()
  @Mutation(() => Boolean, {
    description:
      "Moves an item from the caller's inventory to the market at `price`. NOT_FOUND when the caller does not hold it.",
  })
  async listItem(@Args() args: ListItemArgs, @Ctx() context: GraphQLContext): Promise<boolean> {
    const item = validName(args.itemId, 'itemId');
    const price = intInRange(args.price, 'price', 1, this.settings.maxPrice);
    const { listed } = await this.repository.list(callerId(context), item, price, context.signal);
    if (!listed) throw notFound('you do not hold this item (it may be listed already)', 'itemId');
    return true;
  }

  @Authorized()
  @Mutation(() => PurchaseResult, {
    description:
      "Buys a listed item: the price moves from the caller's funds to the seller's, the item to the caller's inventory; only if it is still listed by that seller at `price` and the caller has the funds. Buying your own listing is BAD_USER_INPUT.",
  })
  async purchaseItem(@Args() args: PurchaseItemArgs, @Ctx() context: GraphQLContext): Promise<PurchaseResult> {
    const item = validName(args.itemId, 'itemId');
    const seller = validName(args.sellerId, 'sellerId');
    const price = intInRange(args.price, 'price', 1, this.settings.maxPrice);
    const report = await this.repository.purchase({ buyer: callerId(context), seller, item, price }, context.signal);
    if (report.saleId !== undefined) this.inbox.sale(seller, report.saleId);
    return {
      outcome: report.outcome,
      itemId: item,
      sellerId: seller,
      listedPrice: report.listedPrice ?? null,
      funds: report.funds,
      saleId: report.saleId ?? null,
    };
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description:
      "Takes the caller's listing off the market and puts the item back in their inventory. NOT_FOUND when the caller has no listing of it (sold, never listed, or listed by someone else).",
  })
  async delistItem(@Args() args: DelistItemArgs, @Ctx() context: GraphQLContext): Promise<boolean> {
    const item = validName(args.itemId, 'itemId');
    await this.repository.delist(callerId(context), item, context.signal);
    return true;
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description:
      "Sets a new price on the caller's listing; a purchase at the old price from then on is PRICE_CHANGED. NOT_FOUND when the caller has no listing of it (sold, never listed, or listed by someone else).",
  })
  async repriceItem(@Args() args: RepriceItemArgs, @Ctx() context: GraphQLContext): Promise<boolean> {
    const item = validName(args.itemId, 'itemId');
    const price = intInRange(args.price, 'price', 1, this.settings.maxPrice);
    await this.repository.reprice(callerId(context), item, price, context.signal);
    return true;
  }

  @Authorized()
  @Query(() => [Sale], {
    description: "The caller's sales, newest first; the newest MARKET_SALES_KEEP (default 1000) are kept.",
  })
  async mySales(@Args() { first, after }: MySalesArgs, @Ctx() context: GraphQLContext): Promise<Sale[]> {
    const count = intInRange(first, 'first', 1, this.settings.maxPage);
    const before = after === null || after === undefined ? undefined : intInRange(after, 'after', 1, MAX_SALE_ID);
    return this.repository.sales(callerId(context), count, before);
  }

  @Authorized()
  @Subscription(() => MarketNotification, {
    description:
      'Tells of every change in the market: LISTED, SOLD, DELISTED, REPRICED, with the item, its seller and a price; pull `market` for the rest. Notifications may be dropped under load; the pull is the source of truth.',
    topics: TOPICS.marketChanged.name,
    topicId: () => MARKET_TOPIC_ID,
  })
  marketChanged(@Root() notice: MarketNotice | CatchUpNotice): MarketNotification {
    // No item: kind CATCH_UP with empty ids; a client that pulls on every notice does so.
    if (isCatchUp(notice)) return { kind: 'CATCH_UP', itemId: '', sellerId: '', price: 0, catchUp: true };
    return { ...notice, catchUp: false };
  }

  @Authorized()
  @Query(() => [Listing], { description: 'Listings, cheapest first (then by item and seller).' })
  async market(@Args() { first, after }: MarketArgs): Promise<Listing[]> {
    const count = intInRange(first, 'first', 1, this.settings.maxPage);
    const listings = await this.repository.page(
      count,
      after === null || after === undefined ? undefined : decodeCursor(after),
    );
    return listings.map((listing) => ({
      itemId: listing.item,
      sellerId: listing.seller,
      price: listing.price,
      cursor: encodeCursor(listing),
    }));
  }

  @Authorized()
  @Query(() => [String], { description: "The caller's items in name order (not those listed in the market)." })
  async inventory(@Args() { first, after }: InventoryArgs, @Ctx() context: GraphQLContext): Promise<string[]> {
    const count = intInRange(first, 'first', 1, this.settings.maxPage);
    const from = after === null || after === undefined ? undefined : validName(after, 'after');
    return this.repository.inventory(callerId(context), count, from);
  }

  @Authorized()
  @Query(() => Account, { description: "The caller's funds and item count." })
  async me(@Ctx() context: GraphQLContext): Promise<Account> {
    const userId = callerId(context);
    return { userId, ...(await this.repository.account(userId)) };
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => Boolean, {
    description:
      "Creates an item in a user's inventory. CONFLICT when the id exists or the inventory holds MARKET_MAX_INVENTORY items. Service callers only.",
  })
  async grantItem(@Args() args: GrantItemArgs): Promise<boolean> {
    await this.repository.grantItem(validName(args.userId, 'userId'), validName(args.itemId, 'itemId'));
    return true;
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => GraphQLSafeInt, {
    description:
      "Adds to a user's funds and returns the new balance. CONFLICT beyond MARKET_MAX_FUNDS. Service callers only.",
  })
  async grantFunds(@Args() args: GrantFundsArgs): Promise<number> {
    return this.repository.grantFunds(
      validName(args.userId, 'userId'),
      intInRange(args.amount, 'amount', 1, MAX_GRANT),
    );
  }
}

// A cursor names the last listing seen; it stays valid whatever is bought or listed meanwhile.
function encodeCursor(listing: StoredListing): string {
  return Buffer.from(`${listing.price}:${listing.item}:${listing.seller}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): StoredListing {
  const text = cursor.length <= 1024 ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const parts = text.split(':');
  const invalid = badInput('after must be the cursor of a listing', 'after');
  if (parts.length !== 3 || !/^[1-9][0-9]{0,9}$/.test(parts[0])) throw invalid;
  try {
    return { price: Number(parts[0]), item: validName(parts[1], 'after'), seller: validName(parts[2], 'after') };
  } catch {
    throw invalid;
  }
}
