// Location aggregators as users run them (`npm run worker`, LOCATION_WORKER on): two worker
// processes share one upload's chunks, one is SIGKILLed while it works, and the totals still
// equal the count the generator made as it wrote the lines. Runs on one Redis and on the cluster.
import pino from 'pino';
import Redis from 'ioredis';
import { LocationRepository } from '../../src/redis/location/repository';
import { LOCATION_GROUP, locationKeys } from '../../src/redis/keys';
import { lazyLocator } from '../../src/geo/ip-locator';
import { DEFAULT_GENERATOR, LogGenerator } from '../../src/geo/log-generator';
import { eventually } from '../support/graphql';
import { cleanUpProcesses, ensureBuilt, spawnWorker, type ServerProcess } from '../support/process';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';
import { sendLines } from '../support/location';

let redis: TestRedis;
let client: Redis;
const LINES = 150_000;

beforeAll(async () => {
  ensureBuilt();
  redis = await startTestRedis();
  client = scriptClient(redis);
}, 120_000);
afterAll(async () => {
  cleanUpProcesses();
  client.disconnect();
  await redis.stop();
});

const chunksBy = (worker: ServerProcess): number =>
  worker.lines.filter((line) => line.msg === 'chunk counted' && line.committed === true).length;

async function startAggregator(): Promise<ServerProcess> {
  const worker = spawnWorker({
    ...redis.env,
    LOCATION_WORKER: 'on',
    LOCATION_CLAIM_AFTER_MS: '1000',
    LOG_LEVEL: 'debug',
  });
  await worker.waitFor((line) => line.msg === 'worker started', 30_000);
  return worker;
}

it('two worker processes share the chunks; one is killed mid-file; totals are exact', async () => {
  const repository = new LocationRepository(client, {
    maxDatasets: 10,
    maxHeldBytes: 1 << 30,
    maxUploadBytes: 1 << 30,
    maxUploads: 10,
    maxSamples: 5,
  });
  await repository.createDataset('soak');
  const generator = new LogGenerator(lazyLocator([])(), { ...DEFAULT_GENERATOR, places: 500, step: 2 });
  const lines = generator.lines(LINES);
  const [a, b] = await Promise.all([startAggregator(), startAggregator()]);
  const consumerOf = (worker: ServerProcess): string =>
    worker.lines.find((line) => line.msg === 'worker started')!.location as string;
  // Chunks of 16 KiB: several hundred, taken by both workers while the sender still sends.
  const sending = sendLines(repository, 'soak', 'file', lines, 16 * 1024);
  await eventually(async () => chunksBy(a) >= 20 && chunksBy(b) >= 20, 30_000, 20);
  // Killed while it holds a chunk it has not committed (polled, so almost always; checked below).
  const held = async (): Promise<number> =>
    (await client.xpending(locationKeys('soak').chunks, LOCATION_GROUP, '-', '+', 10, consumerOf(a))).length;
  await eventually(async () => (await held()) > 0, 10_000, 1);
  a.proc.kill('SIGKILL');
  await a.exited;
  const killedAt = chunksBy(a);
  const heldAtKill = await held();
  await sending;
  await eventually(async () => (await repository.upload('soak', 'file'))?.doneLines === LINES, 60_000, 50);
  const progress = (await repository.upload('soak', 'file'))!;
  expect(progress.doneChunks).toBe(progress.chunks);
  expect(progress.refused).toBe(generator.reference.refused);
  // The survivor finished the file, the killed one's chunk included, claimed once it was due.
  expect(chunksBy(b)).toBeGreaterThan(progress.chunks / 2 - killedAt);
  expect(await held()).toBe(0);
  const reference = generator.reference;
  const days = await repository.days('soak', '1970-01-01', '2099-12-31', 100);
  expect(days).toEqual([...reference.visits.keys()].sort());
  for (const day of days) {
    expect(await repository.totals('soak', [day])).toEqual({ visits: reference.visits.get(day), unknown: 0 });
    expect(await repository.top('soak', { level: 'country' }, [day], 1000)).toEqual(reference.top(day));
    const country = reference.top(day)[0].name;
    expect(await repository.top('soak', { level: 'region', country }, [day], 1000)).toEqual(
      reference.top(day, country),
    );
  }
  expect(await redis.client.xlen(locationKeys('soak').chunks)).toBe(0);
  // The killed worker's consumer, holding nothing once its chunk was claimed, is removed by the
  // survivor after ten claim times (10 s) idle; the survivor keeps its own.
  const consumers = async () =>
    ((await client.xinfo('CONSUMERS', locationKeys('soak').chunks, LOCATION_GROUP)) as unknown[][]).map(
      (fields) => fields[1],
    );
  await eventually(async () => !(await consumers()).includes(consumerOf(a)), 60_000, 200);
  expect(await consumers()).toEqual([consumerOf(b)]);
  expect(b.lines.some((line) => line.msg === 'removed idle consumers of dead aggregators')).toBe(true);
  pino({ level: 'info' }).info(
    { chunks: progress.chunks, byKilled: killedAt, bySurvivor: chunksBy(b), heldByKilled: heldAtKill },
    'location workers',
  );
}, 120_000);
