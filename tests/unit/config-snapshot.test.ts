// The settings refactor (issue 35) must not move a value: loadConfig's output for no variables, for
// production, and for every variable set, as the hand-written loader gave it before the refactor
// (tests/unit/config-snapshot.json, written from that loader; rewritten with
// WRITE_CONFIG_SNAPSHOT=1 only when a setting is added, so its diff shows nothing but the new one).
import fs from 'node:fs';
import path from 'node:path';
import { SETTING_DOMAINS, loadConfig } from '../../src/config';

const SNAPSHOT = path.join(__dirname, 'config-snapshot.json');

/** Every variable set to a valid value other than its default. */
const EVERY_VARIABLE: Record<string, string> = {
  NODE_ENV: 'test',
  HOST: '10.1.2.3',
  PORT: '4100',
  REDIS_CLUSTER_NODES: 'rediss://app:p%40ss@redis-a:6380,redis-b',
  REDIS_WAIT_REPLICAS: '2',
  REDIS_WAIT_TIMEOUT_MS: '250',
  DATA_DIR: '/var/lib/app',
  JWT_SECRET: 'k'.repeat(40),
  JWT_ISSUER: 'https://issuer.example',
  JWT_AUDIENCE: 'api',
  OIDC_PROVIDERS: JSON.stringify([
    { issuer: 'https://sso.example/realms/a', audience: 'api', rolesClaim: 'realm_access.roles' },
  ]),
  OIDC_WEB_APP: JSON.stringify({ issuer: 'https://sso.example/realms/a', clientId: 'web' }),
  OIDC_CLOCK_TOLERANCE_S: '10',
  OIDC_KEYS_MAX_AGE_S: '300',
  OIDC_KEYS_COOLDOWN_S: '5',
  OIDC_FETCH_TIMEOUT_MS: '2000',
  PUSH_DELAY_MS: '1500',
  PUSH_MAX_AGE_SECONDS: '3600',
  PUSH_RETRY_MS: '2000',
  PUSH_TIMEOUT_MS: '4000',
  PUSH_PRESENCE_TTL_MS: '45000',
  PUSH_CONCURRENCY: '8',
  PUSH_WORKER: 'off',
  PUSH_VAPID_PUBLIC_KEY: Buffer.alloc(65, 4).toString('base64url'),
  PUSH_VAPID_PRIVATE_KEY: Buffer.alloc(32, 7).toString('base64url'),
  PUSH_VAPID_SUBJECT: 'mailto:ops@example.com',
  PUSH_ENDPOINT_HOSTS: 'fcm.googleapis.com, push.services.mozilla.com',
  PUSH_ALLOW_PRIVATE_ENDPOINTS: 'off',
  PUSH_APNS_KEY_FILE: '/etc/app/AuthKey_ABC123DEFG.p8',
  PUSH_APNS_KEY_ID: 'ABC123DEFG',
  PUSH_APNS_TEAM_ID: 'TEAM123456',
  PUSH_APNS_TOPIC: 'com.example.chat',
  PUSH_APNS_URL: 'https://apns.example:8443/',
  PUSH_APNS_SANDBOX_URL: 'https://apns-sandbox.example',
  PUSH_APNS_CA_FILE: '/etc/app/apns-ca.pem',
  PUSH_FCM_CREDENTIALS_FILE: '/etc/app/fcm.json',
  PUSH_FCM_URL: 'https://fcm.example',
  PUSH_FCM_TOKEN_URL: 'https://oauth.example/token',
  LOG_LEVEL: 'debug',
  LOG_FORMAT: 'json',
  INTROSPECTION: 'off',
  BODY_LIMIT_BYTES: '1048576',
  SHUTDOWN_TIMEOUT_MS: '2000',
  GRAPHQL_MAX_TOKENS: '900',
  GRAPHQL_MAX_DEPTH: '7',
  GRAPHQL_MAX_ALIASES: '14',
  GRAPHQL_MAX_DIRECTIVES: '9',
  GRAPHQL_MAX_COST: '9000',
  FIELD_SUGGESTIONS: 'no',
  ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:3000',
  TRUSTED_DOCUMENTS: 'require',
  TRUSTED_DOCUMENTS_FILE: '/etc/app/docs.json',
  RATE_LIMIT_USER_PER_MINUTE: '60',
  RATE_LIMIT_IP_PER_MINUTE: '120',
  RATE_LIMIT_STORE: 'redis',
  WS_MAX_PAYLOAD_BYTES: '524288',
  WS_MAX_OPERATIONS: '40',
  WS_INIT_TIMEOUT_MS: '4000',
  WS_MAX_SOCKETS_PER_USER: '19',
  WS_MAX_SOCKETS_PER_ADDRESS: '999',
  COUNTER_PRECISIONS: '60, 1,5',
  COUNTER_SAMPLES: '100',
  COUNTER_RETENTION: '1:3600, 60:1440',
  COUNTER_CLEANUP: 'false',
  COUNTER_MAX_INCREMENT: '1000',
  COUNTER_MAX_FUTURE_SECONDS: '30',
  MESSAGE_MAX_LENGTH: '200',
  MESSAGE_MAX_FETCH: '50',
  CHAT_MAX_MEMBERS: '10',
  CHAT_MAX_PER_USER: '20',
  CHAT_DEDUPE_SECONDS: '60',
  CHAT_RETENTION_MODE: 'seen',
  CHAT_KEEP_MESSAGES: '500',
  CHAT_KEEP_DAYS: '7',
  CHAT_MAX_KEEP_MESSAGES: '1000',
  CHAT_MAX_KEEP_DAYS: '30',
  CHAT_DEVICE_TTL_SECONDS: '3600',
  CHAT_MAX_DEVICES: '3',
  MESSAGE_MAX_PAGE: '20',
  MAILBOX_MAX_MESSAGES: '5',
  SEMAPHORE_MAX_LIMIT: '7',
  LEASE_MAX_TIMEOUT_MS: '15000',
  LEASE_MAX_WAIT_MS: '10000',
  LEASE_MAX_WAITERS: '3',
  CONTACTS_MAX: '20',
  GUILD_SEARCH_MAX_LIMIT: '200',
  GUILD_MAX_MEMBERS: '5',
  GUILD_MAX_PER_USER: '2',
  TASK_MAX_ARGS_BYTES: '1024',
  TASK_MAX_DELAY_MS: '60000',
  TASK_MAX_ATTEMPTS: '3',
  TASK_BACKOFF_MS: '10',
  TASK_MAX_BACKOFF_MS: '100',
  TASK_VISIBILITY_TIMEOUT_MS: '5000',
  TASK_RUN_TIMEOUT_MS: '1000',
  TASK_HISTORY: '50',
  TASK_MAX_PER_QUEUE: '500',
  TASK_MAX_BATCH: '50',
  TASK_MAX_SCHEDULES: '3',
  WORKER_QUEUES: ' email, reports ,email',
  TASK_HANDLERS: './h.js',
  WORKER_CONCURRENCY: '16',
  TASK_WORKER: 'on',
  MARKET_STRATEGY: 'WATCH',
  MARKET_MAX_PRICE: '1000',
  MARKET_MAX_FUNDS: '100000',
  MARKET_MAX_INVENTORY: '50',
  MARKET_PAGE_MAX: '30',
  MARKET_WATCH_CONNECTIONS: '4',
  MARKET_CONTENTION_TIMEOUT_MS: '2000',
  MARKET_LOCK_TTL_MS: '3000',
  MARKET_SALES_KEEP: '10',
  MARKET_SALE_TASK: ' sold-email ',
  DATABASE_URL: 'postgresql://shop:secret@db.internal:5433/shop',
  ROW_CACHE: 'off',
  ROW_CACHE_TABLE: 'sales.Promo_items',
  ROW_CACHE_KEY: 'sku',
  ROW_CACHE_BATCH: '500',
  ROW_CACHE_MAX_SLEEP_MS: '250',
  ROW_CACHE_MAX_DELAY_SECONDS: '60',
  ROW_CACHE_MAX_ROWS: '3',
  ROW_CACHE_DB_TIMEOUT_MS: '1000',
  LOCATION_DB: 'a.mmdb, /b/c.mmdb',
  LOCATION_WORKER: 'off',
  LOCATION_CHUNK_BYTES: '4096',
  LOCATION_MAX_HELD_BYTES: '1048576',
  LOCATION_MAX_WAIT_MS: '1000',
  LOCATION_MAX_UPLOAD_BYTES: '2048',
  LOCATION_MAX_DATASETS: '4',
  LOCATION_MAX_UPLOADS: '8',
  LOCATION_REFUSED_SAMPLES: '2',
  LOCATION_CLAIM_AFTER_MS: '500',
  LOCATION_MAX_APPEND_LINES: '5000',
  LOCATION_MAX_RANGE_DAYS: '31',
  WEB_APP: 'off',
  WEB_APP_DIR: '/srv/web',
  METRICS: 'port',
  METRICS_PORT: '9464',
  METRICS_HOST: '0.0.0.0',
  METRICS_QUEUES: 'a, b ,a',
};

const CASES: Record<string, Record<string, string>> = {
  defaults: {},
  production: { NODE_ENV: 'production', JWT_SECRET: 's'.repeat(32) },
  'one Redis, metrics on the API port': { REDIS_URL: 'redis://a:6379', WORKER_QUEUES: 'q', MARKET_SALE_TASK: 'x' },
  'every variable set': EVERY_VARIABLE,
};

/** JSON keeps no undefined, so it is written as a marker; the data directory is relative to the cwd. */
function comparable(config: unknown): unknown {
  return JSON.parse(
    JSON.stringify(config, (key, value: unknown) => {
      if (value === undefined) return '<undefined>';
      if (key === 'dataDir' || key === 'databases')
        return JSON.parse(JSON.stringify(value).replaceAll(process.cwd(), '<cwd>'));
      return value;
    }),
  );
}

describe('loadConfig before and after the settings schemas', () => {
  if (process.env.WRITE_CONFIG_SNAPSHOT === '1') {
    it('writes the snapshot', () => {
      const written = Object.fromEntries(
        Object.entries(CASES).map(([name, env]) => [name, comparable(loadConfig(env))]),
      );
      fs.writeFileSync(SNAPSHOT, `${JSON.stringify(written, null, 2)}\n`);
    });
    return;
  }
  it('sets every declared variable in one case or another', () => {
    const declared = SETTING_DOMAINS.flatMap((domain) => Object.keys(domain.settings)).sort();
    const set = new Set(Object.values(CASES).flatMap((env) => Object.keys(env)));
    expect(declared.filter((name) => !set.has(name))).toEqual([]);
    expect([...set].filter((name) => !declared.includes(name))).toEqual([]);
  });
  const snapshot = JSON.parse(fs.readFileSync(SNAPSHOT, 'utf8')) as Record<string, unknown>;
  it.each(Object.keys(CASES))('gives the same configuration as before for %s', (name) => {
    expect(comparable(loadConfig(CASES[name]))).toEqual(snapshot[name]);
  });
});
