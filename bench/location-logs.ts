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

export interface LogFile {
  name: string;
  path: string;
  lines: number;
  /** Bytes on disk (gzipped for .gz) and of the lines themselves. */
  bytes: number;
  rawBytes: number;
}

/** day -> country -> region -> city -> visits */
type Nested = Map<string, Map<string, Map<string, Map<string, number>>>>;

export interface LogSet {
  dir: string;
  files: LogFile[];
  lines: number;
  days: string[];
  reference: ReferenceCount;
  nested: Nested;
  /** Every distinct address in the logs (for the book's lookup table). */
  addresses: Set<string>;
  /** Addresses of the lines in order (valid ones), for the lookup-alone measures. */
  sample: string[];
}

const sampleSize = 1_000_000;

/**
 * Writes `lines` lines over `days` days as `files` files into `dir` (every second one gzipped),
 * with the generator's defaults otherwise (2000 places, 10% IPv6, 0.1% malformed lines).
 */
export function writeLogs(
  dir: string,
  locator: IpLocator,
  options: { lines: number; files: number; days: number; seed: number; prefix: string },
): LogSet {
  fs.mkdirSync(dir, { recursive: true });
  const generator = new LogGenerator(locator, {
    ...DEFAULT_GENERATOR,
    seed: options.seed,
    step: (options.days * 86_400) / options.lines,
  });
  const files: LogFile[] = [];
  const addresses = new Set<string>();
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
      if (sample.length < sampleSize && isIP(ip) !== 0) sample.push(ip);
    }
    const raw = Buffer.from(`${lines.join('\n')}\n`, 'latin1');
    const gz = i % 2 === 1;
    const name = `${options.prefix}-${String(i).padStart(3, '0')}.log${gz ? '.gz' : ''}`;
    const data = gz ? zlib.gzipSync(raw, { level: 6 }) : raw;
    fs.writeFileSync(path.join(dir, name), data);
    files.push({ name, path: path.join(dir, name), lines: count, bytes: data.length, rawBytes: raw.length });
  }
  const reference = generator.reference;
  const nested: Nested = new Map();
  const at = <V>(map: Map<string, V>, k: string, make: () => V): V => {
    if (!map.has(k)) map.set(k, make());
    return map.get(k)!;
  };
  for (const [key, visits] of reference.places) {
    const [day, country, region, city] = key.split('\t');
    const regions = at(
      at(nested, day, () => new Map()),
      country,
      () => new Map(),
    );
    const cities = at(regions, region, () => new Map<string, number>());
    cities.set(city, (cities.get(city) ?? 0) + visits);
  }
  return {
    dir,
    files,
    lines: written,
    days: [...reference.visits.keys()].sort(),
    reference,
    nested,
    addresses,
    sample,
  };
}

const sum = (map: Map<string, number>): number => [...map.values()].reduce((a, b) => a + b, 0);
const sumTo = (map: Map<string, Map<string, number>>): Map<string, number> =>
  new Map([...map].map(([name, inner]) => [name, sum(inner)]));

/** Visits per country on `day` in the reference. */
const referenceCountries = (logs: LogSet, day: string): Map<string, number> =>
  sumTo(new Map([...(logs.nested.get(day) ?? [])].map(([country, regions]) => [country, sumTo(regions)])));

const pairsToMap = (pairs: string[]): Map<string, number> => {
  const out = new Map<string, number>();
  for (let i = 0; i + 1 < pairs.length; i += 2) out.set(pairs[i], Number(pairs[i + 1]));
  return out;
};

/** Members whose counts differ (missing on either side counts as 0). */
function differing(found: Map<string, number>, expected: Map<string, number>): number {
  let wrong = 0;
  for (const name of new Set([...found.keys(), ...expected.keys()]))
    if ((found.get(name) ?? 0) !== (expected.get(name) ?? 0)) wrong += 1;
  return wrong;
}

export interface Comparison {
  /** Counts compared (day x place) and how many differ. */
  compared: number;
  wrong: number;
  /** Visits stored and in the reference, over every day. */
  stored: number;
  expected: number;
}

/** Adds one set of counts, found against expected, to `into`; `stored` counts only where `visits` says. */
function add(into: Comparison, found: Map<string, number>, expected: Map<string, number>, visits = true): void {
  into.compared += new Set([...found.keys(), ...expected.keys()]).size;
  into.wrong += differing(found, expected);
  if (!visits) return;
  into.stored += sum(found);
  into.expected += sum(expected);
}

export const exact = (c: Comparison): boolean => c.wrong === 0 && c.stored === c.expected;

export const describeComparison = (c: Comparison): string =>
  exact(c)
    ? `exact (${c.compared} counts)`
    : `WRONG: ${c.wrong} of ${c.compared} counts differ; ${c.stored} visits stored, ${c.expected} in the reference`;

/** Countries per day, as `countriesOf` finds them, against the reference. */
async function compareCountries(
  logs: LogSet,
  days: Iterable<string>,
  countriesOf: (day: string) => Promise<Map<string, number>> | Map<string, number>,
): Promise<Comparison> {
  const result: Comparison = { compared: 0, wrong: 0, stored: 0, expected: 0 };
  for (const day of new Set([...logs.days, ...days])) {
    add(result, await countriesOf(day), referenceCountries(logs, day));
  }
  return result;
}

/** The book's `daily:country:<day>` zsets against the reference. */
export async function checkBookCountries(admin: Redis, logs: LogSet): Promise<Comparison> {
  const stored = await admin.keys('daily:country:*');
  return compareCountries(
    logs,
    stored.map((key) => key.slice('daily:country:'.length)),
    async (day) => pairsToMap(await admin.zrange(`daily:country:${day}`, 0, -1, 'WITHSCORES')),
  );
}

/** Counts added up in the bench (what ZINCRBY would have left) against the reference. */
export function checkSummedCountries(summed: Map<string, Map<string, number>>, logs: LogSet): Promise<Comparison> {
  return compareCountries(logs, summed.keys(), (day) => summed.get(day) ?? new Map<string, number>());
}

export interface ProductCheck {
  countries: Comparison;
  /** Regions and cities under every country and region, per day. */
  places: Comparison;
  /** Day totals (visits and unknown), and the uploads' line, done and refused counts. */
  totalsExact: boolean;
  notes: string[];
}

/** A product dataset's counts, read from its keys, against the reference: every level, every day. */
export async function checkProduct(admin: Redis, dataset: string, logs: LogSet): Promise<ProductCheck> {
  const keys = locationKeys(dataset);
  const notes: string[] = [];
  const storedDays = await admin.zrange(keys.days, 0, -1);
  const days = [...new Set([...logs.days, ...storedDays])].sort();
  if (storedDays.length !== logs.days.length)
    notes.push(`days: ${storedDays.length} stored, ${logs.days.length} in the reference`);
  const countries: Comparison = { compared: 0, wrong: 0, stored: 0, expected: 0 };
  const places: Comparison = { compared: 0, wrong: 0, stored: 0, expected: 0 };
  let totalsExact = true;
  const empty = new Map<string, Map<string, Map<string, number>>>();
  for (const day of days) {
    const reference = logs.nested.get(day) ?? empty;
    const foundCountries = pairsToMap(await admin.zrange(keys.countries(day), 0, -1, 'WITHSCORES'));
    add(countries, foundCountries, referenceCountries(logs, day));
    const countryNames = [...new Set([...foundCountries.keys(), ...reference.keys()])];
    const regionReads = admin.pipeline();
    for (const country of countryNames) regionReads.zrange(keys.regions(day, country), 0, -1, 'WITHSCORES');
    const regionReplies = (await regionReads.exec()) ?? [];
    const cityReads = admin.pipeline();
    const cityExpected: Map<string, number>[] = [];
    for (const [i, country] of countryNames.entries()) {
      const foundRegions = pairsToMap(regionReplies[i][1] as string[]);
      const expectedRegions = reference.get(country) ?? new Map<string, Map<string, number>>();
      add(places, foundRegions, sumTo(expectedRegions), false);
      for (const region of new Set([...foundRegions.keys(), ...expectedRegions.keys()])) {
        cityReads.zrange(keys.cities(day, country, region), 0, -1, 'WITHSCORES');
        cityExpected.push(expectedRegions.get(region) ?? new Map<string, number>());
      }
    }
    const cityReplies = (await cityReads.exec()) ?? [];
    for (const [i, expected] of cityExpected.entries()) {
      add(places, pairsToMap(cityReplies[i][1] as string[]), expected);
    }
    const [visits, unknown] = await Promise.all([admin.hget(keys.visits, day), admin.hget(keys.unknown, day)]);
    if (Number(visits ?? 0) !== (logs.reference.visits.get(day) ?? 0)) {
      totalsExact = false;
      notes.push(`${day}: ${visits} visits stored, ${logs.reference.visits.get(day)} in the reference`);
    }
    if (Number(unknown ?? 0) !== (logs.reference.unknown.get(day) ?? 0)) {
      totalsExact = false;
      notes.push(`${day}: ${unknown} unknown stored, ${logs.reference.unknown.get(day) ?? 0} in the reference`);
    }
  }
  let lines = 0;
  let done = 0;
  let refused = 0;
  for (const file of logs.files) {
    const [l, d, r, complete] = await admin.hmget(keys.upload(file.name), 'lines', 'doneLines', 'refused', 'complete');
    lines += Number(l);
    done += Number(d);
    refused += Number(r);
    if (complete !== '1') notes.push(`upload ${file.name} not complete`);
  }
  if (lines !== logs.lines || done !== logs.lines || refused !== logs.reference.refused) {
    totalsExact = false;
    notes.push(
      `uploads: ${lines} lines, ${done} counted, ${refused} refused; the logs have ${logs.lines} lines, ${logs.reference.refused} malformed`,
    );
  }
  const held = Number((await admin.hget(keys.meta, 'held')) ?? NaN);
  const left = await admin.xlen(keys.chunks);
  if (held !== 0 || left !== 0) {
    totalsExact = false;
    notes.push(`${left} chunks left in the stream, ${held} bytes held`);
  }
  return { countries, places, totalsExact, notes };
}
