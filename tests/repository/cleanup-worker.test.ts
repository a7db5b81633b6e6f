// The counter cleanup worker: schedule per precision, one instance per pass, and stopping.
import Redis from 'ioredis';
import pino from 'pino';
import { CounterRepository, type CleanupProgress } from '../../src/redis/counter';
import { defineScripts } from '../../src/redis/client/scripts';
import { CounterCleanupWorker } from '../../src/workers/counter-cleanup';
import { eventually } from '../support/graphql';
import { startTestRedis, type TestRedis } from '../support/redis';

const PRECISIONS = [1, 5, 60];
const silent = pino({ level: 'silent' });

/** The real repository, recording which precisions it was asked to clean. */
class RecordingRepository extends CounterRepository {
  readonly passes: number[] = [];
  override async clean(precision: number, signal?: AbortSignal): Promise<CleanupProgress> {
    this.passes.push(precision);
    return super.clean(precision, signal);
  }
}

let redis: TestRedis;
const connections: Redis[] = [];

function repository(samples: number): RecordingRepository {
  const client = redis.newClient();
  defineScripts(client);
  connections.push(client);
  return new RecordingRepository(client, { precisions: PRECISIONS, samples, maxFutureSeconds: 60 });
}

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  connections.forEach((c) => c.disconnect());
  await redis.stop();
});
beforeEach(async () => {
  await redis.client.flushdb();
});

describe('CounterCleanupWorker', () => {
  it('visits a precision eight times per retention window, and never more often than the floor', () => {
    const worker = new CounterCleanupWorker({
      repository: repository(120),
      precisions: PRECISIONS,
      samples: 120,
      logger: silent,
    });
    expect(worker.intervalMs(1)).toBe(15_000);
    expect(worker.intervalMs(60)).toBe(900_000);
    expect(worker.intervalMs(86400)).toBe(1_296_000_000);
    const tiny = new CounterCleanupWorker({
      repository: repository(2),
      precisions: PRECISIONS,
      samples: 2,
      logger: silent,
    });
    expect(tiny.intervalMs(1)).toBe(1000);
  });

  it('trims counters as soon as it starts and again when a precision comes due', async () => {
    const repo = repository(3);
    const [seconds] = await redis.client.time();
    const now = Number(seconds);
    for (let i = 0; i < 10; i += 1) await repo.update('hits', 1, now - i);
    const worker = new CounterCleanupWorker({ repository: repo, precisions: PRECISIONS, samples: 3, logger: silent });
    worker.start();
    try {
      await eventually(async () => (await repo.samples('hits', 1, 100)).length <= 3, 5000);
      expect(new Set(repo.passes)).toEqual(new Set(PRECISIONS));
      // With 3 samples the one-second precision is due again after max(1 s, 3 s / 8) = 1 s.
      const firstPasses = repo.passes.filter((p) => p === 1).length;
      await eventually(async () => repo.passes.filter((p) => p === 1).length > firstPasses, 5000);
      expect(repo.passes.filter((p) => p === 60)).toHaveLength(1);
    } finally {
      await worker.stop();
    }
  });

  it('lets only one of several instances run a pass', async () => {
    const repos = [repository(120), repository(120), repository(120)];
    const workers = repos.map(
      (repo) => new CounterCleanupWorker({ repository: repo, precisions: PRECISIONS, samples: 120, logger: silent }),
    );
    workers.forEach((w) => w.start());
    try {
      await eventually(async () => repos.flatMap((r) => r.passes).length >= PRECISIONS.length, 5000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const passes = repos.flatMap((r) => r.passes).sort((a, b) => a - b);
      expect(passes).toEqual(PRECISIONS);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
  });

  it('stops promptly while sleeping', async () => {
    const worker = new CounterCleanupWorker({
      repository: repository(120),
      precisions: PRECISIONS,
      samples: 120,
      logger: silent,
    });
    worker.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await worker.stop();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
