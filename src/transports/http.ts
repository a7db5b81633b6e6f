// The express side of the server: request ids and one log line per request, security headers,
// health probes, the request gate, and JSON errors for anything before GraphQL.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import type { GraphQLFormattedError } from 'graphql';
import type { Principal } from '../security/auth';
import type { Logger } from '../common/logger';
import { originPolicy } from '../security/origins';
import { errorBody, type RequestGate } from '../security/request-gate';
import { withTimeout } from '../common/timeout';
import type { HttpMetrics } from '../metrics/http';

/** Filled in while a request runs, read by the request log line when it finishes. */
export interface RequestReport {
  requestId: string;
  principal: Principal | null;
  operation?: string | undefined;
  /** Whether the document is a registered one (its operation is named in the metrics); unset until one is read. */
  registered?: boolean;
  errorCodes?: string[];
}

export interface HttpAppOptions {
  logger: Logger;
  gate: RequestGate;
  isProduction: boolean;
  bodyLimitBytes: number;
  /** Resolves when Redis answers; rejects or stays pending when it does not. */
  pingStore: () => Promise<unknown>;
  isDraining: () => boolean;
  /** Browser origins allowed besides the server's own (ALLOWED_ORIGINS). */
  allowedOrigins: readonly string[];
  /** From securityHeaders(); the GraphQL fast path sets the same headers. */
  securityHeaders: RequestHandler;
  /** Counts and times every request; unset with METRICS=off. */
  metrics?: HttpMetrics | undefined;
}

/** helmet's headers. Apollo Sandbox's page loads its scripts from Apollo's CDN, which a strict CSP would block. */
export function securityHeaders(isProduction: boolean): RequestHandler {
  return helmet({ contentSecurityPolicy: isProduction ? undefined : false });
}

export const REQUEST_ID = /^[A-Za-z0-9\-_.:]{1,128}$/;
const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/** The error codes of a GraphQL answer, for its log line (Apollo's answers and registered ones alike). */
export function reportErrors(report: { errorCodes?: string[] }, errors: readonly GraphQLFormattedError[]): void {
  if (errors.length) report.errorCodes = errors.map((e) => String(e.extensions?.code ?? 'UNKNOWN'));
}

/** The report of a request, on the express path and on the GraphQL fast path alike (res.locals). */
export function reportOf(res: ServerResponse): RequestReport {
  return (res as ServerResponse & { locals: { report: RequestReport } }).locals.report;
}

export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(requestLog(options.logger, options.metrics));
  app.use(options.securityHeaders);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    if (options.isDraining()) {
      res.status(503).json({ status: 'draining' });
      return;
    }
    const answered = await withTimeout(options.pingStore(), 1000).then(
      () => true,
      () => false,
    );
    res.status(answered ? 200 : 503).json({ status: answered ? 'ready' : 'store unavailable' });
  });

  app.use(
    '/graphql',
    noStore,
    originPolicy(options.allowedOrigins, (res) =>
      sendError(res, 403, 'FORBIDDEN', 'Requests from this origin are not allowed (ALLOWED_ORIGINS)'),
    ),
    admit(options.gate),
    express.json({ limit: options.bodyLimitBytes }),
  );
  return app;
}

/** Handlers added after the GraphQL middleware: JSON 404s and JSON errors. */
export function finishHttpApp(app: Express, logger: Logger): void {
  app.use((_req, res) => {
    sendError(res, 404, 'NOT_FOUND', 'Not found; the API is at /graphql');
  });
  const onError: ErrorRequestHandler = (
    error: { status?: number; type?: string; message?: string },
    _req,
    res,
    _next,
  ) => {
    if (error.type === 'entity.too.large') return sendError(res, 413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
    if (error.status && error.status >= 400 && error.status < 500) {
      return sendError(
        res,
        error.status,
        'BAD_REQUEST',
        error.type === 'entity.parse.failed' ? 'Request body is not valid JSON' : 'Bad request',
      );
    }
    logger.error({ err: error }, 'unexpected HTTP error');
    sendError(res, 500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
  };
  app.use(onError);
}

/**
 * Every answer under /graphql is for one caller at one moment: never cached. Apollo's
 * cache-control plugin, which said so, is off (server.ts); the fast path sets the same header.
 */
export const NO_STORE: [string, string] = ['cache-control', 'no-store'];

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader(...NO_STORE);
  next();
};

function requestLog(logger: Logger, metrics: HttpMetrics | undefined): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const report: RequestReport = { requestId, principal: null };
    res.locals.report = report;
    res.setHeader('x-request-id', requestId);
    logRequest(logger, req, res, report, metrics);
    next();
  };
}

/** One log line when the answer has gone (probes at debug level), and the request's metrics. */
export function logRequest(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  report: RequestReport,
  metrics?: HttpMetrics,
): void {
  // Below info nothing would be written (probes log at debug): without metrics, no clock read, no listener.
  const logs = logger.isLevelEnabled('info');
  if (!logs && !metrics) return;
  const started = performance.now();
  // Read now: express rewrites req.url inside mounted middleware.
  const path = (req.url ?? '').split('?')[0];
  res.on('finish', () => {
    const ms = performance.now() - started;
    metrics?.observe(path, res.statusCode, report, ms / 1000);
    if (!logs) return;
    const entry = {
      reqId: report.requestId,
      method: req.method,
      path,
      status: res.statusCode,
      ms,
      user: report.principal?.userId,
      operation: report.operation,
      errors: report.errorCodes,
    };
    if (PROBE_PATHS.has(path)) logger.debug(entry, 'request');
    else logger.info(entry, 'request');
  });
}

/**
 * The request gate (security/request-gate.ts), before the body is read: a refused or limited
 * client costs little. No header: anonymous (introspection, Sandbox).
 */
export function admit(gate: RequestGate): RequestHandler {
  return (req, res, next) => {
    gate
      .admit(req.headers.authorization, req.socket.remoteAddress)
      .then(({ principal, refusal, error }) => {
        reportOf(res).principal = principal;
        if (error !== undefined) return next(error);
        if (!refusal) return next();
        for (const [name, value] of Object.entries(refusal.headers)) res.setHeader(name, value);
        sendError(res, refusal.status, refusal.code, refusal.message, refusal.details);
      })
      .catch(next);
  };
}

export function sendError(
  res: express.Response,
  status: number,
  code: string,
  message: string,
  details: Record<string, unknown> = {},
): void {
  reportOf(res).errorCodes = [code];
  res.status(status).json(errorBody(code, message, details));
}
