// Settings of the marketplace: how listings and purchases run, prices, balances, inventories,
// pages, and the sales record.
import { z } from 'zod';
import { int, oneOf, parsed, type SettingDomain, type SettingsReader } from '../../common/settings';
import { NAME_RULE, validName } from '../../common/validation';
import { MARKET_STRATEGIES, type MarketSettings, type MarketStrategyName } from './repository';
import type { MarketStrategySettings } from './strategies';

const taskName = z
  .string()
  .transform((value) => value.normalize('NFC'))
  .transform((value, context) => {
    try {
      return validName(value, 'MARKET_SALE_TASK');
    } catch {
      context.addIssue({ code: 'custom', message: `must be a task name (${NAME_RULE}), got "${value}"` });
      return z.NEVER;
    }
  });

const SETTINGS = {
  MARKET_STRATEGY: oneOf<MarketStrategyName, MarketStrategyName>(MARKET_STRATEGIES, {
    default: 'SCRIPT',
    description:
      "How listings and purchases run: `SCRIPT` (one Lua script), `WATCH` (the book's optimistic transactions) or `LOCK` (the book's locks).",
  }),
  MARKET_MAX_PRICE: int({ default: 1_000_000_000, min: 1, max: 2_147_483_647, description: 'Highest listing price.' }),
  // Balances (capped for grants and sales alike) stay below 2^53: exact integers in every client.
  MARKET_MAX_FUNDS: int({
    default: 1_000_000_000_000,
    min: 1,
    max: 1_000_000_000_000_000,
    description: 'Highest balance; a grant or a sale that would go beyond it is `CONFLICT`.',
  }),
  MARKET_MAX_INVENTORY: int({
    default: 10_000,
    min: 1,
    max: 10_000_000,
    description: 'Most items a grant may bring an inventory to.',
  }),
  MARKET_PAGE_MAX: int({
    default: 100,
    min: 20,
    max: 1000,
    description: 'Largest `first` of `market` and `inventory` pages.',
  }),
  MARKET_WATCH_CONNECTIONS: int({
    default: 16,
    min: 1,
    max: 1000,
    description: '`WATCH`: Redis connections for transactions, one per caller at a time.',
  }),
  MARKET_CONTENTION_TIMEOUT_MS: int({
    default: 10_000,
    min: 100,
    max: 600_000,
    description: '`WATCH` and `LOCK`: how long a call retries or waits for other callers before `CONFLICT`.',
  }),
  MARKET_LOCK_TTL_MS: int({
    default: 10_000,
    min: 100,
    max: 600_000,
    description: '`LOCK`: longest a lock is held if its holder dies.',
  }),
  MARKET_SALES_KEEP: int({
    default: 1000,
    min: 1,
    max: 1_000_000,
    description: 'Newest sales kept per seller for `mySales`.',
  }),
  MARKET_SALE_TASK: parsed({
    type: 'text',
    bounds: 'a task name',
    default: undefined,
    schema: taskName,
    description: 'Task name enqueued on the `market-sales` queue with each sale, in the same atomic step; unset: none.',
  }),
} as const;

export const MARKET_SETTINGS: SettingDomain = {
  title: 'Marketplace',
  summary: 'How listings and purchases run, and the bounds of prices, balances, inventories and pages.',
  settings: SETTINGS,
};

export interface MarketConfig extends MarketSettings, Omit<MarketStrategySettings, 'taskMaxAttempts'> {
  /** Largest price of a listing. */
  maxPrice: number;
  /** Largest `first` of market and inventory pages. */
  maxPage: number;
}

export function readMarket(reader: SettingsReader): MarketConfig {
  const values = reader.read(SETTINGS);
  return {
    strategy: values.MARKET_STRATEGY,
    maxPrice: values.MARKET_MAX_PRICE,
    maxFunds: values.MARKET_MAX_FUNDS,
    maxInventory: values.MARKET_MAX_INVENTORY,
    maxPage: values.MARKET_PAGE_MAX,
    watchConnections: values.MARKET_WATCH_CONNECTIONS,
    contentionTimeoutMs: values.MARKET_CONTENTION_TIMEOUT_MS,
    lockTtlMs: values.MARKET_LOCK_TTL_MS,
    salesKeep: values.MARKET_SALES_KEEP,
    saleTask: values.MARKET_SALE_TASK,
  };
}
