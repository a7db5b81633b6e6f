// Configuration is read and validated in one place.
import path from 'node:path';
import { DEFAULT_PRECISIONS, loadConfig } from '../../src/config';
import { configProblems as problems } from '../support/config';

describe('loadConfig', () => {
  it('defaults to development on 127.0.0.1:4000 with an embedded Redis in ./.data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      isProduction: false,
      host: '127.0.0.1',
      port: 4000,
      redisUrl: undefined,
      dataDir: path.resolve('.data'),
      jwtSecret: undefined,
      logLevel: 'info',
      introspection: true,
    });
    expect(config.counters).toEqual({
      precisions: DEFAULT_PRECISIONS,
      samples: 120,
      retention: {},
      cleanup: true,
      maxIncrement: 1_000_000,
      maxFutureSeconds: 60,
    });
  });

  it('has the documented messaging limits and reads each from its variable', () => {
    expect(loadConfig({}).messaging).toEqual({
      maxMessageLength: 4000,
      maxChatMembers: 1000,
      maxChatsPerUser: 1000,
      dedupeSeconds: 86_400,
      maxFetch: 1000,
      maxPage: 100,
      maxMailboxMessages: 10_000,
      retention: { mode: 'history', keepMessages: 10_000, keepMs: 90 * 86_400_000 },
      maxKeepMessages: 100_000,
      maxKeepDays: 3650,
      deviceTtlSeconds: 30 * 86_400,
      maxDevices: 10,
    });
    const set = loadConfig({
      MESSAGE_MAX_LENGTH: '200',
      CHAT_MAX_MEMBERS: '10',
      CHAT_MAX_PER_USER: '20',
      CHAT_DEDUPE_SECONDS: '60',
      MESSAGE_MAX_FETCH: '50',
      MESSAGE_MAX_PAGE: '20',
      MAILBOX_MAX_MESSAGES: '5',
      CHAT_RETENTION_MODE: 'seen',
      CHAT_KEEP_MESSAGES: '500',
      CHAT_KEEP_DAYS: '7',
      CHAT_MAX_KEEP_MESSAGES: '1000',
      CHAT_MAX_KEEP_DAYS: '30',
      CHAT_DEVICE_TTL_SECONDS: '3600',
      CHAT_MAX_DEVICES: '3',
    });
    expect(set.messaging).toEqual({
      maxMessageLength: 200,
      maxChatMembers: 10,
      maxChatsPerUser: 20,
      dedupeSeconds: 60,
      maxFetch: 50,
      maxPage: 20,
      maxMailboxMessages: 5,
      retention: { mode: 'seen', keepMessages: 500, keepMs: 7 * 86_400_000 },
      maxKeepMessages: 1000,
      maxKeepDays: 30,
      deviceTtlSeconds: 3600,
      maxDevices: 3,
    });
  });

  it('keeps the default chat retention within smaller maxima, and refuses a retention past them', () => {
    const small = loadConfig({ CHAT_MAX_KEEP_MESSAGES: '5000', CHAT_MAX_KEEP_DAYS: '30' }).messaging.retention;
    expect(small).toEqual({ mode: 'history', keepMessages: 5000, keepMs: 30 * 86_400_000 });
    const found = problems({
      CHAT_MAX_KEEP_MESSAGES: '100',
      CHAT_KEEP_MESSAGES: '101',
      CHAT_RETENTION_MODE: 'forever',
    });
    expect(found).toEqual([
      'CHAT_KEEP_MESSAGES must be an integer from 1 to 100, got "101"',
      'CHAT_RETENTION_MODE must be one of history, seen, got "forever"',
    ]);
  });

  it('names every messaging limit that is out of range', () => {
    const found = problems({ MESSAGE_MAX_LENGTH: '0', CHAT_MAX_MEMBERS: '1', MAILBOX_MAX_MESSAGES: 'lots' });
    expect(found).toHaveLength(3);
    expect(found[0]).toMatch(/^MESSAGE_MAX_LENGTH must be an integer from 1/);
    expect(found[1]).toMatch(/^CHAT_MAX_MEMBERS must be an integer from 2/);
    expect(found[2]).toMatch(/^MAILBOX_MAX_MESSAGES must be an integer/);
  });

  it('has the documented lock and semaphore limits and reads each from its variable', () => {
    expect(loadConfig({}).leases).toEqual({
      maxLimit: 1000,
      maxTimeoutMs: 3_600_000,
      maxWaitMs: 60_000,
      maxWaiters: 1000,
    });
    const set = loadConfig({
      SEMAPHORE_MAX_LIMIT: '7',
      LEASE_MAX_TIMEOUT_MS: '15000',
      LEASE_MAX_WAIT_MS: '10000',
      LEASE_MAX_WAITERS: '3',
    });
    expect(set.leases).toEqual({ maxLimit: 7, maxTimeoutMs: 15_000, maxWaitMs: 10_000, maxWaiters: 3 });
    // The maxima may not be below the 10 s defaults of the timeouts they bound.
    const found = problems({
      SEMAPHORE_MAX_LIMIT: '0',
      LEASE_MAX_TIMEOUT_MS: '9999',
      LEASE_MAX_WAIT_MS: '0',
      LEASE_MAX_WAITERS: '1e3',
    });
    expect(found).toEqual([
      expect.stringMatching(/^SEMAPHORE_MAX_LIMIT must be an integer from 1 to 5000/),
      expect.stringMatching(/^LEASE_MAX_TIMEOUT_MS must be an integer from 10000/),
      expect.stringMatching(/^LEASE_MAX_WAIT_MS must be an integer from 10000/),
      expect.stringMatching(/^LEASE_MAX_WAITERS must be an integer from 1/),
    ]);
  });

  it('has the documented autocomplete limits and reads each from its variable', () => {
    expect(loadConfig({}).autocomplete).toEqual({
      maxContacts: 100,
      maxGuildSearch: 50,
      maxGuildMembers: 10_000_000,
      maxGuildsPerUser: 1000,
    });
    const set = loadConfig({
      CONTACTS_MAX: '20',
      GUILD_SEARCH_MAX_LIMIT: '200',
      GUILD_MAX_MEMBERS: '5',
      GUILD_MAX_PER_USER: '2',
    });
    expect(set.autocomplete).toEqual({ maxContacts: 20, maxGuildSearch: 200, maxGuildMembers: 5, maxGuildsPerUser: 2 });
    // The maxima of a `limit` may not be below its default of 10.
    const found = problems({
      CONTACTS_MAX: '9',
      GUILD_SEARCH_MAX_LIMIT: '1001',
      GUILD_MAX_MEMBERS: '0',
      GUILD_MAX_PER_USER: 'x',
    });
    expect(found).toEqual([
      expect.stringMatching(/^CONTACTS_MAX must be an integer from 10 to 1000/),
      expect.stringMatching(/^GUILD_SEARCH_MAX_LIMIT must be an integer from 10 to 1000/),
      expect.stringMatching(/^GUILD_MAX_MEMBERS must be an integer from 1/),
      expect.stringMatching(/^GUILD_MAX_PER_USER must be an integer from 1/),
    ]);
  });

  it('has the documented security limits, hides suggestions in production, and checks origins', () => {
    expect(loadConfig({}).security).toEqual({
      maxTokens: 1000,
      maxDepth: 8,
      maxAliases: 15,
      maxDirectives: 10,
      maxCost: 10_000,
      fieldSuggestions: true,
      allowedOrigins: [],
      wsMaxPayloadBytes: 102_400,
      wsMaxOperations: 50,
      wsInitTimeoutMs: 5000,
      wsMaxSocketsPerUser: 20,
      wsMaxSocketsPerAddress: 1000,
      rateLimit: { store: 'memory', userPerMinute: 600, ipPerMinute: 1200 },
      trustedDocuments: { mode: 'allow', file: undefined },
    });
    expect(
      loadConfig({ TRUSTED_DOCUMENTS: 'require', TRUSTED_DOCUMENTS_FILE: '/x.json' }).security.trustedDocuments,
    ).toEqual({ mode: 'require', file: '/x.json' });
    expect(() => loadConfig({ TRUSTED_DOCUMENTS: 'only' })).toThrow(/TRUSTED_DOCUMENTS must be one of allow, require/);
    // Frames are as large as HTTP bodies unless set apart.
    expect(loadConfig({ BODY_LIMIT_BYTES: '500000' }).security.wsMaxPayloadBytes).toBe(500_000);
    expect(loadConfig({ BODY_LIMIT_BYTES: '500000', WS_MAX_PAYLOAD_BYTES: '2048' }).security.wsMaxPayloadBytes).toBe(
      2048,
    );
    const production = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) });
    expect(production.security.fieldSuggestions).toBe(false);
    expect(production.introspection).toBe(false);
    expect(
      loadConfig({ ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:3000' }).security.allowedOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:3000']);
    expect(loadConfig({ ALLOWED_ORIGINS: '*', RATE_LIMIT_STORE: 'redis' }).security).toMatchObject({
      allowedOrigins: ['*'],
      rateLimit: { store: 'redis' },
    });
    expect(
      problems({
        ALLOWED_ORIGINS: 'https://app.example.com/',
        GRAPHQL_MAX_DEPTH: '1',
        WS_MAX_OPERATIONS: '0',
        RATE_LIMIT_STORE: 'disk',
      }),
    ).toEqual([
      expect.stringMatching(/^GRAPHQL_MAX_DEPTH must be an integer from 2 to 100/),
      expect.stringMatching(/^ALLOWED_ORIGINS must be a comma-separated list of origins/),
      expect.stringMatching(/^WS_MAX_OPERATIONS must be an integer from 1/),
      'RATE_LIMIT_STORE must be one of memory, redis, got "disk"',
    ]);
    expect(problems({ ALLOWED_ORIGINS: 'ftp://files.example.com,app.example.com' })).toEqual([
      expect.stringMatching(/^ALLOWED_ORIGINS must be/),
    ]);
  });

  it('uses the SCRIPT market strategy by default and checks the market settings', () => {
    expect(loadConfig({}).market).toEqual({
      strategy: 'SCRIPT',
      maxPrice: 1_000_000_000,
      maxFunds: 1_000_000_000_000,
      maxInventory: 10_000,
      maxPage: 100,
      watchConnections: 16,
      contentionTimeoutMs: 10_000,
      lockTtlMs: 10_000,
      salesKeep: 1000,
      saleTask: undefined,
    });
    expect(loadConfig({ MARKET_STRATEGY: 'WATCH', MARKET_WATCH_CONNECTIONS: '4' }).market).toMatchObject({
      strategy: 'WATCH',
      watchConnections: 4,
    });
    expect(loadConfig({ MARKET_SALE_TASK: ' sold-email ', MARKET_SALES_KEEP: '1' }).market).toMatchObject({
      saleTask: 'sold-email',
      salesKeep: 1,
    });
    expect(
      problems({
        MARKET_STRATEGY: 'watch',
        MARKET_MAX_PRICE: '2147483648',
        MARKET_PAGE_MAX: '19',
        MARKET_MAX_FUNDS: '0',
        MARKET_SALES_KEEP: '0',
        MARKET_SALE_TASK: 'sold:email',
      }),
    ).toEqual([
      'MARKET_STRATEGY must be one of SCRIPT, WATCH, LOCK, got "watch"',
      expect.stringMatching(/^MARKET_MAX_PRICE must be an integer from 1 to 2147483647/),
      expect.stringMatching(/^MARKET_MAX_FUNDS must be an integer from 1/),
      expect.stringMatching(/^MARKET_PAGE_MAX must be an integer from 20 to 1000/),
      expect.stringMatching(/^MARKET_SALES_KEEP must be an integer from 1 to 1000000/),
      expect.stringMatching(/^MARKET_SALE_TASK must be a task name \(1 to 128 characters.*got "sold:email"$/),
    ]);
  });

  it('has the documented task limits, reads the worker settings, and wants queues and handlers for an in-API worker', () => {
    expect(loadConfig({}).tasks).toEqual({
      maxArgsBytes: 65_536,
      maxDelayMs: 604_800_000,
      maxAttempts: 5,
      backoffMs: 1000,
      maxBackoffMs: 600_000,
      visibilityMs: 30_000,
      runTimeoutMs: 300_000,
      history: 10_000,
      maxTasksPerQueue: 1_000_000,
      maxBatch: 1000,
      maxSchedules: 1000,
    });
    expect(loadConfig({ TASK_MAX_BATCH: '50' }).tasks.maxBatch).toBe(50);
    expect(problems({ TASK_MAX_BATCH: '0' })).toEqual([
      expect.stringMatching(/^TASK_MAX_BATCH must be an integer from 1 to 10000/),
    ]);
    expect(loadConfig({}).worker).toEqual({ queues: [], concurrency: 4, handlersModule: undefined, inApi: false });
    const set = loadConfig({
      WORKER_QUEUES: ' email, reports ,email',
      WORKER_CONCURRENCY: '16',
      TASK_HANDLERS: './h.js',
      TASK_WORKER: 'on',
    });
    expect(set.worker).toEqual({
      queues: ['email', 'reports'],
      concurrency: 16,
      handlersModule: './h.js',
      inApi: true,
    });
    expect(problems({ TASK_WORKER: 'on' })).toEqual(['TASK_WORKER=on needs WORKER_QUEUES and TASK_HANDLERS']);
    // Finished tasks count against a queue's limit, so the history must stay below it.
    expect(problems({ TASK_MAX_PER_QUEUE: '100', TASK_HISTORY: '100' })).toEqual([
      'TASK_HISTORY must be lower than TASK_MAX_PER_QUEUE',
    ]);
    expect(problems({ WORKER_QUEUES: 'a:b', WORKER_CONCURRENCY: '0', TASK_VISIBILITY_TIMEOUT_MS: '10' })).toEqual([
      expect.stringMatching(/^TASK_VISIBILITY_TIMEOUT_MS must be an integer from 1000/),
      expect.stringMatching(/^WORKER_QUEUES must be a comma-separated list/),
      expect.stringMatching(/^WORKER_CONCURRENCY must be an integer from 1 to 256/),
    ]);
    expect(loadConfig({ TASK_MAX_SCHEDULES: '3' }).tasks.maxSchedules).toBe(3);
    expect(problems({ TASK_MAX_SCHEDULES: '0' })).toEqual([
      expect.stringMatching(/^TASK_MAX_SCHEDULES must be an integer from 1 to 100000/),
    ]);
  });

  it('has the documented row cache settings, reads each from its variable, and accepts only plain SQL names', () => {
    const defaults = loadConfig({});
    expect(defaults.databaseUrl).toBeUndefined();
    expect(defaults.rowCache).toEqual({
      enabled: true,
      table: 'inventory',
      keyColumn: 'id',
      batchSize: 100,
      maxSleepMs: 1000,
      maxDelaySeconds: 86_400,
      maxRows: 10_000,
      dbTimeoutMs: 5000,
    });
    const set = loadConfig({
      DATABASE_URL: 'postgresql://shop:secret@db.internal:5433/shop',
      ROW_CACHE: 'off',
      ROW_CACHE_TABLE: 'sales.Promo_items',
      ROW_CACHE_KEY: 'sku',
      ROW_CACHE_BATCH: '500',
      ROW_CACHE_MAX_SLEEP_MS: '250',
      ROW_CACHE_MAX_DELAY_SECONDS: '60',
      ROW_CACHE_MAX_ROWS: '3',
      ROW_CACHE_DB_TIMEOUT_MS: '1000',
    });
    expect(set.databaseUrl).toBe('postgresql://shop:secret@db.internal:5433/shop');
    expect(set.rowCache).toEqual({
      enabled: false,
      table: 'sales.Promo_items',
      keyColumn: 'sku',
      batchSize: 500,
      maxSleepMs: 250,
      maxDelaySeconds: 60,
      maxRows: 3,
      dbTimeoutMs: 1000,
    });
    for (const table of ['inventory; DROP TABLE users', 'a.b.c', '1st', '"inventory"', 'rows{x}', 'in ventory']) {
      expect(problems({ ROW_CACHE_TABLE: table })).toEqual([
        expect.stringMatching(/^ROW_CACHE_TABLE must be a table name/),
      ]);
    }
    expect(problems({ ROW_CACHE_KEY: 'public.id' })).toEqual([
      expect.stringMatching(/^ROW_CACHE_KEY must be a column name/),
    ]);
    expect(
      problems({
        DATABASE_URL: 'mysql://db/shop',
        ROW_CACHE_BATCH: '0',
        ROW_CACHE_MAX_DELAY_SECONDS: '1e9',
        ROW_CACHE: 'sometimes',
      }),
    ).toEqual([
      'DATABASE_URL must be a postgres:// or postgresql:// URL',
      expect.stringMatching(/^ROW_CACHE must be true or false/),
      expect.stringMatching(/^ROW_CACHE_BATCH must be an integer from 1 to 1000/),
      expect.stringMatching(/^ROW_CACHE_MAX_DELAY_SECONDS must be an integer from 1/),
    ]);
  });

  it('has the documented location settings, aggregates outside production unless told, and wants .mmdb files', () => {
    expect(loadConfig({}).location).toEqual({
      databases: [],
      aggregate: true,
      aggregateAsked: false,
      chunkBytes: 1024 * 1024,
      maxHeldBytes: 1024 * 1024 * 1024,
      maxUploadBytes: 64 * 1024 * 1024 * 1024,
      maxDatasets: 100,
      maxUploads: 10_000,
      maxSamples: 20,
      claimAfterMs: 60_000,
      // As many typical lines as the default BODY_LIMIT_BYTES holds: (102400 - 2048) / 64.
      maxAppendLines: 1568,
      maxRangeDays: 366,
      maxWaitForRoomMs: 120_000,
    });
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) };
    expect(loadConfig(production).location.aggregate).toBe(false);
    expect(loadConfig({ ...production, LOCATION_WORKER: 'on' }).location).toMatchObject({
      aggregate: true,
      aggregateAsked: true,
    });
    expect(loadConfig({ LOCATION_DB: 'a.mmdb, /b/c.mmdb' }).location.databases).toEqual([
      path.resolve('a.mmdb'),
      '/b/c.mmdb',
    ]);
    expect(problems({ LOCATION_DB: 'cities.csv' })).toEqual([
      `LOCATION_DB must list .mmdb files, got "${path.resolve('cities.csv')}"`,
    ]);
    expect(problems({ LOCATION_CHUNK_BYTES: '10', LOCATION_MAX_WAIT_MS: '999999' })).toHaveLength(2);
  });

  it('fits LOCATION_MAX_APPEND_LINES to BODY_LIMIT_BYTES by default, and refuses a setting the body limit would refuse', () => {
    expect(loadConfig({ BODY_LIMIT_BYTES: String(1024 * 1024) }).location.maxAppendLines).toBe(16_352);
    expect(loadConfig({ BODY_LIMIT_BYTES: '16384' }).location.maxAppendLines).toBe(224);
    expect(loadConfig({ BODY_LIMIT_BYTES: '1024' }).location.maxAppendLines).toBe(1);
    // Exactly what fits, and fewer, are taken as set.
    expect(loadConfig({ LOCATION_MAX_APPEND_LINES: '1568' }).location.maxAppendLines).toBe(1568);
    expect(loadConfig({ LOCATION_MAX_APPEND_LINES: '100' }).location.maxAppendLines).toBe(100);
    expect(
      loadConfig({ BODY_LIMIT_BYTES: String(1024 * 1024), LOCATION_MAX_APPEND_LINES: '10000' }).location.maxAppendLines,
    ).toBe(10_000);
    // The old default beside the default body limit: 10,000 lines need about 640 KB.
    expect(problems({ LOCATION_MAX_APPEND_LINES: '10000' })).toEqual([
      'LOCATION_MAX_APPEND_LINES (10000) does not fit BODY_LIMIT_BYTES (102400): 10000 lines of 64 bytes need a ' +
        'request of 642048 bytes; set LOCATION_MAX_APPEND_LINES to at most 1568 or BODY_LIMIT_BYTES to at least ' +
        '642048 (larger files go to POST /logs)',
    ]);
    expect(problems({ LOCATION_MAX_APPEND_LINES: '1569' })).toHaveLength(1);
    expect(problems({ BODY_LIMIT_BYTES: '16384', LOCATION_MAX_APPEND_LINES: '1000' })).toEqual([
      expect.stringMatching(/^LOCATION_MAX_APPEND_LINES \(1000\) does not fit BODY_LIMIT_BYTES \(16384\)/),
    ]);
  });

  it('fits LOCATION_MAX_APPEND_LINES to the smaller of BODY_LIMIT_BYTES and WS_MAX_PAYLOAD_BYTES, and names the one too small', () => {
    // A WebSocket frame limit below the body limit: the default follows the frame limit.
    expect(loadConfig({ WS_MAX_PAYLOAD_BYTES: '16384' }).location.maxAppendLines).toBe(224);
    expect(loadConfig({ BODY_LIMIT_BYTES: '16384', WS_MAX_PAYLOAD_BYTES: '500000' }).location.maxAppendLines).toBe(224);
    expect(
      loadConfig({ WS_MAX_PAYLOAD_BYTES: '16384', LOCATION_MAX_APPEND_LINES: '224' }).location.maxAppendLines,
    ).toBe(224);
    // A batch the body limit takes but the frame limit would close the socket on is refused at start.
    expect(problems({ WS_MAX_PAYLOAD_BYTES: '16384', LOCATION_MAX_APPEND_LINES: '1000' })).toEqual([
      'LOCATION_MAX_APPEND_LINES (1000) does not fit WS_MAX_PAYLOAD_BYTES (16384): 1000 lines of 64 bytes need a ' +
        'request of 66048 bytes; set LOCATION_MAX_APPEND_LINES to at most 224 or WS_MAX_PAYLOAD_BYTES to at least ' +
        '66048 (larger files go to POST /logs)',
    ]);
    // Both too small: both are named.
    expect(
      problems({ BODY_LIMIT_BYTES: '32768', WS_MAX_PAYLOAD_BYTES: '16384', LOCATION_MAX_APPEND_LINES: '1000' }),
    ).toEqual([
      'LOCATION_MAX_APPEND_LINES (1000) does not fit BODY_LIMIT_BYTES (32768) and WS_MAX_PAYLOAD_BYTES (16384): ' +
        '1000 lines of 64 bytes need a request of 66048 bytes; set LOCATION_MAX_APPEND_LINES to at most 224 or ' +
        'BODY_LIMIT_BYTES and WS_MAX_PAYLOAD_BYTES to at least 66048 (larger files go to POST /logs)',
    ]);
    // A frame limit above the body limit changes nothing: the body limit is named.
    expect(
      problems({ BODY_LIMIT_BYTES: '16384', WS_MAX_PAYLOAD_BYTES: '500000', LOCATION_MAX_APPEND_LINES: '1000' }),
    ).toEqual([expect.stringMatching(/^LOCATION_MAX_APPEND_LINES \(1000\) does not fit BODY_LIMIT_BYTES \(16384\): /)]);
  });

  it('serves metrics to service callers on the API port by default, on a port of their own with METRICS_PORT, or not at all', () => {
    expect(loadConfig({}).metrics).toEqual({ mode: 'service', port: 0, host: '127.0.0.1', queues: [] });
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toMatchObject({ mode: 'port', port: 9464, host: '127.0.0.1' });
    expect(loadConfig({ METRICS: 'port', METRICS_PORT: '0', METRICS_HOST: '10.0.0.5' }).metrics).toMatchObject({
      mode: 'port',
      port: 0,
      host: '10.0.0.5',
    });
    expect(loadConfig({ METRICS: 'off' }).metrics.mode).toBe('off');
    expect(problems({ METRICS: 'port' })).toEqual(['METRICS=port needs METRICS_PORT (the port to serve /metrics on)']);
    expect(problems({ METRICS: 'service', METRICS_PORT: '9464' })).toEqual([
      'METRICS_PORT is only for METRICS=port, not METRICS=service',
    ]);
    expect(problems({ METRICS: 'push', METRICS_PORT: '99999' })).toEqual([
      'METRICS must be one of service, port, off, got "push"',
      'METRICS_PORT must be an integer from 0 to 65535, got "99999"',
    ]);
  });

  it('reads queue depths for METRICS_QUEUES, by default the worker queues and the market sales queue', () => {
    expect(loadConfig({ WORKER_QUEUES: 'email,reports' }).metrics.queues).toEqual(['email', 'reports']);
    expect(loadConfig({ WORKER_QUEUES: 'email', MARKET_SALE_TASK: 'settle' }).metrics.queues).toEqual([
      'email',
      'market-sales',
    ]);
    expect(loadConfig({ WORKER_QUEUES: 'email', METRICS_QUEUES: 'a, b ,a' }).metrics.queues).toEqual(['a', 'b']);
    expect(problems({ METRICS_QUEUES: 'a:b' })).toEqual([
      expect.stringMatching(/^METRICS_QUEUES must be a comma-separated list of at most 64 queue names/),
    ]);
  });

  it('listens on all interfaces and hides introspection in production', () => {
    const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 's'.repeat(32) });
    expect(config.host).toBe('0.0.0.0');
    expect(config.introspection).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 's'.repeat(32), INTROSPECTION: 'on' }).introspection).toBe(
      true,
    );
  });

  it('reads a Redis Cluster from REDIS_CLUSTER_NODES: host:port or URLs, with their password and TLS', () => {
    expect(loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000, 10.0.0.2:7001' }).redisCluster).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
      ],
    });
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'rediss://app:p%40ss@redis-a:6380,redis-b' }).redisCluster).toEqual({
      nodes: [
        { host: 'redis-a', port: 6380 },
        { host: 'redis-b', port: 6379 },
      ],
      username: 'app',
      password: 'p@ss',
      tls: true,
    });
    expect(loadConfig({}).redisCluster).toBeUndefined();
  });

  it.each([
    [
      'http://10.0.0.1:7000',
      'REDIS_CLUSTER_NODES must list host:port or redis:// URLs separated by commas, got "http://10.0.0.1:7000"',
    ],
    [
      '10.0.0.1:99999',
      'REDIS_CLUSTER_NODES must list host:port or redis:// URLs separated by commas, got "10.0.0.1:99999"',
    ],
    [' , ', 'REDIS_CLUSTER_NODES must name at least one node'],
  ])('refuses REDIS_CLUSTER_NODES=%p, naming it', (value, message) => {
    expect(problems({ REDIS_CLUSTER_NODES: value })).toEqual([message]);
  });

  it('refuses REDIS_URL and REDIS_CLUSTER_NODES together', () => {
    expect(problems({ REDIS_URL: 'redis://a:6379', REDIS_CLUSTER_NODES: 'b:7000' })).toEqual([
      'set REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a cluster), not both',
    ]);
  });

  it('reads REDIS_WAIT_REPLICAS and REDIS_WAIT_TIMEOUT_MS: off by default, bounded, and only with a Redis that can have replicas', () => {
    expect(loadConfig({}).redisWait).toEqual({ replicas: 0, timeoutMs: 500 });
    expect(
      loadConfig({ REDIS_URL: 'redis://a:6379', REDIS_WAIT_REPLICAS: '2', REDIS_WAIT_TIMEOUT_MS: '250' }).redisWait,
    ).toEqual({ replicas: 2, timeoutMs: 250 });
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'b:7000', REDIS_WAIT_REPLICAS: '1' }).redisWait).toEqual({
      replicas: 1,
      timeoutMs: 500,
    });
    expect(problems({ REDIS_WAIT_REPLICAS: '1' })).toEqual([
      'REDIS_WAIT_REPLICAS needs REDIS_URL or REDIS_CLUSTER_NODES (the embedded Redis has no replicas)',
    ]);
    expect(problems({ REDIS_URL: 'redis://a:6379', REDIS_WAIT_REPLICAS: '11' })).toEqual([
      'REDIS_WAIT_REPLICAS must be an integer from 0 to 10, got "11"',
    ]);
    expect(problems({ REDIS_URL: 'redis://a:6379', REDIS_WAIT_TIMEOUT_MS: '5000' })).toEqual([
      'REDIS_WAIT_TIMEOUT_MS must be an integer from 10 to 4000, got "5000"',
    ]);
  });

  it('reads per-precision retention overrides from COUNTER_RETENTION', () => {
    expect(loadConfig({ COUNTER_RETENTION: '1:3600, 60:1440,3600:720' }).counters.retention).toEqual({
      1: 3600,
      60: 1440,
      3600: 720,
    });
    expect(loadConfig({ COUNTER_PRECISIONS: '10,20', COUNTER_RETENTION: '20:5' }).counters.retention).toEqual({
      20: 5,
    });
  });

  it.each([
    ['a precision that is not configured', '7:100'],
    ['a precision given twice', '60:10,60:20'],
    ['no samples', '60:0'],
    ['too many samples', '60:100001'],
    ['a pair without a colon', '60'],
    ['a fraction', '60:1.5'],
  ])('refuses COUNTER_RETENTION with %s, naming it', (_label, value) => {
    expect(problems({ COUNTER_RETENTION: value })).toEqual([
      `COUNTER_RETENTION must be a comma-separated list of precision:samples pairs, each precision once and one of COUNTER_PRECISIONS (1,5,60,300,3600,18000,86400), samples from 1 to 100000, got "${value}"`,
    ]);
  });

  it('sorts configured precisions', () => {
    expect(loadConfig({ COUNTER_PRECISIONS: '60, 1,5' }).counters.precisions).toEqual([1, 5, 60]);
  });

  it('requires JWT_SECRET in production and a long one anywhere', () => {
    expect(problems({ NODE_ENV: 'production' })).toEqual([
      'JWT_SECRET must be set in production (at least 32 characters, random), unless OIDC_PROVIDERS is set',
    ]);
    expect(problems({ JWT_SECRET: 'short' })).toEqual(['JWT_SECRET must be at least 32 characters long']);
  });

  it.each([
    ['PORT', '70000'],
    ['PORT', '4000x'],
    ['NODE_ENV', 'staging'],
    ['REDIS_URL', 'http://localhost:6379'],
    ['COUNTER_PRECISIONS', '0,5'],
    ['COUNTER_PRECISIONS', '5,5'],
    ['COUNTER_PRECISIONS', '1.5'],
    ['COUNTER_SAMPLES', '0'],
    ['COUNTER_CLEANUP', 'maybe'],
    ['COUNTER_MAX_INCREMENT', '3000000000'],
    ['LOG_LEVEL', 'verbose'],
  ])('names %s when it is %p', (name, value) => {
    const found = problems({ [name]: value });
    expect(found).toHaveLength(1);
    expect(found[0].startsWith(name)).toBe(true);
  });

  it('reports every problem at once', () => {
    expect(problems({ PORT: '-1', LOG_LEVEL: 'x', COUNTER_SAMPLES: 'y' })).toHaveLength(3);
  });
});
