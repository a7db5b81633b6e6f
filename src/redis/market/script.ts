// SCRIPT, the default market strategy: each listing, purchase, delisting and repricing is one Lua
// script, so it takes one round trip, never waits for another caller and never retries.
import type { RedisClient } from '../client/connection';
import { listingMember, marketKeys } from '../keys';
import {
  PURCHASE_OUTCOMES,
  saleTaskKeys,
  type ChangeReport,
  type ListReport,
  type MarketStrategy,
  type PurchaseReport,
  type PurchaseRequest,
  type SaleSettings,
} from './repository';
import { runScript } from '../client/scripts';

export interface WriteSettings extends SaleSettings {
  /** MARKET_MAX_FUNDS: no sale takes a seller's balance beyond it. */
  maxFunds: number;
}

export class ScriptStrategy implements MarketStrategy {
  readonly name = 'SCRIPT';

  /** Built once: the same on every purchase. */
  private readonly taskKeys: string[];

  constructor(
    private readonly redis: RedisClient,
    private readonly settings: WriteSettings,
  ) {
    this.taskKeys = settings.saleTask === undefined ? [] : saleTaskKeys();
  }

  async list(seller: string, item: string, price: number): Promise<ListReport> {
    const listed = await runScript(
      this.redis,
      'market-list',
      [marketKeys.inventory(seller), marketKeys.listings()],
      [item, listingMember(item, seller), price, seller, marketKeys.changed()],
    );
    return { listed: listed === 1, retries: 0 };
  }

  async purchase({ buyer, seller, item, price }: PurchaseRequest): Promise<PurchaseReport> {
    const { maxFunds, salesKeep, saleTask, taskMaxAttempts } = this.settings;
    const [code, funds, listed, sale] = (await runScript(
      this.redis,
      'market-purchase',
      [
        marketKeys.listings(),
        marketKeys.user(buyer),
        marketKeys.user(seller),
        marketKeys.inventory(buyer),
        marketKeys.saleIds(),
        marketKeys.sales(seller),
        ...this.taskKeys,
      ],
      [
        listingMember(item, seller),
        item,
        price,
        maxFunds,
        seller,
        buyer,
        salesKeep,
        marketKeys.changed(),
        saleTask ?? '',
        taskMaxAttempts,
      ],
    )) as [number, number, number, number];
    return {
      outcome: PURCHASE_OUTCOMES[code],
      funds,
      listedPrice: listed < 0 ? undefined : listed,
      retries: 0,
      saleId: sale > 0 ? sale : undefined,
    };
  }

  async delist(seller: string, item: string): Promise<ChangeReport> {
    const before = Number(
      await runScript(
        this.redis,
        'market-delist',
        [marketKeys.listings(), marketKeys.inventory(seller)],
        [listingMember(item, seller), item, seller, marketKeys.changed()],
      ),
    );
    return { before: before < 0 ? undefined : before, retries: 0 };
  }

  async reprice(seller: string, item: string, price: number): Promise<ChangeReport> {
    const before = Number(
      await runScript(
        this.redis,
        'market-reprice',
        [marketKeys.listings()],
        [listingMember(item, seller), price, item, seller, marketKeys.changed()],
      ),
    );
    return { before: before < 0 ? undefined : before, retries: 0 };
  }

  async close(): Promise<void> {}
}
