// Taking uploads in: chunks appended to a dataset's stream under the held-bytes bound, the
// backlog waiting to be counted, and an upload's progress as its sender sees it.
import type { RedisClient } from '../client/redis-client';
import { repliesOf } from '../client/replies';
import { runScript } from '../client/scripts';
import { LOCATION_DATASETS, locationKeys } from '../keys';
import {
  UPLOAD_RECORD_SECONDS,
  type AppendObserver,
  type AppendResult,
  type AppendStatus,
  type IngestBacklog,
  type LocationSettings,
  type UploadProgress,
} from './types';

/** A record of an upload that stopped before its end goes this long after its last append. */
const UPLOAD_IDLE_SECONDS = 7 * 86_400;
/** How old the other datasets' held bytes may be when an append checks the bound. */
const HELD_ELSEWHERE_MS = 1000;

/**
 * Bytes of chunks the other datasets hold. Their counts live in their own slots, so they cannot
 * be read in the append's script: the bound holds to within what appends in one second add.
 */
export class HeldElsewhere {
  private seen: { at: number; byDataset: Map<string, number> } | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly datasets: () => Promise<string[]>,
  ) {}

  async bytes(dataset: string): Promise<number> {
    if (!this.seen || Date.now() - this.seen.at > HELD_ELSEWHERE_MS) {
      const names = await this.datasets();
      const held = await Promise.all(names.map((name) => this.redis.hget(locationKeys(name).meta, 'held')));
      this.seen = { at: Date.now(), byDataset: new Map(names.map((name, i) => [name, Number(held[i] ?? 0)])) };
    }
    let sum = 0;
    for (const [name, held] of this.seen.byDataset) if (name !== dataset) sum += held;
    return sum;
  }
}

export async function append(
  redis: RedisClient,
  settings: LocationSettings,
  elsewhere: HeldElsewhere,
  observer: AppendObserver | undefined,
  request: {
    dataset: string;
    upload: string;
    from: number;
    chunk: { data: Buffer; lines: number } | undefined;
    complete: boolean;
  },
): Promise<AppendResult> {
  const { dataset, upload, from, chunk, complete } = request;
  const keys = locationKeys(dataset);
  const budget = chunk ? Math.max(0, settings.maxHeldBytes - (await elsewhere.bytes(dataset))) : 0;
  const reply = (await runScript(
    redis,
    'location-append',
    [keys.meta, keys.upload(upload), keys.chunks, keys.uploads, keys.refusedSamples(upload)],
    [
      upload,
      from,
      chunk?.lines ?? 0,
      chunk?.data.length ?? 0,
      chunk?.data ?? '',
      budget,
      settings.maxUploadBytes,
      complete ? 1 : 0,
      settings.maxUploads,
      keys.uploadChanged(upload),
      dataset,
      UPLOAD_IDLE_SECONDS,
      UPLOAD_RECORD_SECONDS,
    ],
  )) as [string, number, number, number];
  observer?.appended(reply[0] as AppendStatus, reply[0] === 'OK' ? (chunk?.lines ?? 0) : 0);
  return { status: reply[0] as AppendStatus, lines: reply[1], chunks: reply[2], complete: reply[3] === 1 };
}

export async function backlog(redis: RedisClient, maxDatasets: number): Promise<IngestBacklog> {
  const names = await redis.srandmember(LOCATION_DATASETS, maxDatasets);
  const each = await Promise.all(
    names.map(async (name) => {
      const keys = locationKeys(name);
      const [chunks, held] = await repliesOf(redis.pipeline().xlen(keys.chunks).hget(keys.meta, 'held').exec());
      return { chunks: chunks as number, bytes: Number(held ?? 0) };
    }),
  );
  return {
    datasets: names.length,
    chunks: each.reduce((sum, one) => sum + one.chunks, 0),
    bytes: each.reduce((sum, one) => sum + one.bytes, 0),
  };
}

export async function uploadProgress(
  redis: RedisClient,
  settings: LocationSettings,
  dataset: string,
  id: string,
): Promise<UploadProgress | null> {
  const keys = locationKeys(dataset);
  const [hash, samples] = await Promise.all([
    redis.hgetall(keys.upload(id)),
    redis.lrange(keys.refusedSamples(id), 0, settings.maxSamples - 1),
  ]);
  if (hash.lines === undefined) return null;
  const number = (field: string): number => Number(hash[field] ?? 0);
  return {
    id,
    lines: number('lines'),
    bytes: number('bytes'),
    chunks: number('chunks'),
    doneChunks: number('doneChunks'),
    doneLines: number('doneLines'),
    refused: number('refused'),
    complete: hash.complete === '1',
    created: number('created'),
    samples: samples.map((sample) => JSON.parse(sample) as UploadProgress['samples'][number]),
  };
}
