// The counter cleanup worker: schedule per precision, one instance per pass, and stopping.
import pino from 'pino';
import { CounterRepository, type CleanupProgress } from '../../src/redis/counter';
import { CounterCleanupWorker } from '../../src/workers/counter-cleanup';
import { eventually } from '../support/graphql';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';

const PRECISIONS = [1, 5, 60];
const silent = pino({ level: 'silent' });

/** The real repository, recording which precisions it was asked to clean. */
class RecordingRepository extends CounterRepository {
  /** Passes begun, and how many have ended. */
  readonly passes: number[] = [];
  finished = 0;
  /** While set, a pass of holdPrecision waits for it before cleaning (a slow pass). */
  hold: Promise<void> | undefined;
  holdPrecision = 0;
  /** Precisions whose lease this instance asked for, once answered. */
  readonly tried: number[] = [];
  override async takeCleanupLease(precision: number, owner: string, ttlMs: number): Promise<number> {
    const remaining = await super.takeCleanupLease(precision, owner, ttlMs);
    this.tried.push(precision);
    return remaining;
  }
  override async clean(precision: number, signal?: AbortSignal): Promise<CleanupProgress> {
    this.passes.push(precision);
    if (precision === this.holdPrecision) await this.hold;
    try {
      return await super.clean(precision, signal);
    } finally {
      this.finished += 1;
    }
  }
}

let redis: TestRedis;

function repository(samples: number): RecordingRepository {
  return new RecordingRepository(scriptClient(redis), { precisions: PRECISIONS, samples, maxFutureSeconds: 60 });
}

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
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
      // The first round visits the precisions one after another: the last may come a while after
      // the first trimmed the counter on a busy machine, so each is waited for.
      await eventually(async () => PRECISIONS.every((p) => repo.passes.includes(p)), 20_000, 10);
      expect(repo.passes.slice(0, 3)).toEqual(PRECISIONS);
      expect((await repo.samples('hits', 1, 100)).length).toBeLessThanOrEqual(3);
      // With 3 samples the one-second precision is due again after max(1 s, 3 s / 8) = 1 s, the
      // minute one after 22.5 s: the next pass is the one-second precision's.
      await eventually(async () => repo.passes.length > 3, 20_000, 10);
      expect(repo.passes[3]).toBe(1);
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
      // Every instance has tried every precision once (a lease in Redis for each, and each
      // instance's first round over): the passes begun by then are all there will be for 15 s.
      await eventually(async () => repos.every((repo) => repo.tried.length === PRECISIONS.length), 20_000, 10);
      await eventually(async () => repos.reduce((sum, r) => sum + r.finished, 0) === PRECISIONS.length, 20_000, 10);
      const passes = repos.flatMap((r) => r.passes).sort((a, b) => a - b);
      expect(passes).toEqual(PRECISIONS);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
  });

  it('stops promptly while sleeping', async () => {
    const repo = repository(120);
    const worker = new CounterCleanupWorker({ repository: repo, precisions: PRECISIONS, samples: 120, logger: silent });
    worker.start();
    // Asleep once the first round is done: the next pass is 15 s away.
    await eventually(async () => repo.finished === PRECISIONS.length, 20_000, 10);
    const started = Date.now();
    await worker.stop();
    // Not the rest of the sleep: far less than the 15 s it had left.
    expect(Date.now() - started).toBeLessThan(worker.intervalMs(1) / 2);
  });

  it('stops promptly when the stop comes in the middle of a pass, instead of sleeping after it', async () => {
    const repo = repository(120);
    let release: () => void = () => undefined;
    // The last pass of the round: once it ends, every precision is due 15 s or more later.
    repo.hold = new Promise<void>((resolve) => (release = resolve));
    repo.holdPrecision = 60;
    const worker = new CounterCleanupWorker({ repository: repo, precisions: PRECISIONS, samples: 120, logger: silent });
    worker.start();
    await eventually(async () => repo.passes.length === 3, 20_000, 10);
    const started = Date.now();
    const stopped = worker.stop();
    release();
    await stopped;
    expect(repo.passes).toEqual(PRECISIONS);
    // The pass ends at once (nothing to trim); the next is 15 s away and must not be waited for.
    expect(Date.now() - started).toBeLessThan(worker.intervalMs(1) / 2);
  });
});
