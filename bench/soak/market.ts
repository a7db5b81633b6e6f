// The marketplace under load: traders list and buy, nothing sent again after a lost answer. Checks:
// funds add up to what was granted; every item is in one place. docs/development.md#soak.
import { check, Load, none, type Check } from './actor';

const TRADERS = 6;
const ITEMS_EACH = 6;
const FUNDS_EACH = 100_000;
const SERVICE = 'soak-market';

const GRANT_FUNDS = `mutation($user: ID!, $amount: Int!) { grantFunds(userId: $user, amount: $amount) }`;
const GRANT_ITEM = `mutation($user: ID!, $item: ID!) { grantItem(userId: $user, itemId: $item) }`;
const INVENTORY = `query($after: ID) { inventory(first: 100, after: $after) }`;
const MARKET = `query($after: String) { market(first: 100, after: $after) { cursor itemId sellerId price } }`;
const LIST = `mutation($item: ID!, $price: Int!) { listItem(itemId: $item, price: $price) }`;
const BUY = `mutation($item: ID!, $seller: ID!, $price: Int!) { purchaseItem(itemId: $item, sellerId: $seller, price: $price) { outcome } }`;
const ME = `query { me { funds items } }`;

type Listing = { cursor: string; itemId: string; sellerId: string; price: number };

export class MarketLoad extends Load {
  readonly name = 'market';
  protected readonly counts = { listed: 0, purchased: 0, outcomes: 0, refused: 0, unknown: 0 };
  private readonly traders = Array.from({ length: TRADERS }, (_, i) => `soak-${this.soak.seed}-trader${i}`);
  private readonly items: string[] = [];
  private final = { funds: 0, inventories: new Map<string, string[]>(), listings: [] as Listing[], itemCounts: 0 };
  private read = false;

  override async setup(): Promise<void> {
    const grant = async (query: string, variables: Record<string, unknown>): Promise<void> => {
      const granted = await this.call(SERVICE, query, variables, true);
      if (granted.kind !== 'ok') throw new Error(`${query}: ${JSON.stringify(granted)}`);
    };
    for (const user of this.traders) {
      await grant(GRANT_FUNDS, { user, amount: FUNDS_EACH });
      for (let i = 0; i < ITEMS_EACH; i++) {
        this.items.push(`${user}-item${i}`);
        await grant(GRANT_ITEM, { user, item: this.items.at(-1) });
      }
    }
  }

  protected clients() {
    return this.traders.map((trader) => () => this.trade(trader));
  }

  override async drain(): Promise<void> {
    const listings = await this.pages<Listing>(SERVICE, true, MARKET, (l) => l.cursor);
    this.final.listings = listings.filter((l) => this.items.includes(l.itemId));
    for (const trader of this.traders) {
      this.final.inventories.set(trader, await this.pages<string>(trader, false, INVENTORY, (id) => id));
      const me = await this.call<{ funds: number; items: number }>(trader, ME);
      if (me.kind !== 'ok') throw new Error(`me: ${JSON.stringify(me)}`);
      this.final.funds += me.data.funds;
      this.final.itemCounts += me.data.items;
    }
    this.read = true;
  }

  check(): Check[] {
    if (!this.read) return [check('market: read back', false, 'the final state could not be read')];
    const { funds, inventories, listings, itemCounts } = this.final;
    const places = new Map<string, string[]>();
    const put = (item: string, place: string): void => void places.set(item, [...(places.get(item) ?? []), place]);
    for (const [trader, items] of inventories) for (const item of items) put(item, `inventory of ${trader}`);
    for (const listing of listings) put(listing.itemId, `listed by ${listing.sellerId}`);
    const misplaced = this.items
      .filter((item) => places.get(item)?.length !== 1)
      .map((item) => `${item}: ${places.get(item)?.join(' and ') ?? 'nowhere'}`);
    const held = [...inventories.values()].reduce((n, items) => n + items.length, 0);
    const expected = TRADERS * FUNDS_EACH;
    const conserved = `${funds} held in all, ${expected} granted; ${this.counts.purchased} purchases`;
    return [
      check('market: funds conserved', funds === expected, conserved),
      none(
        'market: every item in exactly one place',
        misplaced,
        `${this.items.length} items: ${held} in inventories (me.items says ${itemCounts}), ${listings.length} listed`,
        itemCounts === held,
      ),
    ];
  }

  private async trade(trader: string): Promise<void> {
    if (this.soak.random() < 0.5) {
      const inventory = await this.call<string[]>(trader, INVENTORY, { after: null });
      if (inventory.kind === 'ok' && inventory.data.length > 0) {
        const item = this.pick(inventory.data);
        const price = 1 + Math.floor(this.soak.random() * 100);
        this.tally(await this.call(trader, LIST, { item, price }), 'listed');
      }
    } else {
      const market = await this.call<Listing[]>(trader, MARKET, { after: null });
      const offers =
        market.kind === 'ok' ? market.data.filter((l) => l.sellerId !== trader && this.items.includes(l.itemId)) : [];
      if (offers.length > 0) {
        const { itemId: item, sellerId: seller, price } = this.pick(offers);
        const bought = await this.call<{ outcome: string }>(trader, BUY, { item, seller, price });
        if (bought.kind === 'ok' && bought.data.outcome === 'PURCHASED') this.counts.purchased++;
        this.tally(bought, 'outcomes');
      }
    }
    await this.pause(30, 70);
  }

  private tally(outcome: { kind: string }, ok: 'listed' | 'outcomes'): void {
    this.counts[outcome.kind === 'ok' ? ok : outcome.kind === 'refused' ? 'refused' : 'unknown']++;
  }

  private async pages<T>(user: string, service: boolean, query: string, cursor: (value: T) => string): Promise<T[]> {
    const all: T[] = [];
    for (let after: string | null = null; ; after = cursor(all.at(-1)!)) {
      const page = await this.call<T[]>(user, query, { after }, service);
      if (page.kind !== 'ok') throw new Error(`${query}: ${JSON.stringify(page)}`);
      all.push(...page.data);
      if (page.data.length < 100) return all;
    }
  }
}
