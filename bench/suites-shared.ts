// What the domain suites (autocomplete, location, tasks, messaging, market) still shared beyond
// bench/harness: callers in flight that know their slot (a connection each), a deadline, Redis's
// memory accounting, and tables built column by column. Candidates for bench/harness/.
import type Redis from 'ioredis';
import type { SuiteReport } from './harness/suite';

/** Runs `count` calls of `call(i, slot)` with `concurrency` in flight, each slot taking the next i. */
export async function inFlight(
  count: number,
  concurrency: number,
  call: (i: number, slot: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async (_, slot) => {
      while (next < count) await call(next++, slot);
    }),
  );
}

/** Resolves as `work` does, or fails with what `failure()` says (read when it fails) after `ms`. */
export async function within<T>(work: Promise<T>, ms: number, failure: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(failure())), ms)));
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** A numeric field of an INFO section (`used_memory`, `used_cpu_user`). */
export async function infoField(redis: Redis, section: string, field: string): Promise<number> {
  return Number(new RegExp(`^${field}:([\\d.]+)`, 'm').exec(await redis.info(section))?.[1] ?? NaN);
}

export const usedMemory = (redis: Redis): Promise<number> => infoField(redis, 'memory', 'used_memory');

/** MEMORY USAGE with every element counted (SAMPLES 0); 0 for a key that does not exist. */
export const keyBytes = async (redis: Redis, key: string): Promise<number> =>
  Number((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);

export const sumOf = <T>(items: readonly T[], pick: (item: T) => number): number =>
  items.reduce((total, item) => total + pick(item), 0);

export const mean = (values: number[]): number => sumOf(values, (v) => v) / values.length;

/** A table given column by column: its header and how an item shows in it. */
export function tableOf<T>(
  report: SuiteReport,
  title: string,
  textColumns: number,
  items: readonly T[],
  columns: [string, (item: T) => string][],
): void {
  report.table(
    title,
    columns.map(([header]) => header),
    items.map((item) => columns.map(([, cell]) => cell(item))),
    textColumns,
  );
}
