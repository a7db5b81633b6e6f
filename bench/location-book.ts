// The book's location analytics, ported as it is for the location suite: 5.3's IP lookup table,
// 6.5.2's chat messages (messaging's book peer fetches with them too) and 6.6's file distribution,
// 6.6.3's daily_country_aggregate. What it follows and where it departs: docs/performance.md, "Method: location".
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import zlib from 'node:zlib';
import type Redis from 'ioredis';
import { Reader, type Response } from 'mmdb-lib';
import { defaultDatabases, type IpLocator } from '../src/geo/ip-locator';
import { isDay } from '../src/geo/tally';

const BLOCK = 2 ** 17;
const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

// --- 5.3: the IP lookup table in Redis ----------------------------------------------------------

export function ipToScore(ip: string): number {
  let score = 0;
  for (const part of ip.split('.')) score = score * 256 + Number.parseInt(part, 10);
  return score;
}

/** The 32 hex digits of an IPv6 address, `::` expanded. */
export function ipv6Hex(ip: string): string {
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => g.padStart(4, '0')).join('');
}

function networkStartV4(ip: string, prefix: number): number {
  const score = ipToScore(ip);
  const size = 2 ** (32 - prefix);
  return Math.floor(score / size) * size;
}

function networkStartV6(ip: string, prefix: number): string {
  const bits = BigInt(`0x${ipv6Hex(ip)}`);
  const mask = ((1n << 128n) - 1n) ^ ((1n << BigInt(128 - prefix)) - 1n);
  return (bits & mask).toString(16).padStart(32, '0');
}

/**
 * import_ips_to_redis and import_cities_to_redis with only the ranges (CIDR networks of the same
 * DB-IP files) that hold an address of the logs, so each finds its range as in the full table.
 * Returns the ranges loaded.
 */
export async function importRanges(redis: Redis, addresses: Iterable<string>, locator: IpLocator): Promise<number> {
  const [v4Reader, v6Reader] = defaultDatabases().map((file) => new Reader<Response>(fs.readFileSync(file)));
  const cityIds = new Map<string, number>();
  const v4: (string | number)[] = [];
  const v6: (string | number)[] = [];
  let count = 0;
  for (const ip of addresses) {
    const family = isIP(ip);
    const place = family === 0 ? null : locator.lookup(ip);
    if (!place) continue;
    const placeKey = JSON.stringify([place.city, place.region, place.country]);
    let cityId = cityIds.get(placeKey);
    if (cityId === undefined) {
      cityId = cityIds.size + 1;
      cityIds.set(placeKey, cityId);
    }
    const [, prefix] = (family === 4 ? v4Reader : v6Reader).getWithPrefixLength(ip);
    count += 1;
    if (family === 4) v4.push(networkStartV4(ip, prefix), `${cityId}_${count}`);
    else v6.push(0, `${networkStartV6(ip, prefix)}_${cityId}_${count}`);
  }
  const cities = [...cityIds].flatMap(([place, id]) => [String(id), place]);
  const pipeline = redis.pipeline();
  for (const [command, key, args] of [
    ['zadd', 'ip2cityid:', v4],
    ['zadd', 'ip2cityid6:', v6],
    ['hset', 'cityid2city:', cities],
  ] as const)
    for (let i = 0; i < args.length; i += 2000) pipeline[command](key, ...args.slice(i, i + 2000));
  for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
  return count;
}

/** find_city_by_ip: the range start at or below the address, then its city: 2 round trips. */
export async function findCityByIp(redis: Redis, ip: string): Promise<[string, string, string] | null> {
  const ids =
    isIP(ip) === 6
      ? (await redis.zrevrangebylex('ip2cityid6:', `(${ipv6Hex(ip)}~`, '-', 'LIMIT', 0, 1)).map((m) =>
          m.slice(m.indexOf('_') + 1),
        )
      : await redis.zrevrangebyscore('ip2cityid:', ipToScore(ip), 0, 'LIMIT', 0, 1);
  if (ids.length === 0) return null;
  const cityId = ids[0].slice(0, ids[0].indexOf('_'));
  return JSON.parse((await redis.hget('cityid2city:', cityId))!) as [string, string, string];
}

// --- 6.5.2: chat messages -----------------------------------------------------------------------
// Departure: the chat lock is SET NX PX plus a checked DEL (the book's acquire_lock loops on SETNX).

type Message = { id: number; ts: number; sender: string; message: string };

async function sendMessage(redis: Redis, chatId: string, sender: string, message: string): Promise<void> {
  const lock = `lock:chat:${chatId}`;
  const identifier = `${process.pid}:${Math.random()}`;
  while ((await redis.set(lock, identifier, 'PX', 10_000, 'NX')) !== 'OK') await sleep(1);
  try {
    const mid = await redis.incr(`ids:${chatId}`);
    await redis.zadd(`msgs:${chatId}`, mid, JSON.stringify({ id: mid, ts: Date.now() / 1000, sender, message }));
  } finally {
    if ((await redis.get(lock)) === identifier) await redis.del(lock);
  }
}

async function createChat(redis: Redis, sender: string, recipients: string[], message: string, chatId: string) {
  const multi = redis.multi();
  for (const recipient of [...recipients, sender])
    multi.zadd(`chat:${chatId}`, 0, recipient).zadd(`seen:${recipient}`, 0, chatId);
  await multi.exec();
  await sendMessage(redis, chatId, sender, message);
}

/** fetch_pending_messages: every chat's messages past the recipient's seen id, marked seen. */
export async function fetchPendingMessages(redis: Redis, recipient: string): Promise<[string, Message[]][]> {
  const seen = await redis.zrange(`seen:${recipient}`, 0, -1, 'WITHSCORES');
  const chats: [string, number][] = [];
  for (let i = 0; i + 1 < seen.length; i += 2) chats.push([seen[i], Number(seen[i + 1])]);
  if (chats.length === 0) return [];
  const read = redis.multi();
  for (const [chatId, seenId] of chats) read.zrangebyscore(`msgs:${chatId}`, seenId + 1, 'inf');
  const replies = (await read.exec()) ?? [];
  const out: [string, Message[]][] = [];
  const update = redis.multi();
  for (const [i, [chatId]] of chats.entries()) {
    const raw = replies[i][1] as string[];
    if (raw.length === 0) continue;
    const messages = raw.map((m) => JSON.parse(m) as Message);
    const seenId = messages[messages.length - 1].id;
    await redis.zadd(`chat:${chatId}`, seenId, recipient);
    const minId = await redis.zrange(`chat:${chatId}`, 0, 0, 'WITHSCORES');
    update.zadd(`seen:${recipient}`, seenId, chatId);
    if (minId.length > 0) update.zremrangebyscore(`msgs:${chatId}`, 0, minId[1]);
    out.push([chatId, messages]);
  }
  if (out.length > 0) await update.exec();
  return out;
}

// --- 6.6.2: files through Redis -----------------------------------------------------------------

/**
 * copy_logs_to_redis: every file, in name order, APPENDed in 128 KiB blocks to a string and
 * announced to the `count` workers; waits while Redis holds `limit` bytes of files, and at the
 * end until every worker has read every file (then deletes them).
 */
export async function copyLogsToRedis(redis: Redis, dir: string, channel: string, count: number, limit = 2 ** 30) {
  let inRedis = 0;
  const waiting: [string, number][] = [];
  /** clean(): deletes the oldest file once every worker has read it, else sleeps. */
  const clean = async (): Promise<void> => {
    const [file, size] = waiting[0];
    if (Number(await redis.get(`${channel}${file}:done`)) === count) {
      await redis.del(`${channel}${file}`, `${channel}${file}:done`);
      waiting.shift();
      inRedis -= size;
    } else await sleep(250);
  };
  const workers = Array.from({ length: count }, (_, i) => String(i));
  await createChat(redis, 'source', workers, '', channel);
  for (const file of fs.readdirSync(dir).sort()) {
    const full = path.join(dir, file);
    const size = fs.statSync(full).size;
    while (inRedis + size > limit) await clean();
    for await (const block of fs.createReadStream(full, { highWaterMark: BLOCK }))
      await redis.append(`${channel}${file}`, block as Buffer);
    // The book's loop appends the empty read that ends it too.
    await redis.append(`${channel}${file}`, Buffer.alloc(0));
    await sendMessage(redis, channel, 'source', file);
    inRedis += size;
    waiting.push([file, size]);
  }
  await sendMessage(redis, channel, 'source', ':done');
  while (waiting.length > 0) await clean();
}

async function* readBlocks(redis: Redis, key: string): AsyncGenerator<Buffer> {
  for (let at = 0; ;) {
    const block = await redis.getrangeBuffer(key, at, at + BLOCK - 1);
    if (block.length > 0) yield block;
    if (block.length < BLOCK) return;
    at += block.length;
  }
}

async function* readLines(blocks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let rest = '';
  for await (const block of blocks) {
    const lines = (rest + block.toString('latin1')).split('\n');
    rest = lines.pop()!;
    yield* lines;
  }
  if (rest) yield rest;
}

/** Called with each line of a file, then with null at its end. */
type LineCallback = (line: string | null) => Promise<void> | void;

/** process_logs_from_redis: every file announced on the channel, line by line, until ':done'. */
export async function processLogsFromRedis(redis: Redis, id: string, callback: LineCallback): Promise<void> {
  for (;;) {
    const pending = await fetchPendingMessages(redis, id);
    for (const [channel, messages] of pending) {
      for (const { message: file } of messages) {
        if (file === ':done') return;
        if (!file) continue;
        const raw = readBlocks(redis, channel + file);
        const blocks = file.endsWith('.gz') ? Readable.from(raw).pipe(zlib.createGunzip()) : raw;
        for await (const line of readLines(blocks)) {
          const pending = callback(line);
          if (pending) await pending;
        }
        await callback(null);
        await redis.incr(`${channel}${file}:done`);
      }
    }
    if (pending.length === 0) await sleep(100);
  }
}

// --- 6.6.3: daily_country_aggregate -------------------------------------------------------------

/**
 * Flush ZADDs sent (the aggregate writes); lookup commands sent (ZREVRANGEBYSCORE or
 * ZREVRANGEBYLEX, and HGET); and per day and country the same flushes added up in this process, as
 * ZINCRBY would have added them in Redis.
 */
export const newCounters = () => ({ flushes: 0, lookups: 0, summed: new Map<string, Map<string, number>>() });

/** `map`'s inner map at `key`, made when missing. */
const inner = (map: Map<string, Map<string, number>>, key: string): Map<string, number> =>
  map.get(key) ?? map.set(key, new Map()).get(key)!;

/**
 * The callback of worker `index` of `workers`: counts its share of the lines (line number modulo
 * `workers`) by day and country, looking each address up with `country`, and at a file's end
 * writes each day with ZADD, overwriting what was there.
 */
export function dailyCountryAggregate(
  redis: Redis,
  index: number,
  workers: number,
  country: (ip: string) => Promise<string | undefined> | string | undefined,
  counters: ReturnType<typeof newCounters>,
): LineCallback {
  const aggregates = new Map<string, Map<string, number>>();
  let number = 0;
  const countLine = (day: string, found: string | undefined): void => {
    if (found === undefined) return;
    const days = inner(aggregates, day);
    days.set(found, (days.get(found) ?? 0) + 1);
  };
  return (line) => {
    if (line !== null) {
      if (number++ % workers !== index) return;
      const [ip, day, time] = line.split(' ');
      if (time === undefined || isIP(ip) === 0 || !isDay(day) || !TIME.test(time)) return;
      const found = country(ip);
      if (found instanceof Promise) return found.then((c) => countLine(day, c));
      countLine(day, found);
      return;
    }
    number = 0;
    return (async () => {
      for (const [day, aggregate] of aggregates) {
        const members: (string | number)[] = [];
        const summed = inner(counters.summed, day);
        for (const [name, visits] of aggregate) {
          members.push(visits, name);
          summed.set(name, (summed.get(name) ?? 0) + visits);
        }
        counters.flushes += 1;
        await redis.zadd(`daily:country:${day}`, ...members);
      }
      aggregates.clear();
    })();
  };
}
