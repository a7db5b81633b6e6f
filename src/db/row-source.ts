// Where the row cache reads rows from: one PostgreSQL table, through `pg` (DATABASE_URL) or an
// embedded PGlite. A batch is one query, and PostgreSQL encodes each row as JSON (row_to_json),
// so the JSON has the column names as keys and PostgreSQL's own rendering of every type.
import type { Logger } from '../common/logger';
import type { SqlConnection, SqlDatabase } from './sql';

export interface RowSource {
  /** The rows with these keys as JSON text, by key; a key with no row (or that no row could have) is absent. */
  fetchRows(ids: readonly string[]): Promise<Map<string, string>>;
  close(): Promise<void>;
}

export interface RowTable {
  /** Table name, optionally schema-qualified (`schema.table`), used exactly as written. */
  table: string;
  keyColumn: string;
}

/** What opening found out: the connection and the query that reads a batch. */
interface Opened {
  connection: SqlConnection;
  select: string;
  /** Whether an id can be a key of the key column's type, as PostgreSQL prints it (key::text). */
  possible: (id: string) => boolean;
}

const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const quoteTable = (table: string): string => table.split('.').map(quoteName).join('.');

const INTEGER_LIMITS: Record<string, bigint> = { smallint: 2n ** 15n, integer: 2n ** 31n, bigint: 2n ** 63n };
const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/**
 * Text-like key types and the cast of an id array to each, without a length: `character` alone
 * means char(1) in a cast, which would truncate every id to its first character.
 */
const TEXT_CASTS = new Map([
  ['text', 'text'],
  ['character varying', 'varchar'],
  ['character', 'bpchar'],
  ['citext', 'citext'],
  ['name', 'name'],
]);

/**
 * How a batch's ids are compared with the key column. For integer, uuid and text keys the ids
 * are cast to the column's type, so its index is used; an id that is not how PostgreSQL prints
 * such a key ("abc" or "007" for an integer) cannot match a row, and is left out rather than
 * letting its failed cast fail the batch. Other types are compared as text, without the index.
 */
function keyComparison(type: string): { cast: string | undefined; possible: (id: string) => boolean } {
  const limit = INTEGER_LIMITS[type];
  if (limit !== undefined) {
    return {
      cast: type,
      possible: (id) => CANONICAL_INTEGER.test(id) && id.length <= 20 && BigInt(id) >= -limit && BigInt(id) < limit,
    };
  }
  if (type === 'uuid') return { cast: type, possible: (id) => CANONICAL_UUID.test(id) };
  // PostgreSQL text cannot hold NUL. char(n) prints without its trailing spaces, and a cast to
  // name cuts an id at 63 bytes: such ids are never how a key prints.
  const text = (id: string): boolean => !id.includes('\0');
  const cast = TEXT_CASTS.get(type);
  if (type === 'character') return { cast, possible: (id) => text(id) && !id.endsWith(' ') };
  if (type === 'name') return { cast, possible: (id) => text(id) && Buffer.byteLength(id) <= 63 };
  if (cast !== undefined) return { cast, possible: text };
  return { cast: undefined, possible: text };
}

/** Reads rows of one table; opens the database on first use, and again after a failed open. */
export class SqlRowSource implements RowSource {
  private opened: Promise<Opened> | undefined;
  private closed = false;
  private attempts = 0;

  constructor(
    private readonly database: SqlDatabase,
    private readonly target: RowTable,
    private readonly logger: Logger,
  ) {}

  get name(): string {
    return this.database.name;
  }

  async fetchRows(ids: readonly string[]): Promise<Map<string, string>> {
    const { select, possible } = await this.open();
    const wanted = [...new Set(ids)].filter(possible);
    const rows = new Map<string, string>();
    if (wanted.length === 0) return rows;
    for (const row of await this.query(select, [wanted])) rows.set(String(row.id), String(row.json));
    return rows;
  }

  /** Runs any statement on the same database (seeding, tests). */
  async query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]> {
    const opened = this.open();
    const { connection } = await opened;
    try {
      return await connection.query(sql, params);
    } catch (error) {
      if (connection.broken?.() && this.opened === opened) {
        this.opened = undefined;
        await connection.close().catch(() => undefined);
      }
      throw error;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const opened = this.opened;
    this.opened = undefined;
    const open = await opened?.catch(() => undefined);
    if (open) {
      await open.connection.close();
      this.logger.info({ component: 'row-cache', database: this.database.name }, 'row cache database closed');
    }
  }

  private open(): Promise<Opened> {
    if (this.closed) return Promise.reject(new Error('the row cache database is closed'));
    this.opened ??= this.connect().catch((error: unknown) => {
      this.opened = undefined;
      throw error;
    });
    return this.opened;
  }

  private async connect(): Promise<Opened> {
    const { table, keyColumn } = this.target;
    const started = Date.now();
    const log = this.logger.child({ component: 'row-cache', database: this.database.name, table, keyColumn });
    // Said once: during an outage the refresher tries again and again, and reports the outage itself.
    if (this.attempts++ === 0) log.info('opening the row cache database');
    let connection: SqlConnection | undefined;
    try {
      connection = await this.database.open();
      const [found] = await connection.query('SELECT to_regclass($1)::oid AS oid', [quoteTable(table)]);
      if (found?.oid === null || found?.oid === undefined) throw new Error(`table ${table} does not exist`);
      const [column] = await connection.query(
        'SELECT format_type(atttypid, NULL) AS type FROM pg_attribute WHERE attrelid = $1 AND attname = $2 AND attnum > 0 AND NOT attisdropped',
        [found.oid, keyColumn],
      );
      if (!column) throw new Error(`table ${table} has no column ${keyColumn}`);
      const type = String(column.type);
      const { cast, possible } = keyComparison(type);
      const key = `r.${quoteName(keyColumn)}`;
      const where = cast === undefined ? `${key}::text = ANY($1::text[])` : `${key} = ANY($1::${cast}[])`;
      const select = `SELECT ${key}::text AS id, row_to_json(r.*)::text AS json FROM ${quoteTable(table)} AS r WHERE ${where}`;
      if (cast === undefined)
        log.warn({ keyType: type }, 'row cache keys of this type are compared as text, without the index');
      log.info({ keyType: type, ms: Date.now() - started }, 'row cache database open');
      return { connection, select, possible };
    } catch (error) {
      await connection?.close().catch(() => undefined);
      throw new Error(`cannot open ${this.database.name} for the row cache: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}
