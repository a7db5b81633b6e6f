// Location analytics' shapes (settings, uploads, chunks, rankings) and the day numbers its keys
// and scripts use: a leaf module, so each part of the repository and its callers share them.

export interface LocationSettings {
  /** Most datasets on one Redis. */
  maxDatasets: number;
  /**
   * Most bytes of chunks all datasets together hold in Redis before senders are slowed down (each
   * dataset's count is exact; the others' are read at most a second old).
   */
  maxHeldBytes: number;
  /** Largest upload, in bytes after decompression. */
  maxUploadBytes: number;
  /** Most upload records one dataset keeps. */
  maxUploads: number;
  /** Refused lines kept as samples per upload. */
  maxSamples: number;
}

export type AppendStatus = 'OK' | 'STORED' | 'FULL';

/** Told of every append's outcome and the lines it stored (metrics). */
export interface AppendObserver {
  appended(status: AppendStatus, lines: number): void;
}

/** The chunks waiting to be counted, for the metrics scrape. */
export interface IngestBacklog {
  /** Datasets read (at most the bound asked for). */
  datasets: number;
  /** Chunks stored and not yet counted (taken by an aggregator or not). */
  chunks: number;
  /** Bytes of those chunks (what LOCATION_MAX_HELD_BYTES bounds). */
  bytes: number;
}

export type CommitOutcome = 'DONE_ALREADY' | 'COUNTED' | 'UPLOAD_COUNTED';

export interface AppendResult {
  status: AppendStatus;
  /** Lines the upload holds after this call: where a resumed upload starts. */
  lines: number;
  chunks: number;
  complete: boolean;
}

export interface ChunkEntry {
  id: string;
  upload: string;
  /** 1-based number of the chunk's first line in its upload. */
  firstLine: number;
  lines: number;
  bytes: number;
  data: Buffer;
}

export interface UploadProgress {
  id: string;
  lines: number;
  bytes: number;
  chunks: number;
  doneChunks: number;
  doneLines: number;
  refused: number;
  complete: boolean;
  /** unix ms */
  created: number;
  samples: { line: number; reason: string; text: string }[];
}

export interface Ranked {
  name: string;
  visits: number;
}

export type PlaceLevel =
  { level: 'country' } | { level: 'region'; country: string } | { level: 'city'; country: string; region: string };

export interface Place {
  country: string;
  region?: string | undefined;
  city?: string | undefined;
}

const DAY_MS = 86_400_000;
/**
 * An upload's record (its progress, its refused samples) is kept this long once every line is
 * counted: sending the same file again within it is recognised as done; after it, it is a new
 * upload. LOCATION_MAX_UPLOADS counts the records kept.
 */
export const UPLOAD_RECORD_SECONDS = 30 * 86_400;

/** Days since 1970-01-01 of a valid `YYYY-MM-DD`. */
export const dayNumber = (day: string): number => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
export const dayOf = (number: number): string => new Date(number * DAY_MS).toISOString().slice(0, 10);
