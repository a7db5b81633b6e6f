// Location analytics against a real redis-server (and the cluster in the cluster pass): chunks
// stored with line offsets, counted exactly once by racing or dying aggregators, counts that add
// up across files, reads by day and place, retention, and backpressure.
import pino from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { LocationRepository, type ChunkEntry, type LocationSettings } from '../../src/redis/location/repository';
import { appendWhenRoom } from '../../src/redis/location/backpressure';
import { LocationAggregator } from '../../src/workers/location-aggregator';
import { lazyLocator } from '../../src/geo/ip-locator';
import { LineChunker } from '../../src/geo/chunker';
import { tallyChunk } from '../../src/geo/tally';
import { LogGenerator, DEFAULT_GENERATOR } from '../../src/geo/log-generator';
import { LOCATION_GROUP, locationKeys } from '../../src/redis/keys';
import { AppError } from '../../src/common/errors';
import { eventually } from '../support/graphql';
import { listen, scriptClient, startTestRedis, type TestRedis } from '../support/redis';

let redis: TestRedis;
const locator = lazyLocator([]);
const SETTINGS: LocationSettings = {
  maxDatasets: 100,
  maxHeldBytes: 64 * 1024 * 1024,
  maxUploadBytes: 64 * 1024 * 1024,
  maxUploads: 100,
  maxSamples: 5,
};

function repository(settings: Partial<LocationSettings> = {}): LocationRepository {
  return new LocationRepository(scriptClient(redis), { ...SETTINGS, ...settings });
}

function aggregator(
  repo: LocationRepository,
  claimAfterMs = 60_000,
  onChunk?: (dataset: string, lines: number, committed: boolean) => void,
): LocationAggregator {
  return new LocationAggregator({
    repository: repo,
    locator,
    logger: pino({ level: 'silent' }),
    claimAfterMs,
    maxSamples: SETTINGS.maxSamples,
    idleMs: 20,
    onChunk,
  });
}

/** Stores `text` as an upload cut into chunks of about `chunkBytes`, and closes it. */
async function upload(repo: LocationRepository, dataset: string, id: string, text: string, chunkBytes = 4096) {
  const chunker = new LineChunker(chunkBytes);
  let from = 0;
  const chunks = [...chunker.push(Buffer.from(text)), ...chunker.end()];
  for (const [i, chunk] of chunks.entries()) {
    from = (await repo.append(dataset, id, from, chunk, i === chunks.length - 1)).lines;
  }
  return from;
}

/** Runs aggregator steps until the dataset has no chunk left. */
async function drain(repo: LocationRepository, dataset: string): Promise<void> {
  const worker = aggregator(repo);
  while (await worker.step(dataset));
}

beforeAll(async () => {
  redis = await startTestRedis();
  locator(); // the IP database, loaded once for the file
});
afterAll(async () => {
  await redis.stop();
});
beforeEach(async () => {
  await redis.client.flushdb();
});

describe('uploads', () => {
  it('stores chunks at line offsets: a resent chunk is recognised, a gap and a closed upload refused', async () => {
    const repo = repository();
    expect(await repo.createDataset('games')).toBe(true);
    expect(await repo.createDataset('games')).toBe(false);
    const chunk = { data: Buffer.from('a\nb\n'), lines: 2 };
    expect(await repo.append('games', 'u1', 0, chunk, false)).toEqual({
      status: 'OK',
      lines: 2,
      chunks: 1,
      complete: false,
    });
    expect((await repo.append('games', 'u1', 0, chunk, false)).status).toBe('STORED');
    const gap = await repo.append('games', 'u1', 5, chunk, false).catch((e: unknown) => e);
    expect(gap).toBeInstanceOf(AppError);
    expect((gap as AppError).code).toBe('CONFLICT');
    expect((gap as AppError).details.lines).toBe(2);
    expect(await repo.append('games', 'u1', 2, { data: Buffer.from('c'), lines: 1 }, true)).toEqual({
      status: 'OK',
      lines: 3,
      chunks: 2,
      complete: true,
    });
    const closed = await repo.append('games', 'u1', 3, chunk, false).catch((e: unknown) => e);
    expect((closed as AppError).code).toBe('CONFLICT');
    expect(await redis.client.xlen(locationKeys('games').chunks)).toBe(2);
    const progress = await repo.upload('games', 'u1');
    expect(progress).toMatchObject({ lines: 3, bytes: 5, chunks: 2, doneChunks: 0, complete: true });
  });

  it('refuses an unknown dataset and an upload over its byte limit, storing nothing', async () => {
    const repo = repository({ maxUploadBytes: 10 });
    const missing = await repo.append('nope', 'u', 0, { data: Buffer.from('a\n'), lines: 1 }, false).catch((e) => e);
    expect((missing as AppError).code).toBe('NOT_FOUND');
    await repo.createDataset('small');
    const big = await repo.append('small', 'u', 0, { data: Buffer.alloc(11, 97), lines: 1 }, false).catch((e) => e);
    expect((big as AppError).code).toBe('PAYLOAD_TOO_LARGE');
    expect(await redis.client.xlen(locationKeys('small').chunks)).toBe(0);
    expect(await redis.client.exists(locationKeys('nope').meta)).toBe(0);
    // A refused first chunk leaves no record of the upload.
    expect(await redis.client.exists(locationKeys('small').upload('u'))).toBe(0);
    expect(await redis.client.zcard(locationKeys('small').uploads)).toBe(0);
  });

  it('slows a sender down when the dataset holds its maximum, and lets it on once chunks are counted', async () => {
    const repo = repository({ maxHeldBytes: 100 * 1024 });
    await repo.createDataset('tight');
    const generator = new LogGenerator(locator(), { ...DEFAULT_GENERATOR, places: 50 });
    const chunk = (): { data: Buffer; lines: number } => {
      const lines = generator.lines(1500);
      return { data: Buffer.from(lines.join('\n') + '\n'), lines: lines.length };
    };
    let from = 0;
    const first = chunk();
    expect(first.data.length).toBeGreaterThan(50 * 1024);
    from = (await repo.append('tight', 'u', from, first, false)).lines;
    const second = chunk();
    const full = await repo.append('tight', 'u', from, second, false);
    expect(full.status).toBe('FULL');
    expect(full.lines).toBe(1500);
    // Nothing counts: the wait ends with RATE_LIMITED and where to resume.
    const refused = await appendWhenRoom(repo, ['tight', 'u', from, second, false], 200).catch((e) => e);
    expect((refused as AppError).code).toBe('RATE_LIMITED');
    expect((refused as AppError).details.lines).toBe(1500);
    expect(await redis.client.xlen(locationKeys('tight').chunks)).toBe(1);
    // An aggregator makes room while the sender waits.
    const waiting = appendWhenRoom(repo, ['tight', 'u', from, second, true], 10_000);
    await sleep(100);
    await drain(repo, 'tight');
    expect((await waiting).lines).toBe(3000);
    await drain(repo, 'tight');
    expect(await redis.client.hget(locationKeys('tight').meta, 'held')).toBe('0');
    expect(await repo.totals('tight', ['2011-10-10'])).toEqual({
      visits: generator.reference.visits.get('2011-10-10'),
      unknown: 0,
    });
  });
});

describe('the bound on bytes held', () => {
  it('is over all datasets together: a second dataset waits for room the first one holds', async () => {
    const repo = repository({ maxHeldBytes: 100 * 1024 });
    await repo.createDataset('first');
    await repo.createDataset('second');
    const chunk = { data: Buffer.alloc(40 * 1024, 'x\n'), lines: 20 * 1024 };
    expect((await repo.append('first', 'u', 0, chunk, false)).status).toBe('OK');
    await sleep(1100); // the other datasets' counts are read at most a second old
    // An empty dataset always takes one chunk, so nothing can wait for ever on a large chunk...
    expect((await repo.append('second', 'u', 0, chunk, false)).status).toBe('OK');
    // ...but not two: with the first dataset's 40 KiB that would be 120 KiB.
    expect((await repo.append('second', 'u', chunk.lines, chunk, false)).status).toBe('FULL');
    await drain(repo, 'first');
    await sleep(1100); // the other datasets' counts are read at most a second old
    expect((await repo.append('second', 'u', chunk.lines, chunk, false)).status).toBe('OK');
  });
});

describe('counting', () => {
  it('adds a day spread over two uploads (never the last one only) and matches a count made independently', async () => {
    const repo = repository();
    await repo.createDataset('two-files');
    // 50,000 lines a file at 20 seconds apart: each file spans about 11.6 days, and the second
    // file continues the last day of the first.
    const generator = new LogGenerator(locator(), { ...DEFAULT_GENERATOR, places: 300, step: 20 });
    const first = generator.lines(50_000);
    const second = generator.lines(50_000);
    await upload(repo, 'two-files', 'first', first.join('\n') + '\n', 256 * 1024);
    await drain(repo, 'two-files');
    await upload(repo, 'two-files', 'second', second.join('\n'), 256 * 1024);
    await drain(repo, 'two-files');
    const reference = generator.reference;
    const days = await repo.days('two-files', '1970-01-01', '2099-12-31', 1000);
    expect(days).toEqual([...reference.visits.keys()].sort());
    const shared = second[0].split(' ')[1];
    expect(first[first.length - 1].split(' ')[1]).toBe(shared);
    for (const day of days) {
      const totals = await repo.totals('two-files', [day]);
      expect(totals.visits).toBe(reference.visits.get(day));
      expect(await repo.top('two-files', { level: 'country' }, [day], 1000)).toEqual(reference.top(day));
    }
    const [busiest] = reference.top(shared);
    const [region] = reference.top(shared, busiest.name);
    expect(await repo.top('two-files', { level: 'region', country: busiest.name }, [shared], 1000)).toEqual(
      reference.top(shared, busiest.name),
    );
    expect(
      await repo.top('two-files', { level: 'city', country: busiest.name, region: region.name }, [shared], 1000),
    ).toEqual(reference.top(shared, busiest.name, region.name));
    const progress = await repo.upload('two-files', 'second');
    expect(progress).toMatchObject({ lines: 50_000, doneLines: 50_000, complete: true });
    expect(progress!.doneChunks).toBe(progress!.chunks);
    // Counted in full: the records stay 30 days, then go.
    const ttl = await redis.client.ttl(locationKeys('two-files').upload('second'));
    expect(ttl).toBeGreaterThan(29 * 86_400);
    expect(ttl).toBeLessThanOrEqual(30 * 86_400);
    const refused = (await repo.upload('two-files', 'first'))!.refused + progress!.refused;
    expect(refused).toBe(reference.refused);
  });

  it('counts a chunk once when two aggregators both counted it: the later commit adds nothing', async () => {
    const repo = repository();
    await repo.createDataset('race');
    const generator = new LogGenerator(locator(), { ...DEFAULT_GENERATOR, places: 100 });
    await upload(repo, 'race', 'u', generator.lines(2000).join('\n'), 1 << 20);
    const [entry] = await repo.take('race', 'slow', 1, 60_000);
    // The slow one stalls past the claim timeout; another claims the chunk and counts it too.
    await sleep(60);
    const [again] = await repo.take('race', 'fast', 1, 50);
    expect(again.id).toBe(entry.id);
    const tally = await tallyChunk(entry.data, entry.firstLine, locator(), 5);
    expect(await repo.commit('race', again, tally)).toBe('UPLOAD_COUNTED');
    expect(await repo.commit('race', entry, tally)).toBe('DONE_ALREADY');
    const totals = await repo.totals('race', ['2011-10-10']);
    expect(totals.visits).toBe(generator.reference.visits.get('2011-10-10'));
    expect((await repo.upload('race', 'u'))!.doneChunks).toBe(1);
    expect(await redis.client.xlen(locationKeys('race').chunks)).toBe(0);
  });

  it("finishes a dead aggregator's chunk: another claims it after the timeout, totals exact", async () => {
    const repo = repository();
    await repo.createDataset('dead');
    const generator = new LogGenerator(locator(), { ...DEFAULT_GENERATOR, places: 100 });
    await upload(repo, 'dead', 'u', generator.lines(20_000).join('\n'), 64 * 1024);
    // A worker takes a chunk and dies with it (never commits).
    const [lost] = await repo.take('dead', 'died', 1, 60_000);
    expect(lost).toBeDefined();
    const counted: number[] = [0, 0];
    const survivors = [0, 1].map((i) =>
      aggregator(repository(), 300, (_dataset, lines, committed) => {
        if (committed) counted[i] += lines;
      }),
    );
    for (const worker of survivors) worker.start();
    await eventually(async () => (await repo.upload('dead', 'u'))!.doneLines === 20_000, 20_000, 50);
    await Promise.all(survivors.map((worker) => worker.stop()));
    expect(counted[0] + counted[1]).toBe(20_000);
    // Both shared the work (chunks of about 64 KiB: about 16 of them).
    expect(counted[0]).toBeGreaterThan(0);
    expect(counted[1]).toBeGreaterThan(0);
    expect((await repo.totals('dead', ['2011-10-10'])).visits).toBe(generator.reference.visits.get('2011-10-10'));
    expect(await redis.client.xlen(locationKeys('dead').chunks)).toBe(0);
  });

  it('leaves no consumer of its own in the group once stopped with nothing in hand', async () => {
    const repo = repository();
    await repo.createDataset('tidy');
    await upload(repo, 'tidy', 'u', '8.8.8.8 2011-10-10 00:00:01 a');
    const worker = aggregator(repo);
    worker.start();
    await eventually(async () => (await repo.upload('tidy', 'u'))!.doneLines === 1, 5000, 10);
    const consumers = async () =>
      ((await redis.client.xinfo('CONSUMERS', locationKeys('tidy').chunks, LOCATION_GROUP)) as unknown[][]).map(
        (fields) => fields[1],
      );
    expect(await consumers()).toEqual([worker.consumer]);
    await worker.stop();
    expect(await consumers()).toEqual([]);
  });

  it('removes consumers idle past the limit that hold nothing, never one holding a chunk; a removed one comes back on its next read', async () => {
    const repo = repository();
    await repo.createDataset('left');
    const keys = locationKeys('left');
    const consumers = async (): Promise<Record<string, { pending: number; idle: number }>> =>
      Object.fromEntries(
        ((await redis.client.xinfo('CONSUMERS', keys.chunks, LOCATION_GROUP)) as unknown[][]).map((fields) => [
          fields[1] as string,
          { pending: fields[3] as number, idle: fields[5] as number },
        ]),
      );
    const lines = ['8.8.8.8 2011-10-10 00:00:01 a', '8.8.8.8 2011-10-10 00:00:02 b', '8.8.8.8 2011-10-10 00:00:03 c'];
    for (const [i, line] of lines.entries()) {
      await repo.append('left', 'u', i, { data: Buffer.from(`${line}\n`), lines: 1 }, false);
    }
    // Two aggregators that died after committing their chunk, and one that is slow: it holds its chunk.
    const count = async (entry: ChunkEntry) =>
      repo.commit('left', entry, await tallyChunk(entry.data, entry.firstLine, locator(), 5));
    for (const dead of ['dead-1', 'dead-2']) {
      const [entry] = await repo.take('left', dead, 1, 60_000);
      expect(await count(entry)).toBe('COUNTED');
    }
    const [held] = await repo.take('left', 'slow', 1, 60_000);
    expect(Object.keys(await consumers()).sort()).toEqual(['dead-1', 'dead-2', 'slow']);

    const IDLE_MS = 200;
    await eventually(async () => Object.values(await consumers()).every((one) => one.idle >= IDLE_MS), 10_000, 20);
    // The caller's own name is kept whatever its state.
    expect((await repo.pruneConsumers('left', IDLE_MS, 'dead-2')).sort()).toEqual(['dead-1']);
    expect((await repo.pruneConsumers('left', IDLE_MS, 'me')).sort()).toEqual(['dead-2']);
    expect(await consumers()).toEqual({ slow: { pending: 1, idle: expect.any(Number) as number } });
    // A consumer idle for less than the limit stays, even with nothing in hand.
    expect(await repo.pruneConsumers('left', 60_000, 'me')).toEqual([]);
    // The slow one finishes: its chunk was not lost.
    expect(await count(held)).toBe('COUNTED');
    expect((await repo.upload('left', 'u'))!.doneLines).toBe(3);

    // Alive but idle with nothing in hand, it may be removed; its next read that gets a chunk has it
    // again. A read that gets nothing makes it too since Redis 7.2 (not before): holding nothing.
    await eventually(async () => (await consumers()).slow.idle >= IDLE_MS, 10_000, 20);
    expect(await repo.pruneConsumers('left', IDLE_MS, 'me')).toEqual(['slow']);
    expect(await consumers()).toEqual({});
    expect(await repo.take('left', 'slow', 1, 60_000)).toEqual([]);
    const afterEmptyRead = await consumers();
    expect(Object.entries(afterEmptyRead).map(([name, one]) => [name, one.pending])).toEqual(
      'slow' in afterEmptyRead ? [['slow', 0]] : [],
    );
    await repo.append('left', 'u', 3, { data: Buffer.from('8.8.8.8 2011-10-10 00:00:04 d\n'), lines: 1 }, true);
    const [next] = await repo.take('left', 'slow', 1, 60_000);
    expect(next.firstLine).toBe(4);
    expect(Object.keys(await consumers())).toEqual(['slow']);
    expect(await count(next)).toBe('UPLOAD_COUNTED');
    expect((await repo.upload('left', 'u'))!.doneLines).toBe(4);
    expect(await repo.pruneConsumers('nowhere', IDLE_MS, 'me')).toEqual([]);
  });

  it('an aggregator removes the consumers dead ones left, idle past forgetIdleAfterMs, and keeps its own', async () => {
    const repo = repository();
    await repo.createDataset('abandoned');
    await upload(repo, 'abandoned', 'u', '8.8.8.8 2011-10-10 00:00:01 a');
    // A process that counted a chunk and was killed: its consumer stays in the group.
    const [entry] = await repo.take('abandoned', 'killed-process', 1, 60_000);
    expect(await repo.commit('abandoned', entry, await tallyChunk(entry.data, entry.firstLine, locator(), 5))).toBe(
      'UPLOAD_COUNTED',
    );
    const names = async () =>
      ((await redis.client.xinfo('CONSUMERS', locationKeys('abandoned').chunks, LOCATION_GROUP)) as unknown[][]).map(
        (fields) => fields[1],
      );
    expect(await names()).toEqual(['killed-process']);
    const worker = new LocationAggregator({
      repository: repository(),
      locator,
      logger: pino({ level: 'silent' }),
      claimAfterMs: 60_000,
      maxSamples: SETTINGS.maxSamples,
      idleMs: 20,
      forgetIdleAfterMs: 300,
    });
    // Since Redis 7.2 a read that gets nothing makes the reader's consumer too, so the live
    // aggregator's own may be in the group from its first look on: made here, the same on 7.0.
    await redis.client.xgroup('CREATECONSUMER', locationKeys('abandoned').chunks, LOCATION_GROUP, worker.consumer);
    worker.start();
    try {
      await eventually(async () => !(await names()).includes('killed-process'), 10_000, 20);
      expect(await names()).toEqual([worker.consumer]);
      // It still takes new chunks: its own consumer is kept.
      await upload(repo, 'abandoned', 'v', '8.8.8.8 2011-10-10 00:00:02 b');
      await eventually(async () => (await repo.upload('abandoned', 'v'))?.doneLines === 1, 10_000, 20);
      expect(await names()).toEqual([worker.consumer]);
    } finally {
      await worker.stop();
    }
  });

  it('keeps refused lines as samples with line numbers and no addresses, IPv6 counted', async () => {
    const repo = repository();
    await repo.createDataset('bad');
    const text = [
      '173.194.38.137 2011-10-10 13:55:36 achievement-762',
      '173.194.38.137 2011-02-30 13:55:36 impossible-day',
      '2001:4860:4860::8888 2011-10-10 13:55:37 v6',
      'garbage',
      '10.0.0.1 2011-10-10 13:55:38 private-address',
      '8.8.8.8 2011-10-10 24:00:00 bad-time',
      '\u0000\u00ff binary 2011-10-10',
    ].join('\n');
    await upload(repo, 'bad', 'u', text);
    await drain(repo, 'bad');
    const progress = (await repo.upload('bad', 'u'))!;
    expect(progress).toMatchObject({ lines: 7, doneLines: 7, refused: 4 });
    expect(progress.samples.map((s) => [s.line, s.reason])).toEqual([
      [2, 'BAD_DATE'],
      [4, 'MALFORMED'],
      [6, 'BAD_TIME'],
      [7, 'BAD_IP'],
    ]);
    expect(progress.samples[0].text).toBe('<ip> 2011-02-30 13:55:36 impossible-day');
    expect(JSON.stringify(progress.samples)).not.toMatch(/\d+\.\d+\.\d+\.\d+/);
    expect(await repo.totals('bad', ['2011-10-10'])).toEqual({ visits: 3, unknown: 1 });
    // 173.194.38.137 is in the US, 2001:4860:4860::8888 in Canada in DB-IP Lite; 10.0.0.1 is nowhere.
    expect(await repo.top('bad', { level: 'country' }, ['2011-10-10'], 10)).toEqual([
      { name: 'CA', visits: 1 },
      { name: 'US', visits: 1 },
    ]);
    // Raw addresses live only in chunks, which are gone once counted.
    const keys = await redis.client.keys('geo:*');
    for (const key of keys) {
      const type = await redis.client.type(key);
      const dump =
        type === 'hash'
          ? JSON.stringify(await redis.client.hgetall(key))
          : type === 'zset'
            ? JSON.stringify(await redis.client.zrange(key, 0, -1))
            : type === 'list'
              ? JSON.stringify(await redis.client.lrange(key, 0, -1))
              : type === 'set'
                ? JSON.stringify(await redis.client.smembers(key))
                : type;
      expect(`${key} ${dump}`).not.toMatch(/173\.194|2001:4860|8\.8\.8\.8/);
    }
  });

  it('reads one place over days and forgets days before a date', async () => {
    const repo = repository();
    await repo.createDataset('series');
    const text = [
      '173.194.38.137 2011-10-10 00:00:01 a',
      '173.194.38.137 2011-10-11 00:00:01 a',
      '173.194.38.137 2011-10-11 00:00:02 a',
      '8.8.8.8 2011-10-12 00:00:01 a',
    ].join('\n');
    await upload(repo, 'series', 'u', text);
    await drain(repo, 'series');
    const days = ['2011-10-10', '2011-10-11', '2011-10-12'];
    expect(await repo.series('series', { country: 'US' }, days)).toEqual([1, 2, 1]);
    expect(await repo.series('series', { country: 'US', region: 'California', city: 'Mountain View' }, days)).toEqual([
      1, 2, 1,
    ]);
    expect(await repo.series('series', { country: 'FR' }, days)).toEqual([0, 0, 0]);
    expect(await repo.forgetBefore('series', '2011-10-12')).toEqual(['2011-10-10', '2011-10-11']);
    expect(await repo.days('series', '1970-01-01', '2099-12-31', 10)).toEqual(['2011-10-12']);
    expect(await repo.series('series', { country: 'US' }, days)).toEqual([0, 0, 1]);
    const left = (await redis.client.keys('geo:*')).filter((key) => /:(c|r|t):2011-10-1[01]/.test(key));
    expect(left).toEqual([]);
  });

  it('forgets a day whole even when a chunk for it is counted meanwhile', async () => {
    const repo = repository();
    await repo.createDataset('busy');
    const line = '173.194.38.137 2011-10-10 00:00:01 a\n';
    const count = async (id: string): Promise<void> => {
      await repo.append('busy', id, 0, { data: Buffer.from(line), lines: 1 }, true);
      const [entry] = await repo.take('busy', 'c', 1, 60_000);
      await repo.commit('busy', entry, await tallyChunk(entry.data, entry.firstLine, locator(), 5));
    };
    await count('u1');
    await Promise.all([repo.forgetBefore('busy', '2011-10-11'), count('u2'), count('u3')]);
    // Whatever the order, every level of the day is there in full or not at all.
    const day = await repo.totals('busy', ['2011-10-10']);
    const cities = await repo.top('busy', { level: 'city', country: 'US', region: 'California' }, ['2011-10-10'], 10);
    const countries = await repo.top('busy', { level: 'country' }, ['2011-10-10'], 10);
    expect(cities.reduce((sum, city) => sum + city.visits, 0)).toBe(day.visits);
    expect(countries.reduce((sum, country) => sum + country.visits, 0)).toBe(day.visits);
    await repo.forgetBefore('busy', '2011-10-11');
    expect(await redis.client.keys('geo:{d:busy}:[crt]:*')).toEqual([]);
    expect(await repo.days('busy', '1970-01-01', '2099-12-31', 10)).toEqual([]);
  });

  it('keeps upload records a week past their last append, and frees a place for a new upload once one expires', async () => {
    const repo = repository({ maxUploads: 2 });
    await repo.createDataset('records');
    const chunk = { data: Buffer.from('x\n'), lines: 1 };
    await repo.append('records', 'a', 0, chunk, false);
    await repo.append('records', 'b', 0, chunk, false);
    const ttl = await redis.client.ttl(locationKeys('records').upload('a'));
    expect(ttl).toBeGreaterThan(6 * 86_400);
    expect(ttl).toBeLessThanOrEqual(7 * 86_400);
    const third = await repo.append('records', 'c', 0, chunk, false).catch((e: unknown) => e);
    expect((third as AppError).code).toBe('CONFLICT');
    expect(await redis.client.exists(locationKeys('records').upload('c'))).toBe(0);
    // Record a expires (its score in the uploads set is when).
    await redis.client.del(locationKeys('records').upload('a'));
    await redis.client.zadd(locationKeys('records').uploads, 1, 'a');
    expect((await repo.append('records', 'c', 0, chunk, false)).status).toBe('OK');
  });

  it('announces upload progress and changed days on channels with the dataset tag', async () => {
    const repo = repository();
    await repo.createDataset('told');
    const keys = locationKeys('told');
    const messages: string[] = [];
    await listen(redis, [keys.uploadChanged('u'), keys.totalsChanged], (_c, m) => messages.push(m));
    await upload(repo, 'told', 'u', '8.8.8.8 2011-10-10 00:00:01 a\n8.8.8.8 2011-10-11 00:00:01 a');
    await drain(repo, 'told');
    await eventually(async () => messages.length === 4, 5000, 10);
    expect(messages.map((m) => JSON.parse(m) as unknown)).toEqual([
      { dataset: 'told', upload: 'u', lines: 2, doneLines: 0, complete: true },
      { dataset: 'told', upload: 'u', lines: 2, doneLines: 2, complete: true },
      { dataset: 'told', day: '2011-10-10' },
      { dataset: 'told', day: '2011-10-11' },
    ]);
  });
});
