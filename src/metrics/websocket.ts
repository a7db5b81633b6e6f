// GraphQL over WebSocket: sockets open and closed (by close code), subscriptions running, and
// every operation by name and outcome code once it ends, with the latency of queries and
// mutations (a subscription's lifetime is not a latency). transports/websocket.ts reports here
// from graphql-ws's hooks.
import type { Registry } from 'prom-client';
import { Gauge } from 'prom-client';
import { getOperationAST, OperationTypeNode } from 'graphql';
import type { WebSocketServer } from 'ws';
import type { TrustedDocuments } from '../security/trusted-documents';
import { CodeLabels, OperationLabels, OTHER } from './labels';
import { FastCounter, FastHistogram, REQUEST_SECONDS } from './fast';

/** What graphql-ws hands each hook of an operation. */
interface OperationPayload {
  query?: unknown;
  operationName?: string | null | undefined;
  extensions?: unknown;
}

interface Running {
  operation: string;
  subscription: boolean;
  started: number;
  /** The first error's code, once one was sent. */
  code: string | undefined;
}

/**
 * Close codes with a series of their own: the standard ones and graphql-ws's. A client may close
 * with any code from 3000 to 4999, so the rest are `other`.
 */
const CLOSE_CODES = new Set([
  1000, 1001, 1002, 1003, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 4400, 4401, 4403, 4406, 4408, 4409, 4429, 4499,
  4500,
]);

type Errors = readonly { extensions?: { code?: unknown } | undefined }[] | undefined;

export class WebSocketMetrics {
  private readonly servers = new Set<WebSocketServer>();
  private trusted: TrustedDocuments | undefined;
  private subscriptions = 0;
  /** Operations running, per socket (graphql-ws's ctx.extra) and id. */
  private readonly running = new WeakMap<object, Map<string, Running>>();
  private readonly operations = new OperationLabels();
  private readonly codes = new CodeLabels();
  private readonly connections: FastCounter;
  private readonly closes: FastCounter;
  private readonly ended: FastCounter;
  private readonly latency: FastHistogram;

  constructor(registry: Registry) {
    const servers = this.servers;
    new Gauge({
      name: 'ria_ws_sockets_open',
      help: 'WebSockets open now, signed in or not yet',
      registers: [registry],
      collect() {
        this.set([...servers].reduce((sum, wss) => sum + wss.clients.size, 0));
      },
    });
    const subscriptions = (): number => this.subscriptions;
    new Gauge({
      name: 'ria_ws_subscriptions_active',
      help: 'GraphQL subscriptions running now over WebSocket',
      registers: [registry],
      collect() {
        this.set(subscriptions());
      },
    });
    this.connections = new FastCounter('ria_ws_connections_total', 'WebSockets opened', [], registry);
    this.closes = new FastCounter(
      'ria_ws_closes_total',
      'WebSockets closed, by close code (4403: no valid token, 1008: too many sockets for a user, 4408: no connection_init in time)',
      ['code'],
      registry,
    );
    this.ended = new FastCounter(
      'ria_ws_operations_total',
      'GraphQL operations over WebSocket once ended, by operation and outcome code (ok, or the first error code)',
      ['operation', 'code'],
      registry,
    );
    this.latency = new FastHistogram(
      'ria_ws_operation_duration_seconds',
      'Time from a query or mutation over WebSocket arriving to its end, by operation',
      ['operation'],
      registry,
      REQUEST_SECONDS,
    );
  }

  /** Counts this server's sockets; `trusted` tells which documents' operations are named. */
  watch(wss: WebSocketServer, trusted: TrustedDocuments): void {
    this.servers.add(wss);
    this.trusted = trusted;
    wss.on('connection', (socket) => {
      this.connections.child().inc();
      socket.once('close', (code: number) => this.closes.child(CLOSE_CODES.has(code) ? String(code) : OTHER).inc());
    });
    wss.once('close', () => this.servers.delete(wss));
  }

  /** onSubscribe let it run. */
  started(socket: object, id: string, payload: OperationPayload, type: OperationTypeNode): void {
    let running = this.running.get(socket);
    if (!running) this.running.set(socket, (running = new Map<string, Running>()));
    const subscription = type === OperationTypeNode.SUBSCRIPTION;
    if (subscription) this.subscriptions++;
    running.set(id, { operation: this.label(payload), subscription, started: performance.now(), code: undefined });
  }

  /** A result was sent (onNext): its first error, if any, is the outcome. */
  result(socket: object, id: string, errors: Errors): void {
    const one = this.running.get(socket)?.get(id);
    if (one && errors?.length && one.code === undefined) one.code = this.codes.of(errors[0].extensions?.code);
  }

  /** An error message was sent (onError): the operation was refused before it ran, or failed while it ran. */
  failed(socket: object, id: string, payload: OperationPayload, errors: Errors): void {
    const one = this.running.get(socket)?.get(id);
    if (one) {
      one.code ??= this.codes.of(errors?.[0]?.extensions?.code);
      return;
    }
    this.ended.child(this.label(payload), this.codes.of(errors?.[0]?.extensions?.code)).inc();
  }

  /** The operation ended (onComplete): completed, cancelled by the client, or its socket closed. */
  completed(socket: object, id: string): void {
    const running = this.running.get(socket);
    const one = running?.get(id);
    if (!one) return;
    running!.delete(id);
    if (one.subscription) this.subscriptions--;
    else this.latency.child(one.operation).observe((performance.now() - one.started) / 1000);
    this.ended.child(one.operation, one.code ?? 'ok').inc();
  }

  /**
   * As over HTTP (labels.ts): the name a registered document gives the operation (never the name
   * the client sent), else `unregistered`.
   */
  private label(payload: OperationPayload): string {
    const resolved = this.trusted?.resolve(payload.query, payload.extensions, null);
    const document = resolved && 'query' in resolved ? this.trusted!.document(resolved.query) : undefined;
    const operation = document && getOperationAST(document, payload.operationName);
    if (!operation) return this.operations.of(undefined, false);
    return this.operations.of(operation.name?.value, true);
  }
}
