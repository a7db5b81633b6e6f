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
        if (principal.expiresAt !== undefined) closeAtExpiry(ctx.extra.socket, principal.expiresAt, expiryTimers);
        log.debug({ user: principal.userId }, 'websocket connected');
        return true;
      },

      onClose: (ctx, code) => {
        clearTimeout(expiryTimers.get(ctx.extra.socket));
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
        const contextValue: GraphQLContext = {
          principal,
          requestId: randomUUID(),
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
      onError: (_ctx, _id, _payload, errors) => format(errors),
    },
    wss,
  );

  return {
    async dispose() {
      await handle.dispose();
    },
  };
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
