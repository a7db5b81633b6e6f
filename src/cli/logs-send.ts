// `npm run logs:send -- [options] <file...>`: sends log files (plain or .gz) to a location
// dataset over HTTP, with a progress bar, and waits until every line is counted. Resumable: an
// upload's id comes from the file itself (path, inode, first line), so running the same command
// again after a failure goes on from the line the server holds.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { TokenVerifier } from '../security/auth';
import { ProgressLine } from './progress';

const USAGE = `usage: npm run logs:send -- --dataset NAME [--url URL] [--token TOKEN] [--no-wait] <file...>
  --url       the API (default http://127.0.0.1:4000, or API_URL)
  --token     a service caller's bearer token (or API_TOKEN). Without one, a token is made from
              JWT_SECRET, or from the development server's own secret in DATA_DIR (.data)
  --dataset   created if it does not exist
  --no-wait   do not wait for the lines to be counted`;

/** Plain bytes per request: each request stays well within the server's time limit. */
const SEGMENT_BYTES = 32 * 1024 * 1024;
const MAX_TRIES = 8;

interface Options {
  url: string;
  token: string;
  dataset: string;
  wait: boolean;
  files: string[];
}

interface Progress {
  lines: number;
  doneLines: number;
  chunks: number;
  doneChunks: number;
  refused: number;
  complete: boolean;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: { errors?: { message: string; extensions?: Record<string, unknown> }[] },
  ) {
    super(body.errors?.[0]?.message ?? `HTTP ${status}`);
  }
}

function options(): Options {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      dataset: { type: 'string' },
      'no-wait': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help || !values.dataset || positionals.length === 0) {
    console.error(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const url = (values.url ?? process.env.API_URL ?? 'http://127.0.0.1:4000').replace(/\/(graphql)?\/?$/, '');
  return {
    url,
    token: values.token ?? process.env.API_TOKEN ?? mintToken(),
    dataset: values.dataset,
    wait: !values['no-wait'],
    files: positionals,
  };
}

/** A short-lived service token from the secret this machine's server uses. */
function mintToken(): string {
  let secret = process.env.JWT_SECRET;
  if (!secret) {
    const file = path.resolve(process.env.DATA_DIR ?? '.data', 'dev-jwt-secret');
    if (!fs.existsSync(file)) {
      console.error('No token: pass --token (or API_TOKEN), set JWT_SECRET, or start the development server first.');
      process.exit(2);
    }
    secret = fs.readFileSync(file, 'utf8').trim();
  }
  const verifier = new TokenVerifier({ secret, issuer: process.env.JWT_ISSUER, audience: process.env.JWT_AUDIENCE });
  return verifier.sign('logs-send', ['service'], 24 * 3600);
}

async function request(
  options: Options,
  method: string,
  target: string,
  body?: Buffer,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${options.url}${target}`, {
    method,
    headers: { authorization: `Bearer ${options.token}`, ...headers },
    body,
  });
  const text = await response.text();
  const parsed = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  if (!response.ok) throw new HttpError(response.status, parsed);
  return parsed;
}

async function ensureDataset(options: Options): Promise<void> {
  const result = await request(
    options,
    'POST',
    '/graphql',
    Buffer.from(
      JSON.stringify({
        query: 'mutation ($name: String!) { createLocationDataset(name: $name) }',
        variables: { name: options.dataset },
      }),
    ),
    { 'content-type': 'application/json' },
  );
  const errors = (result as { errors?: { message: string }[] }).errors;
  if (errors?.length) throw new Error(`could not create dataset ${options.dataset}: ${errors[0].message}`);
}

/**
 * Names the upload after the file: its path, inode and first line. A file written to since (a
 * log still growing) or touched keeps its id, so a rerun resumes it; a file replaced or truncated
 * and written anew under the same name (rotated, copied over) starts with another line, so it is
 * another upload.
 */
function uploadId(file: string, stat: fs.Stats): string {
  const base =
    path
      .basename(file)
      .replace(/[^A-Za-z0-9_.-]/g, '_')
      .slice(0, 80) || 'log';
  const head = Buffer.alloc(4096);
  const fd = fs.openSync(file, 'r');
  const read = fs.readSync(fd, head, 0, head.length, 0);
  fs.closeSync(fd);
  const bytes = head.subarray(0, read);
  const end = bytes.indexOf(10);
  const firstLine = end === -1 ? bytes : bytes.subarray(0, end);
  const digest = crypto
    .createHash('sha256')
    .update(`${path.resolve(file)}\n${stat.dev}\n${stat.ino}\n`)
    .update(firstLine)
    .digest('hex');
  return `${base}-${digest.slice(0, 12)}`;
}

async function progressOf(options: Options, upload: string): Promise<Progress | undefined> {
  try {
    return (await request(
      options,
      'GET',
      `/logs/${encodeURIComponent(options.dataset)}/${upload}`,
    )) as unknown as Progress;
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return undefined;
    throw error;
  }
}

/** The file's lines from line `skip` on, as plain bytes in pieces cut at line ends. */
async function* segments(file: string, skip: number, onRead: (bytes: number) => void): AsyncGenerator<Buffer> {
  const raw = fs.createReadStream(file);
  raw.on('data', (piece) => onRead(piece.length));
  const head = Buffer.alloc(2);
  const fd = fs.openSync(file, 'r');
  fs.readSync(fd, head, 0, 2, 0);
  fs.closeSync(fd);
  const stream = head[0] === 0x1f && head[1] === 0x8b ? raw.pipe(zlib.createGunzip()) : raw;
  let toSkip = skip;
  let pending: Buffer[] = [];
  let size = 0;
  for await (const piece of stream as AsyncIterable<Buffer>) {
    let bytes = piece;
    while (toSkip > 0 && bytes.length > 0) {
      const end = bytes.indexOf(10);
      if (end === -1) {
        bytes = Buffer.alloc(0);
        break;
      }
      bytes = bytes.subarray(end + 1);
      toSkip -= 1;
    }
    if (bytes.length === 0) continue;
    pending.push(bytes);
    size += bytes.length;
    if (size < SEGMENT_BYTES) continue;
    const joined = Buffer.concat(pending);
    const cut = joined.lastIndexOf(10) + 1;
    if (cut === 0) continue;
    yield joined.subarray(0, cut);
    pending = [joined.subarray(cut)];
    size = pending[0].length;
  }
  yield Buffer.concat(pending);
}

/** Sends one file from where the server is; throws on a refusal that retrying cannot fix. */
async function sendFrom(options: Options, file: string, upload: string, bar: ProgressLine): Promise<void> {
  const size = fs.statSync(file).size;
  const before = await progressOf(options, upload);
  if (before?.complete) {
    console.error(
      `${path.basename(file)}: sent already as upload ${upload} (${before.lines.toLocaleString('en')} lines)`,
    );
    return;
  }
  let from = before?.lines ?? 0;
  let read = 0;
  const name = path.basename(file);
  const pieces = segments(file, from, (bytes) => {
    read += bytes;
  });
  let next = await pieces.next();
  while (!next.done) {
    const segment = next.value;
    const following = await pieces.next();
    const last = following.done === true;
    const result = await request(
      options,
      'POST',
      `/logs/${encodeURIComponent(options.dataset)}/${upload}?from=${from}&complete=${last ? 1 : 0}`,
      zlib.gzipSync(segment, { level: 1 }),
      { 'content-type': 'application/gzip' },
    );
    from = Number(result.lines);
    bar.show(read, size, `${name}: ${from.toLocaleString('en')} lines sent`);
    next = following;
  }
}

async function sendFile(options: Options, file: string, bar: ProgressLine): Promise<string> {
  const upload = uploadId(file, fs.statSync(file));
  // Named first, so its progress can be watched (locationUploadChanged) while it is sent.
  console.error(`${file}: upload ${upload} of dataset ${options.dataset}`);
  let lastLines = -1;
  for (let attempt = 1; ; attempt++) {
    try {
      await sendFrom(options, file, upload, bar);
      return upload;
    } catch (error) {
      // Tries are counted from the last one that got further: a long file may meet many failures.
      const lines = (await progressOf(options, upload).catch(() => undefined))?.lines ?? lastLines;
      if (lines > lastLines) attempt = 1;
      lastLines = lines;
      const status = error instanceof HttpError ? error.status : 0;
      // Refusals that a retry cannot fix: bad input, auth, too large, no such dataset.
      if ([400, 401, 403, 404, 413].includes(status) || attempt >= MAX_TRIES) throw error;
      const wait = Math.min(30_000, 500 * 2 ** attempt);
      bar.end();
      console.error(`${path.basename(file)}: ${(error as Error).message}; resuming in ${wait / 1000} s`);
      await sleep(wait);
    }
  }
}

async function waitCounted(options: Options, uploads: { file: string; upload: string }[], bar: ProgressLine) {
  for (;;) {
    const states = await Promise.all(uploads.map(({ upload }) => progressOf(options, upload)));
    const lines = states.reduce((sum, state) => sum + (state?.lines ?? 0), 0);
    const done = states.reduce((sum, state) => sum + (state?.doneLines ?? 0), 0);
    bar.show(done, lines, `${done.toLocaleString('en')} of ${lines.toLocaleString('en')} lines counted`);
    if (states.every((state) => state && state.complete && state.doneChunks === state.chunks)) {
      const refused = states.reduce((sum, state) => sum + (state?.refused ?? 0), 0);
      bar.show(
        done,
        lines,
        `${done.toLocaleString('en')} lines counted, ${refused.toLocaleString('en')} refused`,
        true,
      );
      bar.end();
      return;
    }
    await sleep(500);
  }
}

async function main(): Promise<void> {
  const given = options();
  await ensureDataset(given);
  const bar = new ProgressLine();
  const uploads: { file: string; upload: string }[] = [];
  for (const file of given.files) {
    const upload = await sendFile(given, file, bar);
    bar.end();
    console.error(`${file}: sent`);
    uploads.push({ file, upload });
  }
  if (given.wait) await waitCounted(given, uploads, bar);
}

main().catch((error: unknown) => {
  console.error(`logs:send failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
