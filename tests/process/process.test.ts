// The server as users run it: `node dist/main.js` with an embedded redis-server, restarts,
// signals, and start-up errors. `npm test` builds dist/ before jest runs.
import { spawnSync } from 'node:child_process';
import { CounterDocument, UpdateCounterDocument } from '../../src/generated/client/graphql';
import { eventually, post } from '../support/graphql';
import { cleanUpProcesses, ensureBuilt, isAlive, spawnServer, startAndWait, tempDir } from '../support/process';
import { startTestRedis } from '../support/redis';
import { TEST_SECRET } from '../support/server';

const PRECISIONS = [1, 5, 60, 300, 3600, 18000, 86400];

const bearer = (header: unknown): string => String(header).replace(/^Bearer /, '');

beforeAll(ensureBuilt, 120_000);
afterAll(cleanUpProcesses);

describe('with an embedded redis-server', () => {
  it('keeps counters across a restart, trims them with the cleanup worker, and leaves no process behind', async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, NODE_ENV: 'development', COUNTER_CLEANUP: 'off' };

    // First run: development tokens are printed because JWT_SECRET is unset.
    const first = await startAndWait(env);
    expect(first.redisPid).toBeDefined();
    expect(isAlive(first.redisPid!)).toBe(true);
    const tokens = await first.server.waitFor((line) => line.serviceAuthorization !== undefined);
    const service = bearer(tokens.serviceAuthorization);
    const user = bearer(tokens.userAuthorization);

    // Twenty one-second slices just ahead of now (within COUNTER_MAX_FUTURE_SECONDS), so all are
    // inside the retention window and only the count bound decides what the cleanup keeps.
    const now = Math.floor(Date.now() / 1000);
    const times = Array.from({ length: 20 }, (_, i) => now + 21 + i);
    for (const at of times) {
      const result = await post(first.url, UpdateCounterDocument, { name: 'visits', count: 1, at }, service);
      expect(result.data).toEqual({ updateCounter: true });
    }
    const before: Record<number, number[]> = {};
    for (const precision of PRECISIONS) {
      const read = await post(first.url, CounterDocument, { name: 'visits', precision, limit: 1000 }, user);
      before[precision] = read.data!.counter.map((s) => s.count);
      expect(before[precision].reduce((a, b) => a + b, 0)).toBe(20);
    }
    expect(before[1]).toHaveLength(20);

    first.server.proc.kill('SIGTERM');
    expect(await first.server.exited).toBe(0);
    expect(isAlive(first.redisPid!)).toBe(false);

    // Second run on the same data: same data, same development secret, and the cleanup worker on.
    const second = await startAndWait({ ...env, COUNTER_CLEANUP: 'on', COUNTER_SAMPLES: '5' });
    expect(second.redisPid).not.toBe(first.redisPid);
    const daily = await post(second.url, CounterDocument, { name: 'visits', precision: 86400, limit: 1000 }, user);
    expect(daily.errors).toBeUndefined();
    expect(daily.data!.counter.map((s) => s.count)).toEqual(before[86400]);

    let trimmed: { time: number; count: number }[] = [];
    await eventually(async () => {
      const read = await post(second.url, CounterDocument, { name: 'visits', precision: 1, limit: 1000 }, user);
      trimmed = read.data!.counter;
      return trimmed.length < 20;
    }, 15_000);
    expect(trimmed.map((s) => s.time)).toEqual(times.slice(-5));

    // SIGKILL: no chance to clean up, yet the watchdog stops redis-server.
    second.server.proc.kill('SIGKILL');
    await second.server.exited;
    await eventually(async () => !isAlive(second.redisPid!), 5000);
  }, 60_000);

  it('refuses to start on a data directory whose redis-server is still running', async () => {
    const dataDir = tempDir();
    const first = await startAndWait({ DATA_DIR: dataDir, JWT_SECRET: TEST_SECRET });
    const second = spawnServer({ DATA_DIR: dataDir, JWT_SECRET: TEST_SECRET });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/is in use by redis-server pid/);
    first.server.proc.kill('SIGTERM');
    expect(await first.server.exited).toBe(0);
  }, 30_000);

  it('names the install command when redis-server is not installed', async () => {
    const emptyPath = tempDir();
    const server = spawnServer({ DATA_DIR: tempDir(), JWT_SECRET: TEST_SECRET, PATH: emptyPath });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('apt-get install -y redis-server');
  });
});

describe('with REDIS_URL', () => {
  it('uses the given Redis and starts no redis-server of its own', async () => {
    const redis = await startTestRedis();
    try {
      const started = await startAndWait({ REDIS_URL: redis.url, JWT_SECRET: TEST_SECRET, DATA_DIR: tempDir() });
      expect(started.redisPid).toBeUndefined();
      const children = spawnSync('pgrep', ['-P', String(started.server.proc.pid)], { encoding: 'utf8' }).stdout.trim();
      expect(children).toBe('');
      started.server.proc.kill('SIGTERM');
      expect(await started.server.exited).toBe(0);
      expect(await redis.client.ping()).toBe('PONG');
    } finally {
      await redis.stop();
    }
  }, 30_000);
});

describe('start-up errors', () => {
  it('refuses to start in production without JWT_SECRET, naming the variable', async () => {
    const server = spawnServer({ NODE_ENV: 'production', DATA_DIR: tempDir() });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('JWT_SECRET must be set in production');
  });

  it('names every bad variable', async () => {
    const server = spawnServer({ PORT: 'eighty', COUNTER_PRECISIONS: '1,1', LOG_LEVEL: 'loud' });
    expect(await server.exited).toBe(1);
    const output = server.output();
    expect(output).toContain('PORT must be an integer');
    expect(output).toContain('COUNTER_PRECISIONS must be');
    expect(output).toContain('LOG_LEVEL must be one of');
  });
});
