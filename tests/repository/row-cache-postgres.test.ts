// The row cache against a real PostgreSQL server that this file starts (initdb, then postgres on
// a free loopback port): key types and JSON as PostgreSQL renders them, the server reading
// DATABASE_URL end to end, and an outage of the real database. Skipped, saying so, only when
// PostgreSQL is not installed.
import pino from 'pino';
import { postgresDatabase } from '../../src/db/postgres';
import { SqlRowSource } from '../../src/db/row-source';
import { rowCacheKeys } from '../../src/redis/keys';
import {
  CachedRowDocument,
  RowCacheUpdatedDocument,
  ScheduleRowCacheDocument,
} from '../../src/generated/client/graphql';
import { connectWs, eventually, post, wsOperation, type WsClient } from '../support/graphql';
import { captureLogs } from '../support/logs';
import { findPostgres, startTestPostgres, type TestPostgres } from '../support/postgres';
import { startTestServer, type TestServer } from '../support/server';

const binDir = findPostgres();
if (binDir === undefined) {
  console.warn(
    'row-cache-postgres: no initdb/postgres found (PATH, /usr/local/bin, /usr/lib/postgresql/*/bin); the real-PostgreSQL tests are skipped',
  );
}
const describeWithPostgres = binDir === undefined ? describe.skip : describe;

let pg: TestPostgres;
/** Whether this PostgreSQL has the citext extension (contrib); its case is skipped, saying so, without it. */
let citext = false;
const sources: SqlRowSource[] = [];
const silent = pino({ level: 'silent' });

function source(table: string, keyColumn: string, logger = silent): SqlRowSource {
  const opened = new SqlRowSource(postgresDatabase(pg.url, 2000, logger), { table, keyColumn }, logger);
  sources.push(opened);
  return opened;
}

const parsed = (rows: Map<string, string>) =>
  Object.fromEntries([...rows].map(([id, json]) => [id, JSON.parse(json) as unknown]));

describeWithPostgres('against a real PostgreSQL server', () => {
  beforeAll(async () => {
    pg = await startTestPostgres(binDir!);
    await pg.query(`
      CREATE TABLE inventory (id integer PRIMARY KEY, name text NOT NULL, price_cents integer NOT NULL, stock integer NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now());
      INSERT INTO inventory (id, name, price_cents, stock) SELECT n, 'item ' || n, 100 * n, n FROM generate_series(1, 200) AS n;
      CREATE SCHEMA shop;
      CREATE TABLE shop."Products" (sku text PRIMARY KEY, price numeric(10, 2), tags text[], meta jsonb, "Shown" boolean);
      INSERT INTO shop."Products" VALUES ('TEA-1', 4.50, '{green,loose}', '{"origin": {"country": "JP"}}', true),
        ('with space', 1, '{}', null, false), ('a:b{c}', 2, null, '[1, 2]', null);
      CREATE TABLE events (id uuid PRIMARY KEY, title text);
      INSERT INTO events VALUES ('0b7c6f1e-4a52-4c1a-9d7e-3f0e8f1a2b3c', 'launch');
      CREATE TABLE ledger (id bigint PRIMARY KEY, amount integer);
      INSERT INTO ledger VALUES (9007199254740993, 5), (-3, 7);
      CREATE TABLE measures (id numeric PRIMARY KEY, label text);
      INSERT INTO measures VALUES (1.5, 'one and a half'), (2, 'two');
      CREATE TABLE fixed_codes (code char(5) PRIMARY KEY, label text);
      INSERT INTO fixed_codes VALUES ('AB', 'short'), ('ABCDE', 'full'), ('A', 'one');
      CREATE TABLE varying_codes (code varchar(4) PRIMARY KEY, label text);
      INSERT INTO varying_codes VALUES ('WXYZ', 'four'), ('W', 'one');
    `);
    citext = (await pg.query("SELECT 1 FROM pg_available_extensions WHERE name = 'citext'")).length === 1;
    if (citext) {
      await pg.query(`
        CREATE EXTENSION citext;
        CREATE TABLE members (email citext PRIMARY KEY, name text);
        INSERT INTO members VALUES ('Ann@Example.com', 'Ann'), ('bo@example.com', 'Bo');
      `);
    } else {
      console.warn('row-cache-postgres: this PostgreSQL has no citext extension; its key case is skipped');
    }
  });

  afterAll(async () => {
    await Promise.all(sources.splice(0).map((opened) => opened.close()));
    await pg?.stop();
  });

  describe('reading rows', () => {
    it('reads a batch of integer keys in one query, leaving out ids no integer key can have', async () => {
      const rows = source('inventory', 'id');
      const found = parsed(await rows.fetchRows(['7', 'abc', '007', '3', '999', '99999999999', '-1', '7']));
      expect(Object.keys(found).sort()).toEqual(['3', '7']);
      expect(found['7']).toEqual({
        id: 7,
        name: 'item 7',
        price_cents: 700,
        stock: 7,
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      const hundred = Array.from({ length: 100 }, (_, i) => String(i + 50));
      expect((await rows.fetchRows(hundred)).size).toBe(100);
    });

    it('reads text keys of a schema-qualified, mixed-case table, with PostgreSQL rendering every column type as JSON', async () => {
      const rows = source('shop.Products', 'sku');
      const found = parsed(await rows.fetchRows(['TEA-1', 'with space', 'a:b{c}', 'tea-1', 'missing']));
      expect(found).toEqual({
        'TEA-1': {
          sku: 'TEA-1',
          price: 4.5,
          tags: ['green', 'loose'],
          meta: { origin: { country: 'JP' } },
          Shown: true,
        },
        'with space': { sku: 'with space', price: 1, tags: [], meta: null, Shown: false },
        'a:b{c}': { sku: 'a:b{c}', price: 2, tags: null, meta: [1, 2], Shown: null },
      });
    });

    it('matches uuid and bigint keys only as PostgreSQL prints them, keeping bigints exact in the JSON text', async () => {
      const events = source('events', 'id');
      const id = '0b7c6f1e-4a52-4c1a-9d7e-3f0e8f1a2b3c';
      expect([...(await events.fetchRows([id, id.toUpperCase(), 'not-a-uuid'])).keys()]).toEqual([id]);
      const ledger = source('ledger', 'id');
      const found = await ledger.fetchRows(['9007199254740993', '-3', '9223372036854775808', '1e3']);
      expect([...found.keys()].sort()).toEqual(['-3', '9007199254740993']);
      expect(found.get('9007199254740993')).toBe('{"id":9007199254740993,"amount":5}');
    });

    it('compares char(n) and varchar(n) keys as their own type, whole: never cut to the column length', async () => {
      const { logger, lines } = captureLogs('info');
      const fixed = source('fixed_codes', 'code', logger);
      // As char(1), every id would be cut to its first letter: 'ABCDE' would find 'A'.
      const found = parsed(await fixed.fetchRows(['AB', 'ABCDE', 'ABCDEF', 'AB   ', 'Z']));
      expect(found).toEqual({ AB: { code: 'AB   ', label: 'short' }, ABCDE: { code: 'ABCDE', label: 'full' } });
      const varying = source('varying_codes', 'code', logger);
      expect([...(await varying.fetchRows(['WXYZ', 'WXYZA', 'W'])).keys()].sort()).toEqual(['W', 'WXYZ']);
      expect(lines.filter((line) => line.msg === 'row cache database open').map((line) => line.keyType)).toEqual([
        'character',
        'character varying',
      ]);
      expect(lines.filter((line) => line.level === 40)).toEqual([]); // not compared as text, which would skip the index
    });

    it('compares citext keys as citext, and keys each row as it prints', async () => {
      if (!citext) return; // said in beforeAll
      const { logger, lines } = captureLogs('info');
      const members = source('members', 'email', logger);
      const found = await members.fetchRows([
        'Ann@Example.com',
        'ann@example.com',
        'bo@example.com',
        'nobody@example.com',
      ]);
      // Case-insensitive matching finds Ann for either spelling, but the copy is keyed as the key prints.
      expect([...found.keys()].sort()).toEqual(['Ann@Example.com', 'bo@example.com']);
      expect(JSON.parse(found.get('Ann@Example.com')!)).toEqual({ email: 'Ann@Example.com', name: 'Ann' });
      expect(lines.filter((line) => line.level === 40)).toEqual([]);
    });

    it('compares keys of other types as text, and says so once', async () => {
      const { logger, lines } = captureLogs('info');
      const measures = source('measures', 'id', logger);
      expect([...(await measures.fetchRows(['1.5', '2', 'x', '2.0'])).keys()].sort()).toEqual(['1.5', '2']);
      await measures.fetchRows(['2']);
      expect(lines.filter((line) => line.level === 40).map((line) => [line.msg, line.keyType])).toEqual([
        ['row cache keys of this type are compared as text, without the index', 'numeric'],
      ]);
    });

    it('fails with a message naming a missing table or column, and works once it exists', async () => {
      const missing = source('public.not_yet', 'code');
      await expect(missing.fetchRows(['1'])).rejects.toThrow(
        /cannot open PostgreSQL at 127\.0\.0\.1:\d+\/postgres for the row cache: table public\.not_yet does not exist/,
      );
      await pg.query('CREATE TABLE not_yet (other integer)');
      await expect(missing.fetchRows(['1'])).rejects.toThrow(/table public\.not_yet has no column code/);
      await pg.query("ALTER TABLE not_yet ADD COLUMN code text; INSERT INTO not_yet VALUES (1, 'x1')");
      expect(parsed(await missing.fetchRows(['x1']))).toEqual({ x1: { other: 1, code: 'x1' } });
    });
  });

  describe('the server on DATABASE_URL', () => {
    let api: TestServer;
    const sockets: WsClient[] = [];
    const keys = rowCacheKeys('inventory');

    beforeAll(async () => {
      api = await startTestServer({
        DATABASE_URL: pg.url,
        ROW_CACHE_MAX_SLEEP_MS: '100',
        ROW_CACHE_DB_TIMEOUT_MS: '1000',
      });
    });
    afterEach(async () => {
      await Promise.all(sockets.splice(0).map((socket) => socket.dispose()));
      await api.redis.client.flushdb();
    });
    afterAll(async () => {
      await api?.stop();
    });

    const schedule = async (rowId: string, delaySeconds: number) => {
      const result = await post(api.url, ScheduleRowCacheDocument, { rowId, delaySeconds }, api.tokens.service);
      expect(result.errors).toBeUndefined();
    };
    const cachedRow = async (rowId: string) => {
      const result = await post(api.url, CachedRowDocument, { rowId }, api.tokens.user);
      expect(result.errors).toBeUndefined();
      return result.data!.cachedRow as Record<string, unknown> | null;
    };

    it('caches a row, follows an update with one notification, and drops the row when it is deleted', async () => {
      await pg.query("INSERT INTO inventory (id, name, price_cents, stock) VALUES (1000, 'Promo kettle', 3900, 8)");
      const socket = connectWs(api.url, api.tokens.user);
      sockets.push(socket);
      const updates = wsOperation(socket.client, RowCacheUpdatedDocument, { rowId: '1000' });
      await eventually(async () => (await api.redis.subscribers(keys.updated('1000'))) === 1, 5000, 20);

      await schedule('1000', 0.1);
      await eventually(async () => (await cachedRow('1000')) !== null, 10_000, 20);
      expect(await cachedRow('1000')).toMatchObject({ id: 1000, name: 'Promo kettle', price_cents: 3900, stock: 8 });
      expect(
        api.logs.some(
          (line) =>
            line.msg === 'row cache database open' && /^PostgreSQL at 127\.0\.0\.1:/.test(String(line.database)),
        ),
      ).toBe(true);
      expect(JSON.stringify(api.logs)).not.toContain(pg.url); // never the URL itself, which may hold a password

      await pg.query('UPDATE inventory SET stock = 7 WHERE id = 1000');
      await eventually(async () => (await cachedRow('1000'))?.stock === 7, 10_000, 20);
      await pg.query('DELETE FROM inventory WHERE id = 1000');
      await eventually(async () => (await cachedRow('1000')) === null, 10_000, 20);
      const changes = await updates.take(3, 5000);
      expect(changes.map((change) => change.data!.rowCacheUpdated.cached)).toEqual([true, true, false]);
    });

    it('serves the last copies while the database is down, logs the outage once, and catches up when it is back', async () => {
      await schedule('5', 0.2);
      await eventually(async () => (await cachedRow('5')) !== null, 10_000, 20);
      const copy = await cachedRow('5');
      const logged = api.logs.length;

      await pg.halt();
      const failures = () =>
        api.logs
          .slice(logged)
          .filter(
            (line) =>
              line.msg === 'cannot read rows from the row cache database; the cached copies stay as they are, retrying',
          );
      await eventually(async () => failures().length === 1, 10_000, 50);
      await new Promise((resolve) => setTimeout(resolve, 1500)); // several more tries
      expect(await cachedRow('5')).toEqual(copy);
      expect(failures()).toHaveLength(1);
      // Whichever way the connection was lost as PostgreSQL went down (refused, reset, closed by
      // the server, or met mid-shutdown): an outage, not an error of the query.
      expect(failures()[0].err).toMatch(
        /ECONNREFUSED|ECONNRESET|EPIPE|terminating connection|Connection terminated|the database system is shutting down/,
      );
      const before = Number(await api.redis.client.hget(keys.refreshed, '5'));

      await pg.resume();
      await pg.query('UPDATE inventory SET stock = 55 WHERE id = 5');
      await eventually(async () => (await cachedRow('5'))?.stock === 55, 20_000, 50);
      expect(Number(await api.redis.client.hget(keys.refreshed, '5'))).toBeGreaterThan(before);
      expect(api.logs.slice(logged).some((line) => line.msg === 'row cache database reachable again')).toBe(true);
      expect(failures()).toHaveLength(1);
    });
  });
});
