// SCRIPT, the default market strategy: each listing and purchase is one Lua script, so it takes
// one round trip, never waits for another caller and never retries.
import type { RedisClient } from '../client/connection';
import { listingMember, marketKeys } from '../keys';
import {
  PURCHASE_OUTCOMES,
  type ListReport,
  type MarketStrategy,
  type PurchaseReport,
  type PurchaseRequest,
} from './repository';
import { runScript } from '../client/scripts';

export class ScriptStrategy implements MarketStrategy {
  readonly name = 'SCRIPT';

  constructor(
    private readonly redis: RedisClient,
    /** MARKET_MAX_FUNDS: no sale takes a seller's balance beyond it. */
    private readonly maxFunds: number,
  ) {}

  async list(seller: string, item: string, price: number): Promise<ListReport> {
    const listed = await runScript(
      this.redis,
      'market-list',
      [marketKeys.inventory(seller), marketKeys.listings()],
      [item, listingMember(item, seller), price],
    );
    return { listed: listed === 1, retries: 0 };
  }

  async purchase({ buyer, seller, item, price }: PurchaseRequest): Promise<PurchaseReport> {
    const [code, funds, listed] = (await runScript(
      this.redis,
      'market-purchase',
      [marketKeys.listings(), marketKeys.user(buyer), marketKeys.user(seller), marketKeys.inventory(buyer)],
      [listingMember(item, seller), item, price, this.maxFunds],
    )) as [number, number, number];
    return { outcome: PURCHASE_OUTCOMES[code], funds, listedPrice: listed < 0 ? undefined : listed, retries: 0 };
  }

  async close(): Promise<void> {}
}
