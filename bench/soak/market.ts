// The marketplace under load: traders list items from their inventories and buy each other's
// listings, none of it sent again after a lost answer (a purchase has no idempotency key). Whatever
// the faults did, money and items are conserved: the funds of all traders add up to what was
// granted, and every item is in exactly one place, one inventory or one listing.
import { check, sample, type Actor, type Check, type SoakContext } from './actor';
import { setTimeout as sleep } from 'node:timers/promises';

const TRADERS = 6;
const ITEMS_EACH = 6;
const FUNDS_EACH = 100_000;

const GRANT_FUNDS = `mutation($user: ID!, $amount: Int!) { grantFunds(userId: $user, amount: $amount) }`;
const GRANT_ITEM = `mutation($user: ID!, $item: ID!) { grantItem(userId: $user, itemId: $item) }`;
const INVENTORY = `query($after: ID) { inventory(first: 100, after: $after) }`;
const MARKET = `query($after: String) { market(first: 100, after: $after) { cursor itemId sellerId price } }`;
const LIST = `mutation($item: ID!, $price: Int!) { listItem(itemId: $item, price: $price) }`;
const BUY = `mutation($item: ID!, $seller: ID!, $price: Int!) { purchaseItem(itemId: $item, sellerId: $seller, price: $price) { outcome } }`;
const ME = `query { me { funds items } }`;

interface Listing {
  cursor: string;
  itemId: string;
  sellerId: string;
  price: number;
}

export class MarketLoad implements Actor {
  readonly name = 'market';
  private readonly traders: string[];
  private readonly items: string[] = [];
  private readonly counts = { listed: 0, purchased: 0, outcomes: 0, refused: 0, unknown: 0 };
  private final:
    { funds: number; inventories: Map<string, string[]>; listings: Listing[]; itemCounts: number } | undefined;

  constructor(private readonly soak: SoakContext) {
    this.traders = Array.from({ length: TRADERS }, (_, i) => `soak-${soak.runId}-trader${i}`);
  }

  async setup(): Promise<void> {
    const service = this.soak.token('soak-market', true);
    for (const trader of this.traders) {
      const funds = await this.soak.api.call(service, GRANT_FUNDS, { user: trader, amount: FUNDS_EACH }, 'grantFunds');
      if (funds.kind !== 'ok') throw new Error(`grantFunds: ${JSON.stringify(funds)}`);
      for (let i = 0; i < ITEMS_EACH; i++) {
        const item = `${trader}-item${i}`;
        const granted = await this.soak.api.call(service, GRANT_ITEM, { user: trader, item }, 'grantItem');
        if (granted.kind !== 'ok') throw new Error(`grantItem: ${JSON.stringify(granted)}`);
        this.items.push(item);
      }
    }
  }

  async run(stop: () => boolean): Promise<void> {
    await Promise.all(this.traders.map((trader) => this.trade(trader, stop)));
  }

  async drain(): Promise<void> {
    const listings = await this.pages<Listing>(this.soak.token('soak-market', true), MARKET, 'market', (l) => l.cursor);
    const inventories = new Map<string, string[]>();
    let funds = 0;
    let itemCounts = 0;
    for (const trader of this.traders) {
      const token = this.soak.token(trader);
      inventories.set(trader, await this.pages<string>(token, INVENTORY, 'inventory', (id) => id));
      const me = await this.soak.api.call<{ funds: number; items: number }>(token, ME, {}, 'me');
      if (me.kind !== 'ok') throw new Error(`me: ${JSON.stringify(me)}`);
      funds += me.data.funds;
      itemCounts += me.data.items;
    }
    this.final = { funds, inventories, listings: listings.filter((l) => this.items.includes(l.itemId)), itemCounts };
  }

  check(): Check[] {
    if (!this.final) return [check('market: read back', false, 'the final state could not be read')];
    const { funds, inventories, listings, itemCounts } = this.final;
    const places = new Map<string, string[]>();
    for (const [trader, items] of inventories)
      for (const item of items) places.set(item, [...(places.get(item) ?? []), `inventory of ${trader}`]);
    for (const listing of listings)
      places.set(listing.itemId, [...(places.get(listing.itemId) ?? []), `listed by ${listing.sellerId}`]);
    const misplaced = this.items
      .filter((item) => places.get(item)?.length !== 1)
      .map((item) => `${item}: ${places.get(item)?.join(' and ') ?? 'nowhere'}`);
    const held = [...inventories.values()].reduce((n, items) => n + items.length, 0);
    const expected = TRADERS * FUNDS_EACH;
    return [
      check(
        'market: funds conserved',
        funds === expected,
        `${funds} held in all, ${expected} granted; ${this.counts.purchased} purchases`,
      ),
      check(
        'market: every item in exactly one place',
        misplaced.length === 0 && itemCounts === held,
        misplaced.length
          ? sample(misplaced)
          : `${this.items.length} items: ${held} in inventories (me.items says ${itemCounts}), ${listings.length} listed`,
      ),
    ];
  }

  stats(): Record<string, number> {
    return { ...this.counts };
  }

  private async trade(trader: string, stop: () => boolean): Promise<void> {
    const token = this.soak.token(trader);
    while (!stop()) {
      if (this.soak.random() < 0.5) {
        const inventory = await this.soak.api.call<string[]>(token, INVENTORY, { after: null }, 'inventory');
        if (inventory.kind === 'ok' && inventory.data.length > 0) {
          const item = inventory.data[Math.floor(this.soak.random() * inventory.data.length)];
          this.tally(
            await this.soak.api.call(
              token,
              LIST,
              { item, price: 1 + Math.floor(this.soak.random() * 100) },
              'listItem',
            ),
            'listed',
          );
        }
      } else {
        const market = await this.soak.api.call<Listing[]>(token, MARKET, { after: null }, 'market');
        const offers =
          market.kind === 'ok' ? market.data.filter((l) => l.sellerId !== trader && this.items.includes(l.itemId)) : [];
        if (offers.length > 0) {
          const offer = offers[Math.floor(this.soak.random() * offers.length)];
          const bought = await this.soak.api.call<{ outcome: string }>(
            token,
            BUY,
            { item: offer.itemId, seller: offer.sellerId, price: offer.price },
            'purchaseItem',
          );
          if (bought.kind === 'ok' && bought.data.outcome === 'PURCHASED') this.counts.purchased++;
          this.tally(bought, 'outcomes');
        }
      }
      await sleep(30 + this.soak.random() * 70);
    }
  }

  private tally(outcome: { kind: string }, ok: 'listed' | 'outcomes'): void {
    if (outcome.kind === 'ok') this.counts[ok]++;
    else this.counts[outcome.kind === 'refused' ? 'refused' : 'unknown']++;
  }

  private async pages<T>(token: string, query: string, field: string, cursor: (value: T) => string): Promise<T[]> {
    const all: T[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await this.soak.api.call<T[]>(token, query, { after }, field);
      if (page.kind !== 'ok') throw new Error(`${field}: ${JSON.stringify(page)}`);
      all.push(...page.data);
      if (page.data.length < 100) return all;
      after = cursor(page.data.at(-1)!);
    }
  }
}
