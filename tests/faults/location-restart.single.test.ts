// Location analytics through a crash of each part, as a user runs it: `npm run logs:generate`
// writes a gzip log and its reference count, `npm run logs:send` sends it to the API, the API
// process is SIGKILLed mid-file and started again on the same port (the sender resumes from the
// line the server holds), then Redis is SIGKILLed while the chunks are being counted and started
// again from its append-only file. The totals equal the reference exactly.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { defineScripts } from '../../src/redis/client/scripts';
import { freeLoopbackPort } from '../../src/redis/client/embedded';
import { LocationRepository } from '../../src/redis/location/repository';
import { serverEnv } from '../support/chat-faults';
import { eventually } from '../support/graphql';
import { cleanUpProcesses, ensureBuilt, startAndWait, tempDir, type Started } from '../support/process';
import { startRedisProcess, stopRedisProcesses, type RedisProcess } from '../support/redis-process';
import { TEST_SECRET } from '../support/server';
import { TokenVerifier } from '../../src/security/auth';

const ROOT = path.resolve(__dirname, '..', '..');
const LINES = 300_000;

let redis: RedisProcess;
let client: Redis | undefined;
let sender: ChildProcess | undefined;

beforeAll(ensureBuilt, 120_000);
afterAll(async () => {
  sender?.kill('SIGKILL');
  client?.disconnect();
  cleanUpProcesses();
  await stopRedisProcesses();
});

interface Reference {
  lines: number;
  refused: number;
  days: Record<string, { visits: number; countries: { name: string; visits: number }[] }>;
}

it('loses and doubles nothing when the API and then Redis are killed mid-file', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'game.log.gz');
  const generated = spawnSync(
    process.execPath,
    ['dist/cli/logs-generate.js', '--lines', String(LINES), '--out', file],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  expect(generated.status).toBe(0);
  const reference = JSON.parse(fs.readFileSync(path.join(dir, 'game.reference.json'), 'utf8')) as Reference;
  expect(reference.lines).toBe(LINES);

  redis = await startRedisProcess();
  const port = String(await freeLoopbackPort());
  // Small chunks and a small limit on bytes held: the sender is still sending when the API dies.
  const env = serverEnv({ REDIS_URL: redis.url }, dir, {
    PORT: port,
    LOCATION_CHUNK_BYTES: String(32 * 1024),
    LOCATION_MAX_HELD_BYTES: String(256 * 1024),
    LOCATION_CLAIM_AFTER_MS: '1000',
  });
  let api: Started = await startAndWait(env);
  const token = new TokenVerifier({ secret: TEST_SECRET }).sign('importer', ['service'], 3600);
  let output = '';
  sender = spawn(
    process.execPath,
    ['dist/cli/logs-send.js', '--url', api.url, '--token', token, '--dataset', 'game', file],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  sender.stdout!.on('data', (piece: Buffer) => (output += piece.toString()));
  sender.stderr!.on('data', (piece: Buffer) => (output += piece.toString()));
  const finished = new Promise<number | null>((resolve) => sender!.once('exit', resolve));

  client = new Redis(redis.url, { maxRetriesPerRequest: null });
  defineScripts(client);
  const repository = new LocationRepository(client, {
    maxDatasets: 10,
    maxHeldBytes: 1 << 30,
    maxUploadBytes: 1 << 30,
    maxUploads: 10,
    maxSamples: 20,
  });
  const upload = async () => {
    const [id] = await client!.zrange('geo:{d:game}:uploads', 0, 0);
    return id === undefined ? null : repository.upload('game', id);
  };

  // 1. The API process dies mid-file; another starts on the same port; the sender goes on.
  await eventually(async () => ((await upload())?.lines ?? 0) > LINES / 10, 30_000, 20);
  api.server.proc.kill('SIGKILL');
  await api.server.exited;
  const heldAtKill = (await upload())!.lines;
  expect(heldAtKill).toBeLessThan(LINES);
  api = await startAndWait(env);

  // 2. Redis dies while chunks are being counted, and comes back from its AOF.
  await eventually(async () => ((await upload())?.doneLines ?? 0) > heldAtKill, 30_000, 20);
  await redis.kill();
  await sleep(500);
  await redis.restart();

  expect(await finished).toBe(0);
  expect(output).toMatch(/resuming in/);
  expect(output).toMatch(/lines counted/);
  const done = (await upload())!;
  expect(done).toMatchObject({ lines: LINES, doneLines: LINES, refused: reference.refused, complete: true });
  for (const [day, expected] of Object.entries(reference.days)) {
    expect(await repository.totals('game', [day])).toEqual({ visits: expected.visits, unknown: 0 });
    expect(await repository.top('game', { level: 'country' }, [day], 1000)).toEqual(expected.countries);
  }
  api.server.proc.kill('SIGTERM');
}, 180_000);
