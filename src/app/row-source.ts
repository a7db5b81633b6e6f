// Which database the row cache reads, chosen from the configuration.
import path from 'node:path';
import type { Logger } from '../common/logger';
import type { Config } from '../config';
import { pgliteDatabase } from '../db/pglite';
import { postgresDatabase } from '../db/postgres';
import { SqlRowSource } from '../db/row-source';

/** The configured source: PostgreSQL at DATABASE_URL, or the embedded one in DATA_DIR/pglite. */
export function createRowSource(config: Config, logger: Logger): SqlRowSource {
  const { dbTimeoutMs } = config.rowCache;
  const url = config.databaseUrl;
  if (
    url === undefined &&
    config.rowCache.enabled &&
    (config.redisUrl !== undefined || config.redisCluster !== undefined)
  ) {
    // Instances that share a Redis share the copies: each with a database of its own would
    // overwrite the others' copies with its own rows (and one directory serves one process).
    logger.warn(
      { component: 'row-cache', dataDir: config.dataDir },
      'the row cache reads the embedded PostgreSQL in DATA_DIR/pglite, but Redis is external (REDIS_URL): several instances on this Redis need DATABASE_URL, one database for all',
    );
  }
  const database =
    url === undefined
      ? pgliteDatabase(path.join(config.dataDir, 'pglite'), { timeoutMs: dbTimeoutMs, logger })
      : postgresDatabase(url, dbTimeoutMs, logger);
  return new SqlRowSource(database, { table: config.rowCache.table, keyColumn: config.rowCache.keyColumn }, logger);
}
