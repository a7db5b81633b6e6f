// Deterministic log lines for trying the feature out, the tests and the benchmark: addresses
// drawn from the IP database's own ranges (IPv4 and some IPv6), a skewed mix in which 10% of the
// places carry 90% of the lines, time moving forward so a run of files spans days, and a few
// malformed lines. It also counts what it wrote, per day and place, as the reference the
// product's totals must equal.
import { seeded } from '../common/random';
import type { IpLocator, Place } from './ip-locator';

export interface GeneratorOptions {
  seed: number;
  /** Distinct places to draw from. */
  places: number;
  /** Share of lines with an IPv6 address. */
  ipv6Share: number;
  /** Share of lines that are malformed on purpose. */
  badShare: number;
  /** First line's time, unix seconds. */
  start: number;
  /** Seconds between lines (fractional: many lines per second). */
  step: number;
}

export const DEFAULT_GENERATOR: GeneratorOptions = {
  seed: 1,
  places: 2000,
  ipv6Share: 0.1,
  badShare: 0.001,
  start: Date.UTC(2011, 9, 10) / 1000,
  step: 0.0086, // 10 million lines a day, as the book's game company had
};

/** Counts by day and place, as the product keeps them. */
export class ReferenceCount {
  readonly visits = new Map<string, number>();
  readonly unknown = new Map<string, number>();
  /** `day\tcountry\tregion\tcity` to visits. */
  readonly places = new Map<string, number>();
  refused = 0;
  lines = 0;

  add(day: string, place: Place | null): void {
    this.visits.set(day, (this.visits.get(day) ?? 0) + 1);
    if (!place) {
      this.unknown.set(day, (this.unknown.get(day) ?? 0) + 1);
      return;
    }
    const key = `${day}\t${place.country}\t${place.region}\t${place.city}`;
    this.places.set(key, (this.places.get(key) ?? 0) + 1);
  }

  /** Visits by country (or by region of a country, or city of a region) on a day, most first. */
  top(day: string, country?: string, region?: string): { name: string; visits: number }[] {
    const sums = new Map<string, number>();
    for (const [key, visits] of this.places) {
      const [d, c, r, city] = key.split('\t');
      if (d !== day || (country !== undefined && c !== country) || (region !== undefined && r !== region)) continue;
      const name = country === undefined ? c : region === undefined ? r : city;
      sums.set(name, (sums.get(name) ?? 0) + visits);
    }
    return [...sums]
      .map(([name, visits]) => ({ name, visits }))
      .sort((a, b) => b.visits - a.visits || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}

interface Source {
  /** Several addresses of one place, as different players there have. */
  v4: string[];
  v6: string | undefined;
  place: Place;
}

const ADDRESSES_PER_PLACE = 16;

const BAD_LINES = [
  (ip: string) => `${ip} 2011-13-01 10:00:00 bad-month`,
  (ip: string) => `${ip} 2011-02-30 10:00:00 no-such-day`,
  () => `999.1.2.3 2011-10-10 10:00:00 bad-address`,
  (ip: string) => `${ip} 2011-10-10 25:61:00 bad-time`,
  () => `just some words`,
  () => '\u0000\u00ff\u00fe binary \u0007',
  () => '',
];

export class LogGenerator {
  private readonly next: () => number;
  private readonly sources: Source[];
  private time: number;
  readonly reference = new ReferenceCount();

  constructor(
    private readonly locator: IpLocator,
    private readonly options: GeneratorOptions = DEFAULT_GENERATOR,
  ) {
    this.next = seeded(options.seed);
    this.time = options.start;
    this.sources = this.drawPlaces();
  }

  /** `count` lines, each without its newline. */
  lines(count: number): string[] {
    const out: string[] = new Array<string>(count);
    for (let i = 0; i < count; i++) out[i] = this.line();
    return out;
  }

  line(): string {
    const when = new Date(Math.floor(this.time) * 1000).toISOString();
    this.time += this.options.step;
    this.reference.lines += 1;
    const hot = Math.max(1, Math.floor(this.sources.length / 10));
    const index =
      this.next() < 0.9 ? Math.floor(this.next() * hot) : hot + Math.floor(this.next() * (this.sources.length - hot));
    const source = this.sources[Math.min(index, this.sources.length - 1)];
    const ip =
      source.v6 !== undefined && this.next() < this.options.ipv6Share
        ? source.v6
        : source.v4[Math.floor(this.next() * source.v4.length)];
    if (this.next() < this.options.badShare) {
      this.reference.refused += 1;
      return BAD_LINES[Math.floor(this.next() * BAD_LINES.length)](ip);
    }
    const day = when.slice(0, 10);
    this.reference.add(day, source.place);
    return `${ip} ${day} ${when.slice(11, 19)} action-${Math.floor(this.next() * 1000)}`;
  }

  /** Distinct places, each with an IPv4 address (and an IPv6 one where found) that the database puts there. */
  private drawPlaces(): Source[] {
    const byPlace = new Map<string, Source>();
    const wanted = this.options.places;
    for (let tries = 0; byPlace.size < wanted && tries < wanted * 200; tries++) {
      const v4 = [1 + Math.floor(this.next() * 222), 0, 0, 0].map((part, i) =>
        i === 0 ? part : Math.floor(this.next() * 256),
      );
      const ip = v4.join('.');
      const place = this.locator.lookup(ip);
      if (!place || place.city === '') continue;
      const key = `${place.country}\t${place.region}\t${place.city}`;
      if (byPlace.has(key)) continue;
      const source: Source = { v4: [ip], v6: undefined, place };
      byPlace.set(key, source);
      // Neighbours in the same range, where the database puts them in the same place.
      for (let tries = 0; tries < ADDRESSES_PER_PLACE * 2 && source.v4.length < ADDRESSES_PER_PLACE; tries++) {
        const near = `${v4.slice(0, 3).join('.')}.${Math.floor(this.next() * 256)}`;
        const there = this.locator.lookup(near);
        if (there && `${there.country}\t${there.region}\t${there.city}` === key && !source.v4.includes(near)) {
          source.v4.push(near);
        }
      }
    }
    // IPv6 addresses for the places they land in, where those are among the drawn ones.
    const prefixes = [0x2001, 0x2400, 0x2600, 0x2800, 0x2a00];
    for (let tries = 0; tries < wanted * 20; tries++) {
      const groups = [prefixes[Math.floor(this.next() * prefixes.length)] | Math.floor(this.next() * 16)];
      for (let k = 0; k < 7; k++) groups.push(Math.floor(this.next() * 65536));
      const ip = groups.map((group) => group.toString(16)).join(':');
      const place = this.locator.lookup(ip);
      if (!place) continue;
      const source = byPlace.get(`${place.country}\t${place.region}\t${place.city}`);
      if (source && source.v6 === undefined) source.v6 = ip;
    }
    return [...byPlace.values()];
  }
}
