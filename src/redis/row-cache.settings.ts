// Settings of the row cache: the database whose rows are cached, which table, and the refresher's
// pace and bounds.
import { z } from 'zod';
import { flag, int, parsed, type SettingDomain, type SettingsReader } from '../common/settings';
import type { RowCacheSettings } from './row-cache';

const databaseUrl = z.string().refine(
  (value) => {
    try {
      return ['postgres:', 'postgresql:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  },
  { error: 'must be a postgres:// or postgresql:// URL' },
);

// A plain SQL identifier; the code quotes it, so it is used exactly as written (case included).
const SQL_NAME = '[A-Za-z_][A-Za-z0-9_$]{0,62}';
const LETTERS = 'of letters, digits, _ and $ not starting with a digit';

const tableName = z.string().regex(new RegExp(`^${SQL_NAME}(\\.${SQL_NAME})?$`), {
  error: (issue) =>
    `must be a table name, optionally schema-qualified (schema.table), ${LETTERS}, got "${String(issue.input)}"`,
});
const columnName = z.string().regex(new RegExp(`^${SQL_NAME}$`), {
  error: (issue) => `must be a column name ${LETTERS}, got "${String(issue.input)}"`,
});

const SETTINGS = {
  DATABASE_URL: parsed({
    type: 'URL',
    bounds: '`postgres://` or `postgresql://`',
    default: undefined,
    schema: databaseUrl,
    description:
      'The database whose rows are cached. Unset: an embedded PostgreSQL (PGlite) in `DATA_DIR/pglite` with a demo `inventory` table.',
  }),
  ROW_CACHE: flag({ default: true, description: 'Run the row cache refresher in this process.' }),
  ROW_CACHE_TABLE: parsed({
    type: 'text',
    bounds: 'a table name, optionally `schema.table`: letters, digits, `_` and `$`',
    default: 'inventory',
    defaultText: '`inventory`',
    schema: tableName,
    description: 'The cached table, used exactly as written (case included).',
  }),
  ROW_CACHE_KEY: parsed({
    type: 'text',
    bounds: 'a column name: letters, digits, `_` and `$`',
    default: 'id',
    defaultText: '`id`',
    schema: columnName,
    description: "The table's key column, used exactly as written (case included).",
  }),
  ROW_CACHE_BATCH: int({ default: 100, min: 1, max: 1000, description: 'Rows read per database query.' }),
  ROW_CACHE_MAX_SLEEP_MS: int({
    default: 1000,
    min: 10,
    max: 60_000,
    description: 'Longest sleep of the refresher; rows scheduled through another process are seen within it.',
  }),
  ROW_CACHE_MAX_DELAY_SECONDS: int({
    default: 86_400,
    min: 1,
    max: 31_536_000,
    description: 'Longest `delaySeconds` of `scheduleRowCache`.',
  }),
  ROW_CACHE_MAX_ROWS: int({
    default: 10_000,
    min: 1,
    max: 10_000_000,
    description: 'Most rows scheduled per table; more get `CONFLICT`.',
  }),
  ROW_CACHE_DB_TIMEOUT_MS: int({
    default: 5000,
    min: 100,
    max: 600_000,
    description: 'Longest wait for a database connection or query, so an outage fails fast.',
  }),
} as const;

export const ROW_CACHE_SETTINGS: SettingDomain = {
  title: 'Row cache',
  summary: 'The database table whose rows are cached in Redis, and the pace of the refresher.',
  settings: SETTINGS,
};

export interface RowCacheConfig extends RowCacheSettings {
  /** Whether this process runs the refresher daemon (ROW_CACHE). */
  enabled: boolean;
  /** The table's key column. */
  keyColumn: string;
  /** Rows refreshed per database query. */
  batchSize: number;
  /** Longest sleep of the refresher between two looks at the schedule. */
  maxSleepMs: number;
  /** Longest delaySeconds of scheduleRowCache. */
  maxDelaySeconds: number;
  /** Longest wait for a database connection or query, so an outage fails fast. */
  dbTimeoutMs: number;
}

export function readRowCache(reader: SettingsReader): { databaseUrl: string | undefined; rowCache: RowCacheConfig } {
  const values = reader.read(SETTINGS);
  return {
    databaseUrl: values.DATABASE_URL,
    rowCache: {
      enabled: values.ROW_CACHE,
      table: values.ROW_CACHE_TABLE,
      keyColumn: values.ROW_CACHE_KEY,
      batchSize: values.ROW_CACHE_BATCH,
      maxSleepMs: values.ROW_CACHE_MAX_SLEEP_MS,
      maxDelaySeconds: values.ROW_CACHE_MAX_DELAY_SECONDS,
      maxRows: values.ROW_CACHE_MAX_ROWS,
      dbTimeoutMs: values.ROW_CACHE_DB_TIMEOUT_MS,
    },
  };
}
