// GET /metrics in the Prometheus text format (docs/operations.md): on the main port for service
// callers, through the request gate like every other path (METRICS=service), or on a listener of
// its own without authentication, for a scraper on a private network (METRICS=port).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Response, type Router } from 'express';
import type { Registry } from 'prom-client';
import { AppError } from '../common/errors';
import type { Logger } from '../common/logger';
import { authorize, SERVICE_ROLE } from '../security/auth';
import type { RequestGate } from '../security/request-gate';
import { admit, reportOf, sendError } from './http';

/** For app.use('/metrics', ...): a service caller's token, as a service-only GraphQL field asks. */
export function metricsRoutes(gate: RequestGate, registry: Registry, logger: Logger): Router {
  const router = express.Router();
  router.get('/', admit(gate), (_req, res) => {
    const report = reportOf(res);
    report.operation = 'metrics';
    report.registered = true;
    try {
      authorize(report.principal, [SERVICE_ROLE]);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const unauthenticated = error.code === 'UNAUTHENTICATED';
      if (unauthenticated) res.setHeader('www-authenticate', 'Bearer');
      return sendError(res, unauthenticated ? 401 : 403, error.code, error.message);
    }
    void scrape(registry, res, logger).catch(() => {
      if (!res.headersSent) sendError(res, 500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
    });
  });
  return router;
}

export interface MetricsListener {
  /** http://host:port/metrics */
  url: string;
  close(): Promise<void>;
}

/** A listener of its own that answers GET /metrics to anyone who reaches it, and 404 to the rest. */
export async function startMetricsListener(options: {
  registry: Registry;
  host: string;
  port: number;
  logger: Logger;
}): Promise<MetricsListener> {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/metrics' || req.url?.startsWith('/metrics?'))) {
      void scrape(options.registry, res, options.logger).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found; the metrics are at /metrics\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        // A scraper keeps its connection open between scrapes: close it rather than wait for it.
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function scrape(registry: Registry, res: http.ServerResponse | Response, logger: Logger): Promise<void> {
  try {
    const text = await registry.metrics();
    res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
    res.end(text);
  } catch (error) {
    logger.error({ err: error }, 'metrics could not be gathered');
    throw error;
  }
}
