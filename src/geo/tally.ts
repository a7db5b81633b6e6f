// Counts one chunk of log lines locally: visits per day and place, and the lines refused.
// Lines look like `173.194.38.137 2011-10-10 13:55:36 achievement-762` (IP, date, time, then
// anything). A bad line is counted and may be kept as a sample, never an error: a file is never
// failed by what is in it. Samples hold no address: raw IPs live only in the chunks.
import { isIP } from 'node:net';
import { LINE_MAX } from './chunker';
import type { IpLocator, Place } from './ip-locator';

type RefusalReason = 'MALFORMED' | 'BAD_IP' | 'BAD_DATE' | 'BAD_TIME' | 'TOO_LONG';

interface RefusedLine {
  /** 1-based line number in the upload. */
  line: number;
  reason: RefusalReason;
  /** The start of the line, with anything shaped like an address masked and controls replaced. */
  text: string;
}

interface DayTally {
  visits: number;
  /** Visits from addresses in no known place. */
  unknown: number;
  countries: Map<string, number>;
  /** Per country: region to visits. */
  regions: Map<string, Map<string, number>>;
  /** Per `country\tregion`: city to visits. */
  cities: Map<string, Map<string, number>>;
}

export interface ChunkTally {
  lines: number;
  refused: number;
  samples: RefusedLine[];
  days: Map<string, DayTally>;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const FIRST_YEAR = 1970;
const LAST_YEAR = 2099;

/** True for a real calendar date `YYYY-MM-DD` from 1970 to 2099. */
export function isDay(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < FIRST_YEAR || year > LAST_YEAR || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]);
}

const SAMPLE_CHARS = 120;
// Dotted quads, and hex groups with three colons or more or a `::`: whatever might be an address,
// valid or not (a time such as 13:55:36 has two colons and stays).
const ADDRESS_LIKE =
  /\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){3,7}(?:%\S*)?|[0-9A-Fa-f:]*::[0-9A-Fa-f:.]*/g;
// eslint-disable-next-line no-control-regex -- control characters are what this replaces
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\ufffd]/g;

function sampleText(latin1Line: string): string {
  const text = Buffer.from(latin1Line.slice(0, SAMPLE_CHARS * 2), 'latin1').toString('utf8');
  return [...text.replace(ADDRESS_LIKE, '<ip>').replace(CONTROLS, '?')].slice(0, SAMPLE_CHARS).join('');
}

function dayTally(): DayTally {
  return { visits: 0, unknown: 0, countries: new Map(), regions: new Map(), cities: new Map() };
}

function add(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

function nested(map: Map<string, Map<string, number>>, key: string): Map<string, number> {
  let inner = map.get(key);
  if (!inner) {
    inner = new Map();
    map.set(key, inner);
  }
  return inner;
}

/** Lines tallied between two yields to the event loop: about 10 ms of work. */
const LINES_PER_SLICE = 4096;

/**
 * Tallies `data` (lines as the chunker cut them), whose first line is number `firstLine`.
 * Counting per distinct place first and per line only a Map lookup keeps this at a few
 * hundred thousand lines a second (bench/location.ts). It yields to the event loop every
 * LINES_PER_SLICE lines, so an API process that also aggregates keeps answering meanwhile.
 */
export async function tallyChunk(
  data: Buffer,
  firstLine: number,
  locator: IpLocator,
  maxSamples: number,
): Promise<ChunkTally> {
  const text = data.toString('latin1');
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const tally: ChunkTally = { lines: lines.length, refused: 0, samples: [], days: new Map() };
  // Visits per day and place first (one key per distinct place), spread into levels after.
  const perDay = new Map<string, Map<Place | null, number>>();
  const refuse = (index: number, reason: RefusalReason, line: string): void => {
    tally.refused += 1;
    if (tally.samples.length < maxSamples) {
      tally.samples.push({ line: firstLine + index, reason, text: sampleText(line) });
    }
  };
  for (let i = 0; i < lines.length; i++) {
    if (i % LINES_PER_SLICE === LINES_PER_SLICE - 1) await new Promise((resolve) => setImmediate(resolve));
    let line = lines[i];
    if (line.length >= LINE_MAX) {
      refuse(i, 'TOO_LONG', line);
      continue;
    }
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const first = line.indexOf(' ');
    const second = first === -1 ? -1 : line.indexOf(' ', first + 1);
    if (second === -1) {
      refuse(i, 'MALFORMED', line);
      continue;
    }
    const third = line.indexOf(' ', second + 1);
    const ip = line.slice(0, first);
    const day = line.slice(first + 1, second);
    const time = third === -1 ? line.slice(second + 1) : line.slice(second + 1, third);
    // A zone id (fe80::1%eth0) names an interface of the sender's machine: no place.
    if (isIP(ip) === 0 || ip.includes('%')) {
      refuse(i, 'BAD_IP', line);
      continue;
    }
    if (!isDay(day)) {
      refuse(i, 'BAD_DATE', line);
      continue;
    }
    if (!TIME.test(time)) {
      refuse(i, 'BAD_TIME', line);
      continue;
    }
    let places = perDay.get(day);
    if (!places) {
      places = new Map();
      perDay.set(day, places);
    }
    const place = locator.lookup(ip);
    places.set(place, (places.get(place) ?? 0) + 1);
  }
  for (const [day, places] of perDay) {
    const totals = dayTally();
    for (const [place, visits] of places) {
      totals.visits += visits;
      if (!place) {
        totals.unknown += visits;
        continue;
      }
      add(totals.countries, place.country, visits);
      add(nested(totals.regions, place.country), place.region, visits);
      add(nested(totals.cities, `${place.country}\t${place.region}`), place.city, visits);
    }
    tally.days.set(day, totals);
  }
  return tally;
}
