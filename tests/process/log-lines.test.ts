// Every line the built server writes is a log line: JSON by default (stdout not a terminal),
// readable with LOG_FORMAT=pretty; the start-up banner with its URLs and, only with a generated
// secret, the two development tokens; broken WebSocket frames, bad handshakes, Node's warnings and
// what a thread prints become lines with a level and a code, never raw text or a stack trace.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { CachedRowDocument, ScheduleRowCacheDocument } from '../../src/generated/client/graphql';
import { eventually, post } from '../support/graphql';
import {
  cleanUpProcesses,
  ensureBuilt,
  spawnServer,
  spawnWorker,
  startAndWait,
  tempDir,
  type ServerProcess,
} from '../support/process';
import { closeRawSockets, rawSocket } from '../support/raw-ws';
import { TEST_SECRET } from '../support/server';

beforeAll(ensureBuilt, 120_000);
afterEach(closeRawSockets);
afterAll(cleanUpProcesses);

type Line = Record<string, unknown>;

/** Stops the server with SIGINT and returns every line it wrote, each parsed; fails on any that is not JSON. */
async function stopAndRead(server: ServerProcess): Promise<Line[]> {
  server.proc.kill('SIGINT');
  expect(await server.exited).toBe(0);
  expect(server.written.stderr).toBe('');
  const raw = server.written.stdout.split('\n').filter((line) => line !== '');
  const notJson = raw.filter((line) => {
    try {
      const parsed = JSON.parse(line) as Line;
      return typeof parsed.level !== 'number' || typeof parsed.msg !== 'string';
    } catch {
      return true;
    }
  });
  expect(notJson).toEqual([]);
  const lines = raw.map((line) => JSON.parse(line) as Line);
  expect(lines.at(-1)).toMatchObject({ level: 30, msg: 'stopped' });
  return lines;
}

const bannerOf = (server: ServerProcess): Promise<Line> => server.waitFor((line) => line.banner === true);

describe('the start-up banner', () => {
  it('is one JSON line with the URLs and, with a generated secret, the two tokens, which no other line holds', async () => {
    const { server, url } = await startAndWait({ DATA_DIR: tempDir(), NODE_ENV: 'development' });
    const banner = await bannerOf(server);
    const base = url.replace(/\/graphql$/, '');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
    expect(banner).toMatchObject({
      level: 30,
      msg: `listening on ${url}`,
      url,
      sandbox: url,
      app: `${base}/app/`,
      metrics: `${base}/metrics (service token)`,
      userAuthorization: expect.stringMatching(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/),
      serviceAuthorization: expect.stringMatching(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/),
    });
    const user = String(banner.userAuthorization).slice('Bearer '.length);
    const service = String(banner.serviceAuthorization).slice('Bearer '.length);

    // The tokens in use: in a header over HTTP, as connectionParams over WebSocket, on a request
    // that fails, and on a socket that breaks the protocol.
    expect((await post(url, CachedRowDocument, { rowId: '1' }, user)).status).toBe(200);
    expect((await post(url, CachedRowDocument, { rowId: '{' }, service)).status).toBe(200);
    const socket = await rawSocket(url, { headers: { authorization: `Bearer ${user}` } });
    socket.send({ type: 'connection_init', payload: { authorization: `Bearer ${service}` } });
    await socket.next((frame) => frame.type === 'connection_ack');
    socket.send('not json');
    expect((await socket.closedWithin()).code).toBe(4400);

    const lines = await stopAndRead(server);
    const holding = lines.filter(
      (line) => JSON.stringify(line).includes(user) || JSON.stringify(line).includes(service),
    );
    expect(holding).toEqual([banner]);
  }, 60_000);

  it('holds no token when JWT_SECRET is set', async () => {
    const { server, url } = await startAndWait({ DATA_DIR: tempDir(), JWT_SECRET: TEST_SECRET });
    const banner = await bannerOf(server);
    expect(Object.keys(banner).sort()).toEqual(
      ['app', 'banner', 'embeddedRedis', 'env', 'level', 'metrics', 'msg', 'sandbox', 'service', 'time', 'url'].sort(),
    );
    expect(banner.url).toBe(url);
    const lines = await stopAndRead(server);
    expect(lines.filter((line) => /Bearer /.test(JSON.stringify(line)))).toEqual([]);
  }, 60_000);
});

/** A client frame built by hand: `ws` as a client refuses to send any of these. */
function frame(
  opcode: number,
  payload: Buffer,
  options: { fin?: boolean; rsv?: number; masked?: boolean; length?: Buffer } = {},
): Buffer {
  const { fin = true, rsv = 0, masked = true } = options;
  const first = (fin ? 0x80 : 0) | rsv | opcode;
  let lengthBytes: Buffer;
  if (options.length) lengthBytes = Buffer.concat([Buffer.from([(masked ? 0x80 : 0) | 127]), options.length]);
  else if (payload.length < 126) lengthBytes = Buffer.from([(masked ? 0x80 : 0) | payload.length]);
  else throw new Error('payloads here are short');
  if (!masked) return Buffer.concat([Buffer.from([first]), lengthBytes, payload]);
  const mask = randomBytes(4);
  const body = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]));
  return Buffer.concat([Buffer.from([first]), lengthBytes, mask, body]);
}

const u64 = (high: number, low: number): Buffer => {
  const buffer = Buffer.alloc(8);
  buffer.writeUInt32BE(high, 0);
  buffer.writeUInt32BE(low, 4);
  return buffer;
};

const FRAMES: [string, Buffer, number, string, string][] = [
  [
    'text that is not UTF-8',
    frame(0x1, Buffer.from([0x7b, 0xff, 0xfe, 0x7d])),
    1007,
    'WS_INVALID_UTF8',
    'WS_ERR_INVALID_UTF8',
  ],
  ['an unknown opcode', frame(0x3, Buffer.from('x')), 1002, 'WS_INVALID_FRAME', 'WS_ERR_INVALID_OPCODE'],
  [
    'an unmasked frame',
    frame(0x1, Buffer.from('{}'), { masked: false }),
    1002,
    'WS_INVALID_FRAME',
    'WS_ERR_EXPECTED_MASK',
  ],
  [
    'RSV1 set without compression',
    frame(0x1, Buffer.from('{}'), { rsv: 0x40 }),
    1002,
    'WS_INVALID_FRAME',
    'WS_ERR_UNEXPECTED_RSV_1',
  ],
  ['a fragmented ping', frame(0x9, Buffer.from('p'), { fin: false }), 1002, 'WS_INVALID_FRAME', 'WS_ERR_EXPECTED_FIN'],
  [
    'a close frame with code 999',
    frame(0x8, Buffer.from([0x03, 0xe7])),
    1002,
    'WS_INVALID_FRAME',
    'WS_ERR_INVALID_CLOSE_CODE',
  ],
  [
    'a frame announcing 1 TiB',
    frame(0x1, Buffer.alloc(0), { length: u64(256, 0) }),
    1009,
    'WS_PAYLOAD_TOO_LARGE',
    'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH',
  ],
  [
    'a frame announcing more than 2^53 bytes',
    frame(0x1, Buffer.alloc(0), { length: u64(0x00ffffff, 0) }),
    1009,
    'WS_PAYLOAD_TOO_LARGE',
    'WS_ERR_UNSUPPORTED_DATA_PAYLOAD_LENGTH',
  ],
];

/** A raw HTTP exchange: what the server answered before it closed the connection. */
function exchange(port: number, request: string | Buffer, thenReset = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(request);
      if (thenReset) setTimeout(() => socket.resetAndDestroy(), 100);
    });
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? resolve(answer) : reject(error),
    );
  });
}

describe('a hostile WebSocket client', () => {
  it('gets each broken frame closed with its code, logged as one info line with a code and no stack', async () => {
    const { server, url } = await startAndWait({ DATA_DIR: tempDir(), JWT_SECRET: TEST_SECRET });
    const port = Number(new URL(url).port);
    for (const [what, bytes, closeCode] of FRAMES) {
      const socket = await rawSocket(url);
      (socket.socket as unknown as { _socket: net.Socket })._socket.write(bytes);
      expect([what, (await socket.closedWithin()).code]).toEqual([what, closeCode]);
    }
    // Handshakes `ws` refuses, a request that is not HTTP, and a socket reset in mid-frame.
    const key = randomBytes(16).toString('base64');
    const upgrade = (headers: string) =>
      `GET /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n${headers}\r\n`;
    expect(await exchange(port, upgrade(`Sec-WebSocket-Version: 7\r\nSec-WebSocket-Key: ${key}\r\n`))).toMatch(
      /^HTTP\/1\.1 400 /,
    );
    expect(await exchange(port, upgrade('Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: short\r\n'))).toMatch(
      /^HTTP\/1\.1 400 /,
    );
    expect(await exchange(port, '\u0000\u0001 garbage \r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    const midFrame = Buffer.concat([
      Buffer.from(upgrade(`Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${key}\r\n`)),
      frame(0x1, Buffer.from('{"type":"connection_init","payload":{}}')).subarray(0, 10),
    ]);
    expect(await exchange(port, midFrame, true)).toMatch(/^HTTP\/1\.1 101 /);

    const lines = await stopAndRead(server);
    const protocolLines = lines.filter((line) => line.msg === 'websocket closed on a protocol error');
    expect(protocolLines.map((line) => [line.level, line.code, line.wsCode])).toEqual(
      FRAMES.map(([, , , code, wsCode]) => [30, code, wsCode]),
    );
    expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
    expect(server.written.stdout).not.toMatch(/RangeError|\n\s+at /);
  }, 60_000);
});

describe('output that does not come from the server code', () => {
  it("turns Node's warnings and what the embedded database's thread prints into coded log lines", async () => {
    // Loaded before the server by every Node thread of the process (NODE_OPTIONS=--require).
    const preload = path.join(tempDir(), 'noisy.cjs');
    fs.writeFileSync(
      preload,
      `const { isMainThread } = require('node:worker_threads');
if (isMainThread) {
  process.emitWarning('raised while the modules load', { code: 'TEST_EARLY' });
  setTimeout(() => {
    const emitter = new (require('node:events'))();
    for (let i = 0; i < 11; i += 1) emitter.on('tick', () => undefined);
    process.emitWarning('an old way', { type: 'DeprecationWarning', code: 'DEP_TEST' });
  }, 200).unref();
} else {
  console.log('a line a thread printed');
  console.error(new Error('a stack a thread printed'));
}
`,
    );
    const { server, url } = await startAndWait({ DATA_DIR: tempDir(), NODE_OPTIONS: `--require ${preload}` });
    const service = String((await bannerOf(server)).serviceAuthorization).slice('Bearer '.length);
    // The row cache opens the embedded PostgreSQL, whose thread runs the preload too.
    expect(
      (await post(url, ScheduleRowCacheDocument, { rowId: '1', delaySeconds: 60 }, service)).errors,
    ).toBeUndefined();
    await eventually(
      async () => (await post(url, CachedRowDocument, { rowId: '1' }, service)).data?.cachedRow != null,
      40_000,
    );
    await server.waitFor((line) => line.nodeCode === 'DEP_TEST');

    const lines = await stopAndRead(server);
    const warnings = lines.filter((line) => line.code === 'NODE_WARNING');
    expect(warnings.map((line) => [line.level, line.warning, line.nodeCode, line.msg])).toEqual([
      [40, 'Warning', 'TEST_EARLY', 'raised while the modules load'],
      [40, 'MaxListenersExceededWarning', undefined, expect.stringContaining('memory leak') as unknown],
      [40, 'DeprecationWarning', 'DEP_TEST', 'an old way'],
    ]);
    const thread = lines.filter((line) => line.code === 'PGLITE_OUTPUT');
    expect(thread.map((line) => [line.level, line.msg])).toEqual(
      expect.arrayContaining([
        [30, 'a line a thread printed'],
        [40, 'Error: a stack a thread printed'],
      ]),
    );
  }, 90_000);
});

describe('a configuration that stops start-up', () => {
  it.each([
    ['the API', () => spawnServer({ PORT: 'eighty', LOG_FORMAT: 'json' }), 'PORT must be an integer'],
    ['the worker', () => spawnWorker({}), 'The worker needs:\n  - REDIS_URL'],
    [
      'the API with more append lines than BODY_LIMIT_BYTES holds',
      () => spawnServer({ LOCATION_MAX_APPEND_LINES: '10000', LOG_FORMAT: 'json' }),
      'LOCATION_MAX_APPEND_LINES (10000) does not fit BODY_LIMIT_BYTES (102400)',
    ],
  ])('is one fatal JSON line from %s, with code CONFIG_INVALID', async (_which, spawn, text) => {
    const child = spawn();
    expect(await child.exited).toBe(1);
    expect(child.written.stderr).toBe('');
    const raw = child.written.stdout.split('\n').filter(Boolean);
    expect(raw).toHaveLength(1);
    expect(JSON.parse(raw[0])).toMatchObject({ level: 60, code: 'CONFIG_INVALID', msg: expect.stringContaining(text) });
  });
});

describe('LOG_FORMAT=pretty', () => {
  it('writes readable lines, the banner as a block, through to the end of shutdown', async () => {
    const server = spawnServer({ DATA_DIR: tempDir(), LOG_FORMAT: 'pretty' });
    await eventually(async () => /Service token {2}Bearer /.test(server.written.stdout), 30_000, 50);
    server.proc.kill('SIGINT');
    // The signal too: one run beside CPU burners saw this process end by a signal (code null),
    // cause not found; the next such failure says which signal, and what the process wrote last.
    const code = await server.exited;
    expect({
      code,
      signal: server.proc.signalCode,
      tail: code === 0 ? '' : server.written.stdout.slice(-2000),
    }).toEqual({
      code: 0,
      signal: null,
      tail: '',
    });
    expect(server.written.stderr).toBe('');
    const lines = server.written.stdout.split('\n').filter(Boolean);
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
    const entry = /^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN|DEBUG): /;
    const listening = lines.findIndex((line) => /INFO: listening on http:\/\/127\.0\.0\.1:\d+\/graphql/.test(line));
    expect(listening).toBeGreaterThan(-1);
    // Indented, then a label, then its value.
    expect(lines.slice(listening + 1, listening + 8).map((line) => line.split(/ {2,}/).slice(0, 2))).toEqual([
      ['', 'API'],
      ['', 'Sandbox'],
      ['', 'Web app'],
      ['', 'Metrics'],
      ['', 'Tokens'],
      ['', 'User token'],
      ['', 'Service token'],
    ]);
    // Every other line is one entry; the last two are the shutdown's.
    const others = [...lines.slice(0, listening), ...lines.slice(listening + 8)];
    expect(others.filter((line) => !entry.test(line))).toEqual([]);
    expect(lines.slice(-2).map((line) => line.replace(entry, ''))).toEqual([
      'shutting down {"reason":"SIGINT"}',
      'stopped',
    ]);
  }, 60_000);
});
