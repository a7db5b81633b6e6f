// What every benchmark needs: its own redis-server on a free port, removed afterwards, and an
// exit code that says whether the run worked.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Redis from 'ioredis';
import pino from 'pino';
import { EmbeddedRedis } from '../../src/redis/client/embedded';

export async function withBenchRedis(work: (url: string) => Promise<void>): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-bench-'));
  const server = await EmbeddedRedis.start({ dataDir, appendOnly: false, logger: pino({ level: 'silent' }) });
  try {
    await work(server.url);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Commands Redis executed, those run inside scripts included (not the bench's own INFO/RESETSTAT). */
export async function commandCount(redis: Redis): Promise<number> {
  const stats = await redis.info('commandstats');
  let total = 0;
  for (const match of stats.matchAll(/^cmdstat_(\w+(?:\|\w+)?):calls=(\d+)/gm)) {
    if (!['info', 'config|resetstat'].includes(match[1])) total += Number(match[2]);
  }
  return total;
}

const field = (info: string, name: string): number =>
  Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);

/** A numeric field of an INFO section (`used_memory`, `used_cpu_user`). */
export const infoField = async (redis: Redis, section: string, name: string): Promise<number> =>
  field(await redis.info(section), name);

/** CPU seconds redis-server has used so far (used_cpu_user + used_cpu_sys from INFO cpu). */
export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  return field(info, 'used_cpu_user') + field(info, 'used_cpu_sys');
}

export const usedMemory = (redis: Redis): Promise<number> => infoField(redis, 'memory', 'used_memory');

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

/** Nearest-rank percentile of an ascending array. */
export const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/**
 * Prints an aligned table: the first `textColumns` columns left-aligned, the rest right-aligned,
 * and a first cell repeated from the row above left blank, so rows group by it.
 */
export function printTable(header: string[], rows: string[][], textColumns: number): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i < textColumns ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  let last = '';
  for (const row of rows) {
    console.log(line(row[0] === last ? ['', ...row.slice(1)] : row));
    last = row[0]!;
  }
}
