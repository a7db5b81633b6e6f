// The location suite's logs and the checks of every result against them: deterministic files
// written once by the product's LogGenerator (some gzipped, days running across files), the
// generator's own count as the reference, and comparisons of what a run left in Redis with it.
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import type Redis from 'ioredis';
import type { IpLocator } from '../src/geo/ip-locator';
import { DEFAULT_GENERATOR, LogGenerator, type ReferenceCount } from '../src/geo/log-generator';
import { locationKeys } from '../src/redis/keys';
import { sumOf } from './harness';

export type LogSet = ReturnType<typeof writeLogs>;
export type ProductCheck = Awaited<ReturnType<typeof checkProduct>>;
type Counts = Map<string, number>;

type LogOptions = { lines: number; files: number; days: number; seed: number; prefix: string };

/**
 * Writes `lines` lines over `days` days as `files` files into `dir` (every second one gzipped),
 * with the generator's defaults otherwise (2000 places, 10% IPv6, 0.1% malformed lines).
 */
export function writeLogs(dir: string, locator: IpLocator, options: LogOptions) {
  fs.mkdirSync(dir, { recursive: true });
  const step = (options.days * 86_400) / options.lines;
  const generator = new LogGenerator(locator, { ...DEFAULT_GENERATOR, seed: options.seed, step });
  /** Bytes on disk (gzipped for .gz) and of the lines themselves. */
  const files: { name: string; path: string; bytes: number; rawBytes: number }[] = [];
  /** Every distinct address in the logs (for the book's lookup table). */
  const addresses = new Set<string>();
  /** Addresses of the lines in order (valid ones, up to a million), for the lookup-alone measures. */
  const sample: string[] = [];
  let written = 0;
  for (let i = 0; i < options.files; i++) {
    const count = Math.round(((i + 1) * options.lines) / options.files) - written;
    written += count;
    const lines = generator.lines(count);
    for (const line of lines) {
      const ip = line.slice(0, line.indexOf(' '));
      if (ip.length === 0) continue;
      addresses.add(ip);
      if (sample.length < 1_000_000 && isIP(ip) !== 0) sample.push(ip);
    }
    const raw = Buffer.from(`${lines.join('\n')}\n`, 'latin1');
    const name = `${options.prefix}-${String(i).padStart(3, '0')}.log${i % 2 === 1 ? '.gz' : ''}`;
    const data = i % 2 === 1 ? zlib.gzipSync(raw, { level: 6 }) : raw;
    fs.writeFileSync(path.join(dir, name), data);
    files.push({ name, path: path.join(dir, name), bytes: data.length, rawBytes: raw.length });
  }
  const reference: ReferenceCount = generator.reference;
  /** Visits per child of a place (`day`, `day\tcountry`, `day\tcountry\tregion`): countries, regions, cities. */
  const expected = new Map<string, Counts>();
  for (const [key, visits] of reference.places) {
    const parts = key.split('\t');
    for (let depth = 1; depth < parts.length; depth++) {
      const parent = parts.slice(0, depth).join('\t');
      const children = expected.get(parent) ?? new Map<string, number>();
      expected.set(parent, children.set(parts[depth], (children.get(parts[depth]) ?? 0) + visits));
    }
  }
  const days = [...reference.visits.keys()].sort();
  return { dir, files, lines: written, days, reference, expected, addresses, sample };
}

const expectedUnder = (logs: LogSet, ...place: string[]): Counts => logs.expected.get(place.join('\t')) ?? new Map();
const sum = (counts: Counts): number => sumOf([...counts.values()], (n) => n);
const names = (a: Counts, b: Counts): string[] => [...new Set([...a.keys(), ...b.keys()])];

/** ZRANGE WITHSCORES of each key, in one pipeline. */
async function readZsets(admin: Redis, keys: string[]): Promise<Counts[]> {
  const replies = (await admin.pipeline(keys.map((key) => ['zrange', key, 0, -1, 'WITHSCORES'])).exec()) ?? [];
  return replies.map(([, reply]) => {
    const pairs = reply as string[];
    const out: Counts = new Map();
    for (let i = 0; i + 1 < pairs.length; i += 2) out.set(pairs[i], Number(pairs[i + 1]));
    return out;
  });
}

/** Counts compared (day x place), how many differ (missing on either side counts as 0), visits stored and in the reference. */
const newComparison = () => ({ compared: 0, wrong: 0, stored: 0, expected: 0 });
export type Comparison = ReturnType<typeof newComparison>;

/** Adds one set of counts, found against expected, to `into`; `stored` counts only where `visits` says. */
function add(into: Comparison, found: Counts, expected: Counts, visits = true): void {
  const all = names(found, expected);
  into.compared += all.length;
  into.wrong += all.filter((name) => (found.get(name) ?? 0) !== (expected.get(name) ?? 0)).length;
  if (!visits) return;
  into.stored += sum(found);
  into.expected += sum(expected);
}

export const exact = (c: Comparison): boolean => c.wrong === 0 && c.stored === c.expected;

export const describeComparison = (c: Comparison): string =>
  exact(c)
    ? `exact (${c.compared} counts)`
    : `WRONG: ${c.wrong} of ${c.compared} counts differ; ${c.stored} visits stored, ${c.expected} in the reference`;

/**
 * Countries per day against the reference: the book's `daily:country:<day>` zsets, or with
 * `summed` the counts its flushes added up in the bench (what ZINCRBY would have left).
 */
export async function checkBookCountries(admin: Redis, logs: LogSet, summed?: Map<string, Counts>) {
  const prefix = 'daily:country:';
  const days = summed ? [...summed.keys()] : (await admin.keys(`${prefix}*`)).map((key) => key.slice(prefix.length));
  const result = newComparison();
  for (const day of new Set([...logs.days, ...days])) {
    const found = summed ? (summed.get(day) ?? new Map()) : (await readZsets(admin, [`${prefix}${day}`]))[0];
    add(result, found, expectedUnder(logs, day));
  }
  return result;
}

/**
 * A product dataset's counts, read from its keys, against the reference: countries; regions and
 * cities under every country and region; and totals: per day visits and unknown, the uploads'
 * line, done and refused counts, nothing left in the stream.
 */
export async function checkProduct(admin: Redis, dataset: string, logs: LogSet) {
  const keys = locationKeys(dataset);
  const notes: string[] = [];
  const wrong: string[] = []; // totals that differ from the reference
  const storedDays = await admin.zrange(keys.days, 0, -1);
  if (storedDays.length !== logs.days.length)
    notes.push(`days: ${storedDays.length} stored, ${logs.days.length} in the reference`);
  const countries = newComparison();
  const places = newComparison();
  // Level by level, every place found or expected: days' countries, their regions, their cities.
  const levels = [keys.countries, keys.regions, keys.cities] as ((...place: string[]) => string)[];
  const days = [...new Set([...logs.days, ...storedDays])].sort();
  let parents = days.map((day) => [day]);
  for (const [depth, keyOf] of levels.entries()) {
    const zsets = parents.map((place) => keyOf(...place));
    const found = await readZsets(admin, zsets);
    parents = parents.flatMap((place, i) => {
      const expected = expectedUnder(logs, ...place);
      // Visits summed for countries and for cities (regions hold the same ones again).
      add(depth === 0 ? countries : places, found[i], expected, depth !== 1);
      return names(found[i], expected).map((name) => [...place, name]);
    });
  }
  for (const what of ['visits', 'unknown'] as const) {
    const stored = await admin.hgetall(keys[what]);
    for (const day of days) {
      const expected = logs.reference[what].get(day) ?? 0;
      if (Number(stored[day] ?? 0) !== expected)
        wrong.push(`${day}: ${stored[day]} ${what} stored, ${expected} in the reference`);
    }
  }
  const fields = ['lines', 'doneLines', 'refused', 'complete'];
  const replies = await admin.pipeline(logs.files.map((file) => ['hmget', keys.upload(file.name), ...fields])).exec();
  const uploads = (replies ?? []).map(([, reply]) => (reply as (string | null)[]).map(Number));
  const [lines, done, refused] = [0, 1, 2].map((field) => sumOf(uploads, (upload) => upload[field]));
  for (const [i, file] of logs.files.entries()) if (uploads[i][3] !== 1) notes.push(`upload ${file.name} not complete`);
  if (lines !== logs.lines || done !== logs.lines || refused !== logs.reference.refused)
    wrong.push(
      `uploads: ${lines} lines, ${done} counted, ${refused} refused; the logs have ${logs.lines} lines, ${logs.reference.refused} malformed`,
    );
  const held = Number((await admin.hget(keys.meta, 'held')) ?? NaN);
  const left = await admin.xlen(keys.chunks);
  if (held !== 0 || left !== 0) wrong.push(`${left} chunks left in the stream, ${held} bytes held`);
  return { countries, places, totalsExact: wrong.length === 0, notes: [...notes, ...wrong] };
}
