// Requests on the HTTP port by route, operation and outcome code, and their latency; both HTTP
// paths (express and the GraphQL fast path) report through transports/http.ts logRequest.
import type { Registry } from 'prom-client';
import { CodeLabels, OperationLabels } from './labels';
import { FastCounter, FastHistogram, REQUEST_SECONDS, type CounterChild, type HistogramChild } from './fast';

/** What a request's report (transports/http.ts RequestReport) says of it once answered. */
export interface AnsweredRequest {
  operation?: string | undefined;
  /** Whether its document is a registered one; undefined when no document was read. */
  registered?: boolean;
  errorCodes?: string[];
}

interface Series {
  latency: HistogramChild;
  byCode: Map<string, CounterChild>;
}

export class HttpMetrics {
  private readonly requests: FastCounter;
  private readonly latency: FastHistogram;
  private readonly operations = new OperationLabels();
  private readonly codes = new CodeLabels();
  /** route -> operation -> its series, so a request costs two map lookups, not a label hash. */
  private readonly series = new Map<string, Map<string, Series>>();

  constructor(registry: Registry) {
    this.requests = new FastCounter(
      'ria_http_requests_total',
      'HTTP requests answered, by route, GraphQL operation and outcome code (ok, or the first error code)',
      ['route', 'operation', 'code'],
      registry,
    );
    this.latency = new FastHistogram(
      'ria_http_request_duration_seconds',
      'Time from a request arriving to its answer sent, by route and GraphQL operation',
      ['route', 'operation'],
      registry,
      REQUEST_SECONDS,
    );
  }

  observe(path: string, status: number, request: AnsweredRequest, seconds: number): void {
    const route = routeOf(path);
    const operation = this.operations.of(request.operation, request.registered);
    const code = this.codes.of(request.errorCodes?.[0] ?? (status >= 400 ? `HTTP_${status}` : undefined));
    let byOperation = this.series.get(route);
    if (!byOperation) this.series.set(route, (byOperation = new Map<string, Series>()));
    let series = byOperation.get(operation);
    if (!series) {
      series = { latency: this.latency.child(route, operation), byCode: new Map() };
      byOperation.set(operation, series);
    }
    series.latency.observe(seconds);
    let counter = series.byCode.get(code);
    if (!counter) series.byCode.set(code, (counter = this.requests.child(route, operation, code)));
    counter.inc();
  }
}

/** The route label: one of a few fixed values, never the path as sent. */
function routeOf(path: string): string {
  if (path === '/graphql') return 'graphql';
  if (path === '/healthz' || path === '/readyz') return 'probe';
  if (path === '/metrics') return 'metrics';
  if (path === '/logs' || path.startsWith('/logs/')) return 'logs';
  if (path === '/app' || path.startsWith('/app/')) return 'app';
  return 'other';
}
