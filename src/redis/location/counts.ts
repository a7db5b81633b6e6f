// A dataset's counts: reading them by day and place level, and forgetting the oldest days.
import type { RedisClient } from '../client/redis-client';
import { runScript } from '../client/scripts';
import { locationKeys } from '../keys';
import { dayNumber, type Place, type PlaceLevel, type Ranked } from './types';

export async function days(
  redis: RedisClient,
  dataset: string,
  from: string,
  to: string,
  limit: number,
): Promise<string[]> {
  return redis.zrangebyscore(locationKeys(dataset).days, dayNumber(from), dayNumber(to), 'LIMIT', 0, limit);
}

export async function totals(
  redis: RedisClient,
  dataset: string,
  days: string[],
): Promise<{ visits: number; unknown: number }> {
  if (days.length === 0) return { visits: 0, unknown: 0 };
  const keys = locationKeys(dataset);
  const [visits, unknown] = await Promise.all([redis.hmget(keys.visits, ...days), redis.hmget(keys.unknown, ...days)]);
  const sum = (values: (string | null)[]): number => values.reduce((total, value) => total + Number(value ?? 0), 0);
  return { visits: sum(visits), unknown: sum(unknown) };
}

export async function top(
  redis: RedisClient,
  dataset: string,
  place: PlaceLevel,
  days: string[],
  limit: number,
): Promise<Ranked[]> {
  const keys = locationKeys(dataset);
  const keyOf = (day: string): string =>
    place.level === 'country'
      ? keys.countries(day)
      : place.level === 'region'
        ? keys.regions(day, place.country)
        : keys.cities(day, place.country, place.region);
  const sums = new Map<string, number>();
  const pipeline = redis.pipeline();
  for (const day of days) pipeline.zrange(keyOf(day), 0, -1, 'WITHSCORES');
  for (const [error, reply] of (await pipeline.exec()) ?? []) {
    if (error) throw error;
    const pairs = reply as string[];
    for (let i = 0; i + 1 < pairs.length; i += 2) sums.set(pairs[i], (sums.get(pairs[i]) ?? 0) + Number(pairs[i + 1]));
  }
  return [...sums]
    .map(([name, visits]) => ({ name, visits }))
    .sort((a, b) => b.visits - a.visits || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, limit);
}

export async function series(redis: RedisClient, dataset: string, place: Place, days: string[]): Promise<number[]> {
  if (days.length === 0) return [];
  const keys = locationKeys(dataset);
  const pipeline = redis.pipeline();
  for (const day of days) {
    if (place.region === undefined) pipeline.zscore(keys.countries(day), place.country);
    else if (place.city === undefined) pipeline.zscore(keys.regions(day, place.country), place.region);
    else pipeline.zscore(keys.cities(day, place.country, place.region), place.city);
  }
  return ((await pipeline.exec()) ?? []).map(([error, reply]) => {
    if (error) throw error;
    return Number(reply ?? 0);
  });
}

export async function forgetBefore(
  redis: RedisClient,
  dataset: string,
  before: string,
  maxDays: number,
): Promise<string[]> {
  const keys = locationKeys(dataset);
  const forgotten: string[] = [];
  while (forgotten.length < maxDays) {
    // One day per script: deleting a busy day's keys takes Redis a few milliseconds.
    const days = (await runScript(
      redis,
      'location-forget',
      [keys.days, keys.visits, keys.unknown],
      [keys.prefix, dayNumber(before), 1, keys.totalsChanged, dataset],
    )) as string[];
    if (days.length === 0) break;
    forgotten.push(...days);
  }
  return forgotten;
}
