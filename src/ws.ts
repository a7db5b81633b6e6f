// GraphQL over WebSocket (graphql-ws protocol) on the HTTP server's /graphql path. graphql-ws runs
// outside Apollo's pipeline, so authentication, validation rules and error formatting are
// applied here explicitly, the same as over HTTP.
import type { Server as HttpServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import {
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { bearerToken, isExpired, type Principal, type TokenVerifier } from './auth';
import type { Logger } from './logger';
import type { GraphQLContext } from './schema/context';
import type { ErrorFormatter } from './schema/format-error';

export interface WebSocketOptions {
  httpServer: HttpServer;
  schema: GraphQLSchema;
  verifier: TokenVerifier;
  formatError: ErrorFormatter;
  logger: Logger;
  introspection: boolean;
  /** Largest accepted frame, in bytes. */
  maxPayload: number;
}

export interface WebSocketHandle {
  /** Closes every socket (1001 Going Away) and stops accepting new ones. */
  dispose(): Promise<void>;
}

type ConnectionParams = Record<string, unknown> | undefined;

const CONNECTION_INIT_WAIT_MS = 5000;

export function startWebSocketServer(options: WebSocketOptions): WebSocketHandle {
  const log = options.logger.child({ transport: 'ws' });
  const wss = new WebSocketServer({ server: options.httpServer, path: '/graphql', maxPayload: options.maxPayload });
  const principals = new WeakMap<WebSocket, Principal>();
  const expiryTimers = new WeakMap<WebSocket, NodeJS.Timeout>();
  // Operations still running (a wait for a lock) are told to stop when the client cancels them
  // or the socket closes. graphql-ws has no hook for a client's `complete`, so it is read here.
  const running = new WeakMap<WebSocket, Map<string, AbortController>>();
  const rules: ValidationRule[] = options.introspection ? [...specifiedRules] : [...specifiedRules, NoSchemaIntrospectionCustomRule];
  const format = (errors: readonly GraphQLError[]) => errors.map((error) => options.formatError(error.toJSON(), error));

  const handle = useServer<ConnectionParams, Extra & Record<PropertyKey, unknown>>(
    {
      schema: options.schema,
      connectionInitWaitTimeout: CONNECTION_INIT_WAIT_MS,

      // Every operation over WebSocket needs a caller: a missing or bad token closes the socket
      // with 4403 Forbidden before anything else happens.
      onConnect: (ctx) => {
        const principal = principalFrom(ctx.connectionParams, options.verifier);
        if (!principal) {
          log.info('websocket connection refused: missing or invalid token');
          return false;
        }
        principals.set(ctx.extra.socket, principal);
        const operations = new Map<string, AbortController>();
        running.set(ctx.extra.socket, operations);
        ctx.extra.socket.on('message', (data) => cancelOnComplete(data, operations));
        if (principal.expiresAt !== undefined) closeAtExpiry(ctx.extra.socket, principal.expiresAt, expiryTimers);
        log.debug({ user: principal.userId }, 'websocket connected');
        return true;
      },

      onClose: (ctx, code) => {
        clearTimeout(expiryTimers.get(ctx.extra.socket));
        for (const controller of running.get(ctx.extra.socket)?.values() ?? []) controller.abort();
        running.delete(ctx.extra.socket);
        log.debug({ user: principals.get(ctx.extra.socket)?.userId, code }, 'websocket closed');
      },

      onSubscribe: (ctx, id, payload) => {
        const principal = principals.get(ctx.extra.socket) ?? null;
        if (!principal || isExpired(principal)) {
          return [new GraphQLError('Bearer token has expired', { extensions: { code: 'UNAUTHENTICATED' } })];
        }
        let document: DocumentNode;
        try {
          document = parse(payload.query);
        } catch (error) {
          const message = error instanceof GraphQLError ? error.message : 'Syntax error';
          return [new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })];
        }
        const errors = validate(options.schema, document, rules);
        if (errors.length > 0) {
          return errors.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }));
        }
        const controller = new AbortController();
        running.get(ctx.extra.socket)?.set(id, controller);
        const contextValue: GraphQLContext = {
          principal,
          requestId: randomUUID(),
          signal: controller.signal,
          logger: log.child({ user: principal.userId, op: payload.operationName }),
        };
        log.info({ user: principal.userId, operation: payload.operationName, id }, 'websocket operation');
        return {
          schema: options.schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue,
        };
      },

      // A subscriber that stops reading costs bounded memory: graphql-ws sends its next frame
      // only once the last one was written, and the PubSub keeps just its newest notifications.
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: format(result.errors) } : undefined,
      onError: (ctx, id, _payload, errors) => {
        running.get(ctx.extra.socket)?.delete(id);
        return format(errors);
      },
      onComplete: (ctx, id) => {
        running.get(ctx.extra.socket)?.delete(id);
      },
    },
    wss,
  );

  return {
    async dispose() {
      await handle.dispose();
    },
  };
}

/** Aborts the operation a client `complete` message names; other messages are left alone. */
function cancelOnComplete(data: unknown, operations: Map<string, AbortController>): void {
  if (operations.size === 0) return;
  const text = Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
  if (!text.includes('"complete"')) return;
  try {
    const message = JSON.parse(text) as { type?: unknown; id?: unknown };
    if (message.type === 'complete' && typeof message.id === 'string') operations.get(message.id)?.abort();
  } catch {
    // graphql-ws itself answers malformed messages
  }
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/** Closes the socket when its token expires; long delays are chained, as timers overflow at ~24.8 days. */
function closeAtExpiry(socket: WebSocket, expiresAt: number, timers: WeakMap<WebSocket, NodeJS.Timeout>): void {
  const delay = expiresAt - Date.now();
  const timer = setTimeout(() => {
    if (delay > MAX_TIMER_MS) closeAtExpiry(socket, expiresAt, timers);
    else socket.close(CloseCode.Forbidden, 'Token expired');
  }, Math.min(Math.max(delay, 0), MAX_TIMER_MS));
  timer.unref();
  timers.set(socket, timer);
}

function principalFrom(params: ConnectionParams, verifier: TokenVerifier): Principal | undefined {
  const header = params?.authorization ?? params?.Authorization;
  if (typeof header !== 'string') return undefined;
  try {
    const token = bearerToken(header);
    return token === undefined ? undefined : verifier.verify(token);
  } catch {
    return undefined;
  }
}
