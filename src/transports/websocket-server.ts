// graphql-ws's protocol server (makeServer) on the `ws` WebSocketServer, in place of graphql-ws's
// own `useServer` adapter: that one reports socket errors and failed messages with console.error,
// which writes multi-line stack traces among the JSON log lines, and answers a socket error (a
// frame over maxPayload, which `ws` already closes with 1009) by trying to close it with 1011.
// Here both are log lines of the server's logger, each with a code (WS_PAYLOAD_TOO_LARGE,
// WS_INVALID_UTF8, WS_INVALID_FRAME, WS_INTERNAL_ERROR, ...).
import { CloseCode, handleProtocols, type Server, type WebSocket as ProtocolSocket } from 'graphql-ws';
import { WebSocket, type WebSocketServer } from 'ws';
import type { Principal } from '../security/auth';
import type { Logger } from '../common/logger';
import type { SocketPresence } from './socket-presence';

/** What every graphql-ws hook finds in `ctx.extra`. */
export type SocketExtra = {
  readonly socket: WebSocket;
  /** The client's address; the upgrade request itself is not kept (its headers cost every socket ~1 KB). */
  readonly remoteAddress: string | undefined;
  /** Set once connection_init was accepted (ws.ts). */
  session?: SocketSession;
};

/** What the server keeps about one accepted socket, for as long as it is open. */
export interface SocketSession {
  principal: Principal;
  /** Operations running, by id: told to stop when the client completes one or the socket closes. */
  operations: Map<string, AbortController>;
  /** Closes the socket when the token expires. */
  expiryTimer?: NodeJS.Timeout;
  /** Set when connection_init named a device and presence is on: its running inboxChanged subscriptions. */
  presence?: SocketPresence;
}

export interface Transport {
  /** Closes every socket (1001 Going Away) and stops accepting new ones. */
  dispose(): Promise<void>;
}

/** A WebSocket close frame holds at most 123 bytes of reason. */
const MAX_CLOSE_REASON_BYTES = 123;

/**
 * `reason` cut to what a close frame can carry (at a whole character, with an ellipsis): `ws`
 * throws on a longer one, and graphql-ws puts the client's own operation id into some reasons
 * ("Subscriber for <id> already exists"), which would turn a 4409 into a 4500.
 */
export function closeReason(reason: string | undefined): string | undefined {
  if (reason === undefined || Buffer.byteLength(reason) <= MAX_CLOSE_REASON_BYTES) return reason;
  let cut = '';
  for (const character of reason) {
    if (Buffer.byteLength(cut + character) > MAX_CLOSE_REASON_BYTES - 3) break;
    cut += character;
  }
  return `${cut}…`;
}

/** The log line's code for the error `ws` closed a socket on (its own code is kept beside it). */
export function socketErrorCode(wsCode: string | undefined): string {
  switch (wsCode) {
    case 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH': // over maxPayload
    case 'WS_ERR_UNSUPPORTED_DATA_PAYLOAD_LENGTH': // a length over 2^53 - 1
    case 'WS_ERR_TOO_MANY_BUFFERED_PARTS': // a message in too many fragments
      return 'WS_PAYLOAD_TOO_LARGE';
    case 'WS_ERR_INVALID_UTF8':
      return 'WS_INVALID_UTF8';
    case undefined:
      return 'WS_SOCKET_ERROR';
    default:
      return 'WS_INVALID_FRAME';
  }
}

export interface ServeOptions {
  /** A socket that has not answered the last ping by the next, `keepAliveMs` later, is dropped. */
  keepAliveMs?: number;
  /** Sees every text message before graphql-ws does (websocket.ts reads a client's `complete` there). */
  beforeMessage?: (extra: SocketExtra, text: string) => void;
  /** The socket has closed, before graphql-ws's own close handling (which waits for its operations to end). */
  onClosed?: (extra: SocketExtra) => void;
}

/**
 * How often a slice of the sockets is pinged: every socket once per keepAliveMs, in small slices
 * (at 20,000 sockets and 12 s, 167 pings every 100 ms), so no single tick holds up deliveries.
 */
const PING_TICK_MS = 100;

/**
 * Pings every socket once per `keepAliveMs` and drops one that has not answered the ping before:
 * one timer for the server, the sockets in slices so their pings spread over the period. (A timer,
 * a closure and a pong listener of its own per socket cost each idle socket about 0.4 KB.)
 */
class KeepAlive {
  private readonly slices: Set<WebSocket>[];
  private readonly unanswered = new Set<WebSocket>();
  private added = 0;
  private turn = 0;
  private readonly timer: NodeJS.Timeout;
  /** The one pong listener of every socket (`ws` calls it with the socket as `this`). */
  private readonly onPong: (this: WebSocket) => void;

  constructor(keepAliveMs: number) {
    const slices = Math.max(1, Math.round(keepAliveMs / PING_TICK_MS));
    this.slices = Array.from({ length: slices }, () => new Set<WebSocket>());
    this.timer = setInterval(() => this.pingSlice(), Math.max(1, Math.round(keepAliveMs / slices)));
    this.timer.unref();
    const unanswered = this.unanswered;
    this.onPong = function (this: WebSocket) {
      unanswered.delete(this);
    };
  }

  add(socket: WebSocket): void {
    this.slices[this.added++ % this.slices.length].add(socket);
    socket.on('pong', this.onPong);
  }

  remove(socket: WebSocket): void {
    this.unanswered.delete(socket);
    for (const slice of this.slices) if (slice.delete(socket)) return;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private pingSlice(): void {
    for (const socket of this.slices[this.turn++ % this.slices.length]) {
      if (this.unanswered.has(socket)) {
        socket.terminate();
        continue;
      }
      if (socket.readyState !== WebSocket.OPEN) continue;
      this.unanswered.add(socket);
      socket.ping();
    }
  }
}

/**
 * What graphql-ws sends through and reads from, for one socket: methods on one object rather than
 * closures of their own, as each idle socket keeps it.
 */
class ProtocolAdapter implements ProtocolSocket {
  private handle?: (data: string) => Promise<void>;

  constructor(
    private readonly extra: SocketExtra,
    private readonly log: Logger,
    private readonly beforeMessage: ServeOptions['beforeMessage'],
  ) {}

  get protocol(): string {
    return this.extra.socket.protocol;
  }

  send(data: string): Promise<void> {
    const socket = this.extra.socket;
    return new Promise<void>((resolve, reject) => {
      if (socket.readyState !== WebSocket.OPEN) return resolve();
      // A client that went away meanwhile is not an error of the server's.
      socket.send(data, (error) => (error && socket.readyState === WebSocket.OPEN ? reject(error) : resolve()));
    });
  }

  close(code?: number, reason?: string): void {
    this.extra.socket.close(code, closeReason(reason));
  }

  onMessage(handle: (data: string) => Promise<void>): void {
    this.handle = handle;
  }

  received(data: unknown): void {
    const text = String(data);
    this.beforeMessage?.(this.extra, text);
    this.handle?.(text).catch((error: unknown) => {
      this.log.error({ err: error, code: 'WS_INTERNAL_ERROR' }, 'websocket message failed; socket closed');
      this.extra.socket.close(CloseCode.InternalServerError, 'Internal server error');
    });
  }
}

/** graphql-ws's protocol on each socket `wss` accepts; pings as ServeOptions says. */
export function serveGraphqlWs(
  wss: WebSocketServer,
  server: Server<SocketExtra>,
  log: Logger,
  options: ServeOptions = {},
): Transport {
  wss.options.handleProtocols = handleProtocols;
  wss.on('error', (error) => log.error({ err: error, code: 'WS_SERVER_ERROR' }, 'websocket server error'));
  const keepAlive = new KeepAlive(options.keepAliveMs ?? 12_000);
  wss.once('close', () => keepAlive.stop());

  // `ws` has already closed the socket (1009 for an oversized frame, 1007 for bad UTF-8, 1002
  // for a malformed frame); an 'error' event with no listener would end the process. The
  // client's doing, so info, with no stack. One listener for every socket.
  const socketError = (error: Error & { code?: string }): void =>
    log.info(
      { code: socketErrorCode(error.code), wsCode: error.code, reason: error.message },
      'websocket closed on a protocol error',
    );

  wss.on('connection', (socket, request) => {
    socket.on('error', socketError);
    keepAlive.add(socket);
    const extra: SocketExtra = { socket, remoteAddress: request.socket.remoteAddress };
    const adapter = new ProtocolAdapter(extra, log, options.beforeMessage);
    socket.on('message', (data) => adapter.received(data));
    const closed = server.opened(adapter, extra);
    socket.on('close', (code, reason) => {
      keepAlive.remove(socket);
      options.onClosed?.(extra);
      closed(code, reason.toString()).catch((error: unknown) =>
        log.error({ err: error, code: 'WS_INTERNAL_ERROR' }, 'websocket close handling failed'),
      );
    });
  });

  return {
    async dispose() {
      keepAlive.stop();
      for (const client of wss.clients) client.close(1001, 'Going away');
      await new Promise<void>((resolve, reject) => wss.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
