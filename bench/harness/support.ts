// Small helpers the suites share: readings from Redis's INFO, statistics, an aligned table.
import type Redis from 'ioredis';

/** Commands Redis executed, those run inside scripts included, but not the bench's own INFO and RESETSTAT. */
export async function commandCount(redis: Redis): Promise<number> {
  const stats = (await redis.info('commandstats')).matchAll(
    /^cmdstat_(?!info:|config\|resetstat:)[\w|]+:calls=(\d+)/gm,
  );
  return sumOf([...stats], (match) => Number(match[1]));
}

/** Scripts Redis ran (EVALSHA and EVAL) and the µs it spent in them, since the last RESETSTAT. */
export async function scriptStats(redis: Redis): Promise<{ scripts: number; scriptMicros: number }> {
  const stats = [...(await redis.info('commandstats')).matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+),usec=(\d+)/gm)];
  return {
    scripts: sumOf(stats, (match) => Number(match[1])),
    scriptMicros: sumOf(stats, (match) => Number(match[2])),
  };
}

const field = (info: string, name: string): number =>
  Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);

/** CPU seconds redis-server has used so far (used_cpu_user + used_cpu_sys from INFO cpu). */
export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  return field(info, 'used_cpu_user') + field(info, 'used_cpu_sys');
}

export const usedMemory = async (redis: Redis): Promise<number> => field(await redis.info('memory'), 'used_memory');

/** MEMORY USAGE with every element counted (SAMPLES 0); 0 for a key that does not exist. */
export const keyBytes = async (redis: Redis, key: string): Promise<number> =>
  Number((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);

export const sumOf = <T>(items: readonly T[], pick: (item: T) => number): number =>
  items.reduce((total, item) => total + pick(item), 0);

export const mean = (values: number[]): number => sumOf(values, (v) => v) / values.length;

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** mulberry32, shared with the product's log generator. */
export { seeded } from '../../src/common/random';

/** Shuffled in place (Fisher-Yates) with `random`, so a seed gives the same order every run. */
export function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

export const ascending = (values: number[]): number[] => [...values].sort((a, b) => a - b);

/** Nearest-rank percentile of an ascending array. */
export const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/** The lines of an aligned table: header, a rule, the rows; columns for which `right` holds right-aligned. */
export function alignedLines(header: string[], rows: string[][], right: (column: number) => boolean): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (right(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

/**
 * Prints an aligned table: the first `textColumns` columns left-aligned, the rest right-aligned,
 * and a first cell repeated from the row above left blank, so rows group by it.
 */
export function printTable(header: string[], rows: string[][], textColumns: number): void {
  const grouped = rows.map((row, i) => (i > 0 && row[0] === rows[i - 1][0] ? ['', ...row.slice(1)] : row));
  for (const line of alignedLines(header, grouped, (column) => column >= textColumns)) console.log(line);
}
