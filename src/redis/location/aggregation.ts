// The aggregators' side of a dataset's chunk stream: taking chunks through the consumer group
// (claiming those a dead aggregator held), committing a chunk's counts, and keeping the group's
// consumer list from growing with every process start.
import type { RedisClient } from '../client/redis-client';
import { runScript } from '../client/scripts';
import { LOCATION_GROUP, locationKeys } from '../keys';
import type { ChunkTally } from '../../geo/tally';
import { dayNumber, UPLOAD_RECORD_SECONDS, type ChunkEntry, type CommitOutcome } from './types';

/** Most consumers one prune removes: XINFO CONSUMERS lists them all, so a backlog goes in steps. */
export const PRUNE_BATCH = 1000;

const COMMIT_OUTCOMES: CommitOutcome[] = ['DONE_ALREADY', 'COUNTED', 'UPLOAD_COUNTED'];

/** Stream entry fields as ioredis returns them with Buffer replies: [name, value, name, value, ...]. */
function toEntry(id: Buffer, fields: Buffer[]): ChunkEntry {
  const byName = new Map<string, Buffer>();
  for (let i = 0; i + 1 < fields.length; i += 2) byName.set(fields[i].toString(), fields[i + 1]);
  const text = (name: string): string => byName.get(name)?.toString() ?? '';
  return {
    id: id.toString(),
    upload: text('u'),
    firstLine: Number(text('l')),
    lines: Number(text('c')),
    bytes: Number(text('b')),
    data: byName.get('d') ?? Buffer.alloc(0),
  };
}

export async function take(
  redis: RedisClient,
  dataset: string,
  consumer: string,
  count: number,
  claimAfterMs: number,
  claim: boolean,
): Promise<ChunkEntry[]> {
  const { chunks } = locationKeys(dataset);
  if (claim) {
    const stale = await claimStale(redis, chunks, consumer, count, claimAfterMs);
    if (stale.length > 0) return stale;
  }
  const fresh = (await redis.callBuffer(
    'XREADGROUP',
    'GROUP',
    LOCATION_GROUP,
    consumer,
    'COUNT',
    count,
    'STREAMS',
    chunks,
    '>',
  )) as [Buffer, [Buffer, Buffer[]][]][] | null;
  if (!fresh) return [];
  return fresh.flatMap(([, entries]) => entries.map(([id, fields]) => toEntry(id, fields)));
}

async function claimStale(
  redis: RedisClient,
  chunks: string,
  consumer: string,
  count: number,
  claimAfterMs: number,
): Promise<ChunkEntry[]> {
  // Buffer replies: chunk data is kept byte for byte, whatever its encoding.
  const claimed = (await redis.callBuffer(
    'XAUTOCLAIM',
    chunks,
    LOCATION_GROUP,
    consumer,
    claimAfterMs,
    '0-0',
    'COUNT',
    count,
  )) as [Buffer, [Buffer, Buffer[] | null][]];
  return claimed[1]
    .filter((entry): entry is [Buffer, Buffer[]] => entry[1] !== null)
    .map(([id, fields]) => toEntry(id, fields));
}

export async function forgetConsumer(redis: RedisClient, dataset: string, consumer: string): Promise<void> {
  const { chunks } = locationKeys(dataset);
  const pending = await redis.xpending(chunks, LOCATION_GROUP, '-', '+', 1, consumer);
  if (pending.length === 0) await redis.xgroup('DELCONSUMER', chunks, LOCATION_GROUP, consumer);
}

export async function pruneConsumers(
  redis: RedisClient,
  dataset: string,
  idleMs: number,
  keep: string,
  most: number,
): Promise<string[]> {
  const { chunks } = locationKeys(dataset);
  return (await runScript(
    redis,
    'location-prune-consumers',
    [chunks],
    [LOCATION_GROUP, idleMs, keep, most],
  )) as string[];
}

export async function commit(
  redis: RedisClient,
  maxSamples: number,
  dataset: string,
  entry: ChunkEntry,
  tally: ChunkTally,
): Promise<CommitOutcome> {
  const keys = locationKeys(dataset);
  const scriptKeys = [
    keys.chunks,
    keys.meta,
    keys.upload(entry.upload),
    keys.refusedSamples(entry.upload),
    keys.days,
    keys.visits,
    keys.unknown,
    keys.uploads,
  ];
  const args: (string | number)[] = [
    entry.id,
    LOCATION_GROUP,
    entry.bytes,
    entry.lines,
    tally.refused,
    maxSamples,
    keys.uploadChanged(entry.upload),
    keys.totalsChanged,
    entry.upload,
    dataset,
    tally.samples.length,
    UPLOAD_RECORD_SECONDS,
    ...tally.samples.map((sample) => JSON.stringify(sample)),
    tally.days.size,
  ];
  const increments: (string | number)[] = [];
  const addLevel = (key: string, counts: Map<string, number>): void => {
    scriptKeys.push(key);
    const index = scriptKeys.length;
    for (const [member, visits] of counts) increments.push(index, member, visits);
  };
  for (const [day, totals] of tally.days) {
    args.push(day, dayNumber(day), totals.visits, totals.unknown);
    addLevel(keys.countries(day), totals.countries);
    for (const [country, regions] of totals.regions) addLevel(keys.regions(day, country), regions);
    for (const [countryRegion, cities] of totals.cities) {
      const tab = countryRegion.indexOf('\t');
      addLevel(keys.cities(day, countryRegion.slice(0, tab), countryRegion.slice(tab + 1)), cities);
    }
  }
  args.push(...increments);
  return COMMIT_OUTCOMES[Number(await runScript(redis, 'location-commit', scriptKeys, args))];
}
