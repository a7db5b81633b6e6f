// The market's state around a run of bench/market.ts: the same starting state for every run of a
// scenario, and the book's invariants checked from what Redis holds after it.
import type Redis from 'ioredis';
import { leaseKeys, marketKeys } from '../src/redis/keys';
import { parseListingMember, type MarketRepository } from '../src/redis/market/repository';
import { sumOf } from './harness';
import { BUYER_FUNDS, buyerName, grantItems, listerName, type ProcessResult } from './market-process';

/**
 * A scenario's starting state, the same for every run: granted through MarketRepository once, kept
 * as a copy in database 1 (`spare`) and copied back before each run, not granted again per run.
 */
export function startingState(admin: Redis, spare: Redis, granter: MarketRepository) {
  let keys: string[] = [];
  let listerCount = 0;
  /** Empties `to` (database `db`) and copies the keys there from `from`. */
  const copy = async (from: Redis, to: Redis, db: number): Promise<void> => {
    await to.flushdb();
    const pipeline = keys.reduce((copies, key) => copies.copy(key, key, 'DB', db), from.pipeline());
    for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
  };
  const state = {
    /** Items each lister holds at the start. */
    stock: 0,

    /** A new scenario: funds for its buyers, `stock` items for each lister. */
    async reset({ listers, buyers }: { listers: number; buyers: number }, stock: number): Promise<void> {
      await admin.flushdb();
      for (let id = 0; id < buyers; id++) await granter.grantFunds(buyerName(id), BUYER_FUNDS);
      const users = Array.from({ length: listers + buyers }, (_, i) =>
        i < listers ? listerName(i) : buyerName(i - listers),
      );
      keys = [marketKeys.items(), ...users.flatMap((user) => [marketKeys.user(user), marketKeys.inventory(user)])];
      [listerCount, state.stock] = [listers, 0];
      await state.grow(stock);
    },

    /** Grants each lister more items, up to `stock`, and keeps the new state. */
    async grow(stock: number): Promise<void> {
      if (state.stock > 0) await state.restore();
      await Promise.all(Array.from({ length: listerCount }, (_, id) => grantItems(granter, id, state.stock, stock)));
      state.stock = Math.max(state.stock, stock);
      await copy(admin, spare, 1);
    },

    /** The database as it was after the last grow(), and nothing else. */
    restore: (): Promise<void> => copy(spare, admin, 0),
  };
  return state;
}

/** The book's invariants and the processes' own counts, against what Redis holds now. */
export async function checkInvariants(admin: Redis, results: ProcessResult[], after: string): Promise<void> {
  const problems: string[] = [];
  const items = new Set(await admin.smembers(marketKeys.items()));
  const place = new Map<string, string>();
  const put = (item: string, where: string): void => {
    if (!items.has(item)) problems.push(`${where} holds ${item}, which was never granted`);
    const before = place.get(item);
    if (before !== undefined) problems.push(`${item} is both in ${before} and in ${where}`);
    place.set(item, where);
  };
  let money = 0;
  for (const r of results) {
    const user = r.role === 'lister' ? listerName(r.id) : buyerName(r.id);
    const funds = Number((await admin.hget(marketKeys.user(user), 'funds')) ?? 0);
    if (!Number.isSafeInteger(funds) || funds < 0) problems.push(`${user} has funds ${funds}`);
    money += funds;
    const inventory = await admin.zrange(marketKeys.inventory(user), 0, -1);
    for (const item of inventory) put(item, `${user}'s inventory`);
    if (r.role === 'buyer') {
      if (funds !== BUYER_FUNDS - r.spent) problems.push(`${user} holds ${funds} but reports spending ${r.spent}`);
      if (inventory.length !== r.outcomes.PURCHASED)
        problems.push(`${user} holds ${inventory.length} items, bought ${r.outcomes.PURCHASED}`);
    } else {
      if (inventory.length !== r.granted - r.listed)
        problems.push(`${user} holds ${inventory.length}, expected ${r.granted} - ${r.listed}`);
      if (r.notListed > 0) problems.push(`${user} was told ${r.notListed} times that it did not hold its own item`);
    }
  }
  // Buyers were granted no items and listers bought none, so the sums run over everyone.
  const granted = BUYER_FUNDS * results.filter((r) => r.role === 'buyer').length;
  if (money !== granted) problems.push(`money is not conserved: ${money} held, ${granted} granted`);
  if (items.size !== sumOf(results, (r) => r.granted))
    problems.push(`${items.size} items exist, ${sumOf(results, (r) => r.granted)} were granted`);
  const listings = await admin.zrange(marketKeys.listings(), 0, -1);
  for (const member of listings) put(parseListingMember(member).item, 'the listings');
  const nowhere = [...items].filter((item) => !place.has(item));
  if (nowhere.length > 0) problems.push(`${nowhere.length} items are nowhere, e.g. ${nowhere.slice(0, 3).join(', ')}`);
  const [listed, purchased] = [sumOf(results, (r) => r.listed), sumOf(results, (r) => r.outcomes.PURCHASED)];
  if (listings.length !== listed - purchased)
    problems.push(`${listings.length} listings left, but ${listed} listed - ${purchased} bought`);

  // Every market lock (names `market:item:*`, `market:funds:*`) released by the end.
  // An uncontended lock is its solo key alone; a contended one, members of its holders set.
  const { holders, solo } = leaseKeys('lock', 'market:*');
  for await (const keys of admin.scanStream({ match: holders, count: 1000 }))
    for (const key of keys as string[]) if ((await admin.zcard(key)) > 0) problems.push(`${key} is still held`);
  for await (const keys of admin.scanStream({ match: solo, count: 1000 }))
    for (const key of keys as string[]) problems.push(`${key} is still held`);

  if (problems.length > 0)
    throw new Error(`market invariants broken after ${after}:\n  ${problems.slice(0, 20).join('\n  ')}`);
}
