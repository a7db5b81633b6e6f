// The row cache through the real server, reading the embedded PostgreSQL (PGlite) in a temporary
// DATA_DIR as on a fresh machine: who may schedule and read, copies that follow the database,
// notifications over WebSocket only on a real change, paging, limits and bad input.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { rowCacheKeys } from '../../src/redis/keys';
import {
  CachedRowDocument,
  CachedRowsDocument,
  RowCacheScheduleDocument,
  RowCacheUpdatedDocument,
  ScheduleRowCacheDocument,
} from '../../src/generated/client/graphql';
import { serverForThisFile } from '../support/fixture';
import { codes, eventually, post, wsOperation } from '../support/graphql';
import { waitForLine } from '../support/logs';
import type { TestServer } from '../support/server';
import { setTimeout as sleep } from 'node:timers/promises';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-row-cache-api-'));
const fixture = serverForThisFile({
  DATA_DIR: dataDir,
  ROW_CACHE_MAX_SLEEP_MS: '100',
  ROW_CACHE_MAX_DELAY_SECONDS: '3600',
  ROW_CACHE_MAX_ROWS: '5',
});
let api: TestServer;
/** A safety net around the database's opening: creating its directory takes 25 s on a loaded machine. */
const OPENING = 180_000;

beforeAll(() => {
  api = fixture.api;
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const keys = rowCacheKeys('inventory');
const schedule = (rowId: string, delaySeconds: number, token = api.tokens.service) =>
  post(api.url, ScheduleRowCacheDocument, { rowId, delaySeconds }, token);
const scheduled = async (rowId: string, delaySeconds: number) => {
  const result = await schedule(rowId, delaySeconds);
  expect(result.errors).toBeUndefined();
  return result.data!.scheduleRowCache;
};
const cachedRow = async (rowId: string, token = api.tokens.user) => {
  const result = await post(api.url, CachedRowDocument, { rowId }, token);
  expect(result.errors).toBeUndefined();
  return result.data!.cachedRow as Record<string, unknown> | null;
};
const sql = (text: string, params?: unknown[]) => api.server.rowSource.query(text, params);
/** Every key with its full content, to show that a refused request wrote nothing. */
async function snapshot(): Promise<Record<string, unknown>> {
  const redis = api.redis.client;
  const contents: Record<string, unknown> = {};
  for (const key of (await redis.keys('*')).sort()) {
    const type = await redis.type(key);
    if (type === 'hash') contents[key] = await redis.hgetall(key);
    else if (type === 'zset') contents[key] = await redis.zrange(key, 0, -1, 'WITHSCORES');
    else contents[key] = await redis.get(key);
  }
  return contents;
}

/** Subscribes to rowCacheUpdated over WebSocket and waits until the server listens on the row's channel. */
async function watch(rowId: string) {
  const channel = keys.updated(rowId);
  const subscribers = async () => api.redis.subscribers(channel);
  await eventually(async () => (await subscribers()) === 0, 5000, 20);
  const socket = fixture.connect(api.tokens.user);
  const subscription = wsOperation(socket.client, RowCacheUpdatedDocument, { rowId });
  await eventually(async () => (await subscribers()) === 1, 5000, 20);
  return subscription;
}

describe('scheduling and reading cached rows', () => {
  it(
    'copies a demo row from the embedded database, and forgets it when unscheduled, even with a refresh in flight',
    async () => {
      expect(await cachedRow('3')).toBeNull();
      expect(await scheduled('3', 3600)).toBe(true);
      // The first due row opens the database: its directory is copied from the machine's template,
      // or created (seconds of CPU, many more on a busy machine). Asking meanwhile also shows that
      // the API keeps answering: on the API's own thread, PGlite stalled it long enough to reset
      // connections. The opening (or its failure) is the event waited for; then the copy follows.
      const opening = waitForLine(
        api.logs,
        (line) =>
          line.msg === 'row cache database open' ||
          String(line.msg).startsWith('cannot read rows from the row cache database'),
        OPENING,
      );
      // The line is looked for every few tens of milliseconds, so on a loaded machine the copy can
      // be answered before the wait sees it: a row seen here ends the wait, and the line must follow.
      let answered = 0;
      while (!(await Promise.race([opening.then(() => true), sleep(50).then(() => false)]))) {
        const row = await cachedRow('3');
        answered += 1;
        if (row !== null) break;
      }
      expect(await opening).toMatchObject({
        msg: 'row cache database open',
        database: expect.stringContaining(dataDir),
      });
      await eventually(async () => (await cachedRow('3')) !== null, 20_000, 50);
      expect(answered).toBeGreaterThan(0);
      expect(await cachedRow('3')).toEqual({
        id: 3,
        name: 'Burr grinder',
        price_cents: 12900,
        stock: 4,
        updated_at: expect.any(String),
      });
      // This server has an external Redis (REDIS_URL) and no DATABASE_URL: said once, at start.
      expect(
        api.logs.filter(
          (line) => line.level === 40 && /several instances on this Redis need DATABASE_URL/.test(String(line.msg)),
        ),
      ).toHaveLength(1);

      // A refresh in flight: the embedded database runs one statement at a time, so while it sleeps
      // here, the refresh of the rescheduled row (due at once) waits behind it, claimed but unread.
      const claims = Number(await api.redis.client.get(keys.claims));
      const batches = () => api.logs.filter((line) => line.msg === 'row cache batch');
      const batchesBefore = batches().length;
      const busy = sql('SELECT pg_sleep(1)');
      expect(await scheduled('3', 3600)).toBe(false);
      await eventually(async () => Number(await api.redis.client.get(keys.claims)) > claims, 5000, 10);
      expect(batches()).toHaveLength(batchesBefore); // claimed, not stored yet

      expect(await scheduled('3', 0)).toBe(true);
      expect(await cachedRow('3')).toBeNull();
      expect(await scheduled('3', -1)).toBe(false);
      await busy;
      // The refresh read the row after it was unscheduled, and stored nothing.
      await eventually(async () => batches().length > batchesBefore, 5000, 10);
      expect(batches().slice(batchesBefore)).toMatchObject([{ rows: 1, found: 1, changed: 0 }]);
      expect(await cachedRow('3')).toBeNull();
      expect(await api.redis.client.keys('rowcache:*:row:*')).toEqual([]);
    },
    OPENING + 30_000,
  );

  it('lets only service callers schedule, and any signed-in caller read', async () => {
    expect(codes(await schedule('1', 1, api.tokens.user))).toEqual(['FORBIDDEN']);
    expect(codes(await schedule('1', 1, ''))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await post(api.url, CachedRowDocument, { rowId: '1' }))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await post(api.url, RowCacheScheduleDocument, {}, api.tokens.user))).toEqual(['FORBIDDEN']);
    expect(await api.redis.client.dbsize()).toBe(0);

    await scheduled('1', 1);
    await eventually(async () => (await cachedRow('1', api.tokens.other)) !== null, 20_000, 50);
    expect(await cachedRow('1', api.tokens.service)).toMatchObject({ id: 1, name: 'Espresso cup' });
  });

  it('reads several copies in one call, in the order asked, with null where there is none', async () => {
    for (const id of ['4', '6']) await scheduled(id, 3600);
    await eventually(async () => (await cachedRow('4')) !== null && (await cachedRow('6')) !== null, 20_000, 50);
    const rows = async (rowIds: string[], token = api.tokens.user) => {
      const result = await post(api.url, CachedRowsDocument, { rowIds }, token);
      expect(result.errors).toBeUndefined();
      return result.data!.cachedRows as (Record<string, unknown> | null)[];
    };
    const [four, six] = [await cachedRow('4'), await cachedRow('6')];
    expect(four).toMatchObject({ id: 4 });
    expect(six).toMatchObject({ id: 6 });
    expect(await rows(['6', '99', '4', '6', 'abc'])).toEqual([six, null, four, six, null]);
    expect(await rows([])).toEqual([]);
    expect(await rows(['4'], api.tokens.service)).toEqual([four]);
    const hundred = Array.from({ length: 100 }, (_, i) => String(i % 2 === 0 ? 4 : 1000 + i));
    const many = await rows(hundred, api.tokens.other);
    expect(many).toHaveLength(100);
    expect(many.filter((row) => row !== null)).toHaveLength(50);
    expect(many[0]).toEqual(four);
    expect(many[1]).toBeNull();

    const before = await snapshot();
    expect(codes(await post(api.url, CachedRowsDocument, { rowIds: ['4'] }))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await post(api.url, CachedRowsDocument, { rowIds: [...hundred, '4'] }, api.tokens.user))).toEqual([
      'BAD_USER_INPUT',
    ]);
    for (const bad of ['', 'x'.repeat(129), 'a\u0000b', 'a\u202Eb']) {
      expect(codes(await post(api.url, CachedRowsDocument, { rowIds: ['4', bad] }, api.tokens.user))).toEqual([
        'BAD_USER_INPUT',
      ]);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('lists the schedule a page at a time with delays and refresh times', async () => {
    for (const id of ['5', '2', '4']) await scheduled(id, 2);
    await scheduled('1', 3600);
    await eventually(async () => (await api.redis.client.hlen(keys.refreshed)) === 4, 20_000, 50);
    const page = async (first: number, after?: string) => {
      const result = await post(api.url, RowCacheScheduleDocument, { first, after }, api.tokens.service);
      expect(result.errors).toBeUndefined();
      return result.data!.rowCacheSchedule;
    };
    const first = await page(2);
    expect(first.map((row) => [row.rowId, row.delaySeconds])).toEqual([
      ['1', 3600],
      ['2', 2],
    ]);
    const [one] = first;
    expect(one.lastRefreshedAt).not.toBeNull();
    // Next refresh one delay after the last one (both by Redis's clock), to the ms.
    expect(Math.round((one.nextRefreshAt - one.lastRefreshedAt!) * 1000)).toBeGreaterThanOrEqual(3_600_000 - 50);
    expect(Math.abs(one.lastRefreshedAt! - Date.now() / 1000)).toBeLessThan(60);
    expect((await page(10, '2')).map((row) => row.rowId)).toEqual(['4', '5']);
    expect(await page(10, '5')).toEqual([]);
  });

  it('refuses a row beyond ROW_CACHE_MAX_ROWS with CONFLICT, and nothing changes', async () => {
    for (const id of ['11', '12', '13', '14', '15']) await scheduled(id, 3600);
    const before = await api.redis.client.zrange(keys.delay, 0, -1, 'WITHSCORES');
    expect(codes(await schedule('16', 3600))).toEqual(['CONFLICT']);
    expect(await api.redis.client.zrange(keys.delay, 0, -1, 'WITHSCORES')).toEqual(before);
    expect(await scheduled('15', 60)).toBe(false); // a scheduled row may still change its delay
  });
});

describe('notifications', () => {
  it('tells subscribers when the copy really changes, not on every refresh', async () => {
    const updates = await watch('2');
    try {
      expect(await scheduled('2', 0.1)).toBe(true);
      const [first] = await updates.take(1, 20_000);
      expect(first.data!.rowCacheUpdated).toEqual({ rowId: '2', changedAt: expect.any(Number), cached: true });
      const stock = (await cachedRow('2'))!.stock as number;
      const refreshed = await api.redis.client.hget(keys.refreshed, '2');
      await eventually(async () => (await api.redis.client.hget(keys.refreshed, '2')) !== refreshed, 5000, 20);
      await sleep(500); // several refreshes of an unchanged row
      expect(updates.results).toHaveLength(1);

      await sql('UPDATE inventory SET stock = stock - 1 WHERE id = 2');
      const second = (await updates.take(2, 5000))[1].data!.rowCacheUpdated;
      expect(second.cached).toBe(true);
      expect(second.changedAt).toBeGreaterThan(first.data!.rowCacheUpdated.changedAt);
      expect((await cachedRow('2'))!.stock).toBe(stock - 1);

      expect(await scheduled('2', 0)).toBe(true);
      const third = (await updates.take(3, 5000))[2].data!.rowCacheUpdated;
      expect(third).toMatchObject({ rowId: '2', cached: false });
      await sleep(300);
      expect(updates.results).toHaveLength(3);
    } finally {
      await sql('UPDATE inventory SET stock = 15 WHERE id = 2');
    }
  });

  it('drops the copy of a row deleted from the database, and says so', async () => {
    await sql("INSERT INTO inventory (id, name, price_cents, stock) VALUES (500, 'Flash sale grinder', 9900, 3)");
    try {
      const updates = await watch('500');
      await scheduled('500', 0.1);
      await eventually(async () => (await cachedRow('500')) !== null, 20_000, 50);
      await sql('DELETE FROM inventory WHERE id = 500');
      await eventually(async () => (await cachedRow('500')) === null, 5000, 50);
      const changes = (await updates.take(2, 5000)).map((result) => result.data!.rowCacheUpdated.cached);
      expect(changes).toEqual([true, false]);
      // Still scheduled: it comes back if the row does.
      expect(await api.redis.client.zrange(keys.delay, 0, -1)).toEqual(['500']);
    } finally {
      await sql('DELETE FROM inventory WHERE id = 500');
    }
  });
});

describe('bad input', () => {
  const literal = (delay: string) =>
    parse(`mutation { scheduleRowCache(rowId: "1", delaySeconds: ${delay}) }`) as TypedDocumentNode<
      unknown,
      Record<string, never>
    >;

  it.each([
    ['an id over 128 characters', () => schedule('x'.repeat(129), 1)],
    ['an empty id', () => schedule('', 1)],
    ['an id with a control character', () => schedule('a\u0000b', 1)],
    ['an id with a text-direction override', () => schedule('a\u202Eb', 1)],
    ['a delay of 1e308', () => schedule('1', 1e308)],
    ['a delay of -1e308', () => schedule('1', -1e308)],
    ['a delay over ROW_CACHE_MAX_DELAY_SECONDS', () => schedule('1', 3601)],
    ['a negative delay beyond it', () => schedule('1', -3601)],
    ['a delay under 0.05 s', () => schedule('1', 0.01)],
    ['an infinite delay (literal 1e400)', () => post(api.url, literal('1e400'), {}, api.tokens.service)],
    ['a negative infinite delay (literal -1e400)', () => post(api.url, literal('-1e400'), {}, api.tokens.service)],
    [
      'NaN as a delay',
      () =>
        post(
          api.url,
          ScheduleRowCacheDocument,
          { rowId: '1', delaySeconds: 'NaN' as unknown as number },
          api.tokens.service,
        ),
    ],
    ['an over-long id to read', () => post(api.url, CachedRowDocument, { rowId: 'x'.repeat(129) }, api.tokens.user)],
    ['a page of 0', () => post(api.url, RowCacheScheduleDocument, { first: 0 }, api.tokens.service)],
  ])('refuses %s with BAD_USER_INPUT, and changes nothing', async (_label, send) => {
    await scheduled('7', 3600);
    await eventually(async () => (await api.redis.client.exists(keys.row('7'))) === 1, 20_000, 50);
    const before = await snapshot();
    expect(codes(await send())).toEqual(['BAD_USER_INPUT']);
    expect(await snapshot()).toEqual(before);
  });

  it('applies the same checks over WebSocket', async () => {
    await scheduled('7', 3600);
    const before = await api.redis.client.zrange(keys.delay, 0, -1, 'WITHSCORES');
    const socket = fixture.connect(api.tokens.service);
    const infinite = wsOperation(socket.client, literal('1e400'), {});
    expect((await infinite.completion()).map(codes)).toEqual([['BAD_USER_INPUT']]);
    const long = wsOperation(socket.client, RowCacheUpdatedDocument, { rowId: 'x'.repeat(129) });
    expect((await long.completion()).map(codes)).toEqual([['BAD_USER_INPUT']]);
    const user = fixture.connect(api.tokens.user);
    const forbidden = wsOperation(user.client, ScheduleRowCacheDocument, { rowId: '8', delaySeconds: 1 });
    expect((await forbidden.completion()).map(codes)).toEqual([['FORBIDDEN']]);
    expect(await api.redis.client.zrange(keys.delay, 0, -1, 'WITHSCORES')).toEqual(before);
  });
});
