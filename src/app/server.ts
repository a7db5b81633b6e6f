// Starts the API and knows the order in which to take it down: builds the parts (parts.ts), then
// the request gate, the HTTP and WebSocket transports and Apollo in front of them.
import http from 'node:http';
import { validate, type DocumentNode } from 'graphql';
import type { AddressInfo } from 'node:net';
import { ApolloServer, type ApolloServerPlugin, type GraphQLRequestListener } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import type { TokenVerifier } from '../security/auth';
import type { Config } from '../config';
import type { SqlRowSource } from '../db/row-source';
import { withGraphqlFastPath } from '../transports/http-fast-path';
import { registeredExecution } from '../transports/http-registered';
import { createHttpApp, finishHttpApp, reportErrors, reportOf, securityHeaders } from '../transports/http';
import { logUploadRoutes } from '../transports/log-upload';
import { DEFAULT_WEB_APP_DIR, webAppRoutes } from '../transports/web-app';
import type { Logger } from '../common/logger';
import { buildParts } from './parts';
import { pingRedis } from '../redis/client/connection';
import type { EmbeddedRedis } from '../redis/client/embedded';
import { createContext, type GraphQLContext } from '../schema/context';
import { createErrorFormatter, MAX_VARIABLE_ERRORS } from '../schema/format-error';
import { DOCUMENT_CACHE_CHARS, DocumentCache } from '../security/document-cache';
import { documentGuard } from '../security/document-limits';
import { createOperationCheck, operationCheckPlugin } from '../security/operation-check';
import { RateLimits } from '../security/rate-limit';
import { RequestGate } from '../security/request-gate';
import { loadTrustedDocuments, trustedDocumentsPlugin, type TrustedDocuments } from '../security/trusted-documents';
import { Teardown } from './teardown';
import { startWebSocketServer } from '../transports/websocket';
import { metricsRoutes, startMetricsListener } from '../transports/metrics';
import { apiMetrics } from '../metrics';
import { Registry } from 'prom-client';

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
  /** With METRICS=port: http://host:port/metrics. */
  metricsUrl: string | undefined;
  stop(): Promise<void>;
}

export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const teardown = new Teardown(logger);
  try {
    // One registry for this server (docs/operations.md); none at all with METRICS=off.
    const metrics = config.metrics.mode === 'off' ? undefined : apiMetrics(new Registry());
    const parts = await buildParts(config, logger, teardown, metrics);
    const { schema, verifier, commands } = parts;

    const documents = documentGuard(config.security);
    const operationCheck = createOperationCheck({ schema, introspection: config.introspection, documents });
    const check = {
      parse: (text: string) => documents.parse(text),
      validate: (document: DocumentNode) => operationCheck.validate(document),
    };
    const trusted = loadTrustedDocuments(
      config.security.trustedDocuments,
      { ...check, limitErrors: (document) => validate(schema, document, documents.rules) },
      (message) => logger.warn(message),
    );
    // Text documents that may run, by text, for HTTP and WebSocket: one bound for both.
    const validDocuments = new DocumentCache(DOCUMENT_CACHE_CHARS, check);
    logger.info(
      {
        documents: trusted.count,
        mode: trusted.mode,
        file: config.security.trustedDocuments.file ?? 'the project manifest',
      },
      'trusted documents loaded',
    );
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
      metrics: metrics?.http,
    });
    if (metrics && config.metrics.mode === 'service')
      app.use('/metrics', metricsRoutes(gate, metrics.registry, logger));
    app.use(
      '/logs',
      logUploadRoutes({
        gate,
        repository: parts.locations,
        settings: config.location,
        allowedOrigins: config.security.allowedOrigins,
        logger,
      }),
    );
    if (config.webApp.enabled) {
      app.use(
        '/app',
        webAppRoutes({
          dir: config.webApp.dir ?? DEFAULT_WEB_APP_DIR,
          gate,
          verifier,
          devSignIn: parts.usesDevelopmentSecret && !config.isProduction,
          providerSignIn: config.oidc.webApp,
          webPushPublicKey: config.push.webPush?.publicKey,
        }),
      );
    }
    // The handler is set once Apollo has started (the fast path needs it); until then, the app.
    let handle: http.RequestListener = app;
    const httpServer = http.createServer((req, res) => handle(req, res));
    const formatError = createErrorFormatter({
      isProduction: config.isProduction,
      logger,
      fieldSuggestions: config.security.fieldSuggestions,
    });
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
      validDocuments,
      operationCheck,
      trusted,
      metrics: metrics?.webSocket,
      presence: parts.presence,
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
      // graphql-js's own default, stated so that the error after the last one can name it.
      executionOptions: { maxCoercionErrors: MAX_VARIABLE_ERRORS },
      logger: logger.child({ component: 'apollo' }),
      // main.ts owns signals; Apollo's own handler would re-raise SIGTERM in the middle of our drain.
      stopOnTerminationSignals: false,
      plugins: [
        ApolloServerPluginDrainHttpServer({ httpServer, stopGracePeriodMillis: config.shutdownTimeoutMs / 2 }),
        { serverWillStart: async () => ({ drainServer: () => ws.dispose() }) },
        // No field has a cache hint, so its answer was always `no-store`, computed by wrapping
        // every resolver (3-20 µs an operation); both HTTP paths set the header instead (http.ts).
        ApolloServerPluginCacheControlDisabled(),
        trustedDocumentsPlugin(trusted),
        reportPlugin(trusted),
        operationCheckPlugin(operationCheck, formatError),
        config.isProduction
          ? ApolloServerPluginLandingPageDisabled()
          : ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }),
      ],
    });
    await apollo.start();
    teardown.add(async () => {
      draining = true;
      await apollo.stop(); // drains HTTP and closes WebSockets before Redis goes away
    });
    teardown.add(async () => parts.stopWaiting.abort());

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
    handle = withGraphqlFastPath(app, {
      logger,
      gate,
      bodyLimitBytes: config.bodyLimitBytes,
      securityHeaders: headers,
      apollo,
      context,
      metrics: metrics?.http,
      registered: registeredExecution({
        schema,
        trusted,
        texts: validDocuments,
        formatError,
        includeStacktrace: !config.isProduction,
        isDraining: () => draining,
      }),
    });
    finishHttpApp(app, logger);

    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(config.port, config.host, () => resolve());
    });
    const { port } = httpServer.address() as AddressInfo;
    const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
    let metricsUrl: string | undefined;
    if (metrics && config.metrics.mode === 'port') {
      const listener = await startMetricsListener({ registry: metrics.registry, ...config.metrics, logger });
      teardown.add(() => listener.close());
      metricsUrl = listener.url;
    }

    return {
      url: `http://${shownHost}:${port}/graphql`,
      port,
      verifier,
      embeddedRedis: parts.embeddedRedis,
      usesDevelopmentSecret: parts.usesDevelopmentSecret,
      rowSource: parts.rowSource,
      metricsUrl,
      stop: () => teardown.run(),
    };
  } catch (error) {
    await teardown.run();
    throw error;
  }
}

/** A signal that fires if the client disconnects before its response was sent (at once if it already has). */
function abortedOnClose(res: {
  writableFinished: boolean;
  closed: boolean;
  once(event: 'close', listener: () => void): unknown;
}): AbortSignal {
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

/**
 * Records the operation name and error codes for the request's log line and metrics (one listener
 * for every request). The metrics name an operation only when it resolved in a registered
 * document: the name a client sends with another document is its own choice.
 */
function reportPlugin(trusted: TrustedDocuments): ApolloServerPlugin<GraphQLContext> {
  const listener: GraphQLRequestListener<GraphQLContext> = {
    willSendResponse({ contextValue, operation, operationName, request, response }) {
      if (!contextValue.report) return Promise.resolve();
      contextValue.report.operation = operationName ?? request.operationName ?? undefined;
      contextValue.report.registered = operation !== undefined && trusted.document(request.query ?? '') !== undefined;
      if (response.body.kind === 'single') reportErrors(contextValue.report, response.body.singleResult.errors ?? []);
      return Promise.resolve();
    },
  };
  return { requestDidStart: () => Promise.resolve(listener) };
}
