// All configuration comes from environment variables, read and validated here once at start. Each
// domain declares its variables beside its code (the *.settings.ts files, zod schemas); this
// loader composes them and adds the rules between domains. A bad value stops start-up with a
// message naming the variable; docs/configuration.md is generated from the same declarations.
import { LOG_FORMATS, processLogger } from './common/logger';
import { SettingsReader, type SettingDomain } from './common/settings';
import { AUTOCOMPLETE_SETTINGS, readAutocomplete, type AutocompleteConfig } from './redis/autocomplete.settings';
import { CHAT_SETTINGS, readMessaging, type MessagingConfig } from './redis/chat.settings';
import { REDIS_SETTINGS, readRedis, type RedisConfig } from './redis/client/settings';
import { COUNTER_SETTINGS, readCounters, type CounterConfig } from './redis/counter.settings';
import { LEASE_SETTINGS, readLeases, type LeaseConfig } from './redis/leases/settings';
import { APPEND_LINES_SETTING, LOCATION_SETTINGS, readLocation, type LocationConfig } from './redis/location/settings';
import { MARKET_SETTINGS, readMarket, type MarketConfig } from './redis/market/settings';
import { ROW_CACHE_SETTINGS, readRowCache, type RowCacheConfig } from './redis/row-cache.settings';
import { TASK_SETTINGS, readTasks, type TaskConfig } from './redis/task.settings';
import {
  MIN_SECRET_LENGTH,
  SECURITY_SETTINGS,
  readSecurity,
  type SecurityConfig,
  type TokenConfig,
} from './security/settings';
import { OIDC_SETTINGS, readOidc, type OidcConfig } from './security/oidc/settings';
import { METRICS_SETTINGS, readMetrics, type MetricsConfig } from './metrics/settings';
import { SERVER_SETTINGS, readServer, type ServerConfig } from './server.settings';
import { WORKER_SETTINGS, readWorker, type WorkerConfig } from './workers/settings';
import { PUSH_SETTINGS, readPush, type PushConfig } from './push/settings';

// The consumers of each domain's configuration import it from here, as before the split.
export type {
  AutocompleteConfig,
  CounterConfig,
  LeaseConfig,
  LocationConfig,
  MarketConfig,
  MessagingConfig,
  RowCacheConfig,
  TaskConfig,
  WorkerConfig,
};
export { DEFAULT_PRECISIONS } from './redis/counter.settings';

/** Every domain's settings, in the order of the reference and of the problems a start reports. */
export const SETTING_DOMAINS: readonly SettingDomain[] = [
  SERVER_SETTINGS,
  REDIS_SETTINGS,
  SECURITY_SETTINGS,
  OIDC_SETTINGS,
  COUNTER_SETTINGS,
  CHAT_SETTINGS,
  LEASE_SETTINGS,
  AUTOCOMPLETE_SETTINGS,
  TASK_SETTINGS,
  WORKER_SETTINGS,
  PUSH_SETTINGS,
  MARKET_SETTINGS,
  ROW_CACHE_SETTINGS,
  LOCATION_SETTINGS,
  METRICS_SETTINGS,
];

export interface Config extends ServerConfig, RedisConfig, TokenConfig {
  counters: CounterConfig;
  messaging: MessagingConfig;
  leases: LeaseConfig;
  autocomplete: AutocompleteConfig;
  tasks: TaskConfig;
  worker: WorkerConfig;
  /** Push to devices with no socket open. */
  push: PushConfig;
  market: MarketConfig;
  security: SecurityConfig;
  /** Identity providers whose tokens are accepted beside (or instead of) our HS256 ones. */
  oidc: OidcConfig;
  /** Unset: the row cache reads an embedded PostgreSQL (PGlite) with its data in dataDir. */
  databaseUrl: string | undefined;
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

type Env = Record<string, string | undefined>;

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
function readMaxAppendLines(reader: SettingsReader, bodyLimitBytes: number, wsMaxPayloadBytes: number): number {
  const name = 'LOCATION_MAX_APPEND_LINES';
  const requestBytes = Math.min(bodyLimitBytes, wsMaxPayloadBytes);
  const fits = Math.max(1, Math.floor((requestBytes - APPEND_REQUEST_BYTES) / APPEND_LINE_BYTES));
  const lines = reader.one(name, APPEND_LINES_SETTING) ?? fits;
  if (reader.isSet(name) && lines > fits) {
    const needed = lines * APPEND_LINE_BYTES + APPEND_REQUEST_BYTES;
    // WS_MAX_PAYLOAD_BYTES follows BODY_LIMIT_BYTES unless set, so only a set one needs naming.
    const limits = [{ name: 'BODY_LIMIT_BYTES', bytes: bodyLimitBytes }];
    if (reader.isSet('WS_MAX_PAYLOAD_BYTES')) limits.push({ name: 'WS_MAX_PAYLOAD_BYTES', bytes: wsMaxPayloadBytes });
    const short = limits.filter((limit) => limit.bytes < needed);
    reader.problem(
      name,
      `${name} (${lines}) does not fit ` +
        `${short.map((limit) => `${limit.name} (${limit.bytes})`).join(' and ')}: ${lines} lines of ` +
        `${APPEND_LINE_BYTES} bytes need a request of ${needed} bytes; ` +
        `set ${name} to at most ${fits} or ` +
        `${short.map((limit) => limit.name).join(' and ')} to at least ${needed} (larger files go to POST /logs)`,
    );
  }
  return lines;
}

/**
 * Production must have a way to sign in: a secret of its own, or identity providers (then HS256
 * tokens are refused). A secret set anywhere must be long enough to be one.
 */
function checkJwtSecret(reader: SettingsReader, secret: string | undefined, isProduction: boolean, oidc: OidcConfig) {
  if (secret === undefined && isProduction && oidc.providers.length === 0) {
    reader.problem(
      'JWT_SECRET',
      `JWT_SECRET must be set in production (at least ${MIN_SECRET_LENGTH} characters, random), unless OIDC_PROVIDERS is set`,
    );
  } else if (secret !== undefined && secret.length < MIN_SECRET_LENGTH) {
    reader.problem('JWT_SECRET', `JWT_SECRET must be at least ${MIN_SECRET_LENGTH} characters long`);
  }
}

export function loadConfig(env: Env = process.env): Config {
  const reader = new SettingsReader(env, SETTING_DOMAINS);
  const server = readServer(reader);
  const { security, ...tokens } = readSecurity(reader, server);
  const oidc = readOidc(reader);
  checkJwtSecret(reader, tokens.jwtSecret, server.isProduction, oidc);
  const worker = readWorker(reader);
  const market = readMarket(reader);
  const config: Config = {
    ...server,
    ...readRedis(reader),
    ...tokens,
    counters: readCounters(reader),
    messaging: readMessaging(reader),
    leases: readLeases(reader),
    autocomplete: readAutocomplete(reader),
    tasks: readTasks(reader),
    worker,
    push: readPush(reader, server.isProduction),
    market,
    security,
    oidc,
    ...readRowCache(reader),
    location: {
      ...readLocation(reader, server.isProduction),
      maxAppendLines: readMaxAppendLines(reader, server.bodyLimitBytes, security.wsMaxPayloadBytes),
    },
    metrics: readMetrics(reader, worker.queues, market.saleTask),
  };
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
    const reader = new SettingsReader(env);
    const production = reader.raw('NODE_ENV') === 'production';
    const format = LOG_FORMATS.find((known) => known === reader.raw('LOG_FORMAT')) ?? 'auto';
    const logger = processLogger('info', format, production);
    if (error instanceof ConfigError) logger.fatal({ code: 'CONFIG_INVALID' }, error.message);
    else logger.fatal({ code: 'CONFIG_INVALID', err: error }, 'configuration could not be read');
    process.exit(1);
  }
}
