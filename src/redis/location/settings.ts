// Settings of location analytics: the IP databases, log chunks and their aggregation, the bounds
// of uploads and of what Redis holds, and of queries.
import path from 'node:path';
import { z } from 'zod';
import { commaList, flag, int, parsed, type SettingDomain, type SettingsReader } from '../../common/settings';
import type { LocationSettings } from './repository';

const databaseFiles = z
  .string()
  .transform((value) => commaList(value).map((file) => path.resolve(file)))
  .superRefine((files, context) => {
    for (const file of files) {
      if (!file.endsWith('.mmdb'))
        context.addIssue({ code: 'custom', message: `must list .mmdb files, got "${file}"` });
    }
  });

/** Read by src/config.ts, whose default and bound follow BODY_LIMIT_BYTES and WS_MAX_PAYLOAD_BYTES. */
export const APPEND_LINES_SETTING = int({
  default: undefined,
  defaultText: 'as many as one request holds on either transport (`1568` at the defaults)',
  min: 1,
  max: 1_000_000,
  bounds: '1 to 1000000, and a full batch must fit `BODY_LIMIT_BYTES` and `WS_MAX_PAYLOAD_BYTES`',
  description:
    'Most lines in one `appendLocationLines`. Counted at 64 bytes a line plus 2 KiB for the rest of the request ((min(`BODY_LIMIT_BYTES`, `WS_MAX_PAYLOAD_BYTES`) - 2048) / 64): over WebSocket a larger frame would close the whole socket (1009), not refuse one call. A value whose full batch would not fit either limit is refused at start, naming the limit that is too small. Longer lines fit fewer to a request; whole files go to `POST /logs`.',
});

const SETTINGS = {
  LOCATION_DB: parsed({
    type: 'list',
    bounds: '`.mmdb` files, comma-separated',
    default: [],
    defaultText: 'DB-IP Lite (installed by npm)',
    schema: databaseFiles,
    description: 'MaxMind DB files for IP lookups: a GeoIP2/GeoLite2 City file, or one file per address family.',
  }),
  LOCATION_WORKER: flag({
    default: undefined,
    defaultText: '`on`, `off` in production',
    description:
      'Count log chunks in this process (the API, and `npm run worker`); set on a worker process without queues, it only counts.',
  }),
  LOCATION_CHUNK_BYTES: int({
    default: 1024 * 1024,
    min: 1024,
    max: 64 * 1024 * 1024,
    description: 'Bytes of log lines per chunk, cut at a line end.',
  }),
  // The book's bound on the bytes of files waiting in Redis, over all datasets.
  LOCATION_MAX_HELD_BYTES: int({
    default: 1024 * 1024 * 1024,
    min: 64 * 1024,
    max: 2 ** 40,
    description:
      "Bytes of chunks all datasets together may hold in Redis before senders are slowed down (the book's 1 GiB).",
  }),
  LOCATION_MAX_UPLOAD_BYTES: int({
    default: 64 * 1024 * 1024 * 1024,
    defaultText: '`68719476736` (64 GiB)',
    min: 1024,
    max: 2 ** 44,
    description: 'Largest upload, after decompression.',
  }),
  LOCATION_MAX_DATASETS: int({ default: 100, min: 1, max: 100_000, description: 'Most datasets.' }),
  LOCATION_MAX_UPLOADS: int({
    default: 10_000,
    min: 1,
    max: 10_000_000,
    description: 'Upload records kept per dataset.',
  }),
  LOCATION_REFUSED_SAMPLES: int({
    default: 20,
    min: 0,
    max: 1000,
    description: 'Refused lines kept per upload as samples.',
  }),
  LOCATION_CLAIM_AFTER_MS: int({
    default: 60_000,
    min: 100,
    max: 3_600_000,
    description: 'A chunk taken by an aggregator and not done this long is counted by another.',
  }),
  LOCATION_MAX_APPEND_LINES: APPEND_LINES_SETTING,
  LOCATION_MAX_RANGE_DAYS: int({ default: 366, min: 1, max: 36_600, description: 'Most days one query covers.' }),
  // Below Node's 300 s limit on one HTTP request: the sender is told to resume instead.
  LOCATION_MAX_WAIT_MS: int({
    default: 120_000,
    min: 100,
    max: 240_000,
    description:
      'How long an upload waits for room in Redis (`LOCATION_MAX_HELD_BYTES`) before it answers 429 with the line to resume from.',
  }),
} as const;

export const LOCATION_SETTINGS: SettingDomain = {
  title: 'Location analytics',
  summary: 'IP databases, log chunks and their aggregation, and the bounds of uploads and queries.',
  settings: SETTINGS,
};

export interface LocationConfig extends LocationSettings {
  /** MaxMind DB files for IP lookups (LOCATION_DB); empty: DB-IP Lite, installed with the product. */
  databases: string[];
  /** Whether this process counts log chunks (LOCATION_WORKER). */
  aggregate: boolean;
  /** LOCATION_WORKER was set, not left to its default: a worker process without queues then only counts. */
  aggregateAsked: boolean;
  /** Bytes of log lines per chunk (cut at a line end). */
  chunkBytes: number;
  /** A chunk taken and not done for this long is claimed by another aggregator. */
  claimAfterMs: number;
  /** Most lines in one appendLocationLines call (by default as many typical lines as one request holds on either transport). */
  maxAppendLines: number;
  /** Most days one query covers. */
  maxRangeDays: number;
  /** How long an upload waits for room in Redis (LOCATION_MAX_HELD_BYTES) before it gives up. */
  maxWaitForRoomMs: number;
}

/** All but maxAppendLines, which src/config.ts fits to the request limits. */
export function readLocation(reader: SettingsReader, isProduction: boolean): Omit<LocationConfig, 'maxAppendLines'> {
  const values = reader.read(SETTINGS, ['LOCATION_MAX_APPEND_LINES']);
  return {
    databases: values.LOCATION_DB,
    aggregate: values.LOCATION_WORKER ?? !isProduction,
    aggregateAsked: reader.isSet('LOCATION_WORKER'),
    chunkBytes: values.LOCATION_CHUNK_BYTES,
    maxHeldBytes: values.LOCATION_MAX_HELD_BYTES,
    maxUploadBytes: values.LOCATION_MAX_UPLOAD_BYTES,
    maxDatasets: values.LOCATION_MAX_DATASETS,
    maxUploads: values.LOCATION_MAX_UPLOADS,
    maxSamples: values.LOCATION_REFUSED_SAMPLES,
    claimAfterMs: values.LOCATION_CLAIM_AFTER_MS,
    maxRangeDays: values.LOCATION_MAX_RANGE_DAYS,
    maxWaitForRoomMs: values.LOCATION_MAX_WAIT_MS,
  };
}
