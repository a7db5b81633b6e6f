// Log files over HTTP, outside GraphQL (which has no good way to stream a file): the request gate
// as everywhere, then the body is read as it arrives, gunzipped when it is gzip, cut into chunks
// at line ends and appended to the upload. Offsets are in lines, so an upload cut off is resumed
// by sending the rest of the file from the line the upload holds (GET, or the error's `lines`).
//   POST /logs/<dataset>/<upload>?from=<lines>&complete=<1|0>   (service callers)
//   GET  /logs/<dataset>/<upload>                              (service callers: its progress)
import { Readable, pipeline } from 'node:stream';
import zlib from 'node:zlib';
import express, { type Request, type Response, type Router } from 'express';
import { AppError, badInput, notFound, storeUnavailable } from '../common/errors';
import type { Logger } from '../common/logger';
import { validName } from '../common/validation';
import { authorize, SERVICE_ROLE } from '../security/auth';
import { originPolicy } from '../security/origins';
import type { RequestGate } from '../security/request-gate';
import { LineChunker, type Chunk } from '../geo/chunker';
import type { LocationRepository } from '../redis/location/repository';
import { appendWhenRoom } from '../redis/location/backpressure';
import { uploadOffset, uploadTooLarge } from '../redis/location/errors';
import { isStoreUnavailable } from '../redis/client/store-errors';
import { admit, reportOf, sendError } from './http';

export interface LogUploadOptions {
  gate: RequestGate;
  repository: LocationRepository;
  settings: { chunkBytes: number; maxUploadBytes: number; maxWaitForRoomMs: number };
  allowedOrigins: readonly string[];
  logger: Logger;
}

const STATUS: Record<string, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  STORE_UNAVAILABLE: 503,
};

const GZIP_MAGIC = [0x1f, 0x8b];
/**
 * Log files compress 5 to 20 times; a body that inflates more than this is a gzip bomb and is
 * refused as soon as it shows, before its first chunk is stored.
 */
const MAX_GZIP_RATIO = 200;
/** Gunzip is fed this much at a time, so the ratio is known finely enough to stop a bomb early. */
const GZIP_PIECE = 1024;
/**
 * Chunks of a gzip body are held back until this much has come out of it: far more than a bomb
 * gets to inflate (MAX_GZIP_RATIO x GZIP_PIECE) before the ratio check stops it.
 */
const GZIP_HOLD_BYTES = 1024 * 1024;

export function logUploadRoutes(options: LogUploadOptions): Router {
  const router = express.Router();
  router.use(
    originPolicy(options.allowedOrigins, (res) =>
      sendError(res, 403, 'FORBIDDEN', 'Requests from this origin are not allowed (ALLOWED_ORIGINS)'),
    ),
    admit(options.gate),
  );
  router.get('/:dataset/:upload', (req, res) => {
    handle(req, res, options, 'logUploadProgress', async () => {
      const { dataset, upload } = names(req);
      const progress = await options.repository.upload(dataset, upload);
      if (!progress) throw notFound('no such upload', 'upload');
      res.json({ dataset, ...progress });
    });
  });
  router.post('/:dataset/:upload', (req, res) => {
    handle(req, res, options, 'logUpload', () => receive(req, res, options));
  });
  return router;
}

function handle(
  req: Request,
  res: Response,
  options: LogUploadOptions,
  operation: string,
  work: () => Promise<void>,
): void {
  const report = reportOf(res);
  report.operation = operation;
  // One of the product's own names: the metrics show it as they show a registered document's.
  report.registered = true;
  const run = async (): Promise<void> => {
    // As @Authorized(SERVICE_ROLE) checks a GraphQL field.
    authorize(report.principal, [SERVICE_ROLE]);
    await work();
  };
  run().catch((error: unknown) => {
    const known = error instanceof AppError ? error : isStoreUnavailable(error) ? storeUnavailable() : undefined;
    // (req.destroyed alone says nothing: a request is destroyed once its body has been read.)
    if (res.headersSent || res.destroyed || req.socket.destroyed) {
      options.logger.info({ err: error, reqId: report.requestId }, 'log upload ended early');
      return;
    }
    // The sender may still be writing: the answer says the connection ends after it.
    if (!req.complete) res.setHeader('connection', 'close');
    if (known) {
      if (known.code === 'UNAUTHENTICATED') res.setHeader('www-authenticate', 'Bearer');
      sendError(res, STATUS[known.code] ?? 400, known.code, known.message, known.details);
    } else {
      options.logger.error({ err: error, reqId: report.requestId }, 'log upload failed');
      sendError(res, 500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
    }
    // What was not read of the body is of no use now; the sender resumes from `lines`.
    if (!req.complete) res.once('finish', () => lingerThenClose(req));
  });
}

/** How long, and how much more of a refused body, is read and dropped before its connection closes. */
const LINGER_MS = 2000;
const LINGER_BYTES = 8 * 1024 * 1024;

/**
 * Closing a connection while the sender is still writing makes its TCP stack answer with a
 * reset, which may throw away our answer before the client has read it (the client then sees
 * ECONNRESET instead of the 413). So the rest of the body is read and dropped for a moment, as
 * HTTP servers do on a lingering close, then the connection goes (bounded in time and bytes).
 */
function lingerThenClose(req: Request): void {
  let dropped = 0;
  const close = (): void => {
    clearTimeout(timer);
    req.destroy();
  };
  const timer = setTimeout(close, LINGER_MS);
  timer.unref();
  req.on('data', (bytes: Buffer) => {
    dropped += bytes.length;
    if (dropped > LINGER_BYTES) close();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('error', close);
  req.resume();
}

function names(req: Request): { dataset: string; upload: string } {
  return {
    dataset: validName(String(req.params.dataset), 'dataset'),
    upload: validName(String(req.params.upload), 'upload'),
  };
}

function flag(value: unknown, name: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw badInput(`${name} must be 1 or 0`, name);
}

async function receive(req: Request, res: Response, options: LogUploadOptions): Promise<void> {
  const { repository, settings } = options;
  const { dataset, upload } = names(req);
  const fromText = req.query.from ?? '0';
  if (typeof fromText !== 'string' || !/^\d{1,15}$/.test(fromText)) throw badInput('from must be a line count', 'from');
  const complete = flag(req.query.complete, 'complete', true);
  let from = Number(fromText);
  if (!(await repository.exists(dataset)))
    throw notFound('no such dataset; create it with createLocationDataset', 'dataset');
  const before = await repository.upload(dataset, upload);
  const stored = before?.lines ?? 0;
  // Sending from before what the upload holds is fine: chunks are cut the same way from the same
  // line, so those it has are recognised and skipped (another sender of the same file, or the
  // whole file sent again). Only a gap is refused; a chunk cut differently is refused as it comes.
  if (from > stored) {
    throw uploadOffset(stored, 'from');
  }
  // The bound is checked as bytes come out of gunzip: a small bomb stops at the limit. A plain
  // body that says it is too large is refused before anything is stored.
  const room = settings.maxUploadBytes - (from === stored ? (before?.bytes ?? 0) : 0);
  const tooLarge = (): AppError => uploadTooLarge(settings.maxUploadBytes, from);
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (!isGzip(req) && declared > room) throw tooLarge();
  const chunker = new LineChunker(settings.chunkBytes);
  let received = 0;
  let chunks = before?.chunks ?? 0;
  // A sender that goes away while its chunk waits for room stops the wait.
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  const store = async (chunk: { data: Buffer; lines: number } | undefined, last: boolean): Promise<void> => {
    const request = [dataset, upload, from, chunk, last] as const;
    const result = await appendWhenRoom(repository, [...request], settings.maxWaitForRoomMs, gone.signal);
    // STORED: the upload had these lines already (another sender of the same file got there
    // first). This request goes on after its own chunk, not after everything the upload holds:
    // its next chunk is the one that follows this one in its file.
    from = result.status === 'STORED' ? from + (chunk?.lines ?? 0) : result.lines;
    chunks = result.chunks;
  };
  const body = await decoded(req);
  const held: Chunk[] = [];
  try {
    for await (const bytes of body.stream) {
      received += bytes.length;
      if (received > room) throw tooLarge();
      if (body.gzip && received > MAX_GZIP_RATIO * Math.max(body.compressed(), GZIP_PIECE)) {
        const message = `the body inflates more than ${MAX_GZIP_RATIO} times: refused as a gzip bomb`;
        throw new AppError('PAYLOAD_TOO_LARGE', message, { lines: from });
      }
      for (const chunk of chunker.push(bytes)) {
        held.push(chunk);
        if (body.gzip && received < GZIP_HOLD_BYTES) continue;
        for (const ready of held.splice(0)) await store(ready, false);
      }
    }
  } catch (error) {
    if (error instanceof AppError) {
      if (error.details.lines === undefined) error.details.lines = from;
      throw error;
    }
    if (isGzipError(error)) throw new AppError('BAD_USER_INPUT', 'the body is not valid gzip', { lines: from });
    throw error;
  }
  // Not the end of the file: a last line without its newline is not stored, so that the next
  // request, sent from `lines`, starts with it whole.
  const rest = [...held, ...chunker.end(complete)];
  if (rest.length === 0 && complete) await store(undefined, true);
  for (let i = 0; i < rest.length; i++) await store(rest[i], complete && i === rest.length - 1);
  res.json({ dataset, upload, lines: from, chunks, complete });
}

/** zlib's errors (Z_DATA_ERROR, Z_BUF_ERROR...); by shape, as they may come from another realm's Error. */
function isGzipError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { errno?: unknown }).errno === 'number' &&
    /^Z_/.test(String((error as { code?: unknown }).code))
  );
}

const isGzip = (req: Request): boolean =>
  /\bgzip\b/i.test(String(req.headers['content-encoding'] ?? '')) ||
  /gzip/i.test(String(req.headers['content-type'] ?? ''));

interface Body {
  stream: AsyncIterable<Buffer>;
  gzip: boolean;
  /** Bytes of the request that gunzip has taken in so far. */
  compressed(): number;
}

/** The body as it arrives, gunzipped when it says it is gzip or starts like gzip. */
async function decoded(req: Request): Promise<Body> {
  // Stopping early (a refusal) must not destroy the request: its answer is still to be sent.
  const iterator = (req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head: Buffer = first.done ? Buffer.alloc(0) : first.value;
  const gzip = isGzip(req) || (head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1]);
  const piece = gzip ? GZIP_PIECE : Infinity;
  const raw = Readable.from(
    (async function* () {
      for (let bytes = head; ;) {
        for (let at = 0; at < bytes.length; at += piece) yield bytes.subarray(at, at + piece);
        const next = await iterator.next();
        if (next.done) return;
        bytes = next.value;
      }
    })(),
  );
  if (!gzip) return { stream: raw, gzip, compressed: () => 0 };
  const gunzip = zlib.createGunzip();
  return { stream: pipeline(raw, gunzip, () => undefined), gzip, compressed: () => gunzip.bytesWritten };
}
