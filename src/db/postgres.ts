// PostgreSQL through a small `pg` pool (DATABASE_URL). Timeouts on connecting and on every
// statement make an outage fail a batch in seconds instead of stalling the refresher; the pool
// reconnects by itself once the database is back.
import { Pool } from 'pg';
import type { Logger } from '../common/logger';
import type { SqlConnection, SqlDatabase } from './sql';

/** One refresher runs one query at a time; a second connection covers a reconnect. */
const POOL_SIZE = 2;

export function postgresDatabase(url: string, timeoutMs: number, logger: Logger): SqlDatabase {
  const name = `PostgreSQL at ${describe(url)}`;
  return {
    name,
    async open(): Promise<SqlConnection> {
      const pool = new Pool({
        connectionString: url,
        max: POOL_SIZE,
        connectionTimeoutMillis: timeoutMs,
        statement_timeout: timeoutMs,
        // Also on the client's side, for a server that stops answering altogether.
        query_timeout: timeoutMs + 1000,
        idleTimeoutMillis: 30_000,
        keepAlive: true,
        application_name: 'ria-row-cache',
      });
      // An idle connection that breaks (the server restarted) is dropped and replaced by the pool;
      // without a listener it would crash the process.
      pool.on('error', (error) =>
        logger.info({ component: 'row-cache', database: name, err: error.message }, 'idle database connection lost'),
      );
      return {
        query: async (sql, params) => (await pool.query<Record<string, unknown>>(sql, params)).rows,
        close: () => pool.end(),
      };
    },
  };
}

/** host:port/database, never the credentials. */
function describe(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
    return `${host}:${parsed.port || '5432'}${parsed.pathname || '/'}`;
  } catch {
    return 'an unparsable URL';
  }
}
