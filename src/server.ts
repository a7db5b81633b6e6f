// The composition root: builds Redis connections, repositories, workers, the schema and the
// HTTP/WebSocket servers once, and knows the order in which to take them down again.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { developmentSecret, TokenVerifier } from './auth';
import type { Config } from './config';
import { createRowSource, type SqlRowSource } from './db/row-source';
import { withGraphqlFastPath } from './graphql-http';
import { createHttpApp, finishHttpApp, reportOf, securityHeaders } from './http';
import type { Logger } from './logger';
import { closeRedis, connectRedis, pingRedis, warnIfEvicting, warnIfTooFewReplicas, type RedisTarget } from './redis/connection';
import { ChatRepository } from './redis/chat';
import { ContactsRepository } from './redis/contacts';
import { CounterRepository } from './redis/counter';
import { GuildRepository } from './redis/guild';
import { LeaseRepository } from './redis/lease';
import { LeaseSignals } from './redis/lease-signals';
import { LeaseAcquirer } from './redis/lease-wait';
import { MailboxRepository } from './redis/mailbox';
import { MarketRepository } from './redis/market';
import { createMarketStrategy } from './redis/market-strategies';
import { RowCacheRepository } from './redis/row-cache';
import { TaskRepository } from './redis/tasks';
import { EmbeddedRedis } from './redis/embedded';
import { createRedisPubSub } from './schema/pubsub';
import { channelOf } from './redis/keys';
import { createContext, Topic } from './schema/context';
import { ChatResolver } from './resolvers/chat';
import { ContactsResolver } from './resolvers/contacts';
import { CounterResolver } from './resolvers/counter';
import { GuildResolver } from './resolvers/guild';
import { InboxNotifier, InboxResolver } from './resolvers/inbox';
import { LockResolver } from './resolvers/lock';
import { MailboxResolver } from './resolvers/mailbox';
import { MarketResolver } from './resolvers/market';
import { RowCacheResolver } from './resolvers/row-cache';
import { SemaphoreResolver } from './resolvers/semaphore';
import { TaskResolver } from './resolvers/task';
import type { GraphQLContext } from './schema/context';
import { createErrorFormatter } from './schema/format-error';
import { buildAppSchema } from './schema/index';
import { CounterCleanupWorker } from './workers/counter-cleanup';
import { RowCacheRefresher } from './workers/row-cache-refresher';
import { loadHandlers } from './workers/task-handlers';
import { startTaskRunner } from './workers/task-runner';
import { documentGuard } from './security/document-limits';
import { createOperationCheck, operationCheckPlugin } from './security/operation-check';
import { RateLimits } from './security/rate-limit';
import { RequestGate } from './security/request-gate';
import { startWebSocketServer } from './ws';

export interface RunningServer {
  /** http://host:port/graphql */
  url: string;
  port: number;
  verifier: TokenVerifier;
  /** Set when the server runs its own redis-server. */
  embeddedRedis: EmbeddedRedis | undefined;
  /** True when JWT_SECRET was unset and a development secret is in use. */
  usesDevelopmentSecret: boolean;
  /** The database the row cache reads (opened on first use). */
  rowSource: SqlRowSource;
  stop(): Promise<void>;
}

interface Worker {
  start(): void;
  stop(): Promise<void>;
}

const COMMAND_TIMEOUT_MS = 5000;

export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  // Everything started so far, undone in reverse if a later step fails or on stop().
  const undo: (() => Promise<void>)[] = [];
  const unwind = async (): Promise<void> => {
    for (const step of undo.splice(0).reverse()) {
      await step().catch((error: unknown) => logger.error({ err: error }, 'error during shutdown'));
    }
  };

  try {
    let embeddedRedis: EmbeddedRedis | undefined;
    let redis: RedisTarget | undefined = config.redisCluster ?? config.redisUrl;
    if (redis === undefined) {
      embeddedRedis = await EmbeddedRedis.start({ dataDir: config.dataDir, logger });
      undo.push(() => embeddedRedis!.stop());
      redis = embeddedRedis.url;
    }

    const commands = await connectRedis(redis, { name: 'ria:commands', logger, commandTimeoutMs: COMMAND_TIMEOUT_MS, replicaWait: config.redisWait });
    undo.push(() => closeRedis(commands));
    await warnIfEvicting(commands, logger);
    await warnIfTooFewReplicas(commands, config.redisWait, logger);
    const subscriber = await connectRedis(redis, { name: 'ria:subscriber', logger, shardedSubscriber: true });
    undo.push(() => closeRedis(subscriber));
    // Waiters for locks and semaphores listen on their own connection, so their SUBSCRIBEs do
    // not interleave with the GraphQL subscriptions' ones.
    const leaseSubscriber = await connectRedis(redis, { name: 'ria:lease-signals', logger, shardedSubscriber: true });
    undo.push(() => closeRedis(leaseSubscriber));
    const leaseSignals = new LeaseSignals(leaseSubscriber, logger);
    undo.push(async () => leaseSignals.close());
    // Aborted before the HTTP drain, so requests waiting for a lock end promptly with null.
    const stopWaiting = new AbortController();

    const usesDevelopmentSecret = config.jwtSecret === undefined;
    const verifier = new TokenVerifier({
      secret: config.jwtSecret ?? developmentSecret(config.dataDir),
      issuer: config.jwtIssuer,
      audience: config.jwtAudience,
    });

    const channel = (topic: string, id: string): string => channelOf(topic, id, config.rowCache.table);
    const pubSub = createRedisPubSub({ publisher: commands, subscriber, channelOf: channel, logger });
    const counters = new CounterRepository(commands, config.counters, (name) => channel(Topic.counterUpdated, name));
    const inbox = new InboxNotifier(pubSub);
    const tasks = new TaskRepository(commands, config.tasks);
    const marketStrategy = createMarketStrategy(config.market, {
      redis,
      commands,
      logger,
      locks: () => new LeaseAcquirer(new LeaseRepository(commands, 'lock', config.leases), leaseSignals, stopWaiting.signal),
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
    });
    undo.push(() => marketStrategy.close());
    const rowCache = new RowCacheRepository(commands, config.rowCache);
    // Opened only when the refresher first has a due row; closed after the workers stopped.
    const rowSource = createRowSource(config, logger);
    undo.push(() => rowSource.close());
    const schema = await buildAppSchema(
      [
        new CounterResolver(counters, config.counters),
        new ChatResolver(new ChatRepository(commands, config.messaging, channel(Topic.inboxChanged, '')), config.messaging, inbox),
        new MailboxResolver(new MailboxRepository(commands, config.messaging), config.messaging, inbox),
        new InboxResolver(),
        new LockResolver(
          new LeaseAcquirer(new LeaseRepository(commands, 'lock', config.leases), leaseSignals, stopWaiting.signal),
          config.leases,
        ),
        new SemaphoreResolver(
          new LeaseAcquirer(new LeaseRepository(commands, 'semaphore', config.leases), leaseSignals, stopWaiting.signal),
          config.leases,
        ),
        new ContactsResolver(new ContactsRepository(commands, config.autocomplete), config.autocomplete),
        new GuildResolver(new GuildRepository(commands, config.autocomplete), config.autocomplete),
        new TaskResolver(tasks, config.tasks),
        new MarketResolver(new MarketRepository(commands, marketStrategy, config.market), config.market),
        new RowCacheResolver(rowCache, config.rowCache),
      ],
      pubSub,
    );

    const workers: Worker[] = [];
    if (config.counters.cleanup) {
      workers.push(new CounterCleanupWorker({ repository: counters, ...config.counters, logger }));
    }
    if (config.rowCache.enabled) {
      workers.push(new RowCacheRefresher({ repository: rowCache, source: rowSource, logger, ...config.rowCache }));
    }
    for (const worker of workers) worker.start();
    undo.push(async () => {
      await Promise.all(workers.map((worker) => worker.stop()));
    });
    if (config.worker.inApi) {
      const runner = await startTaskRunner({
        redis,
        commands,
        repository: tasks,
        handlers: await loadHandlers(config.worker.handlersModule!),
        tasks: config.tasks,
        worker: config.worker,
        logger,
      });
      undo.push(() => runner.stop(config.shutdownTimeoutMs / 2));
    }

    const documents = documentGuard(config.security);
    const operationCheck = createOperationCheck({ schema, introspection: config.introspection, documents });
    const gate = new RequestGate(verifier, new RateLimits(config.security.rateLimit, commands, logger));
    let draining = false;
    const headers = securityHeaders(config.isProduction);
    const app = createHttpApp({
      securityHeaders: headers,
      logger,
      gate,
      isProduction: config.isProduction,
      bodyLimitBytes: config.bodyLimitBytes,
      pingStore: () => pingRedis(commands),
      isDraining: () => draining,
      allowedOrigins: config.security.allowedOrigins,
    });
    // The handler is set once Apollo has started (the fast path needs it); until then, the app.
    let handle: http.RequestListener = app;
    const httpServer = http.createServer((req, res) => handle(req, res));
    const formatError = createErrorFormatter({ isProduction: config.isProduction, logger, fieldSuggestions: config.security.fieldSuggestions });
    const ws = startWebSocketServer({
      httpServer,
      schema,
      gate,
      formatError,
      logger,
      maxPayload: config.security.wsMaxPayloadBytes,
      maxOperations: config.security.wsMaxOperations,
      initTimeoutMs: config.security.wsInitTimeoutMs,
      maxSocketsPerUser: config.security.wsMaxSocketsPerUser,
      maxSocketsPerAddress: config.security.wsMaxSocketsPerAddress,
      allowedOrigins: config.security.allowedOrigins,
      documents,
      operationCheck,
    });

    const apollo = new ApolloServer<GraphQLContext>({
      schema,
      formatError,
      introspection: config.introspection,
      // Validation is operationCheck's, the same as over WebSocket (operation-check.ts says why
      // Apollo's is off); the token limit applies as Apollo parses. One operation per request;
      // CSRF prevention (a simple POST or GET needs a preflight-forcing header) as Apollo has it.
      dangerouslyDisableValidation: true,
      parseOptions: documents.parseOptions,
      allowBatchedHttpRequests: false,
      // Automatic persisted queries are not used; off, they cannot be a way around anything.
      persistedQueries: false,
      csrfPrevention: true,
      includeStacktraceInErrorResponses: !config.isProduction,
      logger: logger.child({ component: 'apollo' }),
      // main.ts owns signals; Apollo's own handler would re-raise SIGTERM in the middle of our drain.
      stopOnTerminationSignals: false,
      plugins: [
        ApolloServerPluginDrainHttpServer({ httpServer, stopGracePeriodMillis: config.shutdownTimeoutMs / 2 }),
        { serverWillStart: async () => ({ drainServer: () => ws.dispose() }) },
        reportPlugin,
        operationCheckPlugin(operationCheck, formatError),
        config.isProduction
          ? ApolloServerPluginLandingPageDisabled()
          : ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }),
      ],
    });
    await apollo.start();
    undo.push(async () => {
      draining = true;
      await apollo.stop(); // drains HTTP and closes WebSockets before Redis goes away
    });
    undo.push(async () => stopWaiting.abort());

    const context = async (res: http.ServerResponse): Promise<GraphQLContext> => {
      const report = reportOf(res);
      return createContext({
        principal: report.principal,
        requestId: report.requestId,
        report,
        signal: () => abortedOnClose(res),
        logger: () => logger.child({ reqId: report.requestId }),
      });
    };
    app.use('/graphql', expressMiddleware(apollo, { context: async ({ res }) => context(res) }));
    handle = withGraphqlFastPath(app, { logger, gate, bodyLimitBytes: config.bodyLimitBytes, securityHeaders: headers, apollo, context });
    finishHttpApp(app, logger);

    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(config.port, config.host, () => resolve());
    });
    const { port } = httpServer.address() as AddressInfo;
    const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;

    return {
      url: `http://${shownHost}:${port}/graphql`,
      port,
      verifier,
      embeddedRedis,
      usesDevelopmentSecret,
      rowSource,
      stop: unwind,
    };
  } catch (error) {
    await unwind();
    throw error;
  }
}

/** A signal that fires if the client disconnects before its response was sent (at once if it already has). */
function abortedOnClose(res: { writableFinished: boolean; closed: boolean; once(event: 'close', listener: () => void): unknown }): AbortSignal {
  const controller = new AbortController();
  if (res.closed) {
    if (!res.writableFinished) controller.abort();
    return controller.signal;
  }
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** Records the operation name and error codes for the request's log line. */
const reportPlugin: ApolloServerPlugin<GraphQLContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ contextValue, operationName, request, response }) {
        if (!contextValue.report) return;
        contextValue.report.operation = operationName ?? request.operationName ?? undefined;
        const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
        if (errors?.length) contextValue.report.errorCodes = errors.map((e) => String(e.extensions?.code ?? 'UNKNOWN'));
      },
    };
  },
};
