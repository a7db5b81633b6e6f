// All configuration comes from environment variables, read and validated here once at start.
// A bad value stops start-up with a message naming the variable.
import path from 'node:path';
import type { ClusterTarget } from './redis/client/connection';
import type { ReplicaWait } from './redis/client/scripts';
import { CHAT_DEFAULTS, type ChatSettings, type Retention, type RetentionMode } from './redis/chat';
import type { CounterSettings } from './redis/counter';
import { MARKET_STRATEGIES, type MarketSettings, type MarketStrategyName } from './redis/market/repository';
import type { MarketStrategySettings } from './redis/market/strategies';
import type { RowCacheSettings } from './redis/row-cache';
import type { LocationSettings } from './redis/location/repository';
import type { TaskSettings } from './redis/task';
import type { DocumentLimits } from './security/document-limits';
import { LOG_FORMATS, processLogger, type LogFormat, type LogLevel } from './common/logger';
import type { RateLimitSettings } from './security/rate-limit';
import type { TrustedDocumentsMode, TrustedDocumentsSettings } from './security/trusted-documents';
import { NAME_RULE, validName } from './common/validation';
import { MARKET_SALES_QUEUE } from './redis/keys';

type NodeEnv = 'development' | 'test' | 'production';

export interface CounterConfig extends CounterSettings {
  /** Whether this process runs the cleanup worker. */
  cleanup: boolean;
  /** Largest absolute value of one update's `count`. */
  maxIncrement: number;
}

export interface MessagingConfig extends ChatSettings {
  /** The most a chat's own retention may keep. */
  maxKeepMessages: number;
  maxKeepDays: number;
  /** Longest chat or direct message, in Unicode code points. */
  maxMessageLength: number;
  /** Most messages one fetch of pending chat messages returns, over all chats. */
  maxFetch: number;
  /** Most entries one page of a chat's history holds. */
  maxPage: number;
  /** Most messages waiting in one mailbox; a send to a full mailbox is refused, never dropped. */
  maxMailboxMessages: number;
}

export interface LeaseConfig {
  /** Largest `limit` of a semaphore. */
  maxLimit: number;
  /** Longest time a lock or semaphore slot is held before it must be refreshed, in ms. */
  maxTimeoutMs: number;
  /** Longest time one acquire may wait for a slot, in ms. */
  maxWaitMs: number;
  /** Most callers queued for one lock or semaphore at once. */
  maxWaiters: number;
}

export interface AutocompleteConfig {
  /** Entries kept in a user's recent-contacts list (the book's 100). */
  maxContacts: number;
  /** Largest `limit` of a guild prefix search. */
  maxGuildSearch: number;
  /** Most members one guild may have. */
  maxGuildMembers: number;
  /** Most guilds one user may belong to. */
  maxGuildsPerUser: number;
}

export interface TaskConfig extends TaskSettings {
  /** Largest `args` of a task, and largest result, as JSON in UTF-8 bytes. */
  maxArgsBytes: number;
  /** Longest `delayMs` of enqueueTask and rescheduleTask. */
  maxDelayMs: number;
  /** A taken task whose worker stops answering for this long goes back to waiting. */
  visibilityMs: number;
  /** Longest one run of a handler may take before it is stopped and counted as failed. */
  runTimeoutMs: number;
  /** Most tasks one enqueueTasks call may hold (the request's size is bounded by BODY_LIMIT_BYTES too). */
  maxBatch: number;
  /** Most repeating-task schedules one queue may hold. */
  maxSchedules: number;
}

export interface WorkerConfig {
  /** Queues this process works on (WORKER_QUEUES); empty: none. */
  queues: string[];
  /** Tasks run at once per queue. */
  concurrency: number;
  /** Module that exports the handlers by task name (TASK_HANDLERS). */
  handlersModule: string | undefined;
  /** Whether the API process runs workers too (TASK_WORKER=on). */
  inApi: boolean;
}

/** Where GET /metrics is served (README, Operations). */
interface MetricsConfig {
  /** METRICS: on the main port for service callers, on a port of its own without auth, or not at all. */
  mode: MetricsMode;
  /** METRICS_PORT and METRICS_HOST: the listener of mode `port` (0: any free port). */
  port: number;
  host: string;
  /** Queues whose depth and lag each scrape reads (METRICS_QUEUES; default: WORKER_QUEUES and the market's sales queue). */
  queues: string[];
}

type MetricsMode = 'service' | 'port' | 'off';

export interface MarketConfig extends MarketSettings, Omit<MarketStrategySettings, 'taskMaxAttempts'> {
  /** Largest price of a listing. */
  maxPrice: number;
  /** Largest `first` of market and inventory pages. */
  maxPage: number;
}

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

export interface LocationConfig extends LocationSettings {
  /** MaxMind DB files for IP lookups (LOCATION_DB); empty: DB-IP Lite, installed with the product. */
  databases: string[];
  /** Whether this process counts log chunks (LOCATION_WORKER). */
  aggregate: boolean;
  /** LOCATION_WORKER was set, not left to its default: a worker process without queues then only counts. */
  aggregateAsked: boolean;
  /** Bytes of log lines per chunk (cut at a line end). */
  chunkBytes: number;
  /** A chunk taken and not done for this long is claimed by another aggregator. */
  claimAfterMs: number;
  /** Most lines in one appendLocationLines call (by default as many typical lines as one request holds on either transport). */
  maxAppendLines: number;
  /** Most days one query covers. */
  maxRangeDays: number;
  /** How long an upload waits for room in Redis (LOCATION_MAX_HELD_BYTES) before it gives up. */
  maxWaitForRoomMs: number;
}

interface SecurityConfig extends DocumentLimits {
  /** Whether "Did you mean ...?" suggestions stay in validation errors (off in production). */
  fieldSuggestions: boolean;
  /** Browser origins allowed besides the server's own; `*` for any. */
  allowedOrigins: string[];
  /** Largest WebSocket frame. */
  wsMaxPayloadBytes: number;
  /** Most operations (subscriptions included) running at once on one WebSocket. */
  wsMaxOperations: number;
  /** How long a WebSocket may wait before sending connection_init. */
  wsInitTimeoutMs: number;
  /** Most WebSockets open at once per signed-in user (service callers exempt) and per address. */
  wsMaxSocketsPerUser: number;
  wsMaxSocketsPerAddress: number;
  rateLimit: RateLimitSettings;
  /** Registered documents: by hash for anyone, and (mode require) the only ones user callers may run. */
  trustedDocuments: TrustedDocumentsSettings;
}

export interface Config {
  nodeEnv: NodeEnv;
  isProduction: boolean;
  host: string;
  port: number;
  /** Unset (and no cluster): an embedded redis-server is started with its data in dataDir. */
  redisUrl: string | undefined;
  /** REDIS_CLUSTER_NODES: a Redis Cluster instead of one Redis. */
  redisCluster: ClusterTarget | undefined;
  /** REDIS_WAIT_REPLICAS / REDIS_WAIT_TIMEOUT_MS: writes acknowledged once replicas have them (0: off). */
  redisWait: ReplicaWait;
  dataDir: string;
  /** Unset only outside production: a development secret is generated and kept in dataDir. */
  jwtSecret: string | undefined;
  jwtIssuer: string | undefined;
  jwtAudience: string | undefined;
  logLevel: LogLevel;
  /** LOG_FORMAT: JSON lines, readable lines, or (auto) readable only outside production on a terminal. */
  logFormat: LogFormat;
  introspection: boolean;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  counters: CounterConfig;
  messaging: MessagingConfig;
  leases: LeaseConfig;
  autocomplete: AutocompleteConfig;
  tasks: TaskConfig;
  worker: WorkerConfig;
  market: MarketConfig;
  security: SecurityConfig;
  /** Unset: the row cache reads an embedded PostgreSQL (PGlite) with its data in dataDir. */
  databaseUrl: string | undefined;
  /** The reference web app at /app: off with WEB_APP=off; WEB_APP_DIR, where its build is. */
  webApp: { enabled: boolean; dir: string | undefined };
  rowCache: RowCacheConfig;
  location: LocationConfig;
  metrics: MetricsConfig;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_PRECISIONS = [1, 5, 60, 300, 3600, 18000, 86400];
const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const MIN_SECRET_LENGTH = 32;

type Env = Record<string, string | undefined>;

/** Collects every problem so one start-up attempt reports all of them. */
class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
      return fallback;
    }
    return Number(value);
  }

  bool(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['1', 'true', 'on', 'yes'].includes(value)) return true;
    if (['0', 'false', 'off', 'no'].includes(value)) return false;
    this.problems.push(`${name} must be true or false (or on/off, 1/0), got "${value}"`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(value)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
      return fallback;
    }
    return value as T;
  }
}

/**
 * What one log line takes in an appendLocationLines request (its JSON text, quotes and comma): the
 * generator's lines average 48 bytes and reach 73 with an IPv6 address. Lines longer than this fit
 * fewer to a request.
 */
const APPEND_LINE_BYTES = 64;
/** The rest of that request: the document (or its id), the dataset and upload names, the flags. */
const APPEND_REQUEST_BYTES = 2048;

/**
 * LOCATION_MAX_APPEND_LINES: as many typical lines as one request holds, unless set. A request is
 * bounded by BODY_LIMIT_BYTES over HTTP and by WS_MAX_PAYLOAD_BYTES over WebSocket, where a larger
 * frame closes the whole socket (1009) rather than refusing the one operation, so the smaller of the
 * two counts. A setting whose full batch either would refuse is refused here, so the documented
 * maximum can always be sent on both transports.
 */
function readMaxAppendLines(reader: Reader, bodyLimitBytes: number, wsMaxPayloadBytes: number): number {
  const requestBytes = Math.min(bodyLimitBytes, wsMaxPayloadBytes);
  const fits = Math.max(1, Math.floor((requestBytes - APPEND_REQUEST_BYTES) / APPEND_LINE_BYTES));
  const lines = reader.int('LOCATION_MAX_APPEND_LINES', fits, 1, 1_000_000);
  if (reader.raw('LOCATION_MAX_APPEND_LINES') !== undefined && lines > fits) {
    const needed = lines * APPEND_LINE_BYTES + APPEND_REQUEST_BYTES;
    // WS_MAX_PAYLOAD_BYTES follows BODY_LIMIT_BYTES unless set, so only a set one needs naming.
    const limits = [{ name: 'BODY_LIMIT_BYTES', bytes: bodyLimitBytes }];
    if (reader.raw('WS_MAX_PAYLOAD_BYTES') !== undefined) {
      limits.push({ name: 'WS_MAX_PAYLOAD_BYTES', bytes: wsMaxPayloadBytes });
    }
    const short = limits.filter((limit) => limit.bytes < needed);
    reader.problems.push(
      `LOCATION_MAX_APPEND_LINES (${lines}) does not fit ` +
        `${short.map((limit) => `${limit.name} (${limit.bytes})`).join(' and ')}: ${lines} lines of ` +
        `${APPEND_LINE_BYTES} bytes need a request of ${needed} bytes; ` +
        `set LOCATION_MAX_APPEND_LINES to at most ${fits} or ` +
        `${short.map((limit) => limit.name).join(' and ')} to at least ${needed} (larger files go to POST /logs)`,
    );
  }
  return lines;
}

/** The retention of chats that do not choose one, and the most one may choose. */
function readChatRetention(reader: Reader): { retention: Retention; maxKeepMessages: number; maxKeepDays: number } {
  const fallback = CHAT_DEFAULTS.retention;
  const maxKeepMessages = reader.int('CHAT_MAX_KEEP_MESSAGES', 100_000, 1, 10_000_000);
  const maxKeepDays = reader.int('CHAT_MAX_KEEP_DAYS', 3650, 1, 36_500);
  // The defaults give way to smaller maxima.
  const keepMessages = reader.int(
    'CHAT_KEEP_MESSAGES',
    Math.min(fallback.keepMessages, maxKeepMessages),
    1,
    maxKeepMessages,
  );
  const keepDays = reader.int('CHAT_KEEP_DAYS', Math.min(fallback.keepMs / 86_400_000, maxKeepDays), 1, maxKeepDays);
  const mode = reader.oneOf<RetentionMode>('CHAT_RETENTION_MODE', ['history', 'seen'], fallback.mode);
  return { retention: { mode, keepMessages, keepMs: keepDays * 86_400_000 }, maxKeepMessages, maxKeepDays };
}

function readPrecisions(reader: Reader): number[] {
  const name = 'COUNTER_PRECISIONS';
  const value = reader.raw(name);
  if (value === undefined) return DEFAULT_PRECISIONS;
  const parts = value.split(',').map((part) => part.trim());
  const numbers = parts.map(Number);
  const valid =
    parts.length <= 16 &&
    parts.every((part) => /^\d+$/.test(part)) &&
    numbers.every((n) => n >= 1 && n <= 31_536_000) &&
    new Set(numbers).size === numbers.length;
  if (!valid) {
    reader.problems.push(
      `${name} must be a comma-separated list of at most 16 distinct whole numbers of seconds from 1 to 31536000, got "${value}"`,
    );
    return DEFAULT_PRECISIONS;
  }
  return [...numbers].sort((a, b) => a - b);
}

/** COUNTER_RETENTION: `precision:samples` pairs that replace COUNTER_SAMPLES at those precisions. */
function readRetention(reader: Reader, precisions: number[]): Record<number, number> {
  const name = 'COUNTER_RETENTION';
  const value = reader.raw(name);
  if (value === undefined) return {};
  const pairs = value.split(',').map((part) => part.trim().split(':'));
  const valid =
    pairs.every((pair) => pair.length === 2 && pair.every((part) => /^\d+$/.test(part.trim()))) &&
    pairs.every(([precision, samples]) => precisions.includes(Number(precision)) && inRange(Number(samples))) &&
    new Set(pairs.map(([precision]) => Number(precision))).size === pairs.length;
  if (!valid) {
    reader.problems.push(
      `${name} must be a comma-separated list of precision:samples pairs, each precision once and one of COUNTER_PRECISIONS (${precisions.join(',')}), samples from 1 to 100000, got "${value}"`,
    );
    return {};
  }
  return Object.fromEntries(pairs.map(([precision, samples]) => [Number(precision), Number(samples)]));
}

const inRange = (samples: number): boolean => samples >= 1 && samples <= 100_000;

function readQueues(reader: Reader, name = 'WORKER_QUEUES'): string[] | undefined {
  const value = reader.raw(name);
  if (value === undefined) return undefined;
  const queues = [...new Set(value.split(',').map((part) => part.trim().normalize('NFC')))];
  if (queues.length > 64 || !queues.every((queue) => /^[\p{L}\p{N}\p{M}_\-./@]{1,128}$/u.test(queue))) {
    reader.problems.push(`${name} must be a comma-separated list of at most 64 queue names, got "${value}"`);
    return [];
  }
  return queues;
}

/**
 * METRICS, METRICS_PORT, METRICS_HOST, METRICS_QUEUES. METRICS_PORT alone means `port`; with
 * another mode it is a mistake worth stopping for (a scraper would find nothing there).
 */
function readMetrics(reader: Reader, workerQueues: string[], saleTask: string | undefined): MetricsConfig {
  const portSet = reader.raw('METRICS_PORT') !== undefined;
  const mode = reader.oneOf<MetricsMode>('METRICS', ['service', 'port', 'off'], portSet ? 'port' : 'service');
  const port = reader.int('METRICS_PORT', 0, 0, 65535);
  if (mode === 'port' && !portSet)
    reader.problems.push('METRICS=port needs METRICS_PORT (the port to serve /metrics on)');
  if (mode !== 'port' && portSet) reader.problems.push(`METRICS_PORT is only for METRICS=port, not METRICS=${mode}`);
  const fallback = [...workerQueues, ...(saleTask === undefined ? [] : [MARKET_SALES_QUEUE])];
  return {
    mode,
    port,
    host: reader.raw('METRICS_HOST') ?? '127.0.0.1',
    queues: readQueues(reader, 'METRICS_QUEUES') ?? [...new Set(fallback)],
  };
}

/** MARKET_SALE_TASK: a task name, as enqueueTask accepts them; unset for no task. */
function readSaleTask(reader: Reader): string | undefined {
  const value = reader.raw('MARKET_SALE_TASK')?.normalize('NFC');
  if (value === undefined) return undefined;
  try {
    return validName(value, 'MARKET_SALE_TASK');
  } catch {
    reader.problems.push(`MARKET_SALE_TASK must be a task name (${NAME_RULE}), got "${value}"`);
    return undefined;
  }
}

function readOrigins(reader: Reader): string[] {
  const value = reader.raw('ALLOWED_ORIGINS');
  if (value === undefined) return [];
  const origins = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const valid = origins.every((origin) => {
    if (origin === '*') return true;
    try {
      const url = new URL(origin);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin;
    } catch {
      return false;
    }
  });
  if (!valid) {
    reader.problems.push(
      `ALLOWED_ORIGINS must be a comma-separated list of origins such as https://app.example.com (no path or trailing slash), or *, got "${value}"`,
    );
    return [];
  }
  return origins;
}

function readRedisUrl(reader: Reader): string | undefined {
  const value = reader.raw('REDIS_URL');
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === 'redis:' || url.protocol === 'rediss:') return value;
  } catch {
    // reported below
  }
  reader.problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  return undefined;
}

/**
 * REDIS_CLUSTER_NODES: some nodes of a Redis Cluster (the client discovers the rest), comma
 * separated, each `host:port` or a `redis://` / `rediss://` URL, whose user and password (the
 * same on every node) are used for all.
 */
function readRedisCluster(reader: Reader): ClusterTarget | undefined {
  const value = reader.raw('REDIS_CLUSTER_NODES');
  if (value === undefined) return undefined;
  const target: ClusterTarget = { nodes: [] };
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    let url: URL;
    try {
      url = new URL(/^[a-z]+:\/\//i.test(entry) ? entry : `redis://${entry}`);
    } catch {
      url = new URL('invalid://');
    }
    const port = Number(url.port || 6379);
    if (
      (url.protocol !== 'redis:' && url.protocol !== 'rediss:') ||
      !url.hostname ||
      !Number.isInteger(port) ||
      port < 1 ||
      port > 65535
    ) {
      reader.problems.push(
        `REDIS_CLUSTER_NODES must list host:port or redis:// URLs separated by commas, got "${entry}"`,
      );
      return undefined;
    }
    target.nodes.push({ host: url.hostname.replace(/^\[|\]$/g, ''), port });
    if (url.password) target.password = decodeURIComponent(url.password);
    if (url.username) target.username = decodeURIComponent(url.username);
    if (url.protocol === 'rediss:') target.tls = true;
  }
  if (target.nodes.length === 0) {
    reader.problems.push('REDIS_CLUSTER_NODES must name at least one node');
    return undefined;
  }
  if (reader.raw('REDIS_URL') !== undefined) {
    reader.problems.push('set REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a cluster), not both');
    return undefined;
  }
  return target;
}

function readDatabaseUrl(reader: Reader): string | undefined {
  const value = reader.raw('DATABASE_URL');
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === 'postgres:' || url.protocol === 'postgresql:') return value;
  } catch {
    // reported below
  }
  reader.problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  return undefined;
}

// A plain SQL identifier; the code quotes it, so it is used exactly as written (case included).
const SQL_NAME = '[A-Za-z_][A-Za-z0-9_$]{0,62}';

function readSqlName(reader: Reader, name: string, fallback: string, qualified: boolean): string {
  const value = reader.raw(name);
  if (value === undefined) return fallback;
  const pattern = new RegExp(qualified ? `^${SQL_NAME}(\\.${SQL_NAME})?$` : `^${SQL_NAME}$`);
  if (!pattern.test(value)) {
    const shape = qualified ? 'a table name, optionally schema-qualified (schema.table),' : 'a column name';
    reader.problems.push(
      `${name} must be ${shape} of letters, digits, _ and $ not starting with a digit, got "${value}"`,
    );
    return fallback;
  }
  return value;
}

export function loadConfig(env: Env = process.env): Config {
  const reader = new Reader(env);
  const nodeEnv = reader.oneOf<NodeEnv>('NODE_ENV', ['development', 'test', 'production'], 'development');
  const isProduction = nodeEnv === 'production';

  const jwtSecret = reader.raw('JWT_SECRET');
  if (jwtSecret === undefined && isProduction) {
    reader.problems.push('JWT_SECRET must be set in production (at least 32 characters, random)');
  } else if (jwtSecret !== undefined && jwtSecret.length < MIN_SECRET_LENGTH) {
    reader.problems.push(`JWT_SECRET must be at least ${MIN_SECRET_LENGTH} characters long`);
  }

  const bodyLimitBytes = reader.int('BODY_LIMIT_BYTES', 100 * 1024, 1024, 10 * 1024 * 1024);
  // As large as an HTTP body unless set: what one transport accepts, the other must too.
  const wsMaxPayloadBytes = reader.int('WS_MAX_PAYLOAD_BYTES', bodyLimitBytes, 1024, 10 * 1024 * 1024);
  const precisions = readPrecisions(reader);
  const base: Omit<Config, 'metrics'> = {
    nodeEnv,
    isProduction,
    host: reader.raw('HOST') ?? (isProduction ? '0.0.0.0' : '127.0.0.1'),
    port: reader.int('PORT', 4000, 0, 65535),
    redisUrl: readRedisUrl(reader),
    redisCluster: readRedisCluster(reader),
    redisWait: {
      replicas: reader.int('REDIS_WAIT_REPLICAS', 0, 0, 10),
      // Below the 5 s command timeout, so a missing replica fails the request, not the connection.
      timeoutMs: reader.int('REDIS_WAIT_TIMEOUT_MS', 500, 10, 4000),
    },
    dataDir: path.resolve(reader.raw('DATA_DIR') ?? '.data'),
    jwtSecret,
    jwtIssuer: reader.raw('JWT_ISSUER'),
    jwtAudience: reader.raw('JWT_AUDIENCE'),
    logLevel: reader.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: reader.oneOf('LOG_FORMAT', LOG_FORMATS, 'auto'),
    introspection: reader.bool('INTROSPECTION', !isProduction),
    webApp: { enabled: reader.bool('WEB_APP', true), dir: reader.raw('WEB_APP_DIR') },
    bodyLimitBytes,
    shutdownTimeoutMs: reader.int('SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    counters: {
      precisions,
      samples: reader.int('COUNTER_SAMPLES', 120, 1, 100_000),
      retention: readRetention(reader, precisions),
      cleanup: reader.bool('COUNTER_CLEANUP', true),
      maxIncrement: reader.int('COUNTER_MAX_INCREMENT', 1_000_000, 1, 2_147_483_647),
      maxFutureSeconds: reader.int('COUNTER_MAX_FUTURE_SECONDS', 60, 0, 86_400),
    },
    messaging: {
      maxMessageLength: reader.int('MESSAGE_MAX_LENGTH', 4000, 1, 100_000),
      maxChatMembers: reader.int('CHAT_MAX_MEMBERS', 1000, 2, 100_000),
      maxChatsPerUser: reader.int('CHAT_MAX_PER_USER', 1000, 1, 100_000),
      dedupeSeconds: reader.int('CHAT_DEDUPE_SECONDS', 86_400, 1, 30 * 86_400),
      maxFetch: reader.int('MESSAGE_MAX_FETCH', 1000, 1, 10_000),
      maxPage: reader.int('MESSAGE_MAX_PAGE', 100, 1, 1000),
      maxMailboxMessages: reader.int('MAILBOX_MAX_MESSAGES', 10_000, 1, 10_000_000),
      ...readChatRetention(reader),
      deviceTtlSeconds: reader.int('CHAT_DEVICE_TTL_SECONDS', CHAT_DEFAULTS.deviceTtlSeconds, 1, 365 * 86_400),
      maxDevices: reader.int('CHAT_MAX_DEVICES', CHAT_DEFAULTS.maxDevices, 1, 100),
    },
    leases: {
      maxLimit: reader.int('SEMAPHORE_MAX_LIMIT', 1000, 1, 5000),
      // At least the 10 s defaults of lockTimeoutMs/timeoutMs/acquireTimeoutMs, so they stay valid.
      maxTimeoutMs: reader.int('LEASE_MAX_TIMEOUT_MS', 3_600_000, 10_000, 86_400_000),
      maxWaitMs: reader.int('LEASE_MAX_WAIT_MS', 60_000, 10_000, 600_000),
      maxWaiters: reader.int('LEASE_MAX_WAITERS', 1000, 1, 100_000),
    },
    // Limits start at 10, the default `limit` of recentContacts and guildMembers, so it stays valid.
    autocomplete: {
      maxContacts: reader.int('CONTACTS_MAX', 100, 10, 1000),
      maxGuildSearch: reader.int('GUILD_SEARCH_MAX_LIMIT', 50, 10, 1000),
      maxGuildMembers: reader.int('GUILD_MAX_MEMBERS', 10_000_000, 1, 1_000_000_000),
      maxGuildsPerUser: reader.int('GUILD_MAX_PER_USER', 1000, 1, 100_000),
    },
    tasks: {
      maxArgsBytes: reader.int('TASK_MAX_ARGS_BYTES', 64 * 1024, 64, 1024 * 1024),
      maxDelayMs: reader.int('TASK_MAX_DELAY_MS', 7 * 86_400_000, 1000, 2_147_483_647),
      maxAttempts: reader.int('TASK_MAX_ATTEMPTS', 5, 1, 100),
      backoffMs: reader.int('TASK_BACKOFF_MS', 1000, 0, 3_600_000),
      maxBackoffMs: reader.int('TASK_MAX_BACKOFF_MS', 600_000, 0, 86_400_000),
      visibilityMs: reader.int('TASK_VISIBILITY_TIMEOUT_MS', 30_000, 1000, 3_600_000),
      runTimeoutMs: reader.int('TASK_RUN_TIMEOUT_MS', 300_000, 100, 86_400_000),
      history: reader.int('TASK_HISTORY', 10_000, 1, 1_000_000),
      maxTasksPerQueue: reader.int('TASK_MAX_PER_QUEUE', 1_000_000, 10, 100_000_000),
      maxBatch: reader.int('TASK_MAX_BATCH', 1000, 1, 10_000),
      maxSchedules: reader.int('TASK_MAX_SCHEDULES', 1000, 1, 100_000),
    },
    worker: {
      queues: readQueues(reader) ?? [],
      concurrency: reader.int('WORKER_CONCURRENCY', 4, 1, 256),
      handlersModule: reader.raw('TASK_HANDLERS'),
      inApi: reader.bool('TASK_WORKER', false),
    },
    market: {
      strategy: reader.oneOf<MarketStrategyName>('MARKET_STRATEGY', MARKET_STRATEGIES, 'SCRIPT'),
      maxPrice: reader.int('MARKET_MAX_PRICE', 1_000_000_000, 1, 2_147_483_647),
      // Balances (capped for grants and sales alike) stay below 2^53: exact integers in every client.
      maxFunds: reader.int('MARKET_MAX_FUNDS', 1_000_000_000_000, 1, 1_000_000_000_000_000),
      maxInventory: reader.int('MARKET_MAX_INVENTORY', 10_000, 1, 10_000_000),
      maxPage: reader.int('MARKET_PAGE_MAX', 100, 20, 1000),
      watchConnections: reader.int('MARKET_WATCH_CONNECTIONS', 16, 1, 1000),
      contentionTimeoutMs: reader.int('MARKET_CONTENTION_TIMEOUT_MS', 10_000, 100, 600_000),
      lockTtlMs: reader.int('MARKET_LOCK_TTL_MS', 10_000, 100, 600_000),
      salesKeep: reader.int('MARKET_SALES_KEEP', 1000, 1, 1_000_000),
      saleTask: readSaleTask(reader),
    },
    security: {
      maxTokens: reader.int('GRAPHQL_MAX_TOKENS', 1000, 50, 100_000),
      maxDepth: reader.int('GRAPHQL_MAX_DEPTH', 8, 2, 100),
      maxAliases: reader.int('GRAPHQL_MAX_ALIASES', 15, 0, 1000),
      maxDirectives: reader.int('GRAPHQL_MAX_DIRECTIVES', 10, 0, 1000),
      // Above the cost of the largest page a client may ask for (1000 rows of a few fields).
      maxCost: reader.int('GRAPHQL_MAX_COST', 10_000, 10, 1_000_000),
      fieldSuggestions: reader.bool('FIELD_SUGGESTIONS', !isProduction),
      allowedOrigins: readOrigins(reader),
      wsMaxPayloadBytes,
      wsMaxOperations: reader.int('WS_MAX_OPERATIONS', 50, 1, 10_000),
      wsInitTimeoutMs: reader.int('WS_INIT_TIMEOUT_MS', 5000, 100, 60_000),
      wsMaxSocketsPerUser: reader.int('WS_MAX_SOCKETS_PER_USER', 20, 1, 100_000),
      wsMaxSocketsPerAddress: reader.int('WS_MAX_SOCKETS_PER_ADDRESS', 1000, 1, 1_000_000),
      rateLimit: {
        store: reader.oneOf<'memory' | 'redis'>('RATE_LIMIT_STORE', ['memory', 'redis'], 'memory'),
        userPerMinute: reader.int('RATE_LIMIT_USER_PER_MINUTE', 600, 1, 10_000_000),
        ipPerMinute: reader.int('RATE_LIMIT_IP_PER_MINUTE', 1200, 1, 10_000_000),
      },
      trustedDocuments: {
        mode: reader.oneOf<TrustedDocumentsMode>('TRUSTED_DOCUMENTS', ['allow', 'require'], 'allow'),
        file: reader.raw('TRUSTED_DOCUMENTS_FILE'),
      },
    },
    databaseUrl: readDatabaseUrl(reader),
    rowCache: {
      enabled: reader.bool('ROW_CACHE', true),
      table: readSqlName(reader, 'ROW_CACHE_TABLE', 'inventory', true),
      keyColumn: readSqlName(reader, 'ROW_CACHE_KEY', 'id', false),
      batchSize: reader.int('ROW_CACHE_BATCH', 100, 1, 1000),
      maxSleepMs: reader.int('ROW_CACHE_MAX_SLEEP_MS', 1000, 10, 60_000),
      maxDelaySeconds: reader.int('ROW_CACHE_MAX_DELAY_SECONDS', 86_400, 1, 31_536_000),
      maxRows: reader.int('ROW_CACHE_MAX_ROWS', 10_000, 1, 10_000_000),
      dbTimeoutMs: reader.int('ROW_CACHE_DB_TIMEOUT_MS', 5000, 100, 600_000),
    },
    location: {
      databases: (reader.raw('LOCATION_DB') ?? '')
        .split(',')
        .map((file) => file.trim())
        .filter(Boolean)
        .map((file) => path.resolve(file)),
      aggregate: reader.bool('LOCATION_WORKER', !isProduction),
      aggregateAsked: reader.raw('LOCATION_WORKER') !== undefined,
      chunkBytes: reader.int('LOCATION_CHUNK_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
      // The book's bound on the bytes of files waiting in Redis, over all datasets.
      maxHeldBytes: reader.int('LOCATION_MAX_HELD_BYTES', 1024 * 1024 * 1024, 64 * 1024, 2 ** 40),
      maxUploadBytes: reader.int('LOCATION_MAX_UPLOAD_BYTES', 64 * 1024 * 1024 * 1024, 1024, 2 ** 44),
      maxDatasets: reader.int('LOCATION_MAX_DATASETS', 100, 1, 100_000),
      maxUploads: reader.int('LOCATION_MAX_UPLOADS', 10_000, 1, 10_000_000),
      maxSamples: reader.int('LOCATION_REFUSED_SAMPLES', 20, 0, 1000),
      claimAfterMs: reader.int('LOCATION_CLAIM_AFTER_MS', 60_000, 100, 3_600_000),
      maxAppendLines: readMaxAppendLines(reader, bodyLimitBytes, wsMaxPayloadBytes),
      maxRangeDays: reader.int('LOCATION_MAX_RANGE_DAYS', 366, 1, 36_600),
      // Below Node's 300 s limit on one HTTP request: the sender is told to resume instead.
      maxWaitForRoomMs: reader.int('LOCATION_MAX_WAIT_MS', 120_000, 100, 240_000),
    },
  };
  const config: Config = { ...base, metrics: readMetrics(reader, base.worker.queues, base.market.saleTask) };

  if (config.tasks.history >= config.tasks.maxTasksPerQueue) {
    // Finished tasks count against the queue's limit: a history as large would fill it for good.
    reader.problems.push('TASK_HISTORY must be lower than TASK_MAX_PER_QUEUE');
  }
  if (config.worker.inApi && (config.worker.queues.length === 0 || config.worker.handlersModule === undefined)) {
    reader.problems.push('TASK_WORKER=on needs WORKER_QUEUES and TASK_HANDLERS');
  }
  if (config.redisWait.replicas > 0 && config.redisUrl === undefined && config.redisCluster === undefined) {
    // The embedded redis-server has no replicas: every write would wait out the timeout and fail.
    reader.problems.push(
      'REDIS_WAIT_REPLICAS needs REDIS_URL or REDIS_CLUSTER_NODES (the embedded Redis has no replicas)',
    );
  }
  for (const file of config.location.databases) {
    if (!file.endsWith('.mmdb')) reader.problems.push(`LOCATION_DB must list .mmdb files, got "${file}"`);
  }
  if (reader.problems.length > 0) throw new ConfigError(reader.problems);
  return config;
}

/**
 * For entry points: the configuration, or the problems in one fatal log line (code
 * CONFIG_INVALID) and exit code 1. That line is as LOG_FORMAT asks if it can be read, else auto.
 */
export function loadConfigOrExit(env: Env = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    const reader = new Reader(env);
    const production = reader.raw('NODE_ENV') === 'production';
    const logger = processLogger('info', reader.oneOf('LOG_FORMAT', LOG_FORMATS, 'auto'), production);
    if (error instanceof ConfigError) logger.fatal({ code: 'CONFIG_INVALID' }, error.message);
    else logger.fatal({ code: 'CONFIG_INVALID', err: error }, 'configuration could not be read');
    process.exit(1);
  }
}
