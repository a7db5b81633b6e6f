// GraphQL over WebSocket (graphql-ws protocol) on the HTTP server's /graphql path. graphql-ws runs
// outside Apollo's pipeline, so authentication, validation rules and error formatting are
// applied here explicitly, the same as over HTTP.
import type { Server as HttpServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { CloseCode, makeServer } from 'graphql-ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { AppError } from '../common/errors';
import { isExpired, type Principal } from '../security/auth';
import { createContext } from '../schema/context';
import { MAX_VARIABLE_ERRORS, type ErrorFormatter } from '../schema/format-error';
import type { DocumentCache } from '../security/document-cache';
import type { OperationCheck } from '../security/operation-check';
import type { TrustedDocuments } from '../security/trusted-documents';
import { originAllowed, originOf } from '../security/origins';
import { clientKey } from '../security/rate-limit';
import type { Refusal, RequestGate } from '../security/request-gate';
import { closeReason, serveGraphqlWs, type SocketExtra, type SocketSession } from './websocket-server';
import type { Logger } from '../common/logger';
import type { WebSocketMetrics } from '../metrics/websocket';
import type { PushPresence } from '../redis/push/presence';
import { deviceOf, SocketPresence } from './socket-presence';

export interface WebSocketOptions {
  httpServer: HttpServer;
  schema: GraphQLSchema;
  gate: RequestGate;
  formatError: ErrorFormatter;
  logger: Logger;
  /** Largest accepted frame, in bytes; a larger one closes the socket (1009). */
  maxPayload: number;
  /** Most operations running at once on one socket; one more is CONFLICT. */
  maxOperations: number;
  /** How long a socket may wait before connection_init (then 4408). */
  initTimeoutMs: number;
  /** Most sockets open at once per signed-in user (service callers exempt; then 1008) and per address (then 429). */
  maxSocketsPerUser: number;
  maxSocketsPerAddress: number;
  allowedOrigins: readonly string[];
  /** Valid documents by text, shared with the HTTP fast path. */
  validDocuments: DocumentCache;
  operationCheck: OperationCheck;
  trusted: TrustedDocuments;
  /** Sockets, subscriptions and operations counted; unset with METRICS=off. */
  metrics?: WebSocketMetrics | undefined;
  /** Devices told over a socket, which push leaves alone; unset: sockets hold no presence. */
  presence?: PushPresence | undefined;
}

export interface WebSocketHandle {
  /** Closes every socket (1001 Going Away) and stops accepting new ones. */
  dispose(): Promise<void>;
}

type ConnectionParams = Record<string, unknown> | undefined;

export function startWebSocketServer(options: WebSocketOptions): WebSocketHandle {
  const log = options.logger.child({ transport: 'ws' });
  const wss = new WebSocketServer({
    server: options.httpServer,
    path: '/graphql',
    maxPayload: options.maxPayload,
    // The handshake: a foreign browser origin gets 403; an address over its rate or holding too
    // many sockets already gets 429.
    verifyClient: ({ req }, done) => {
      if (!originAllowed(originOf(req), req.headers.host, options.allowedOrigins)) {
        log.info({ origin: originOf(req) }, 'websocket refused: origin not allowed');
        return done(false, 403, 'Origin not allowed');
      }
      if ((socketsPerAddress.get(clientKey(req.socket.remoteAddress)) ?? 0) >= options.maxSocketsPerAddress) {
        return done(false, 429, 'Too many connections from this address (WS_MAX_SOCKETS_PER_ADDRESS)');
      }
      options.gate.count(null, req.socket.remoteAddress).then(
        (refusal) => (refusal ? done(false, refusal.status, 'Too many requests', refusal.headers) : done(true)),
        (error: unknown) => {
          log.error({ err: error, code: 'WS_HANDSHAKE_FAILED' }, 'websocket handshake failed');
          done(false, 500, 'Internal server error');
        },
      );
    },
  });
  options.metrics?.watch(wss, options.trusted);
  // Open sockets per address and per user, so one client cannot hold the server's connections;
  // given back when the socket closes (serveGraphqlWs's onClosed, one place for every socket).
  const socketsPerAddress = new Map<string, number>();
  const socketsPerUser = new Map<string, number>();
  const hold = (counts: Map<string, number>, key: string): void => void counts.set(key, (counts.get(key) ?? 0) + 1);
  const release = (counts: Map<string, number>, key: string): void => {
    const left = (counts.get(key) ?? 1) - 1;
    if (left > 0) counts.set(key, left);
    else counts.delete(key);
  };
  wss.on('connection', (_socket, req) => hold(socketsPerAddress, clientKey(req.socket.remoteAddress)));
  // Sockets a provider's token opened: a key the provider withdraws closes those it signed, as
  // expiry would (a rotation after a leak must not leave sockets open on the old key).
  const signedByProviders = new Set<{ socket: WebSocket; source: NonNullable<Principal['source']> }>();
  const stopWatching = options.gate.verifier.onKeysWithdrawn((issuer, thumbprints) => {
    for (const { socket, source } of signedByProviders) {
      if (source.issuer === issuer && thumbprints.includes(source.keyThumbprint)) {
        socket.close(CloseCode.Forbidden, 'Token key withdrawn');
      }
    }
  });
  const format = (errors: readonly GraphQLError[]) => errors.map((error) => options.formatError(error.toJSON(), error));

  const server = makeServer<ConnectionParams, SocketExtra>({
    schema: options.schema,
    connectionInitWaitTimeout: options.initTimeoutMs,

    // Every operation over WebSocket needs a caller: a missing or bad token closes the socket
    // with 4403 Forbidden before anything else happens, the reason a refused token's code.
    onConnect: async (ctx) => {
      const socket = ctx.extra.socket;
      // A device name the chat operations would refuse is refused before the token is looked at.
      const named = deviceOf(ctx.connectionParams);
      if (named.problem !== undefined) {
        log.info({ reason: named.problem }, 'websocket connection refused: bad device');
        socket.close(CloseCode.BadRequest, closeReason(`Bad request: ${named.problem}`));
        return false;
      }
      const identified = await principalFrom(ctx.connectionParams, options.gate);
      // A provider's keys may have been fetched meanwhile, and the client gone.
      if (socket.readyState !== socket.OPEN) return false;
      if (!identified.principal) {
        log.info({ reason: identified.reason }, 'websocket connection refused: missing or invalid token');
        socket.close(CloseCode.Forbidden, `Forbidden: ${identified.reason}`);
        return false;
      }
      const { principal } = identified;
      if (!principal.isService && (socketsPerUser.get(principal.userId) ?? 0) >= options.maxSocketsPerUser) {
        log.info({ user: principal.userId }, 'websocket refused: too many connections for this user');
        socket.close(1008, 'Too many connections for this user (WS_MAX_SOCKETS_PER_USER)');
        return false;
      }
      hold(socketsPerUser, principal.userId);
      const session: SocketSession = { principal, operations: new Map() };
      if (named.device !== undefined && options.presence) {
        session.presence = new SocketPresence(options.presence, principal.userId, named.device);
      }
      ctx.extra.session = session;
      if (principal.source) {
        const signed = { socket, source: principal.source };
        signedByProviders.add(signed);
        socket.once('close', () => signedByProviders.delete(signed));
        // Withdrawn while this socket was being admitted: the event has passed it by.
        if (!options.gate.verifier.trusts(principal)) socket.close(CloseCode.Forbidden, 'Token key withdrawn');
      }
      if (principal.expiresAt !== undefined) closeAtExpiry(socket, principal.expiresAt, session);
      log.debug({ user: principal.userId }, 'websocket connected');
      return true;
    },

    onClose: (ctx, code) => {
      const session = ctx.extra.session;
      clearTimeout(session?.expiryTimer);
      for (const controller of session?.operations.values() ?? []) controller.abort();
      session?.operations.clear();
      session?.presence?.close();
      log.debug({ user: session?.principal.userId, code }, 'websocket closed');
    },

    onSubscribe: async (ctx, id, payload) => {
      const session = ctx.extra.session;
      if (!session || isExpired(session.principal)) {
        return [new GraphQLError('Bearer token has expired', { extensions: { code: 'UNAUTHENTICATED' } })];
      }
      const { principal, operations } = session;
      if (operations.has(id)) {
        // A client that completes an operation and reuses its id before the old one has ended:
        // graphql-ws has forgotten the old id and would run the new one untracked (past the cap,
        // and past the socket's close). Refused as graphql-ws refuses a duplicate id.
        ctx.extra.socket.close(4409, closeReason(`Subscriber for ${id} already exists`));
        return [new GraphQLError(`Subscriber for ${id} already exists`, { extensions: { code: 'BAD_REQUEST' } })];
      }
      if (operations.size >= options.maxOperations) {
        return [
          new GraphQLError(
            `At most ${options.maxOperations} operations may run at once on one connection (WS_MAX_OPERATIONS)`,
            {
              extensions: { code: 'CONFLICT' },
            },
          ),
        ];
      }
      // The slot is taken before the first wait, so a burst cannot pass the cap; a refusal
      // below gives it back (graphql-ws reports no completion for an operation it never ran).
      const controller = new AbortController();
      operations.set(id, controller);
      const refuse = (errors: readonly GraphQLError[]): readonly GraphQLError[] => {
        operations.delete(id);
        return errors;
      };
      let overLimit: Refusal | undefined;
      try {
        overLimit = await options.gate.count(principal, ctx.extra.remoteAddress);
      } catch (error) {
        // A bug, not the caller's doing: this operation fails, the socket and its others go on.
        log.error({ err: error, code: 'WS_INTERNAL_ERROR', user: principal.userId }, 'rate limit could not be counted');
        return refuse([new GraphQLError('Internal server error', { extensions: { code: 'INTERNAL_SERVER_ERROR' } })]);
      }
      if (overLimit)
        return refuse([
          new GraphQLError(overLimit.message, { extensions: { code: overLimit.code, ...overLimit.details } }),
        ]);
      // A registered hash in place of the text (query ""), or a document not registered where
      // only registered ones may run: decided as over HTTP (security/trusted-documents.ts).
      const resolved = options.trusted.resolve(payload.query, payload.extensions, principal);
      if ('error' in resolved) return refuse([resolved.error]);
      const { query } = resolved;
      const document = options.trusted.document(query) ?? options.validDocuments.valid(query);
      if (!('kind' in document)) return refuse(document);
      // As over HTTP: OPERATION_RESOLUTION_FAILURE (graphql-ws's own answer has no code).
      const operation = options.operationCheck.operation(document, payload.operationName);
      if (operation instanceof GraphQLError) return refuse([operation]);
      const contextValue = createContext({
        principal,
        requestId: flatRequestId(),
        signal: () => controller.signal,
        logger: () => log.child({ user: principal.userId, op: payload.operationName }),
      });
      // The name the document gives when the operation came by hash alone, as over HTTP.
      const name = payload.operationName ?? operation.name?.value;
      log.info({ user: principal.userId, operation: name, id }, 'websocket operation');
      options.metrics?.started(ctx.extra, id, payload, operation.operation);
      return {
        schema: options.schema,
        document,
        operationName: payload.operationName,
        variableValues: payload.variables,
        contextValue,
        options: { maxCoercionErrors: MAX_VARIABLE_ERRORS },
      };
    },

    // The subscription's resolver accepted it (a refusal there is an answer with errors, not a
    // stream): said at debug level, which is what a test waits for before it calls it running.
    // An inboxChanged subscription's device is online in Redis by then.
    onOperation: async (ctx, id, _payload, args, result) => {
      if (Symbol.asyncIterator in result) {
        await ctx.extra.session?.presence?.started(id, args);
        log.debug({ user: ctx.extra.session?.principal.userId, id }, 'websocket subscription running');
      }
      return undefined;
    },
    // A subscriber that stops reading costs bounded memory: graphql-ws sends its next frame
    // only once the last one was written, and the PubSub keeps just its newest notifications.
    onNext: (ctx, id, _payload, _args, result) => {
      if (!result.errors) return undefined;
      const errors = format(result.errors);
      options.metrics?.result(ctx.extra, id, errors);
      return { ...result, errors };
    },
    onError: (ctx, id, payload, errors) => {
      ctx.extra.session?.operations.delete(id);
      ctx.extra.session?.presence?.ended(id);
      const formatted = format(errors);
      options.metrics?.failed(ctx.extra, id, payload, formatted);
      return formatted;
    },
    onComplete: (ctx, id) => {
      ctx.extra.session?.operations.delete(id);
      ctx.extra.session?.presence?.ended(id);
      log.debug({ user: ctx.extra.session?.principal.userId, id }, 'websocket operation completed');
      options.metrics?.completed(ctx.extra, id);
    },
  });
  const transport = serveGraphqlWs(wss, server, log, {
    // Operations still running (a wait for a lock) are told to stop when the client cancels
    // them. graphql-ws has no hook for a client's `complete`, so it is read here.
    beforeMessage: (extra, text) => {
      if (extra.session) cancelOnComplete(text, extra.session.operations);
    },
    onClosed: (extra) => {
      release(socketsPerAddress, clientKey(extra.remoteAddress));
      if (extra.session) release(socketsPerUser, extra.session.principal.userId);
    },
  });
  return {
    async dispose() {
      stopWatching();
      await transport.dispose();
    },
  };
}

/** Aborts the operation a client `complete` message names; other messages are left alone. */
function cancelOnComplete(text: string, operations: Map<string, AbortController>): void {
  if (operations.size === 0 || !text.includes('"complete"')) return;
  try {
    const message = JSON.parse(text) as { type?: unknown; id?: unknown };
    if (message.type === 'complete' && typeof message.id === 'string') operations.get(message.id)?.abort();
  } catch {
    // graphql-ws itself answers malformed messages
  }
}

/**
 * A request id as one flat string. randomUUID's is joined from about twenty pieces, which V8
 * keeps as a chain of ~0.5 KB for as long as the string lives: a subscription's whole life.
 */
const flatRequestId = (): string => Buffer.from(randomUUID(), 'latin1').toString('latin1');

const MAX_TIMER_MS = 2 ** 31 - 1;

/** Closes the socket when its token expires; long delays are chained, as timers overflow at ~24.8 days. */
function closeAtExpiry(socket: WebSocket, expiresAt: number, session: SocketSession): void {
  const delay = expiresAt - Date.now();
  session.expiryTimer = setTimeout(
    () => {
      if (delay > MAX_TIMER_MS) closeAtExpiry(socket, expiresAt, session);
      else socket.close(CloseCode.Forbidden, 'Token expired');
    },
    Math.min(Math.max(delay, 0), MAX_TIMER_MS),
  );
  session.expiryTimer.unref();
}

/** The caller connection_init names (the gate's rules, as for an HTTP header), or why there is none. */
async function principalFrom(
  params: ConnectionParams,
  gate: RequestGate,
): Promise<{ principal: Principal; reason?: undefined } | { principal: undefined; reason: string }> {
  try {
    const principal = await gate.identify(params?.authorization ?? params?.Authorization);
    return principal ? { principal } : { principal: undefined, reason: 'no token' };
  } catch (error) {
    const reason = error instanceof AppError ? String(error.details.reason ?? error.code) : 'token not valid';
    return { principal: undefined, reason };
  }
}
