// Servers whose clocks are an hour ahead and an hour behind share one Redis with a server on time.
// Who holds a slot, for how long and in what order is decided by Redis's clock alone, so the
// skewed instances get no advantage (the book's semaphore trusts each caller's clock and would
// let the instance that runs ahead evict live holders).
import path from 'node:path';
import { TokenVerifier } from '../../src/security/auth';
import {
  AcquireLockDocument,
  AcquireSemaphoreDocument,
  LockStateDocument,
  ReleaseLockDocument,
} from '../../src/generated/client/graphql';
import { eventually, post } from '../support/graphql';
import { cleanUpProcesses, ensureBuilt, startAndWait, tempDir, type Started } from '../support/process';
import { startTestRedis, type TestRedis } from '../support/redis';
import { startTestServer, TEST_SECRET, type TestServer } from '../support/server';

const HOUR = 3_600_000;
const PRELOAD = path.join(__dirname, '..', 'support', 'skew-clock.cjs');

let redis: TestRedis;
let onTime: TestServer;
let ahead: Started;
let behind: Started;
const token = new TokenVerifier({ secret: TEST_SECRET, issuer: undefined, audience: undefined }).sign(
  'scheduler',
  ['service'],
  24 * 3600,
);

const skewedServer = (skewMs: number) =>
  startAndWait({
    ...redis.env,
    JWT_SECRET: TEST_SECRET,
    DATA_DIR: tempDir(),
    COUNTER_CLEANUP: 'off',
    CLOCK_SKEW_MS: String(skewMs),
    NODE_OPTIONS: `--require ${PRELOAD}`,
  });

beforeAll(async () => {
  ensureBuilt();
  redis = await startTestRedis();
  onTime = await startTestServer({}, redis);
  [ahead, behind] = await Promise.all([skewedServer(HOUR), skewedServer(-HOUR)]);
}, 60_000);
afterAll(async () => {
  cleanUpProcesses();
  await onTime?.stop();
  await redis?.stop();
});
beforeEach(async () => {
  await redis.client.flushdb();
});

const redisNow = async (): Promise<number> => {
  const [seconds, micros] = await redis.client.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
};

it('runs the two other servers with clocks an hour off', () => {
  const loggedAt = (started: Started) =>
    Number(started.server.lines.find((line) => String(line.msg).startsWith('listening on'))!.time);
  const started = Date.now();
  expect(loggedAt(ahead) - started).toBeGreaterThan(HOUR - 60_000);
  expect(started - loggedAt(behind)).toBeGreaterThan(HOUR - 60_000);
});

it('does not let an instance whose clock runs ahead take a slot that is still held', async () => {
  const acquire = (url: string) =>
    post(url, AcquireSemaphoreDocument, { name: 'reports', limit: 1, timeoutMs: 30_000 }, token);
  expect((await acquire(onTime.url)).data!.acquireSemaphore!.fencingToken).toBe(1);
  expect((await acquire(ahead.url)).data).toEqual({ acquireSemaphore: null });
  expect((await acquire(behind.url)).data).toEqual({ acquireSemaphore: null });
});

it("times a slot taken through an instance whose clock runs behind by the server's clock", async () => {
  const before = await redisNow();
  const lock = (
    await post(behind.url, AcquireLockDocument, { name: 'nightly', acquireTimeoutMs: 0, lockTimeoutMs: 1000 }, token)
  ).data!.acquireLock!;
  const after = await redisNow();
  expect(lock.expiresAt * 1000).toBeGreaterThanOrEqual(before + 1000);
  expect(lock.expiresAt * 1000).toBeLessThanOrEqual(after + 1000);
  // It lapses a second later for everyone, not an hour later.
  const next = await post(onTime.url, AcquireLockDocument, { name: 'nightly', acquireTimeoutMs: 10_000 }, token);
  expect(next.data!.acquireLock!.fencingToken).toBe(2);
});

it('serves waiters in the order they asked, whatever their instance believes the time is', async () => {
  const state = async () => (await post(onTime.url, LockStateDocument, { name: 'queue' }, token)).data!.lock;
  const held = (await post(onTime.url, AcquireLockDocument, { name: 'queue', acquireTimeoutMs: 0 }, token)).data!
    .acquireLock!;
  const first = post(ahead.url, AcquireLockDocument, { name: 'queue', acquireTimeoutMs: 15_000 }, token);
  await eventually(async () => (await state()).waiting === 1, 5000, 20);
  const second = post(behind.url, AcquireLockDocument, { name: 'queue', acquireTimeoutMs: 15_000 }, token);
  await eventually(async () => (await state()).waiting === 2, 5000, 20);

  await post(onTime.url, ReleaseLockDocument, { name: 'queue', token: held.token }, token);
  const firstLock = (await first).data!.acquireLock!;
  expect(firstLock.fencingToken).toBe(2);
  expect((await state()).waiting).toBe(1);
  await post(ahead.url, ReleaseLockDocument, { name: 'queue', token: firstLock.token }, token);
  expect((await second).data!.acquireLock!.fencingToken).toBe(3);
});
