// The marketplace through the real server, once per strategy (MARKET_STRATEGY SCRIPT, WATCH and
// LOCK): the same scenario with the same exact outcomes, racing buyers, seeded concurrent trading
// checked against the book's invariants from what Redis holds, cursor paging while listings are
// bought, who may do what over HTTP and WebSocket, and bad input that changes nothing.
import path from 'node:path';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import type Redis from 'ioredis';
import { seeded } from '../../bench/harness/support';
import { inboxChannel, listingMember, MARKET_SALES_QUEUE, marketKeys, queueKeys } from '../../src/redis/keys';
import { MARKET_STRATEGIES } from '../../src/redis/market/repository';
import { TaskRepository } from '../../src/redis/task';
import {
  DelistItemDocument,
  GrantFundsDocument,
  GrantItemDocument,
  InboxChangedDocument,
  InventoryDocument,
  ListItemDocument,
  MarketChangedDocument,
  MarketDocument,
  MeDocument,
  MySalesDocument,
  PurchaseItemDocument,
  PurchaseItemSaleDocument,
  RepriceItemDocument,
  SellerInboxDocument,
  SendDirectMessageDocument,
  type MySalesQuery,
  type MarketQuery,
  type PurchaseItemMutation,
} from '../../src/generated/client/graphql';
import { serverForThisFile, type ServerFixture } from '../support/fixture';
import { cleanUpProcesses, ensureBuilt, startWorker } from '../support/process';
import { codes, connectWs, eventually, post, wsOperation } from '../support/graphql';
import { scriptClient } from '../support/redis';
import type { TestServer } from '../support/server';

const MAX_PRICE = 1000;
const MAX_FUNDS = 100_000;
/** MARKET_PAGE_MAX's default. */
const PAGE_MAX = 100;
/** The sale task's name (MARKET_SALE_TASK), on for the strategies' tests and off for the default's. */
const SALE_TASK = 'sold-email';
const MARKET_ENV = {
  MARKET_MAX_PRICE: String(MAX_PRICE),
  MARKET_MAX_FUNDS: String(MAX_FUNDS),
  MARKET_SALE_TASK: SALE_TASK,
};

type Purchase = PurchaseItemMutation['purchaseItem'];
type ListingView = MarketQuery['market'][number];

/** The typed calls of one server, with a token for any user name. */
function marketClient(api: TestServer) {
  const tokens = new Map<string, string>([
    ['alice', api.tokens.user],
    ['bob', api.tokens.other],
  ]);
  const token = (user: string): string => {
    let signed = tokens.get(user);
    if (!signed) {
      signed = api.server.verifier.sign(user, [], 3600);
      tokens.set(user, signed);
    }
    return signed;
  };
  const service = api.tokens.service;
  return {
    token,
    async grantItem(userId: string, itemId: string): Promise<void> {
      const result = await post(api.url, GrantItemDocument, { userId, itemId }, service);
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({ grantItem: true });
    },
    async grantFunds(userId: string, amount: number): Promise<number> {
      const result = await post(api.url, GrantFundsDocument, { userId, amount }, service);
      expect(result.errors).toBeUndefined();
      return result.data!.grantFunds;
    },
    list: (user: string, itemId: string, price: number) =>
      post(api.url, ListItemDocument, { itemId, price }, token(user)),
    async listed(user: string, itemId: string, price: number): Promise<void> {
      const result = await post(api.url, ListItemDocument, { itemId, price }, token(user));
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({ listItem: true });
    },
    purchase: (user: string, itemId: string, sellerId: string, price: number) =>
      post(api.url, PurchaseItemDocument, { itemId, sellerId, price }, token(user)),
    async bought(user: string, itemId: string, sellerId: string, price: number): Promise<Purchase> {
      const result = await post(api.url, PurchaseItemDocument, { itemId, sellerId, price }, token(user));
      expect(result.errors).toBeUndefined();
      return result.data!.purchaseItem;
    },
    async page(first?: number, after?: string, user = 'alice'): Promise<ListingView[]> {
      const result = await post(api.url, MarketDocument, { first, after }, token(user));
      expect(result.errors).toBeUndefined();
      return result.data!.market;
    },
    async inventory(user: string, first?: number, after?: string): Promise<string[]> {
      const result = await post(api.url, InventoryDocument, { first, after }, token(user));
      expect(result.errors).toBeUndefined();
      return result.data!.inventory;
    },
    delist: (user: string, itemId: string) => post(api.url, DelistItemDocument, { itemId }, token(user)),
    reprice: (user: string, itemId: string, price: number) =>
      post(api.url, RepriceItemDocument, { itemId, price }, token(user)),
    async sales(user: string, first?: number, after?: number): Promise<MySalesQuery['mySales']> {
      const result = await post(api.url, MySalesDocument, { first, after }, token(user));
      expect(result.errors).toBeUndefined();
      return result.data!.mySales;
    },
    async me(user: string): Promise<{ userId: string; funds: number; items: number }> {
      const result = await post(api.url, MeDocument, {}, token(user));
      expect(result.errors).toBeUndefined();
      return result.data!.me;
    },
  };
}

// The LOCK strategy's locks count a fencing token up on every use, even of a call that changes
// nothing else; that count is the lock's own business. Whether such a key exists is not.
const LOCK_STATE = /^lock:\{l:market:[^}]*\}:state$/;

/**
 * JSON values (sales, task records and arguments) as objects with their times left out: the
 * scripts and the WATCH strategy's MULTI write the same fields, in another order and at other times.
 */
function readable(value: string): unknown {
  if (!value.startsWith('{')) return value;
  const parsed = JSON.parse(value) as Record<string, unknown>;
  for (const field of ['soldAt', 'runAt', 'createdAt']) if (field in parsed) parsed[field] = 'a time';
  return parsed;
}

/** Every key and its content: DBSIZE alone would miss a changed value. */
async function dump(redis: Redis, prefix = ''): Promise<{ size: number; keys: Record<string, unknown> }> {
  const keys: Record<string, unknown> = {};
  for (const key of (await redis.keys(`${prefix}*`)).sort()) {
    const type = await redis.type(key);
    if (LOCK_STATE.test(key)) keys[key] = 'a lock of the market';
    else if (type === 'hash') {
      const hash = await redis.hgetall(key);
      keys[key] = Object.fromEntries(Object.entries(hash).map(([field, value]) => [field, readable(value)]));
    } else if (type === 'zset') keys[key] = (await redis.zrange(key, 0, -1, 'WITHSCORES')).map(readable);
    else if (type === 'set') keys[key] = (await redis.smembers(key)).sort();
    else if (type === 'list') keys[key] = await redis.lrange(key, 0, -1);
    else if (type === 'string') keys[key] = await redis.get(key);
    else keys[key] = type;
  }
  return { size: prefix === '' ? await redis.dbsize() : Object.keys(keys).length, keys };
}

/**
 * The market's own keys and its sale queue's only: the LOCK strategy also leaves lock bookkeeping
 * (fencing counters).
 */
async function marketDump(redis: Redis): Promise<{ size: number; keys: Record<string, unknown> }> {
  const market = await dump(redis, 'market:');
  const queue = await dump(redis, 'queue:{market}:');
  return { size: market.size + queue.size, keys: { ...market.keys, ...queue.keys } };
}

/** Listings in the documented order: price, then item id, then seller id, each in byte order. */
function inDocumentedOrder<T extends { itemId: string; sellerId: string; price: number }>(listings: T[]): T[] {
  const bytes = (text: string) => Buffer.from(text, 'utf8');
  return [...listings].sort(
    (a, b) =>
      a.price - b.price ||
      Buffer.compare(bytes(a.itemId), bytes(b.itemId)) ||
      Buffer.compare(bytes(a.sellerId), bytes(b.sellerId)),
  );
}

const SALES_QUEUE = queueKeys(MARKET_SALES_QUEUE);

/** A sale as stored (and as mySales returns it), its time left out as `readable` does. */
const sale = (saleId: number, itemId: string, buyerId: string, price: number) => ({
  saleId,
  itemId,
  buyerId,
  price,
  soldAt: 'a time',
});

/** A sale task's record as task-enqueue.lua would write it (TASK_MAX_ATTEMPTS's default), times left out. */
const saleTaskRecord = {
  name: SALE_TASK,
  priority: 'NORMAL',
  state: 'WAITING',
  runAt: 'a time',
  attempts: 0,
  maxAttempts: 5,
  createdAt: 'a time',
};

const strip = (listings: ListingView[]) => listings.map(({ itemId, sellerId, price }) => ({ itemId, sellerId, price }));

/** What each strategy's scenario saw, compared across strategies at the end of the file. */
const transcripts = new Map<string, unknown[]>();

describe.each(MARKET_STRATEGIES)('the market with MARKET_STRATEGY=%s', (strategy) => {
  const fixture: ServerFixture = serverForThisFile({ ...MARKET_ENV, MARKET_STRATEGY: strategy });
  let api: TestServer;
  let market: ReturnType<typeof marketClient>;

  beforeAll(() => {
    api = fixture.api;
    market = marketClient(api);
  });

  it('runs on the configured strategy', () => {
    expect(api.config.market.strategy).toBe(strategy);
  });

  describe('a trading scenario', () => {
    it('gives the exact outcomes, funds and inventories, and leaves exactly this in Redis', async () => {
      const seen: unknown[] = [];
      const note = <T>(value: T): T => {
        seen.push(value);
        return value;
      };
      await market.grantItem('alice', 'sword');
      await market.grantItem('alice', 'shield');
      await market.grantItem('alice', 'amulet');
      expect(await market.grantFunds('bob', 60)).toBe(60);
      expect(await market.grantFunds('bob', 40)).toBe(100);
      expect(await market.grantFunds('carol', 30)).toBe(30);

      expect(note(await market.me('alice'))).toEqual({ userId: 'alice', funds: 0, items: 3 });
      expect(note(await market.me('dave'))).toEqual({ userId: 'dave', funds: 0, items: 0 });
      expect(note(await market.inventory('alice'))).toEqual(['amulet', 'shield', 'sword']);
      expect(note(await market.inventory('alice', 2))).toEqual(['amulet', 'shield']);
      expect(note(await market.inventory('alice', 2, 'shield'))).toEqual(['sword']);
      expect(note(await market.inventory('alice', 2, 'sword'))).toEqual([]);

      await market.listed('alice', 'sword', 40);
      expect(note(await market.inventory('alice'))).toEqual(['amulet', 'shield']);
      expect(note(await market.me('alice'))).toEqual({ userId: 'alice', funds: 0, items: 2 });

      // Listed already, and not bob's: both NOT_FOUND, on itemId.
      const again = await market.list('alice', 'sword', 45);
      const notHis = await market.list('bob', 'shield', 10);
      for (const refused of [again, notHis]) {
        expect(codes(refused)).toEqual(['NOT_FOUND']);
        expect(refused.errors![0].extensions!.argument).toBe('itemId');
        expect(refused.data).toBeNull();
      }
      expect(strip(note(await market.page()))).toEqual([{ itemId: 'sword', sellerId: 'alice', price: 40 }]);

      const before = await marketDump(api.redis.client);
      expect(note(await market.bought('bob', 'sword', 'alice', 35))).toEqual({
        outcome: 'PRICE_CHANGED',
        itemId: 'sword',
        sellerId: 'alice',
        listedPrice: 40,
        funds: 100,
      });
      expect(note(await market.bought('carol', 'sword', 'alice', 40))).toEqual({
        outcome: 'INSUFFICIENT_FUNDS',
        itemId: 'sword',
        sellerId: 'alice',
        listedPrice: 40,
        funds: 30,
      });
      // Listed, but by alice, not by carol.
      expect(note(await market.bought('bob', 'sword', 'carol', 40))).toEqual({
        outcome: 'ITEM_GONE',
        itemId: 'sword',
        sellerId: 'carol',
        listedPrice: null,
        funds: 100,
      });
      expect(note(await market.bought('dave', 'never-granted', 'alice', 5))).toEqual({
        outcome: 'ITEM_GONE',
        itemId: 'never-granted',
        sellerId: 'alice',
        listedPrice: null,
        funds: 0,
      });
      const own = await market.purchase('alice', 'sword', 'alice', 40);
      expect(codes(own)).toEqual(['BAD_USER_INPUT']);
      expect(own.errors![0].extensions!.argument).toBe('sellerId');
      // Only PURCHASED changes anything.
      expect(await marketDump(api.redis.client)).toEqual(before);

      expect(note(await market.bought('bob', 'sword', 'alice', 40))).toEqual({
        outcome: 'PURCHASED',
        itemId: 'sword',
        sellerId: 'alice',
        listedPrice: 40,
        funds: 60,
      });
      expect(note(await market.bought('bob', 'sword', 'alice', 40))).toEqual({
        outcome: 'ITEM_GONE',
        itemId: 'sword',
        sellerId: 'alice',
        listedPrice: null,
        funds: 60,
      });
      expect(note(await market.me('alice'))).toEqual({ userId: 'alice', funds: 40, items: 2 });
      expect(note(await market.me('bob'))).toEqual({ userId: 'bob', funds: 60, items: 1 });
      expect(note(await market.inventory('bob'))).toEqual(['sword']);
      expect(note(await market.page())).toEqual([]);

      // Resold: bob lists what he bought, carol buys it with all she has after a grant.
      await market.listed('bob', 'sword', 35);
      await market.listed('alice', 'shield', 35);
      expect(await market.grantFunds('carol', 5)).toBe(35);
      expect(strip(note(await market.page()))).toEqual([
        { itemId: 'shield', sellerId: 'alice', price: 35 },
        { itemId: 'sword', sellerId: 'bob', price: 35 },
      ]);
      expect(note(await market.bought('carol', 'sword', 'bob', 35))).toEqual({
        outcome: 'PURCHASED',
        itemId: 'sword',
        sellerId: 'bob',
        listedPrice: 35,
        funds: 0,
      });
      expect(note(await market.bought('carol', 'shield', 'alice', 35))).toEqual({
        outcome: 'INSUFFICIENT_FUNDS',
        itemId: 'shield',
        sellerId: 'alice',
        listedPrice: 35,
        funds: 0,
      });
      expect(note(await market.me('bob'))).toEqual({ userId: 'bob', funds: 95, items: 0 });
      expect(note(await market.me('carol'))).toEqual({ userId: 'carol', funds: 0, items: 1 });

      const state = await marketDump(api.redis.client);
      expect(state.keys).toEqual({
        [marketKeys.items()]: ['amulet', 'shield', 'sword'],
        [marketKeys.inventory('alice')]: ['amulet', '0'],
        [marketKeys.inventory('carol')]: ['sword', '0'],
        [marketKeys.listings()]: [listingMember('shield', 'alice'), '35'],
        [marketKeys.user('alice')]: { funds: '40' },
        [marketKeys.user('bob')]: { funds: '95' },
        [marketKeys.user('carol')]: { funds: '0' },
        // Each sale, for its seller, and its task, written by the purchase itself.
        [marketKeys.saleIds()]: '2',
        [marketKeys.sales('alice')]: [sale(1, 'sword', 'bob', 40), '1'],
        [marketKeys.sales('bob')]: [sale(2, 'sword', 'carol', 35), '2'],
        [SALES_QUEUE.seq]: '2',
        [SALES_QUEUE.meta]: { '1': saleTaskRecord, '2': saleTaskRecord },
        [SALES_QUEUE.args]: {
          '1': { saleId: 1, item: 'sword', seller: 'alice', buyer: 'bob', price: 40 },
          '2': { saleId: 2, item: 'sword', seller: 'bob', buyer: 'carol', price: 35 },
        },
        [SALES_QUEUE.lists[3]]: ['1', '2'],
        [SALES_QUEUE.workerWake]: ['1'],
      });
      seen.push(state);
      transcripts.set(strategy, seen);
    });
  });

  describe('racing buyers', () => {
    it('sells one listing to exactly one of five buyers who buy it at once; the others get ITEM_GONE', async () => {
      const buyers = ['bob', 'carol', 'dave', 'erin', 'frank'];
      for (const buyer of buyers) await market.grantFunds(buyer, 500);
      for (let round = 0; round < 5; round++) {
        const item = `relic-${round}`;
        await market.grantItem('alice', item);
        await market.listed('alice', item, 50);
        const results = await Promise.all(buyers.map((buyer) => market.bought(buyer, item, 'alice', 50)));
        const winners = results.flatMap((result, i) => (result.outcome === 'PURCHASED' ? [buyers[i]] : []));
        expect(winners).toHaveLength(1);
        results.forEach((result, i) => {
          if (buyers[i] === winners[0]) return;
          expect(result).toEqual({
            outcome: 'ITEM_GONE',
            itemId: item,
            sellerId: 'alice',
            listedPrice: null,
            funds: expect.any(Number),
          });
        });
        expect(results.find((result) => result.outcome === 'PURCHASED')!.listedPrice).toBe(50);
        expect(await market.inventory(winners[0])).toContain(item);
        expect(await market.page()).toEqual([]);
      }
      const accounts = await Promise.all(buyers.map((buyer) => market.me(buyer)));
      // 5 sales at 50 each: 250 left the buyers, every buyer paid 50 per item held.
      expect(accounts.reduce((sum, account) => sum + account.funds, 0)).toBe(5 * 500 - 250);
      for (const account of accounts) expect(account.funds).toBe(500 - 50 * account.items);
      expect(accounts.reduce((sum, account) => sum + account.items, 0)).toBe(5);
      expect(await market.me('alice')).toEqual({ userId: 'alice', funds: 250, items: 0 });
    });

    it('lets a buyer with funds for one of two items buy only one when buying both at once, leaving 0', async () => {
      for (let round = 0; round < 5; round++) {
        const buyer = `buyer-${round}`;
        await market.grantFunds(buyer, 50);
        await market.grantItem('alice', `left-${round}`);
        await market.grantItem('bob', `right-${round}`);
        await market.listed('alice', `left-${round}`, 50);
        await market.listed('bob', `right-${round}`, 50);
        const results = await Promise.all([
          market.bought(buyer, `left-${round}`, 'alice', 50),
          market.bought(buyer, `right-${round}`, 'bob', 50),
        ]);
        expect(results.map((result) => result.outcome).sort()).toEqual(['INSUFFICIENT_FUNDS', 'PURCHASED']);
        for (const result of results) expect(result).toMatchObject({ funds: 0, listedPrice: 50 });
        const won = results.find((result) => result.outcome === 'PURCHASED')!;
        expect(await market.me(buyer)).toEqual({ userId: buyer, funds: 0, items: 1 });
        expect(await market.inventory(buyer)).toEqual([won.itemId]);
        const unsold = results.find((result) => result.outcome === 'INSUFFICIENT_FUNDS')!;
        expect(strip(await market.page())).toEqual([{ itemId: unsold.itemId, sellerId: unsold.sellerId, price: 50 }]);
        // A fresh buyer takes the unsold listing, so the next round starts from an empty market.
        const clearer = `clearer-${round}`;
        await market.grantFunds(clearer, 50);
        expect((await market.bought(clearer, unsold.itemId, unsold.sellerId, 50)).outcome).toBe('PURCHASED');
      }
      expect((await market.me('alice')).funds + (await market.me('bob')).funds).toBe(5 * 100);
    });
  });

  describe('concurrent trading', () => {
    it('keeps money, items and every account consistent over 4 users × 40 random operations in parallel', async () => {
      const users = ['alice', 'bob', 'carol', 'dave'];
      const granted = new Map([
        ['alice', 150],
        ['bob', 100],
        ['carol', 60],
        ['dave', 30],
      ]);
      const grantedItems: string[] = [];
      const held = new Map<string, Set<string>>();
      for (const user of users) {
        await market.grantFunds(user, granted.get(user)!);
        held.set(user, new Set());
        for (let i = 0; i < 6; i++) {
          const item = `${user}-thing-${i}`;
          await market.grantItem(user, item);
          grantedItems.push(item);
          held.get(user)!.add(item);
        }
      }

      const purchases: { buyer: string; seller: string; item: string; price: number }[] = [];
      const listings = new Map<string, number>();
      const outcomes = new Map<string, number>();
      const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);

      const trade = async (user: string, random: () => number): Promise<void> => {
        const mine = held.get(user)!;
        for (let step = 0; step < 40; step++) {
          const listNow = mine.size > 0 && random() < 0.4;
          if (listNow) {
            const items = [...mine].sort();
            const item = items[Math.floor(random() * items.length)];
            // A user's inventory changes only by their own listing and buying, so this is certain.
            await market.listed(user, item, 1 + Math.floor(random() * 40));
            mine.delete(item);
            listings.set(item, (listings.get(item) ?? 0) + 1);
            count('LISTED');
            continue;
          }
          const offers = (await market.page(PAGE_MAX, undefined, user)).filter((listing) => listing.sellerId !== user);
          if (offers.length === 0) continue;
          const offer = offers[Math.floor(random() * Math.min(offers.length, 5))];
          const stale = random() < 0.15;
          const price = stale ? offer.price + 1 : offer.price;
          const result = await market.bought(user, offer.itemId, offer.sellerId, price);
          count(result.outcome);
          expect(result).toMatchObject({ itemId: offer.itemId, sellerId: offer.sellerId });
          expect(result.funds).toBeGreaterThanOrEqual(0);
          switch (result.outcome) {
            case 'PURCHASED':
              expect(stale).toBe(false);
              expect(result.listedPrice).toBe(price);
              mine.add(offer.itemId);
              purchases.push({ buyer: user, seller: offer.sellerId, item: offer.itemId, price });
              break;
            case 'ITEM_GONE':
              expect(result.listedPrice).toBeNull();
              break;
            case 'PRICE_CHANGED':
              expect(result.listedPrice).not.toBe(price);
              break;
            case 'INSUFFICIENT_FUNDS':
              expect(result.listedPrice).toBe(price);
              expect(result.funds).toBeLessThan(price);
              break;
          }
        }
      };
      // Every trader finishes before anything is judged, so none trades on into the next test.
      const traders = await Promise.allSettled(users.map((user, i) => trade(user, seeded(20_261_121 + i))));
      for (const trader of traders) if (trader.status === 'rejected') throw trader.reason;

      // Enough happened for the run to mean something, buyers included who lost a race.
      expect(purchases.length).toBeGreaterThanOrEqual(10);
      expect(outcomes.get('LISTED')).toBeGreaterThanOrEqual(20);
      expect(outcomes.get('ITEM_GONE')).toBeGreaterThan(0);

      const redis = api.redis.client;
      const funds = new Map<string, number>();
      for (const user of users) funds.set(user, Number(await redis.hget(marketKeys.user(user), 'funds')));
      const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0);
      expect(sum(funds.values())).toBe(sum(granted.values()));
      for (const user of users) {
        expect(funds.get(user)).toBeGreaterThanOrEqual(0);
        const sales = sum(purchases.filter((purchase) => purchase.seller === user).map((purchase) => purchase.price));
        const spent = sum(purchases.filter((purchase) => purchase.buyer === user).map((purchase) => purchase.price));
        expect({ user, funds: funds.get(user) }).toEqual({ user, funds: granted.get(user)! + sales - spent });
      }

      // Every granted item is in exactly one place: an inventory or the listings.
      const inventories = new Map<string, string[]>();
      for (const user of users) inventories.set(user, await redis.zrange(marketKeys.inventory(user), 0, -1));
      const listed = (await redis.zrange(marketKeys.listings(), 0, -1)).map((member) =>
        member.slice(0, member.indexOf(' ')),
      );
      const everywhere = [...[...inventories.values()].flat(), ...listed];
      expect([...everywhere].sort()).toEqual([...grantedItems].sort());
      expect((await redis.smembers(marketKeys.items())).sort()).toEqual([...grantedItems].sort());

      // Each listing was sold at most once: an item is on the market now exactly when it was
      // listed once more than it was bought.
      for (const item of grantedItems) {
        const sold = purchases.filter((purchase) => purchase.item === item).length;
        const times = listings.get(item) ?? 0;
        expect({ item, unsold: times - sold }).toEqual({ item, unsold: listed.includes(item) ? 1 : 0 });
      }

      // What each user was told agrees with what Redis holds, and with the API.
      for (const user of users) {
        expect([...held.get(user)!].sort()).toEqual([...inventories.get(user)!].sort());
        expect(await market.me(user)).toEqual({
          userId: user,
          funds: funds.get(user),
          items: inventories.get(user)!.length,
        });
      }
    });
  });

  describe('paging the market', () => {
    const sellers = ['alice', 'bob', 'carol'];
    /** 25 listings over 4 prices (so prices tie), items in an order unrelated to their price. */
    const arrange = async (): Promise<{ itemId: string; sellerId: string; price: number }[]> => {
      const listings = Array.from({ length: 25 }, (_, i) => ({
        itemId: `lot-${String((i * 7) % 25).padStart(2, '0')}`,
        sellerId: sellers[i % 3],
        price: 10 * (1 + ((i * 3) % 4)),
      }));
      for (const listing of listings) {
        await market.grantItem(listing.sellerId, listing.itemId);
        await market.listed(listing.sellerId, listing.itemId, listing.price);
      }
      await market.grantFunds('dave', 10_000);
      return inDocumentedOrder(listings);
    };

    it('returns every listing once, cheapest first, in pages of 10 that follow each other by cursor', async () => {
      const expected = await arrange();
      const pages: ListingView[][] = [await market.page(10)];
      // Bounded, so a cursor that does not move on fails the test instead of looping.
      while (pages.at(-1)!.length > 0 && pages.length < 6)
        pages.push(await market.page(10, pages.at(-1)!.at(-1)!.cursor));
      expect(pages.map((page) => page.length)).toEqual([10, 10, 5, 0]);
      const all = pages.flat();
      expect(strip(all)).toEqual(expected);
      expect(new Set(all.map((listing) => listing.cursor)).size).toBe(25);
      expect(strip(await market.page(PAGE_MAX))).toEqual(expected);
      expect(strip(await market.page())).toEqual(expected.slice(0, 20));
      expect(strip(await market.page(1, all[23].cursor))).toEqual([expected[24]]);
    });

    it('stays correct when listings before, at and after the cursor are bought or added between pages', async () => {
      const expected = await arrange();
      const first = await market.page(10);
      expect(strip(first)).toEqual(expected.slice(0, 10));

      const buy = async (index: number) => {
        const { itemId, sellerId, price } = expected[index];
        expect((await market.bought('dave', itemId, sellerId, price)).outcome).toBe('PURCHASED');
      };
      await buy(3); // before the cursor
      await buy(9); // the cursor's own listing
      await buy(12); // after the cursor: would have been on the next page
      // One new listing sorts before the cursor, one after everything.
      await market.grantItem('erin', 'cheap-new');
      await market.listed('erin', 'cheap-new', 5);
      await market.grantItem('erin', 'dear-new');
      await market.listed('erin', 'dear-new', 45);

      const second = await market.page(10, first[9].cursor);
      const remaining = [...expected.slice(10, 12), ...expected.slice(13)];
      expect(strip(second)).toEqual(remaining.slice(0, 10));
      const third = await market.page(10, second[9].cursor);
      expect(strip(third)).toEqual([...remaining.slice(10), { itemId: 'dear-new', sellerId: 'erin', price: 45 }]);
      expect(await market.page(10, third.at(-1)!.cursor)).toEqual([]);

      const seen = [...first, ...second, ...third].map((listing) => listing.itemId);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).not.toContain('cheap-new');
      expect(seen).not.toContain(expected[12].itemId);

      // The cursor of a listing sold earlier still pages on from where it stood.
      expect(strip(await market.page(3, first[3].cursor))).toEqual([expected[4], expected[5], expected[6]]);
      expect(strip(await market.page(2))).toEqual([{ itemId: 'cheap-new', sellerId: 'erin', price: 5 }, expected[0]]);
    });
    it('pages one listing at a time through ties of Unicode item ids in byte order', async () => {
      const items = ['zèbre', 'été', 'étage', '王', '王子', '🙂', 'Zulu', 'ωmega', 'a_b', 'ab'];
      for (const [i, item] of items.entries()) {
        await market.grantItem(sellers[i % 3], item);
        await market.listed(sellers[i % 3], item, i < 8 ? 12 : 11);
      }
      const expected = inDocumentedOrder(
        items.map((itemId, i) => ({ itemId, sellerId: sellers[i % 3], price: i < 8 ? 12 : 11 })),
      );
      const walked: ListingView[] = [];
      for (
        let page = await market.page(1);
        page.length > 0 && walked.length <= items.length;
        page = await market.page(1, page[0].cursor)
      ) {
        walked.push(...page);
      }
      expect(strip(walked)).toEqual(expected);
      expect(walked.slice(2).map((listing) => listing.itemId)).toEqual([
        'Zulu',
        'zèbre',
        'étage',
        'été',
        'ωmega',
        '王',
        '王子',
        '🙂',
      ]);
    });
  });

  describe('delisting and repricing', () => {
    it("lets only the seller delist or reprice a listing; others' and unlisted items are NOT_FOUND, changing nothing", async () => {
      await market.grantItem('alice', 'sword');
      await market.grantItem('alice', 'shield');
      await market.grantFunds('bob', 100);
      await market.listed('alice', 'sword', 40);
      const before = await marketDump(api.redis.client);
      const refusals = [
        await market.delist('bob', 'sword'), // listed, but by alice
        await market.reprice('bob', 'sword', 10),
        await market.delist('alice', 'shield'), // held, not listed
        await market.reprice('alice', 'shield', 10),
        await market.delist('alice', 'never-granted'),
        await market.reprice('alice', 'never-granted', 10),
      ];
      for (const refused of refusals) {
        expect(codes(refused)).toEqual(['NOT_FOUND']);
        expect(refused.errors![0].extensions!.argument).toBe('itemId');
        expect(refused.data).toBeNull();
      }
      for (const price of [0, MAX_PRICE + 1]) {
        const refused = await market.reprice('alice', 'sword', price);
        expect(codes(refused)).toEqual(['BAD_USER_INPUT']);
        expect(refused.errors![0].extensions!.argument).toBe('price');
      }
      expect(codes(await market.delist('alice', 'a b'))).toEqual(['BAD_USER_INPUT']);
      expect(await marketDump(api.redis.client)).toEqual(before);

      expect((await market.reprice('alice', 'sword', MAX_PRICE)).data).toEqual({ repriceItem: true });
      expect(strip(await market.page())).toEqual([{ itemId: 'sword', sellerId: 'alice', price: MAX_PRICE }]);
      expect(await market.bought('bob', 'sword', 'alice', 40)).toMatchObject({
        outcome: 'PRICE_CHANGED',
        listedPrice: MAX_PRICE,
        funds: 100,
      });
      expect((await market.reprice('alice', 'sword', 30)).data).toEqual({ repriceItem: true });
      expect((await market.delist('alice', 'sword')).data).toEqual({ delistItem: true });
      expect(await market.page()).toEqual([]);
      expect(await market.inventory('alice')).toEqual(['shield', 'sword']);
      expect(await market.bought('bob', 'sword', 'alice', 30)).toMatchObject({ outcome: 'ITEM_GONE', funds: 100 });
      expect(codes(await market.delist('alice', 'sword'))).toEqual(['NOT_FOUND']);
      // Listed again from the inventory, at a new price, and sold at it.
      await market.listed('alice', 'sword', 25);
      expect(await market.bought('bob', 'sword', 'alice', 25)).toMatchObject({ outcome: 'PURCHASED', funds: 75 });
      expect(codes(await market.reprice('alice', 'sword', 20))).toEqual(['NOT_FOUND']);
      expect(await market.me('alice')).toEqual({ userId: 'alice', funds: 25, items: 1 });
    });

    it('lets a purchase racing a delisting or a repricing buy at the price the buyer saw, or refuses it', async () => {
      const seen = { PURCHASED: 0, ITEM_GONE: 0, PRICE_CHANGED: 0 } as Record<string, number>;
      await market.grantFunds('bob', 20 * 50);
      for (let round = 0; round < 20; round++) {
        const item = `race-${round}`;
        const delisting = round % 2 === 0;
        await market.grantItem('alice', item);
        await market.listed('alice', item, 50);
        const [bought, change] = await Promise.all([
          market.bought('bob', item, 'alice', 50),
          delisting ? market.delist('alice', item) : market.reprice('alice', item, 60),
        ]);
        seen[bought.outcome] += 1;
        if (bought.outcome === 'PURCHASED') {
          // The purchase came first: the item is bob's, at 50, and alice has no listing to change.
          expect(bought.listedPrice).toBe(50);
          expect(codes(change)).toEqual(['NOT_FOUND']);
          expect(await market.inventory('bob', PAGE_MAX)).toContain(item);
        } else {
          expect(change.errors).toBeUndefined();
          expect(bought).toMatchObject(
            delisting ? { outcome: 'ITEM_GONE', listedPrice: null } : { outcome: 'PRICE_CHANGED', listedPrice: 60 },
          );
          expect(strip(await market.page())).toEqual(delisting ? [] : [{ itemId: item, sellerId: 'alice', price: 60 }]);
          if (!delisting) expect((await market.delist('alice', item)).errors).toBeUndefined();
        }
      }
      const bob = await market.me('bob');
      expect(bob).toEqual({ userId: 'bob', funds: 20 * 50 - 50 * seen.PURCHASED, items: seen.PURCHASED });
      expect((await market.me('alice')).funds).toBe(50 * seen.PURCHASED);
      expect(await market.page()).toEqual([]);
      expect(seen.PURCHASED + seen.ITEM_GONE + seen.PRICE_CHANGED).toBe(20);
    });
  });

  describe('marketChanged', () => {
    it('announces every listing, sale, delisting and repricing in order, with ids and prices only', async () => {
      const socket = fixture.connect(market.token('carol'));
      const notices = wsOperation(socket.client, MarketChangedDocument, {});
      await eventually(async () => (await api.redis.subscribers(marketKeys.changed())) > 0, 10_000, 20);
      await market.grantItem('alice', 'sword');
      await market.grantItem('alice', 'shield');
      await market.grantFunds('bob', 100);
      await market.listed('alice', 'sword', 40);
      await market.listed('alice', 'shield', 30);
      expect((await market.reprice('alice', 'sword', 45)).errors).toBeUndefined();
      expect((await market.bought('bob', 'sword', 'alice', 40)).outcome).toBe('PRICE_CHANGED');
      expect((await market.bought('bob', 'sword', 'alice', 45)).outcome).toBe('PURCHASED');
      expect((await market.delist('alice', 'shield')).errors).toBeUndefined();
      // Refusals change nothing and announce nothing.
      expect(codes(await market.delist('alice', 'shield'))).toEqual(['NOT_FOUND']);
      expect(codes(await market.list('bob', 'shield', 5))).toEqual(['NOT_FOUND']);
      await market.listed('bob', 'sword', 50);
      const results = await notices.take(6);
      expect(results.map((result) => result.data?.marketChanged)).toEqual([
        { kind: 'LISTED', itemId: 'sword', sellerId: 'alice', price: 40 },
        { kind: 'LISTED', itemId: 'shield', sellerId: 'alice', price: 30 },
        { kind: 'REPRICED', itemId: 'sword', sellerId: 'alice', price: 45 },
        { kind: 'SOLD', itemId: 'sword', sellerId: 'alice', price: 45 },
        { kind: 'DELISTED', itemId: 'shield', sellerId: 'alice', price: 30 },
        { kind: 'LISTED', itemId: 'sword', sellerId: 'bob', price: 50 },
      ]);
      expect(notices.results).toHaveLength(6);
    });
  });

  describe('sales', () => {
    it('records each sale for its seller, lists them newest first in pages, and tells the seller in their inbox', async () => {
      const socket = fixture.connect(market.token('alice'));
      const inbox = wsOperation(socket.client, SellerInboxDocument, {});
      // A subscriber that does not ask for sales (a client from before them) is not told of them.
      const unaware = wsOperation(socket.client, InboxChangedDocument, {});
      await eventually(async () => (await api.redis.subscribers(inboxChannel('alice'))) > 0, 10_000, 20);
      await market.grantFunds('bob', 1000);
      await market.grantFunds('carol', 10);
      for (const [i, item] of ['cup', 'jug', 'pot'].entries()) {
        await market.grantItem('alice', item);
        await market.listed('alice', item, 10 * (i + 1));
      }
      const bought: number[] = [];
      for (const item of ['pot', 'cup']) {
        const price = item === 'pot' ? 30 : 10;
        const result = await post(
          api.url,
          PurchaseItemSaleDocument,
          { itemId: item, sellerId: 'alice', price },
          market.token('bob'),
        );
        expect(result.data!.purchaseItem.outcome).toBe('PURCHASED');
        bought.push(result.data!.purchaseItem.saleId!);
      }
      // Refused purchases are no sales.
      const refused = await post(
        api.url,
        PurchaseItemSaleDocument,
        { itemId: 'jug', sellerId: 'alice', price: 20 },
        market.token('carol'),
      );
      expect(refused.data!.purchaseItem).toEqual({ outcome: 'INSUFFICIENT_FUNDS', saleId: null });
      const gone = await post(
        api.url,
        PurchaseItemSaleDocument,
        { itemId: 'pot', sellerId: 'alice', price: 30 },
        market.token('bob'),
      );
      expect(gone.data!.purchaseItem).toEqual({ outcome: 'ITEM_GONE', saleId: null });
      expect(bought).toEqual([1, 2]);
      const third = await post(
        api.url,
        PurchaseItemSaleDocument,
        { itemId: 'jug', sellerId: 'alice', price: 20 },
        market.token('bob'),
      );
      expect(third.data!.purchaseItem).toEqual({ outcome: 'PURCHASED', saleId: 3 });

      const notices = await inbox.take(3);
      expect(notices.map((notice) => notice.data?.inboxChanged)).toEqual(
        [1, 2, 3].map((saleId) => ({ saleId, mailbox: false, chatId: null })),
      );
      // The unaware subscriber is told of a direct message, and of nothing before it.
      const sent = await post(api.url, SendDirectMessageDocument, { to: 'alice', message: 'hi' }, market.token('bob'));
      expect(codes(sent)).toEqual([]);
      const [told] = await unaware.take(1);
      expect(told.data?.inboxChanged).toMatchObject({ mailbox: true, chatId: null, waiting: 1 });
      expect(unaware.results).toHaveLength(1);
      unaware.unsubscribe();
      // The seller's subscription is told of it too, as a mailbox notice.
      expect((await inbox.take(4))[3].data?.inboxChanged).toEqual({ saleId: null, mailbox: true, chatId: null });
      const all = await market.sales('alice');
      expect(all.map(({ soldAt, ...rest }) => ({ ...rest, soldAt: typeof soldAt }))).toEqual([
        { saleId: 3, itemId: 'jug', buyerId: 'bob', price: 20, soldAt: 'number' },
        { saleId: 2, itemId: 'cup', buyerId: 'bob', price: 10, soldAt: 'number' },
        { saleId: 1, itemId: 'pot', buyerId: 'bob', price: 30, soldAt: 'number' },
      ]);
      expect(all[0].soldAt).toBeGreaterThanOrEqual(all[1].soldAt);
      expect(Math.abs(all[0].soldAt - Date.now())).toBeLessThan(60_000);
      const first = await market.sales('alice', 2);
      expect(first).toEqual(all.slice(0, 2));
      expect(await market.sales('alice', 2, first[1].saleId)).toEqual(all.slice(2));
      expect(await market.sales('alice', 2, 1)).toEqual([]);
      expect(await market.sales('bob')).toEqual([]);
      for (const variables of [{ first: 0 }, { first: PAGE_MAX + 1 }, { after: 0 }, { after: -5 }]) {
        const result = await post(api.url, MySalesDocument, variables, market.token('alice'));
        expect(codes(result)).toEqual(['BAD_USER_INPUT']);
      }
      expect(inbox.results).toHaveLength(4);
    });

    it('enqueues exactly one task per sale when buyers race, none for refused purchases, and workers take and complete them', async () => {
      const items = Array.from({ length: 20 }, (_, i) => `lot-${i}`);
      const buyers = Array.from({ length: 10 }, (_, i) => `racer-${i}`);
      for (const item of items) {
        await market.grantItem('alice', item);
        await market.listed('alice', item, 10);
      }
      for (const buyer of buyers) await market.grantFunds(buyer, 10 * items.length);
      const random = seeded(25);
      const attempts = buyers.flatMap((buyer) => {
        const order = [...items].sort(() => random() - 0.5);
        return order.map((item) => ({ buyer, item }));
      });
      const results = await Promise.all(
        attempts.map(async ({ buyer, item }) => {
          const result = await post(
            api.url,
            PurchaseItemSaleDocument,
            { itemId: item, sellerId: 'alice', price: 10 },
            market.token(buyer),
          );
          expect(result.errors).toBeUndefined();
          return { buyer, item, ...result.data!.purchaseItem };
        }),
      );
      const sold = results.filter((result) => result.outcome === 'PURCHASED');
      expect(sold.map((result) => result.item).sort()).toEqual([...items].sort());
      expect(
        results
          .filter((result) => result.outcome !== 'PURCHASED')
          .every((result) => result.outcome === 'ITEM_GONE' && result.saleId === null),
      ).toBe(true);
      expect(sold.map((result) => result.saleId).sort((a, b) => a! - b!)).toEqual(items.map((_, i) => i + 1));

      // A worker's view of the queue, as a worker process with WORKER_QUEUES=market-sales has it.
      const workerClient = scriptClient(api.redis);
      const tasks = new TaskRepository(workerClient, api.config.tasks);
      const stats = await tasks.stats(MARKET_SALES_QUEUE);
      expect(stats).toEqual({
        paused: false,
        waiting: { HIGH: 0, NORMAL: items.length, LOW: 0 },
        delayed: 0,
        active: 0,
        completed: 0,
        failed: 0,
        cancelled: 0,
      });
      const args = await api.redis.client.hgetall(SALES_QUEUE.args);
      const bySale = new Map(
        Object.values(args).map((json) => {
          const parsed = JSON.parse(json) as { saleId: number };
          return [parsed.saleId, parsed];
        }),
      );
      expect(Object.keys(args)).toHaveLength(items.length);
      expect(bySale.size).toBe(items.length);
      for (const result of sold) {
        expect(bySale.get(result.saleId!)).toEqual({
          saleId: result.saleId,
          item: result.item,
          seller: 'alice',
          buyer: result.buyer,
          price: 10,
        });
      }

      const taken = await tasks.take(MARKET_SALES_QUEUE, 100, 10_000);
      expect(taken).toHaveLength(items.length);
      expect(new Set(taken.map((task) => task.name))).toEqual(new Set([SALE_TASK]));
      expect(taken.map((task) => (JSON.parse(task.args!) as { saleId: number }).saleId).sort((a, b) => a - b)).toEqual(
        items.map((_, i) => i + 1),
      );
      for (const task of taken) {
        expect(await tasks.settle(MARKET_SALES_QUEUE, task, { kind: 'COMPLETED', result: undefined })).toBe(
          'COMPLETED',
        );
      }
      expect(await tasks.stats(MARKET_SALES_QUEUE)).toMatchObject({
        waiting: { HIGH: 0, NORMAL: 0, LOW: 0 },
        active: 0,
        completed: items.length,
      });
      expect((await market.sales('alice', PAGE_MAX)).map((one) => one.saleId)).toEqual(
        items.map((_, i) => items.length - i),
      );
      workerClient.disconnect();
    });
  });

  describe('who may do what', () => {
    it('refuses every market operation without a token (UNAUTHENTICATED), changing nothing', async () => {
      await market.grantItem('alice', 'lamp');
      await market.grantFunds('bob', 10);
      const before = await dump(api.redis.client);
      const results = [
        await post(api.url, ListItemDocument, { itemId: 'lamp', price: 5 }),
        await post(api.url, PurchaseItemDocument, { itemId: 'lamp', sellerId: 'alice', price: 5 }),
        await post(api.url, MarketDocument, {}),
        await post(api.url, InventoryDocument, {}),
        await post(api.url, MeDocument, {}),
        await post(api.url, GrantItemDocument, { userId: 'bob', itemId: 'gift' }),
        await post(api.url, GrantFundsDocument, { userId: 'bob', amount: 5 }),
      ];
      expect(results.map(codes)).toEqual(Array(7).fill(['UNAUTHENTICATED']));
      for (const result of results) expect(result.data ?? null).toBeNull();
      expect(await dump(api.redis.client)).toEqual(before);
    });

    it('refuses grants to users over HTTP and WebSocket (FORBIDDEN), changing nothing, and allows them to a service', async () => {
      await market.grantFunds('bob', 10);
      const before = await dump(api.redis.client);
      const http = [
        await post(api.url, GrantItemDocument, { userId: 'alice', itemId: 'gift' }, api.tokens.user),
        await post(api.url, GrantFundsDocument, { userId: 'alice', amount: 5 }, api.tokens.user),
        await post(api.url, GrantFundsDocument, { userId: 'bob', amount: 5 }, api.tokens.other),
      ];
      expect(http.map(codes)).toEqual([['FORBIDDEN'], ['FORBIDDEN'], ['FORBIDDEN']]);
      for (const result of http) expect(result.data).toBeNull();
      const socket = fixture.connect(api.tokens.user);
      const ws = [
        await wsOperation(socket.client, GrantItemDocument, { userId: 'alice', itemId: 'gift' }).completion(),
        await wsOperation(socket.client, GrantFundsDocument, { userId: 'alice', amount: 5 }).completion(),
      ];
      expect(ws.map((results) => results.map(codes))).toEqual([[['FORBIDDEN']], [['FORBIDDEN']]]);
      expect(await dump(api.redis.client)).toEqual(before);

      const service = fixture.connect(api.tokens.service);
      const granted = [
        await wsOperation(service.client, GrantItemDocument, { userId: 'alice', itemId: 'gift' }).completion(),
        await wsOperation(service.client, GrantFundsDocument, { userId: 'bob', amount: 5 }).completion(),
      ];
      expect(granted.map((results) => results.map((result) => result.data))).toEqual([
        [{ grantItem: true }],
        [{ grantFunds: 15 }],
      ]);
      expect(await market.inventory('alice')).toEqual(['gift']);
      expect(await market.me('bob')).toEqual({ userId: 'bob', funds: 15, items: 0 });
    });

    it('closes a WebSocket without a token (4403) before any market operation runs', async () => {
      await market.grantItem('alice', 'lamp');
      const before = await dump(api.redis.client);
      const socket = connectWs(api.url, undefined);
      try {
        const attempt = wsOperation(socket.client, GrantFundsDocument, { userId: 'bob', amount: 5 });
        expect(await socket.closed).toBe(4403);
        const results = await attempt.completion();
        expect(results).toEqual([]);
        expect(attempt.failure).toBeDefined();
      } finally {
        await socket.dispose();
      }
      expect(await dump(api.redis.client)).toEqual(before);
    });

    it('lets a user trade only as themselves over WebSocket, the same as over HTTP', async () => {
      await market.grantItem('alice', 'lamp');
      await market.grantItem('alice', 'rug');
      await market.grantItem('bob', 'vase');
      await market.grantFunds('bob', 100);
      const alice = fixture.connect(api.tokens.user);
      const bob = fixture.connect(api.tokens.other);
      const one = async <R, V>(client: typeof alice, document: TypedDocumentNode<R, V>, variables: V) => {
        const results = await wsOperation(client.client, document, variables).completion();
        expect(results).toHaveLength(1);
        return results[0];
      };

      expect((await one(alice, ListItemDocument, { itemId: 'lamp', price: 30 })).data).toEqual({ listItem: true });
      // bob cannot list alice's rug: the caller is always the seller.
      const notHis = await one(bob, ListItemDocument, { itemId: 'rug', price: 30 });
      expect(codes(notHis)).toEqual(['NOT_FOUND']);
      const own = await one(alice, PurchaseItemDocument, { itemId: 'lamp', sellerId: 'alice', price: 30 });
      expect(codes(own)).toEqual(['BAD_USER_INPUT']);
      expect((await one(bob, MarketDocument, { first: 5 })).data?.market.map((listing) => listing.itemId)).toEqual([
        'lamp',
      ]);
      expect((await one(bob, PurchaseItemDocument, { itemId: 'lamp', sellerId: 'alice', price: 30 })).data).toEqual({
        purchaseItem: { outcome: 'PURCHASED', itemId: 'lamp', sellerId: 'alice', listedPrice: 30, funds: 70 },
      });
      expect((await one(bob, InventoryDocument, {})).data).toEqual({ inventory: ['lamp', 'vase'] });
      expect((await one(alice, InventoryDocument, {})).data).toEqual({ inventory: ['rug'] });
      expect((await one(alice, MeDocument, {})).data).toEqual({ me: { userId: 'alice', funds: 30, items: 1 } });
      expect((await one(bob, MeDocument, {})).data).toEqual({ me: { userId: 'bob', funds: 70, items: 2 } });
    });

    it.each([
      ['listItem with a seller', 'mutation { listItem(itemId: "lamp", price: 5, sellerId: "bob") }', 'sellerId'],
      [
        'purchaseItem with a buyer',
        'mutation { purchaseItem(itemId: "lamp", sellerId: "alice", price: 5, buyerId: "carol") { outcome } }',
        'buyerId',
      ],
      ['inventory of another user', '{ inventory(userId: "alice") }', 'userId'],
      ['me of another user', '{ me(userId: "alice") { funds } }', 'userId'],
    ])('has no argument to act as someone else: %s is refused by validation', async (_case, query, argument) => {
      await market.grantItem('alice', 'lamp');
      await market.listed('alice', 'lamp', 5);
      await market.grantFunds('carol', 10);
      const before = await dump(api.redis.client);
      for (const token of [api.tokens.other, api.tokens.service]) {
        const result = await post(api.url, parse(query) as never, {}, token);
        expect(codes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
        expect(result.errors![0].message).toContain(`"${argument}"`);
      }
      expect(await dump(api.redis.client)).toEqual(before);
    });
  });

  describe('bad input', () => {
    const long = 'x'.repeat(129);
    const exactly128 = 'y'.repeat(128);
    const cursorOf = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

    /** Some of everything, so that a refused call has something it could have changed. */
    const arrange = async () => {
      await market.grantItem('alice', 'lamp');
      await market.grantItem('alice', 'rug');
      await market.grantItem('bob', 'vase');
      await market.listed('bob', 'vase', 20);
      await market.grantFunds('alice', 100);
      await market.grantFunds('carol', 100);
    };

    type Call = (api: TestServer, token: (user: string) => string) => ReturnType<typeof post>;
    const listItem =
      (variables: Record<string, unknown>): Call =>
      (a, token) =>
        post(a.url, ListItemDocument, variables as never, token('alice'));
    const purchase =
      (variables: Record<string, unknown>, user = 'alice'): Call =>
      (a, token) =>
        post(a.url, PurchaseItemDocument, variables as never, token(user));
    const page =
      (variables: Record<string, unknown>): Call =>
      (a, token) =>
        post(a.url, MarketDocument, variables as never, token('alice'));
    const inventory =
      (variables: Record<string, unknown>): Call =>
      (a, token) =>
        post(a.url, InventoryDocument, variables as never, token('alice'));
    const grantItem =
      (variables: Record<string, unknown>): Call =>
      (a) =>
        post(a.url, GrantItemDocument, variables as never, a.tokens.service);
    const grantFunds =
      (variables: Record<string, unknown>): Call =>
      (a) =>
        post(a.url, GrantFundsDocument, variables as never, a.tokens.service);

    // [case, call, code, the argument the error names: a name when the resolver refused it (200,
    // data null), VARIABLES when GraphQL's own variable check did (400, no data), NULL for an explicit
    // null that graphql-js refuses while executing (200, data null)]
    const VARIABLES = 'variables';
    const NULL = 'null';
    const table: [string, Call, string, string][] = [
      ['listItem at price 0', listItem({ itemId: 'lamp', price: 0 }), 'BAD_USER_INPUT', 'price'],
      ['listItem at a negative price', listItem({ itemId: 'lamp', price: -5 }), 'BAD_USER_INPUT', 'price'],
      [
        'listItem above MARKET_MAX_PRICE',
        listItem({ itemId: 'lamp', price: MAX_PRICE + 1 }),
        'BAD_USER_INPUT',
        'price',
      ],
      ['listItem at a fractional price', listItem({ itemId: 'lamp', price: 1.5 }), 'BAD_USER_INPUT', VARIABLES],
      ['listItem at price 1e308', listItem({ itemId: 'lamp', price: 1e308 }), 'BAD_USER_INPUT', VARIABLES],
      ['listItem at price NaN (null in JSON)', listItem({ itemId: 'lamp', price: NaN }), 'BAD_USER_INPUT', VARIABLES],
      ['listItem at price "NaN"', listItem({ itemId: 'lamp', price: 'NaN' }), 'BAD_USER_INPUT', VARIABLES],
      ['listItem at price "Infinity"', listItem({ itemId: 'lamp', price: 'Infinity' }), 'BAD_USER_INPUT', VARIABLES],
      ['listItem at price 2^31', listItem({ itemId: 'lamp', price: 2 ** 31 }), 'BAD_USER_INPUT', VARIABLES],
      ['listItem of an unknown item', listItem({ itemId: 'ghost', price: 5 }), 'NOT_FOUND', 'itemId'],
      ["listItem of another user's item", listItem({ itemId: 'vase', price: 5 }), 'NOT_FOUND', 'itemId'],
      ['listItem of a 128-character unknown item', listItem({ itemId: exactly128, price: 5 }), 'NOT_FOUND', 'itemId'],
      ['listItem of a 129-character item', listItem({ itemId: long, price: 5 }), 'BAD_USER_INPUT', 'itemId'],
      ['listItem of an empty item id', listItem({ itemId: '', price: 5 }), 'BAD_USER_INPUT', 'itemId'],
      ['listItem of an item id with a colon', listItem({ itemId: 'lamp:alice', price: 5 }), 'BAD_USER_INPUT', 'itemId'],
      ['listItem of an item id with braces', listItem({ itemId: '{market}', price: 5 }), 'BAD_USER_INPUT', 'itemId'],
      ['purchaseItem at price 0', purchase({ itemId: 'vase', sellerId: 'bob', price: 0 }), 'BAD_USER_INPUT', 'price'],
      [
        'purchaseItem at a negative price',
        purchase({ itemId: 'vase', sellerId: 'bob', price: -20 }),
        'BAD_USER_INPUT',
        'price',
      ],
      [
        'purchaseItem at a fractional price',
        purchase({ itemId: 'vase', sellerId: 'bob', price: 20.5 }),
        'BAD_USER_INPUT',
        VARIABLES,
      ],
      [
        'purchaseItem at price 1e308',
        purchase({ itemId: 'vase', sellerId: 'bob', price: 1e308 }),
        'BAD_USER_INPUT',
        VARIABLES,
      ],
      [
        'purchaseItem at price "-Infinity"',
        purchase({ itemId: 'vase', sellerId: 'bob', price: '-Infinity' }),
        'BAD_USER_INPUT',
        VARIABLES,
      ],
      [
        'purchaseItem of a 129-character item',
        purchase({ itemId: long, sellerId: 'bob', price: 20 }),
        'BAD_USER_INPUT',
        'itemId',
      ],
      [
        'purchaseItem from a 129-character seller',
        purchase({ itemId: 'vase', sellerId: long, price: 20 }),
        'BAD_USER_INPUT',
        'sellerId',
      ],
      [
        'purchaseItem from a seller id with a colon',
        purchase({ itemId: 'vase', sellerId: 'bob:x', price: 20 }),
        'BAD_USER_INPUT',
        'sellerId',
      ],
      [
        'purchaseItem of your own listing',
        purchase({ itemId: 'vase', sellerId: 'bob', price: 20 }, 'bob'),
        'BAD_USER_INPUT',
        'sellerId',
      ],
      [
        'purchaseItem with a null price',
        purchase({ itemId: 'vase', sellerId: 'bob', price: null }),
        'BAD_USER_INPUT',
        VARIABLES,
      ],
      ['market with first 0', page({ first: 0 }), 'BAD_USER_INPUT', 'first'],
      ['market with a negative first', page({ first: -1 }), 'BAD_USER_INPUT', 'first'],
      ['market with first above MARKET_PAGE_MAX', page({ first: PAGE_MAX + 1 }), 'BAD_USER_INPUT', 'first'],
      ['market with first 2^31', page({ first: 2 ** 31 }), 'BAD_USER_INPUT', VARIABLES],
      ['market with first 1e308', page({ first: 1e308 }), 'BAD_USER_INPUT', VARIABLES],
      ['market with first "Infinity"', page({ first: 'Infinity' }), 'BAD_USER_INPUT', VARIABLES],
      ['market with an explicit null first', page({ first: null }), 'BAD_USER_INPUT', NULL],
      ['market after a cursor that is not base64', page({ after: 'not a cursor!' }), 'BAD_USER_INPUT', 'after'],
      ['market after an empty cursor', page({ after: '' }), 'BAD_USER_INPUT', 'after'],
      ['market after a cursor of two parts', page({ after: cursorOf('20:vase') }), 'BAD_USER_INPUT', 'after'],
      ['market after a cursor of four parts', page({ after: cursorOf('20:vase:bob:x') }), 'BAD_USER_INPUT', 'after'],
      ['market after a cursor priced 0', page({ after: cursorOf('0:vase:bob') }), 'BAD_USER_INPUT', 'after'],
      [
        'market after a cursor with a leading zero',
        page({ after: cursorOf('020:vase:bob') }),
        'BAD_USER_INPUT',
        'after',
      ],
      [
        'market after a cursor with a negative price',
        page({ after: cursorOf('-1:vase:bob') }),
        'BAD_USER_INPUT',
        'after',
      ],
      [
        'market after a cursor with a fractional price',
        page({ after: cursorOf('1.5:vase:bob') }),
        'BAD_USER_INPUT',
        'after',
      ],
      ['market after a cursor with an empty item', page({ after: cursorOf('20::bob') }), 'BAD_USER_INPUT', 'after'],
      [
        'market after a cursor with a brace in the item',
        page({ after: cursorOf('20:{v}:bob') }),
        'BAD_USER_INPUT',
        'after',
      ],
      [
        'market after a cursor with a 129-character item',
        page({ after: cursorOf(`20:${long}:bob`) }),
        'BAD_USER_INPUT',
        'after',
      ],
      ['market after a cursor of 2000 characters', page({ after: 'A'.repeat(2000) }), 'BAD_USER_INPUT', 'after'],
      ['inventory with first 0', inventory({ first: 0 }), 'BAD_USER_INPUT', 'first'],
      ['inventory with a negative first', inventory({ first: -100 }), 'BAD_USER_INPUT', 'first'],
      ['inventory with first above MARKET_PAGE_MAX', inventory({ first: PAGE_MAX + 1 }), 'BAD_USER_INPUT', 'first'],
      ['inventory with first 1e308', inventory({ first: 1e308 }), 'BAD_USER_INPUT', VARIABLES],
      ['inventory with an explicit null first', inventory({ first: null }), 'BAD_USER_INPUT', NULL],
      ['inventory after a 129-character item', inventory({ after: long }), 'BAD_USER_INPUT', 'after'],
      ['inventory after an item id with a colon', inventory({ after: 'a:b' }), 'BAD_USER_INPUT', 'after'],
      ['grantItem of an item that exists', grantItem({ userId: 'carol', itemId: 'vase' }), 'CONFLICT', 'itemId'],
      ['grantItem of a 129-character item', grantItem({ userId: 'carol', itemId: long }), 'BAD_USER_INPUT', 'itemId'],
      ['grantItem to a 129-character user', grantItem({ userId: long, itemId: 'gift' }), 'BAD_USER_INPUT', 'userId'],
      ['grantFunds of 0', grantFunds({ userId: 'carol', amount: 0 }), 'BAD_USER_INPUT', 'amount'],
      ['grantFunds of a negative amount', grantFunds({ userId: 'carol', amount: -100 }), 'BAD_USER_INPUT', 'amount'],
      [
        'grantFunds beyond MARKET_MAX_FUNDS',
        grantFunds({ userId: 'carol', amount: MAX_FUNDS - 99 }),
        'CONFLICT',
        'amount',
      ],
      ['grantFunds of 1e308', grantFunds({ userId: 'carol', amount: 1e308 }), 'BAD_USER_INPUT', VARIABLES],
      ['grantFunds of "NaN"', grantFunds({ userId: 'carol', amount: 'NaN' }), 'BAD_USER_INPUT', VARIABLES],
      [
        'grantFunds to a user id with a colon',
        grantFunds({ userId: 'carol:x', amount: 5 }),
        'BAD_USER_INPUT',
        'userId',
      ],
    ];

    it.each(table)(
      '%s: refused with the exact code, and nothing in Redis changes',
      async (_case, call, code, argument) => {
        await arrange();
        const before = await dump(api.redis.client);
        const result = await call(api, market.token);
        expect(codes(result)).toEqual([code]);
        if (argument === VARIABLES) {
          expect(result.status).toBe(400);
          expect(result.data).toBeUndefined();
        } else {
          expect(result.status).toBe(200);
          expect(result.data).toBeNull();
          expect(result.errors![0].extensions!.argument).toBe(argument === NULL ? undefined : argument);
        }
        expect(await dump(api.redis.client)).toEqual(before);
      },
    );

    it('answers a purchase of an item that was never granted with ITEM_GONE, and nothing in Redis changes', async () => {
      await arrange();
      const before = await dump(api.redis.client);
      expect(await market.bought('alice', 'no-such-thing', 'bob', 20)).toEqual({
        outcome: 'ITEM_GONE',
        itemId: 'no-such-thing',
        sellerId: 'bob',
        listedPrice: null,
        funds: 100,
      });
      expect(await dump(api.redis.client)).toEqual(before);
    });

    it('accepts the limits themselves: a 128-character item, price MARKET_MAX_PRICE, funds up to MARKET_MAX_FUNDS', async () => {
      await market.grantItem('alice', exactly128);
      await market.listed('alice', exactly128, MAX_PRICE);
      expect(await market.grantFunds('bob', MAX_FUNDS - 1)).toBe(MAX_FUNDS - 1);
      expect(await market.grantFunds('bob', 1)).toBe(MAX_FUNDS);
      expect(await market.bought('bob', exactly128, 'alice', MAX_PRICE)).toEqual({
        outcome: 'PURCHASED',
        itemId: exactly128,
        sellerId: 'alice',
        listedPrice: MAX_PRICE,
        funds: MAX_FUNDS - MAX_PRICE,
      });
      expect(await market.inventory('bob', 1)).toEqual([exactly128]);
      expect(await market.page(PAGE_MAX)).toEqual([]);
    });

    it('refuses the same bad input over WebSocket, changing nothing', async () => {
      await arrange();
      const before = await dump(api.redis.client);
      const socket = fixture.connect(api.tokens.user);
      const runs = [
        await wsOperation(socket.client, ListItemDocument, { itemId: 'lamp', price: 0 }).completion(),
        await wsOperation(socket.client, ListItemDocument, { itemId: 'lamp', price: 1.5 }).completion(),
        await wsOperation(socket.client, ListItemDocument, { itemId: long, price: 5 }).completion(),
        await wsOperation(socket.client, PurchaseItemDocument, {
          itemId: 'vase',
          sellerId: 'bob',
          price: 1e308,
        }).completion(),
        await wsOperation(socket.client, MarketDocument, { first: null }).completion(),
        await wsOperation(socket.client, MarketDocument, { after: 'garbage' }).completion(),
        await wsOperation(socket.client, InventoryDocument, { first: -1 }).completion(),
      ];
      expect(runs.map((results) => results.map(codes))).toEqual(Array(7).fill([['BAD_USER_INPUT']]));
      expect(await dump(api.redis.client)).toEqual(before);
    });

    it('treats a well-formed cursor of a listing that never existed as a position, and a null cursor as the start', async () => {
      await arrange();
      await market.grantItem('carol', 'cup');
      await market.listed('carol', 'cup', 20);
      expect(strip(await market.page(5, cursorOf('20:urn:zed')))).toEqual([
        { itemId: 'vase', sellerId: 'bob', price: 20 },
      ]);
      expect(strip(await market.page(5, cursorOf('19:zzz:zed')))).toEqual([
        { itemId: 'cup', sellerId: 'carol', price: 20 },
        { itemId: 'vase', sellerId: 'bob', price: 20 },
      ]);
      expect(await market.page(5, cursorOf('9999999999:a:b'))).toEqual([]);
      const start = await post(api.url, MarketDocument, { first: 5, after: null }, api.tokens.user);
      expect(start.data?.market.map((listing) => listing.itemId)).toEqual(['cup', 'vase']);
    });
  });
});

describe('the market with the default strategy and MARKET_PAGE_MAX=20, the lowest allowed', () => {
  // Without a sale task (MARKET_SALE_TASK unset: empty counts as unset), keeping 2 sales per seller.
  const fixture = serverForThisFile({
    ...MARKET_ENV,
    MARKET_SALE_TASK: '',
    MARKET_SALES_KEEP: '2',
    MARKET_PAGE_MAX: '20',
  });
  let market: ReturnType<typeof marketClient>;

  beforeAll(() => {
    market = marketClient(fixture.api);
  });

  it('runs SCRIPT when MARKET_STRATEGY is not set', () => {
    expect(fixture.api.config.market.strategy).toBe('SCRIPT');
  });

  it('records sales for their seller, the newest MARKET_SALES_KEEP, but enqueues no task when MARKET_SALE_TASK is not set', async () => {
    const market = marketClient(fixture.api);
    expect(fixture.api.config.market.saleTask).toBeUndefined();
    await market.grantFunds('bob', 30);
    for (const item of ['cup', 'jug', 'pot']) {
      await market.grantItem('alice', item);
      await market.listed('alice', item, 10);
      expect(await market.bought('bob', item, 'alice', 10)).toMatchObject({ outcome: 'PURCHASED' });
    }
    expect(await market.sales('alice')).toEqual([
      { saleId: 3, itemId: 'pot', buyerId: 'bob', price: 10, soldAt: expect.any(Number) },
      { saleId: 2, itemId: 'jug', buyerId: 'bob', price: 10, soldAt: expect.any(Number) },
    ]);
    expect(await fixture.api.redis.client.zcard(marketKeys.sales('alice'))).toBe(2);
    expect(await fixture.api.redis.client.keys('queue:*')).toEqual([]);
  });

  // The schema's defaults for `first` are fixed (market 20, inventory 100) while the cap they
  // must stay under is configured: a default above the cap refuses every call that leaves it out.
  it('serves market and inventory without `first` (their defaults), capped at MARKET_PAGE_MAX', async () => {
    for (let i = 0; i < 25; i++) {
      const item = `bead-${String(i).padStart(2, '0')}`;
      await market.grantItem('alice', item);
      if (i < 22) await market.listed('alice', item, 3);
    }
    expect((await market.page()).map((listing) => listing.itemId)).toEqual(
      Array.from({ length: 20 }, (_, i) => `bead-${String(i).padStart(2, '0')}`),
    );
    expect(codes(await post(fixture.api.url, MarketDocument, { first: 21 }, fixture.api.tokens.user))).toEqual([
      'BAD_USER_INPUT',
    ]);
    expect(await market.inventory('alice', 20)).toEqual(['bead-22', 'bead-23', 'bead-24']);
    const defaulted = await post(fixture.api.url, InventoryDocument, {}, fixture.api.tokens.user);
    expect(defaulted.errors).toBeUndefined();
    expect(defaulted.data).toEqual({ inventory: ['bead-22', 'bead-23', 'bead-24'] });
  });

  // Item ids where one is the start of another: the documented order ("then by item and seller")
  // puts "gem" before the longer ids it starts.
  it('orders listings of one price by item id, also when one item id is the start of another', async () => {
    const items = ['gemz', 'gem1', 'gem', 'gem.b', 'gem-a', 'gem/c', 'gem@d'];
    for (const item of items) {
      await market.grantItem('alice', item);
      await market.listed('alice', item, 7);
    }
    const expected = inDocumentedOrder(items.map((itemId) => ({ itemId, sellerId: 'alice', price: 7 })));
    expect(expected.map((listing) => listing.itemId)).toEqual([
      'gem',
      'gem-a',
      'gem.b',
      'gem/c',
      'gem1',
      'gem@d',
      'gemz',
    ]);
    expect(strip(await market.page(20))).toEqual(expected);
  });
});

describe('the three strategies', () => {
  it('gave the same answers and left the same market in Redis for the same scenario', () => {
    expect([...transcripts.keys()].sort()).toEqual([...MARKET_STRATEGIES].sort());
    const [first, ...others] = [...transcripts.values()];
    for (const other of others) expect(other).toEqual(first);
  });
});

describe('sale tasks run by a worker process (MARKET_SALE_TASK=echo, WORKER_QUEUES=market-sales)', () => {
  const fixture = serverForThisFile({ ...MARKET_ENV, MARKET_SALE_TASK: 'echo' });
  beforeAll(ensureBuilt, 120_000);
  afterEach(cleanUpProcesses);

  it("runs each sale's task once, with the sale in its arguments, like any other task", async () => {
    const api = fixture.api;
    const market = marketClient(api);
    await market.grantFunds('bob', 100);
    for (const item of ['cup', 'jug', 'pot']) {
      await market.grantItem('alice', item);
      await market.listed('alice', item, 10);
      expect((await market.bought('bob', item, 'alice', 10)).outcome).toBe('PURCHASED');
    }
    await startWorker({
      ...api.redis.env,
      WORKER_QUEUES: MARKET_SALES_QUEUE,
      TASK_HANDLERS: path.join(__dirname, '..', 'support', 'task-handlers.cjs'),
    });
    const client = scriptClient(api.redis);
    try {
      const tasks = new TaskRepository(client, api.config.tasks);
      await eventually(async () => (await tasks.stats(MARKET_SALES_QUEUE)).completed === 3, 20_000, 50);
      expect(await tasks.stats(MARKET_SALES_QUEUE)).toEqual({
        paused: false,
        waiting: { HIGH: 0, NORMAL: 0, LOW: 0 },
        delayed: 0,
        active: 0,
        completed: 3,
        failed: 0,
        cancelled: 0,
      });
      const results = [];
      for (const number of ['1', '2', '3']) {
        const task = (await tasks.get(MARKET_SALES_QUEUE, number))!;
        expect(task).toMatchObject({ name: 'echo', state: 'COMPLETED', attempts: 1, priority: 'NORMAL' });
        results.push(JSON.parse(task.result!) as { args: unknown });
      }
      expect(results.map((result) => result.args)).toEqual([
        { saleId: 1, item: 'cup', seller: 'alice', buyer: 'bob', price: 10 },
        { saleId: 2, item: 'jug', seller: 'alice', buyer: 'bob', price: 10 },
        { saleId: 3, item: 'pot', seller: 'alice', buyer: 'bob', price: 10 },
      ]);
    } finally {
      client.disconnect();
    }
  });
});
