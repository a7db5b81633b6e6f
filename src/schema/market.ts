// GraphQL types of the marketplace.
import { GraphQLSafeInt } from 'graphql-scalars';
import { ArgsType, Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import {
  MARKET_CHANGES,
  PURCHASE_OUTCOMES,
  type MarketChange as Change,
  type PurchaseOutcome as Outcome,
} from '../redis/market/repository';
import { NAME_RULE } from '../common/validation';
import { enumOf } from './enums';
import { CATCH_UP_FIELD } from './topics';

const PurchaseOutcome = enumOf(PURCHASE_OUTCOMES);

registerEnumType(PurchaseOutcome, {
  name: 'PurchaseOutcome',
  description:
    'PURCHASED; ITEM_GONE (not listed by that seller any more: sold or never listed); PRICE_CHANGED (listed at another price, see listedPrice); INSUFFICIENT_FUNDS. Only PURCHASED changed anything.',
});

const MarketChange = enumOf([...MARKET_CHANGES, 'CATCH_UP'] as const);

registerEnumType(MarketChange, {
  name: 'MarketChange',
  description:
    'LISTED (put up for sale, at price); SOLD (bought, for price); DELISTED (taken back by its seller; price is what it was listed at); REPRICED (now at price); CATCH_UP (notices may have been missed: pull `market`; itemId and sellerId empty, price 0).',
});

/** The one id of the marketChanged topic: the whole market is one channel. */
export const MARKET_TOPIC_ID = 'market';

@ObjectType({ description: 'A change in the market. Only ids and numbers: pull `market` for the listings.' })
export class MarketNotification {
  @Field(() => MarketChange)
  kind!: Change | 'CATCH_UP';

  @Field(() => ID)
  itemId!: string;

  @Field(() => ID)
  sellerId!: string;

  @Field(() => Int)
  price!: number;

  @Field({ description: CATCH_UP_FIELD })
  catchUp!: boolean;
}

@ObjectType({ description: 'A sale of one of your listings.' })
export class Sale {
  @Field(() => GraphQLSafeInt, {
    description: 'Sale ids grow with every sale in the market: newer sales have larger ids.',
  })
  saleId!: number;

  @Field(() => ID)
  itemId!: string;

  @Field(() => ID)
  buyerId!: string;

  @Field(() => Int)
  price!: number;

  @Field(() => Float, { description: 'When it was sold, unix ms by the Redis server clock.' })
  soldAt!: number;
}

@ObjectType({ description: 'An item for sale.' })
export class Listing {
  @Field(() => ID)
  itemId!: string;

  @Field(() => ID)
  sellerId!: string;

  @Field(() => Int)
  price!: number;

  @Field({ description: 'Pass as `after` to get the listings that follow this one.' })
  cursor!: string;
}

@ObjectType({ description: 'What became of a purchase.' })
export class PurchaseResult {
  @Field(() => PurchaseOutcome)
  outcome!: Outcome;

  @Field(() => ID)
  itemId!: string;

  @Field(() => ID)
  sellerId!: string;

  @Field(() => Int, {
    nullable: true,
    description: "The listing's price, when the item is still listed or was just bought.",
  })
  listedPrice?: number | null;

  @Field(() => GraphQLSafeInt, { description: "The buyer's funds afterwards." })
  funds!: number;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description: 'PURCHASED only: the id of the sale, as its seller sees it in mySales.',
  })
  saleId?: number | null;
}

@ObjectType({ description: "The caller's market account." })
export class Account {
  @Field(() => ID)
  userId!: string;

  @Field(() => GraphQLSafeInt)
  funds!: number;

  @Field(() => Int, { description: 'Items held (listed items are in the market, not here).' })
  items!: number;
}

const ITEM = `Item id: ${NAME_RULE}. Unique across the market.`;
const PRICE = 'A whole number from 1 to MARKET_MAX_PRICE (default 1,000,000,000).';

@ArgsType()
export class ListItemArgs {
  @Field(() => ID, { description: ITEM })
  itemId!: string;

  @Field(() => Int, { description: PRICE })
  price!: number;
}

@ArgsType()
export class PurchaseItemArgs {
  @Field(() => ID, { description: ITEM })
  itemId!: string;

  @Field(() => ID, { description: 'Who listed it.' })
  sellerId!: string;

  @Field(() => Int, { description: `The price the buyer saw. ${PRICE}` })
  price!: number;
}

@ArgsType()
export class DelistItemArgs {
  @Field(() => ID, { description: ITEM })
  itemId!: string;
}

@ArgsType()
export class RepriceItemArgs {
  @Field(() => ID, { description: ITEM })
  itemId!: string;

  @Field(() => Int, { description: `The new price. ${PRICE}` })
  price!: number;
}

@ArgsType()
export class MySalesArgs {
  @Field(() => Int, { defaultValue: 20, description: 'Most sales returned, 1 to MARKET_PAGE_MAX (default 100).' })
  first!: number;

  @Field(() => GraphQLSafeInt, { nullable: true, description: 'The saleId of the last sale of the previous page.' })
  after?: number | null;
}

@ArgsType()
export class MarketArgs {
  @Field(() => Int, { defaultValue: 20, description: 'Most listings returned, 1 to MARKET_PAGE_MAX (default 100).' })
  first!: number;

  @Field(() => String, { nullable: true, description: 'The `cursor` of the last listing of the previous page.' })
  after?: string | null;
}

@ArgsType()
export class InventoryArgs {
  @Field(() => Int, { defaultValue: 20, description: 'Most items returned, 1 to MARKET_PAGE_MAX (default 100).' })
  first!: number;

  @Field(() => ID, { nullable: true, description: 'The last item id of the previous page.' })
  after?: string | null;
}

@ArgsType()
export class GrantItemArgs {
  @Field(() => ID, { description: `The user: ${NAME_RULE}.` })
  userId!: string;

  @Field(() => ID, { description: ITEM })
  itemId!: string;
}

@ArgsType()
export class GrantFundsArgs {
  @Field(() => ID, { description: `The user: ${NAME_RULE}.` })
  userId!: string;

  @Field(() => Int, {
    description: 'A whole number from 1 to 1,000,000,000 added to the balance (which may reach MARKET_MAX_FUNDS).',
  })
  amount!: number;
}
