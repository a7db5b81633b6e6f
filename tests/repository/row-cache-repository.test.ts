// The row cache against a real redis-server and the embedded PostgreSQL (PGlite): the database
// (key types, its directory lock, query timeouts), the scripts one step at a time (schedule, claim
// order, leases, tokens, unscheduling during a refresh, deleted rows, retries), then refreshers:
// several racing on one Redis, a database outage, a failed store, and how they sleep.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import pino from 'pino';
import { lockDirectory, pgliteDatabase } from '../../src/db/pglite';
import { defaultTemplateDir, ensureTemplate } from '../../src/db/pglite-template';
import { SqlRowSource, type RowSource } from '../../src/db/row-source';
import type { SqlDatabase } from '../../src/db/sql';
import { AppError } from '../../src/common/errors';
import { RowCacheRepository, type RowCacheChange } from '../../src/redis/row-cache';
import { RowCacheRefresher, type RowCacheRefresherOptions } from '../../src/workers/row-cache-refresher';
import { eventually } from '../support/graphql';
import { captureLogs } from '../support/logs';
import { listen, scriptClient, startTestRedis, type TestRedis } from '../support/redis';
import { setTimeout as sleep } from 'node:timers/promises';

let redis: TestRedis;
let scratch: string;
let database: SqlRowSource;
const stoppers: (() => Promise<void>)[] = [];
const silent = pino({ level: 'silent' });
const connection = (): Redis => scriptClient(redis);

const repository = (maxRows = 1000, claimLeaseMs?: number) =>
  new RowCacheRepository(connection(), { table: 'inventory', maxRows, claimLeaseMs });
/** Redis's clock in unix ms, as the scripts read it. */
const redisNow = async () => {
  const [seconds, micros] = await redis.client.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
};

/** The real database, with a count of every read and a switch that makes reads fail like an outage. */
class ObservedSource implements RowSource {
  /** Every read: the ids asked for, and when (ms). */
  readonly reads: { ids: string[]; at: number }[] = [];
  down = false;
  /** While set, reads wait for it (a slow database). */
  gate: Promise<void> | undefined;

  constructor(private readonly inner: RowSource) {}

  async fetchRows(ids: readonly string[]): Promise<Map<string, string>> {
    this.reads.push({ ids: [...ids], at: Date.now() });
    if (this.gate) await this.gate;
    if (this.down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432 (test outage)');
    return this.inner.fetchRows(ids);
  }

  async close(): Promise<void> {}

  readsOf(id: string): number[] {
    return this.reads.filter((read) => read.ids.includes(id)).map((read) => read.at);
  }
}

function refresher(
  repo: RowCacheRepository,
  source: RowSource,
  options: Partial<RowCacheRefresherOptions> = {},
): RowCacheRefresher {
  const worker = new RowCacheRefresher({
    repository: repo,
    source,
    logger: silent,
    batchSize: 100,
    maxSleepMs: 100,
    ...options,
  });
  worker.start();
  stoppers.push(() => worker.stop());
  return worker;
}

/** A gate that the test opens. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Another table of the same embedded database, through a source of its own (the directory admits one PGlite). */
function sharedSource(table: string, keyColumn: string): SqlRowSource {
  const shared: SqlDatabase = {
    name: 'the shared embedded database',
    open: async () => ({ query: (sql, params) => database.query(sql, params), close: async () => undefined }),
  };
  return new SqlRowSource(shared, { table, keyColumn }, silent);
}

const rowJson = async (id: number) => {
  const [row] = await database.query('SELECT row_to_json(r.*)::text AS json FROM inventory AS r WHERE id = $1', [id]);
  return row?.json as string | undefined;
};

/**
 * A safety net for tests that create a database directory: initdb takes some 5 s of CPU, and
 * much longer on a machine that other work keeps busy (25 s measured beside 16 runnable threads).
 */
const CREATING = 180_000;

beforeAll(async () => {
  redis = await startTestRedis();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-row-cache-'));
  database = new SqlRowSource(
    pgliteDatabase(path.join(scratch, 'pglite')),
    { table: 'inventory', keyColumn: 'id' },
    silent,
  );
  await database.query('SELECT 1'); // opens it (a few seconds the first time)
}, CREATING);

afterEach(async () => {
  await Promise.all(stoppers.splice(0).map((stop) => stop()));
  await redis.client.flushdb();
  await database.query('DELETE FROM inventory WHERE id >= 1000');
});

afterAll(async () => {
  await database?.close();
  await redis?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('the embedded database', () => {
  it('holds the seeded demo inventory, and reads a batch as JSON rows keyed by id in one query', async () => {
    expect(await database.query('SELECT count(*)::int AS n FROM inventory')).toEqual([{ n: 20 }]);
    const rows = await database.fetchRows(['3', '1', '99']);
    expect([...rows.keys()].sort()).toEqual(['1', '3']);
    expect(JSON.parse(rows.get('3')!)).toEqual({
      id: 3,
      name: 'Burr grinder',
      price_cents: 12900,
      stock: 4,
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it("runs with small memory settings, not a server's defaults (shared_buffers 128 MB, maintenance_work_mem 64 MB)", async () => {
    const settings = await database.query(
      "SELECT name, current_setting(name) AS value FROM pg_settings WHERE name IN ('shared_buffers', 'temp_buffers', 'work_mem', 'maintenance_work_mem', 'wal_buffers') ORDER BY name",
    );
    expect(settings).toEqual([
      { name: 'maintenance_work_mem', value: '8MB' },
      { name: 'shared_buffers', value: '16MB' },
      { name: 'temp_buffers', value: '1MB' },
      { name: 'wal_buffers', value: '512kB' },
      { name: 'work_mem', value: '1MB' },
    ]);
  });

  it(
    'creates its directory in a process of its own, which reports why when it fails',
    async () => {
      // Files where PostgreSQL's directories go: initdb cannot write its catalogue.
      const dir = path.join(scratch, 'blocked');
      fs.mkdirSync(dir);
      for (const name of ['base', 'global'])
        fs.writeFileSync(path.join(dir, name), 'a file where a directory should be');
      const source = new SqlRowSource(
        pgliteDatabase(dir, { templateDir: null }),
        { table: 'inventory', keyColumn: 'id' },
        silent,
      );
      await expect(source.query('SELECT 1')).rejects.toThrow(
        /creating the embedded database in .*blocked failed \(exit code 1\): ErrnoError \(emscripten errno \d+\)/,
      );
      // The lock was given back, and nothing is left half-made for the next try to trust.
      expect(fs.existsSync(`${dir}.lock`)).toBe(false);
      expect(fs.existsSync(path.join(dir, 'PG_VERSION'))).toBe(false);
      await source.close();
    },
    CREATING,
  );

  it('leaves out ids an integer key cannot have, without failing the rest of the batch', async () => {
    const rows = await database.fetchRows(['abc', '2', '007', '-0', '1.5', '99999999999', ' 4', '5']);
    expect([...rows.keys()].sort()).toEqual(['2', '5']);
  });

  it('reads char(n) and varchar(n) keys whole, never cut to the column length', async () => {
    for (const statement of [
      'CREATE TABLE fixed_codes (code char(5) PRIMARY KEY, label text)',
      "INSERT INTO fixed_codes VALUES ('AB', 'short'), ('ABCDE', 'full'), ('A', 'one')",
      'CREATE TABLE varying_codes (code varchar(4) PRIMARY KEY, label text)',
      "INSERT INTO varying_codes VALUES ('WXYZ', 'four'), ('W', 'one')",
    ]) {
      await database.query(statement);
    }
    try {
      // As char(1), every id would be cut to its first letter: 'ABCDE' would find 'A'.
      const fixed = await sharedSource('fixed_codes', 'code').fetchRows(['AB', 'ABCDE', 'ABCDEF', 'AB   ', 'Z']);
      expect([...fixed.keys()].sort()).toEqual(['AB', 'ABCDE']);
      expect(JSON.parse(fixed.get('AB')!)).toEqual({ code: 'AB   ', label: 'short' }); // PostgreSQL pads char(n) in JSON
      expect(JSON.parse(fixed.get('ABCDE')!)).toEqual({ code: 'ABCDE', label: 'full' });
      const varying = await sharedSource('varying_codes', 'code').fetchRows(['WXYZ', 'WXYZA', 'W']);
      expect([...varying.keys()].sort()).toEqual(['W', 'WXYZ']);
    } finally {
      await database.query('DROP TABLE IF EXISTS fixed_codes, varying_codes');
    }
  });

  it('refuses a second open of its directory, logging who holds it, while the first keeps working', async () => {
    const { logger, lines } = captureLogs('info');
    const second = new SqlRowSource(
      pgliteDatabase(path.join(scratch, 'pglite'), { logger }),
      { table: 'inventory', keyColumn: 'id' },
      silent,
    );
    await expect(second.fetchRows(['1'])).rejects.toThrow(
      /pglite\.lock says the embedded database is in use by this process .*DATABASE_URL/,
    );
    await expect(second.fetchRows(['1'])).rejects.toThrow(/in use by this process/);
    const errors = lines.filter((line) => line.level === 50);
    expect(errors).toHaveLength(1); // once, not once per retry
    expect(errors[0]).toMatchObject({
      holder: 'this process (another connection)',
      lockFile: path.join(scratch, 'pglite.lock'),
    });
    expect([...(await database.fetchRows(['1'])).keys()]).toEqual(['1']);
    expect(fs.readFileSync(path.join(scratch, 'pglite.lock'), 'utf8')).toBe(`${process.pid} ${os.hostname()}\n`);
  });

  it(
    'makes a new directory as a copy of a template, and copies again over a copy cut short',
    async () => {
      const template = path.join(scratch, 'template');
      const open = async (name: string) => {
        const source = new SqlRowSource(
          pgliteDatabase(path.join(scratch, name), { templateDir: template }),
          { table: 'inventory', keyColumn: 'id' },
          silent,
        );
        try {
          return (await source.query('SELECT name FROM inventory WHERE id = 3')).map((row) => row.name);
        } finally {
          await source.close();
        }
      };
      // The machine's template (beforeAll's open made it if need be), rather than a second initdb.
      fs.cpSync(defaultTemplateDir()!, template, { recursive: true });
      expect(await open('first')).toEqual(['Burr grinder']);
      // Marked, so that a copy shows where it came from: the second directory is copied, not created.
      fs.writeFileSync(path.join(template, 'copied-from-template'), 'yes');
      expect(await open('second')).toEqual(['Burr grinder']);
      expect(fs.readFileSync(path.join(scratch, 'second', 'copied-from-template'), 'utf8')).toBe('yes');
      expect(fs.existsSync(path.join(scratch, 'first', 'copied-from-template'))).toBe(false);
      // A copy cut short (no PG_VERSION yet) is copied again over what it left.
      fs.mkdirSync(path.join(scratch, 'third', 'base'), { recursive: true });
      fs.writeFileSync(path.join(scratch, 'third', 'postgresql.conf'), 'half a file');
      expect(await open('third')).toEqual(['Burr grinder']);
      expect(fs.readFileSync(path.join(scratch, 'third', 'postgresql.conf'), 'utf8')).not.toBe('half a file');
    },
    CREATING,
  );

  it('puts a template in place only once complete: a failed creation leaves nothing, and of two racing creations one wins', async () => {
    const template = path.join(scratch, 'raced');
    const failing = async (dir: string) => {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'half'), 'made');
      throw new Error('initdb failed');
    };
    await expect(ensureTemplate(template, failing)).rejects.toThrow('initdb failed');
    const made: string[] = [];
    const creating = async (dir: string) => {
      made.push(dir);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'PG_VERSION'), dir);
    };
    await Promise.all([ensureTemplate(template, creating), ensureTemplate(template, creating)]);
    expect(made).toHaveLength(2);
    expect(made).toContain(fs.readFileSync(path.join(template, 'PG_VERSION'), 'utf8'));
    await ensureTemplate(template, creating); // there already: not made again
    expect(made).toHaveLength(2);
    expect(fs.readdirSync(scratch).filter((name) => name.startsWith('raced'))).toEqual(['raced']);
  });

  it('gives up on a query that outlasts its timeout, stops the thread, and opens the database anew on the next use', async () => {
    const dir = path.join(scratch, 'slow');
    // The timeouts are the test's to fire: a loaded machine may take longer than a second over an
    // ordinary query, and the one to time out is the one still running when the test says so.
    const armed = new Map<number, { fire: () => void; ms: number }>();
    let nextTimer = 0;
    const setTimer = (fire: () => void, ms: number) => {
      const id = ++nextTimer;
      armed.set(id, { fire, ms });
      return () => armed.delete(id);
    };
    const slow = new SqlRowSource(
      pgliteDatabase(dir, { timeoutMs: 1000, setTimer }),
      { table: 'inventory', keyColumn: 'id' },
      silent,
    );
    try {
      expect([...(await slow.fetchRows(['4'])).keys()]).toEqual(['4']);
      expect(armed.size).toBe(0); // each query's timer is disarmed by its answer
      const sleeping = slow.query('SELECT pg_sleep(60)');
      await eventually(async () => armed.size === 1, 10_000, 10);
      const [{ fire, ms }] = armed.values();
      expect(ms).toBe(1000);
      fire();
      await expect(sleeping).rejects.toThrow(/did not answer within 1000 ms/);
      // Opened anew (its lock was released and taken again), with its data.
      expect([...(await slow.fetchRows(['4', '5'])).keys()].sort()).toEqual(['4', '5']);
      expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe(`${process.pid} ${os.hostname()}\n`);
    } finally {
      await slow.close();
    }
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });
});

describe('the lock on an embedded database directory', () => {
  const lockOf = (dir: string) => `${dir}.lock`;

  it('is refused while another live process holds it, and taken over once that process is gone', async () => {
    const dir = path.join(scratch, 'locked');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    try {
      fs.writeFileSync(lockOf(dir), `${holder.pid} ${os.hostname()}\n`);
      expect(() => lockDirectory(dir)).toThrow(new RegExp(`in use by process ${holder.pid}\\b`));
      expect(fs.readFileSync(lockOf(dir), 'utf8')).toBe(`${holder.pid} ${os.hostname()}\n`);
    } finally {
      holder.kill('SIGKILL');
      await exited;
    }
    const release = lockDirectory(dir);
    expect(fs.readFileSync(lockOf(dir), 'utf8')).toBe(`${process.pid} ${os.hostname()}\n`);
    expect(() => lockDirectory(dir)).toThrow(/in use by this process/);
    release();
    expect(fs.existsSync(lockOf(dir))).toBe(false);
    expect(fs.readdirSync(scratch).filter((name) => name.startsWith('locked'))).toEqual([]); // no draft left
  });

  it("takes over a lock naming this pid that this process does not hold (a restarted container), but never another host's", () => {
    const dir = path.join(scratch, 'restarted');
    fs.writeFileSync(lockOf(dir), `${process.pid} ${os.hostname()}\n`);
    lockDirectory(dir)();
    fs.writeFileSync(lockOf(dir), `${process.pid} elsewhere.example\n`);
    expect(() => lockDirectory(dir)).toThrow(
      /in use by process \d+ on elsewhere\.example \(remove the file if that process is gone\)/,
    );
    expect(fs.readFileSync(lockOf(dir), 'utf8')).toBe(`${process.pid} elsewhere.example\n`);
    fs.rmSync(lockOf(dir));
  });
});

describe('row cache scripts, step by step', () => {
  it('schedules a row due at once with its delay, changes the delay, and unschedules it with its copy and records', async () => {
    const rows = repository();
    const keys = rows.keys;
    expect(await rows.schedule('7', 2500)).toBe(true);
    const [seconds, micros] = await redis.client.time();
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    expect(Number(await redis.client.zscore(keys.delay, '7'))).toBe(2500);
    expect(now - Number(await redis.client.zscore(keys.schedule, '7'))).toBeLessThan(1000);
    expect(await rows.schedule('7', 500)).toBe(false); // already scheduled: a new delay
    expect(Number(await redis.client.zscore(keys.delay, '7'))).toBe(500);

    const { rows: claimed } = await rows.claim(10);
    expect(await rows.store(claimed.map((claim) => ({ ...claim, json: '{"id":7}' })))).toEqual(['7']);
    expect(await rows.cached('7')).toBe('{"id":7}');
    expect(await rows.schedule('7', 0)).toBe(true);
    expect(await rows.cached('7')).toBeUndefined();
    // Nothing of the row is left but the claim counter.
    expect((await redis.client.keys('*')).sort()).toEqual([keys.claims]);
    expect(await rows.schedule('7', -5)).toBe(false); // nothing to stop
  });

  it('refuses a new row beyond the limit with CONFLICT and writes nothing, but still changes a scheduled one', async () => {
    const rows = repository(2);
    await rows.schedule('1', 1000);
    await rows.schedule('2', 1000);
    const before = await redis.client.dbsize();
    const refused = await rows.schedule('3', 1000).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'CONFLICT' });
    expect(await redis.client.dbsize()).toBe(before);
    expect(await redis.client.zrange(rows.keys.delay, 0, -1)).toEqual(['1', '2']);
    expect(await rows.schedule('2', 3000)).toBe(false);
    expect(await rows.schedule('1', 0)).toBe(true);
    expect(await rows.schedule('3', 1000)).toBe(true);
  });

  it('claims due rows in due order, at most a batch, leases each for its delay or the lease if shorter, and says when the next is due', async () => {
    const rows = repository(1000, 25_000);
    expect(await rows.claim(10)).toEqual({ rows: [], nextInMs: -1 });
    await rows.schedule('b', 10_000);
    await sleep(5);
    await rows.schedule('a', 20_000);
    await sleep(5);
    await rows.schedule('c', 30_000);
    const first = await rows.claim(2);
    expect(first.rows.map((claim) => claim.rowId)).toEqual(['b', 'a']);
    expect(first.nextInMs).toBe(0); // 'c' is due now too
    const second = await rows.claim(2);
    expect(second.rows.map((claim) => claim.rowId)).toEqual(['c']);
    // Tokens only grow, one per claim.
    const tokens = [...first.rows, ...second.rows].map((claim) => claim.token);
    expect(tokens).toEqual([...tokens].sort((x, y) => x - y));
    expect(new Set(tokens).size).toBe(3);
    // Nothing is due now: the next is 'b', about 10 s away.
    expect(second.nextInMs).toBeGreaterThan(9000);
    expect(second.nextInMs).toBeLessThanOrEqual(10_000);
    expect((await rows.claim(10)).rows).toEqual([]);
    const due = await redis.client.zrange(rows.keys.schedule, 0, -1, 'WITHSCORES');
    expect([due[0], due[2], due[4]]).toEqual(['b', 'a', 'c']);
    // b and a (claimed together) by their delays, 10 s and 20 s; c, claimed a moment later, by the
    // 25 s lease instead of its 30 s delay.
    expect(Number(due[3]) - Number(due[1])).toBe(10_000);
    expect(Number(due[5]) - Number(due[1])).toBeGreaterThanOrEqual(15_000);
    expect(Number(due[5]) - Number(due[1])).toBeLessThan(17_000);
  });

  it('takes rows due within the gathering time with the due ones, never more than a quarter of a delay early', async () => {
    const rows = new RowCacheRepository(connection(), { table: 'inventory', maxRows: 1000, gatherMs: 100 });
    for (const [id, delay] of [
      ['due', 1000],
      ['soon', 1000],
      ['short', 100],
      ['later', 1000],
    ] as const)
      await rows.schedule(id, delay);
    const now = await redisNow();
    // 'soon' in 60 ms (6% of its delay); 'short' in 60 ms too, but 60% of its 100 ms; 'later' past 100 ms.
    await redis.client.zadd(
      rows.keys.schedule,
      now - 10,
      'due',
      now + 60,
      'soon',
      now + 60,
      'short',
      now + 300,
      'later',
    );
    const claimed = await rows.claim(10);
    expect(claimed.rows.map((claim) => claim.rowId)).toEqual(['due', 'soon']);
    // Next: 'short', about 60 ms away.
    expect(claimed.nextInMs).toBeGreaterThan(0);
    expect(claimed.nextInMs).toBeLessThanOrEqual(60);
    const due = await redis.client.zrange(rows.keys.schedule, 0, -1);
    expect(due).toEqual(['short', 'later', 'due', 'soon']);
  });

  it('claims a row again after its lease when its refresher died before storing, and a store moves it a full delay out', async () => {
    const rows = repository(1000, 300);
    await rows.schedule('h', 3_600_000);
    const [crashed] = (await rows.claim(10)).rows;
    expect(crashed.rowId).toBe('h');
    const held = await rows.claim(10);
    expect(held.rows).toEqual([]);
    expect(held.nextInMs).toBeGreaterThan(0);
    expect(held.nextInMs).toBeLessThanOrEqual(300); // the lease, not the hour
    await sleep(350);
    const [again] = (await rows.claim(10)).rows;
    expect(again).toEqual({ rowId: 'h', token: crashed.token + 1 });

    expect(await rows.store([{ ...again, json: '{"v":2}' }])).toEqual(['h']);
    const stored = Number(await redis.client.zscore(rows.keys.schedule, 'h'));
    const [listed] = await rows.list(undefined, 10);
    expect(stored - listed.lastRefreshedAt!).toBe(3_600_000); // a delay after the store, by Redis's clock
    expect((await rows.claim(10)).rows).toEqual([]);

    // The crashed claim's late store is stale: no copy, no new refresh time, no new due time.
    expect(await rows.store([{ ...crashed, json: '{"v":1}' }])).toEqual([]);
    expect(await rows.cached('h')).toBe('{"v":2}');
    expect(Number(await redis.client.zscore(rows.keys.schedule, 'h'))).toBe(stored);
    expect((await rows.list(undefined, 10))[0].lastRefreshedAt).toBe(listed.lastRefreshedAt);
  });

  it('keeps a row due at once when it was rescheduled while its refresh was in flight', async () => {
    const rows = repository(1000, 60_000);
    await rows.schedule('r', 3_600_000);
    const [inFlight] = (await rows.claim(10)).rows;
    expect(await rows.schedule('r', 1_800_000)).toBe(false); // a new delay: due at once
    expect(await rows.store([{ ...inFlight, json: '{"v":1}' }])).toEqual(['r']);
    expect(Number(await redis.client.zscore(rows.keys.schedule, 'r'))).toBeLessThanOrEqual(await redisNow());
    const [next] = (await rows.claim(10)).rows;
    expect(next.rowId).toBe('r');
    expect(await rows.store([{ ...next, json: '{"v":1}' }])).toEqual([]); // unchanged copy
    expect(Number(await redis.client.zscore(rows.keys.schedule, 'r')) - (await redisNow())).toBeGreaterThan(
      1_800_000 - 1000,
    );
  });

  it('drops a scheduled id without a positive delay instead of claiming it again and again', async () => {
    const rows = repository();
    await rows.schedule('kept', 1000);
    await redis.client.zadd(rows.keys.schedule, 0, 'orphan', 0, 'zero');
    await redis.client.zadd(rows.keys.delay, 0, 'zero');
    const claimed = await rows.claim(10);
    expect(claimed.rows.map((claim) => claim.rowId)).toEqual(['kept']);
    expect(await redis.client.zrange(rows.keys.schedule, 0, -1)).toEqual(['kept']);
    expect(await redis.client.zrange(rows.keys.delay, 0, -1)).toEqual(['kept']);
  });

  it('writes a copy only when its JSON changed, and announces each change on the row channel', async () => {
    const rows = repository();
    const heard: RowCacheChange[] = [];
    await listen(redis, [rows.keys.updated('5')], (_channel, message) =>
      heard.push(JSON.parse(message) as RowCacheChange),
    );

    await rows.schedule('5', 60_000);
    const store = async (json: string | undefined) => {
      await redis.client.zadd(rows.keys.schedule, 0, '5'); // due again
      const { rows: claimed } = await rows.claim(10);
      return rows.store(claimed.map((claim) => ({ ...claim, json })));
    };
    expect(await store('{"stock":3}')).toEqual(['5']);
    expect(await store('{"stock":3}')).toEqual([]);
    expect(await store('{"stock":2}')).toEqual(['5']);
    expect(await store(undefined)).toEqual(['5']); // gone from the database
    expect(await rows.cached('5')).toBeUndefined();
    expect(await store(undefined)).toEqual([]);
    await eventually(async () => heard.length >= 3, 2000, 10);
    await sleep(50);
    expect(heard.map((change) => [change.rowId, change.cached])).toEqual([
      ['5', true],
      ['5', true],
      ['5', false],
    ]);
    expect(heard[0].at).toBeGreaterThan(1_600_000_000_000); // unix ms by Redis's clock
    // The last refresh is recorded even when nothing changed.
    const [listed] = await rows.list(undefined, 10);
    expect(listed.lastRefreshedAt).toBeGreaterThanOrEqual(heard[2].at);
  });

  it('ignores a store whose claim is older than the stored copy', async () => {
    const rows = repository();
    await rows.schedule('9', 50);
    const [older] = (await rows.claim(10)).rows;
    await sleep(60);
    const [newer] = (await rows.claim(10)).rows;
    expect(newer.token).toBeGreaterThan(older.token);
    expect(await rows.store([{ ...newer, json: '{"v":"new"}' }])).toEqual(['9']);
    expect(await rows.store([{ ...older, json: '{"v":"old"}' }])).toEqual([]);
    expect(await rows.cached('9')).toBe('{"v":"new"}');
  });

  it('never stores a refresh that was in flight when the row was unscheduled, even if it was scheduled again since', async () => {
    const rows = repository();
    await rows.schedule('4', 1000);
    const [inFlight] = (await rows.claim(10)).rows;
    expect(await rows.schedule('4', 0)).toBe(true);
    expect(await rows.store([{ ...inFlight, json: '{"v":"stale"}' }])).toEqual([]);
    expect(await redis.client.dbsize()).toBe(1); // the claim counter only

    await rows.schedule('4', 1000);
    expect(await rows.store([{ ...inFlight, json: '{"v":"stale"}' }])).toEqual([]);
    expect(await rows.cached('4')).toBeUndefined();
    const [fresh] = (await rows.claim(10)).rows;
    expect(await rows.store([{ ...fresh, json: '{"v":"fresh"}' }])).toEqual(['4']);
    expect(await rows.cached('4')).toBe('{"v":"fresh"}');
  });

  it('brings a failed row forward to the backoff, never later than its delay', async () => {
    const rows = repository(1000, 600_000);
    await rows.schedule('long', 3_600_000);
    await rows.schedule('short', 200);
    const { rows: claimed } = await rows.claim(10);
    const before = await redis.client.zrange(rows.keys.schedule, 0, -1, 'WITHSCORES');
    expect(
      await rows.retryLater(
        claimed.map((claim) => claim.rowId),
        1000,
      ),
    ).toBe(1);
    const after = Object.fromEntries(chunk(await redis.client.zrange(rows.keys.schedule, 0, -1, 'WITHSCORES')));
    const was = Object.fromEntries(chunk(before));
    expect(Number(was.long) - Number(after.long)).toBeGreaterThan(590_000); // about 1 s from now instead of the 10 min lease
    expect(after.short).toBe(was.short); // its delay is shorter than the backoff
    expect(await rows.retryLater(['unscheduled'], 1000)).toBe(0);
    expect(await redis.client.zscore(rows.keys.schedule, 'unscheduled')).toBeNull();
  });

  it('lists scheduled rows a page at a time in byte order, with their delays and times', async () => {
    const rows = repository();
    for (const id of ['b', 'a', 'd', 'c', 'é']) await rows.schedule(id, 1500);
    const first = await rows.list(undefined, 2);
    expect(first.map((row) => row.rowId)).toEqual(['a', 'b']);
    expect(first[0]).toEqual({
      rowId: 'a',
      delayMs: 1500,
      nextRefreshAt: expect.any(Number),
      lastRefreshedAt: undefined,
    });
    expect((await rows.list('b', 10)).map((row) => row.rowId)).toEqual(['c', 'd', 'é']);
    expect(await rows.list('é', 10)).toEqual([]);
  });

  it('keeps row ids with any characters apart in key names', async () => {
    const rows = repository();
    const ids = ['a:b', 'a%3Ab', '{x}', 'with space', '7'];
    for (const id of ids) await rows.schedule(id, 1000);
    const { rows: claimed } = await rows.claim(10);
    await rows.store(claimed.map((claim) => ({ ...claim, json: JSON.stringify({ id: claim.rowId }) })));
    for (const id of ids) expect(await rows.cached(id)).toBe(JSON.stringify({ id }));
    const names = await redis.client.keys('rowcache:*:row:*');
    expect(names).toHaveLength(5);
    for (const name of names) expect(name.slice(name.indexOf(':row:') + 5)).not.toMatch(/[{}: ]/);
  });
});

describe('the refresher', () => {
  it('copies scheduled rows from the database, follows changes, and drops a row deleted from the database', async () => {
    const rows = repository();
    await database.query("INSERT INTO inventory (id, name, price_cents, stock) VALUES (1000, 'Promo mug', 990, 5)");
    const worker = refresher(rows, database);
    await rows.schedule('1000', 100);
    await rows.schedule('3', 100);
    await rows.schedule('abc', 100); // no integer key is "abc": never a copy, and no failed batch
    await eventually(
      async () => (await rows.cached('1000')) !== undefined && (await rows.cached('3')) !== undefined,
      10_000,
      20,
    );
    expect(await rows.cached('1000')).toBe(await rowJson(1000));
    expect(JSON.parse((await rows.cached('1000'))!)).toMatchObject({ id: 1000, name: 'Promo mug', stock: 5 });

    await database.query('UPDATE inventory SET stock = 4 WHERE id = 1000');
    await eventually(async () => JSON.parse((await rows.cached('1000'))!).stock === 4, 10_000, 20);
    await database.query('DELETE FROM inventory WHERE id = 1000');
    await eventually(async () => (await rows.cached('1000')) === undefined, 10_000, 20);
    expect(await rows.cached('abc')).toBeUndefined();
    expect(await rows.cached('3')).toBe(await rowJson(3));
    expect(worker.rowsRead).toBeGreaterThan(6);
  });

  it('refreshes each row once per due time with three refreshers racing on one Redis', async () => {
    const rows = repository();
    const source = new ObservedSource(database);
    const ids = Array.from({ length: 20 }, (_, i) => String(i + 1));
    const DELAY = 1000;
    const workers = [0, 1, 2].map(() => refresher(repository(), source, { batchSize: 7, maxSleepMs: 50 }));
    for (const id of ids) await rows.schedule(id, DELAY);
    // Three due times of every row, however long scheduling and reading take on this machine.
    await eventually(async () => ids.every((id) => source.readsOf(id).length >= 3), 60_000, 20);
    await Promise.all(stoppers.splice(0).map((stop) => stop()));

    for (const id of ids) {
      const times = source.readsOf(id);
      // A second read of the same due time would come within ms of the first, from another
      // refresher; reads of successive ones come at least 750 ms apart (the next due time is a
      // delay after the store, less at most a quarter of it of look-ahead), whatever stalls.
      const gaps = times.slice(1).map((at, i) => at - times[i]);
      expect({ id, gaps, close: gaps.filter((gap) => gap < DELAY / 2) }).toEqual({ id, gaps, close: [] });
    }
    const reads = source.reads.reduce((sum, read) => sum + read.ids.length, 0);
    expect(workers.reduce((sum, worker) => sum + worker.rowsRead, 0)).toBe(reads);
    // Each refresher claimed at most a batch at a time.
    expect(Math.max(...source.reads.map((read) => read.ids.length))).toBeLessThanOrEqual(7);
  });

  it('reads 20 rows that come due a few ms apart in one query per round', async () => {
    const rows = repository();
    const source = new ObservedSource(database);
    const ids = Array.from({ length: 20 }, (_, i) => String(i + 1));
    for (const id of ids) await rows.schedule(id, 1000);
    // Four groups of five due 25 ms apart, as when a page schedules its rows one request at a
    // time: before the claim gathered rows due within 100 ms, each group was its own query, every
    // second. Set in Redis, so that a busy machine cannot stretch the gaps.
    const now = await redisNow();
    await redis.client.zadd(rows.keys.schedule, ...ids.flatMap((id, i) => [now + 300 + Math.floor(i / 5) * 25, id]));
    refresher(rows, source);
    await eventually(async () => ids.every((id) => source.readsOf(id).length >= 3), 10_000, 20);
    // Rounds one to three: one query each, for all twenty rows.
    expect(source.reads.slice(0, 3).map((read) => [...read.ids].sort((a, b) => Number(a) - Number(b)))).toEqual([
      ids,
      ids,
      ids,
    ]);
    for (const id of ids) expect(await rows.cached(id)).toBe(await rowJson(Number(id)));
  });

  it('leaves no copy when a row is unscheduled while its refresh is in flight', async () => {
    const rows = repository();
    const source = new ObservedSource(database);
    const slow = gate();
    source.gate = slow.promise;
    const worker = refresher(rows, source);
    await rows.schedule('2', 60_000);
    await eventually(async () => source.reads.length === 1, 5000, 10);
    expect(await rows.schedule('2', 0)).toBe(true);
    slow.open();
    await eventually(async () => worker.rowsRead === 1, 5000, 10);
    await sleep(50);
    expect(await rows.cached('2')).toBeUndefined();
    expect(await redis.client.keys('*')).toEqual([rows.keys.claims]);
  });

  it('finishes the batch in hand when stopped', async () => {
    const rows = repository();
    const source = new ObservedSource(database);
    const slow = gate();
    source.gate = slow.promise;
    const worker = refresher(rows, source);
    await rows.schedule('6', 60_000);
    await eventually(async () => source.reads.length === 1, 5000, 10);
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await sleep(100);
    expect(stopped).toBe(false);
    slow.open();
    await stopping;
    expect(await rows.cached('6')).toBe(await rowJson(6));
  });

  it('tries a row again soon when its store fails, instead of leaving it for its lease', async () => {
    const rows = repository(1000, 600_000);
    const source = new ObservedSource(database);
    const { logger, lines } = captureLogs('info');
    const store = jest.spyOn(rows, 'store').mockRejectedValueOnce(new Error('Command timed out'));
    refresher(rows, source, { logger, retryMs: 100 });
    await rows.schedule('11', 3_600_000);
    await eventually(async () => (await rows.cached('11')) !== undefined, 10_000, 20);
    expect(await rows.cached('11')).toBe(await rowJson(11));
    expect(store).toHaveBeenCalledTimes(2);
    expect(source.readsOf('11')).toHaveLength(2);
    expect(lines.filter((line) => line.level === 40).map((line) => [line.msg, line.err])).toEqual([
      ['cannot store refreshed rows in Redis; retrying', 'Command timed out'],
    ]);
    // Stored: back to its hourly delay.
    expect(Number(await redis.client.zscore(rows.keys.schedule, '11')) - (await redisNow())).toBeGreaterThan(3_500_000);
  });

  it('keeps serving the last copy through a database outage, retries with backoff, and logs it once', async () => {
    const rows = repository();
    const source = new ObservedSource(database);
    const { logger, lines } = captureLogs('info');
    await database.query(
      "INSERT INTO inventory (id, name, price_cents, stock) VALUES (1001, 'Outage kettle', 3900, 10)",
    );
    refresher(rows, source, { logger, retryMs: 100, maxRetryMs: 200 });
    await rows.schedule('1001', 3_600_000); // an hourly row: without retries it would wait an hour
    await rows.schedule('1', 100);
    await eventually(async () => (await rows.cached('1001')) !== undefined, 10_000, 20);
    const lastCopy = await rows.cached('1001');

    source.down = true;
    await database.query('UPDATE inventory SET stock = 9 WHERE id = 1001');
    await redis.client.zadd(rows.keys.schedule, 0, '1001'); // due now, during the outage
    const failedFrom = source.reads.length;
    const failedReads = () => source.reads.slice(failedFrom).filter((read) => read.ids.includes('1001')).length;
    await eventually(async () => failedReads() >= 3, 10_000, 20); // retried, not left for an hour
    expect(await rows.cached('1001')).toBe(lastCopy);
    const warnings = lines.filter((line) => line.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      msg: expect.stringMatching(/cannot read rows/),
      err: expect.stringMatching(/ECONNREFUSED/),
    });

    source.down = false;
    await eventually(async () => JSON.parse((await rows.cached('1001'))!).stock === 9, 10_000, 20);
    expect(lines.filter((line) => line.level === 40)).toHaveLength(1);
    expect(lines.some((line) => line.msg === 'row cache database reachable again')).toBe(true);
    // Back to its usual delay: due again in about an hour.
    const due = Number(await redis.client.zscore(rows.keys.schedule, '1001'));
    const [seconds] = await redis.client.time();
    expect(due - Number(seconds) * 1000).toBeGreaterThan(3_500_000);
  });

  it('sleeps while nothing is due instead of polling Redis in a loop', async () => {
    const rows = repository();
    const worker = refresher(rows, new ObservedSource(database), { maxSleepMs: 200 });
    await rows.schedule('8', 60_000);
    await eventually(async () => worker.rowsRead === 1, 5000, 10);
    const claims = worker.claims;
    await sleep(1000);
    // One look at the schedule per 200 ms sleep, not thousands.
    expect(worker.claims - claims).toBeGreaterThanOrEqual(2);
    expect(worker.claims - claims).toBeLessThanOrEqual(7);
    expect(worker.rowsRead).toBe(1);
  });

  it('wakes at once for a row scheduled through its own repository, however long its sleep', async () => {
    const rows = repository();
    const worker = refresher(rows, database, { maxSleepMs: 60_000 });
    await eventually(async () => worker.claims === 1, 5000, 10);
    await sleep(50); // asleep now, for a minute
    await rows.schedule('10', 60_000);
    await eventually(async () => (await rows.cached('10')) !== undefined, 5000, 10);
    expect(worker.claims).toBe(2);
  });
});

function chunk(flat: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
  return pairs;
}
