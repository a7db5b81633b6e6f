// graphql-ws's protocol server (makeServer) on the `ws` WebSocketServer, in place of graphql-ws's
// own `useServer` adapter: that one reports socket errors and failed messages with console.error,
// which writes multi-line stack traces among the JSON log lines, and answers a socket error (a
// frame over maxPayload, which `ws` already closes with 1009) by trying to close it with 1011.
// Here both are log lines of the server's logger, each with a code (WS_PAYLOAD_TOO_LARGE,
// WS_INVALID_UTF8, WS_INVALID_FRAME, WS_INTERNAL_ERROR, ...).
import type { IncomingMessage } from 'node:http';
import { CloseCode, handleProtocols, type Server } from 'graphql-ws';
import { WebSocket, type WebSocketServer } from 'ws';
import type { Principal } from '../security/auth';
import type { Logger } from '../common/logger';
import type { SocketPresence } from './socket-presence';

/** What every graphql-ws hook finds in `ctx.extra`. */
export type SocketExtra = {
  readonly socket: WebSocket;
  readonly request: IncomingMessage;
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

/** Pings every `keepAliveMs`; a socket that has not answered the last ping by the next is dropped. */
export function serveGraphqlWs(
  wss: WebSocketServer,
  server: Server<SocketExtra>,
  log: Logger,
  keepAliveMs = 12_000,
): Transport {
  wss.options.handleProtocols = handleProtocols;
  wss.on('error', (error) => log.error({ err: error, code: 'WS_SERVER_ERROR' }, 'websocket server error'));

  wss.on('connection', (socket, request) => {
    // `ws` has already closed the socket (1009 for an oversized frame, 1007 for bad UTF-8, 1002
    // for a malformed frame); an 'error' event with no listener would end the process. The
    // client's doing, so info, with no stack.
    socket.on('error', (error: Error & { code?: string }) =>
      log.info(
        { code: socketErrorCode(error.code), wsCode: error.code, reason: error.message },
        'websocket closed on a protocol error',
      ),
    );

    let alive = true;
    socket.on('pong', () => (alive = true));
    const pinger = setInterval(() => {
      if (!alive) return void socket.terminate();
      alive = false;
      if (socket.readyState === WebSocket.OPEN) socket.ping();
    }, keepAliveMs);

    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== WebSocket.OPEN) return resolve();
            // A client that went away meanwhile is not an error of the server's.
            socket.send(data, (error) => (error && socket.readyState === WebSocket.OPEN ? reject(error) : resolve()));
          }),
        close: (code, reason) => socket.close(code, closeReason(reason)),
        onMessage: (handle) =>
          socket.on('message', (data) => {
            handle(String(data)).catch((error: unknown) => {
              log.error({ err: error, code: 'WS_INTERNAL_ERROR' }, 'websocket message failed; socket closed');
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            });
          }),
      },
      { socket, request },
    );

    socket.once('close', (code, reason) => {
      clearInterval(pinger);
      closed(code, reason.toString()).catch((error: unknown) =>
        log.error({ err: error, code: 'WS_INTERNAL_ERROR' }, 'websocket close handling failed'),
      );
    });
  });

  return {
    async dispose() {
      for (const client of wss.clients) client.close(1001, 'Going away');
      await new Promise<void>((resolve, reject) => wss.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
