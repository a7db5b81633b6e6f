// A bare WebSocket that speaks graphql-transport-ws by hand, for clients that break the protocol on
// purpose (no init, two inits, duplicate ids, oversized frames), and handshakes with chosen headers.
// Every socket opened here is terminated by closeRawSockets, which the test calls after each test.
import type { Socket } from 'node:net';
import WebSocket from 'ws';

export type Frame = Record<string, unknown> & { type?: string; id?: string };

interface Closed {
  code: number;
  reason: string;
}

export interface RawSocket {
  socket: WebSocket;
  /** Every frame received so far, parsed. */
  frames: Frame[];
  closed: Promise<Closed>;
  /** How the socket closed, or code -1 if it is still open after `ms`. */
  closedWithin(ms?: number): Promise<Closed>;
  send(frame: Frame | string): void;
  /** Sends the frames in one TCP write, so the server reads them in one go. */
  sendTogether(frames: Frame[]): void;
  /** The first frame (already received or still to come) that matches. */
  next(predicate: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
}

const PROTOCOL = 'graphql-transport-ws';

const open: WebSocket[] = [];

const wsUrl = (url: string): string => url.replace(/^http/, 'ws');

/**
 * Resolves once the socket is open; rejects with HandshakeRefused when the handshake is refused.
 * `protocol: null` offers no subprotocol at all.
 */
export function rawSocket(
  url: string,
  options: { headers?: Record<string, string>; protocol?: string | null } = {},
): Promise<RawSocket> {
  const protocols = options.protocol === null ? [] : [options.protocol ?? PROTOCOL];
  const socket = new WebSocket(wsUrl(url), protocols, { headers: options.headers });
  open.push(socket);
  const frames: Frame[] = [];
  let listeners: (() => void)[] = [];
  socket.on('message', (data) => {
    frames.push(JSON.parse(String(data)) as Frame);
    listeners.forEach((listener) => listener());
  });
  const closed = new Promise<Closed>((resolve) => {
    socket.on('close', (code, reason) => {
      resolve({ code, reason: String(reason) });
      listeners.forEach((listener) => listener());
    });
  });
  const next = (predicate: (frame: Frame) => boolean, timeoutMs = 5000): Promise<Frame> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = frames.find(predicate);
        if (found) {
          clearTimeout(timer);
          listeners = listeners.filter((listener) => listener !== onChange);
          resolve(found);
          return true;
        }
        return false;
      };
      const onChange = (): void => {
        if (!check() && socket.readyState === WebSocket.CLOSED) {
          clearTimeout(timer);
          reject(new Error(`socket closed before the frame came; frames: ${JSON.stringify(frames)}`));
        }
      };
      const timer = setTimeout(
        () => reject(new Error(`no such frame in time; frames: ${JSON.stringify(frames)}`)),
        timeoutMs,
      );
      if (!check()) listeners.push(onChange);
    });
  const encode = (frame: Frame | string): string => (typeof frame === 'string' ? frame : JSON.stringify(frame));
  const sendTogether = (batch: Frame[]): void => {
    // ws writes each frame to its net.Socket at once; corking makes them one write.
    const tcp = (socket as unknown as { _socket: Socket })._socket;
    tcp.cork();
    for (const frame of batch) socket.send(encode(frame));
    tcp.uncork();
  };
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_request, response) => {
      reject(new HandshakeRefused(response.statusCode ?? 0, response.headers));
      socket.terminate();
    });
    socket.once('error', reject);
    socket.once('open', () =>
      resolve({
        socket,
        frames,
        closed,
        closedWithin: (ms = 10_000) =>
          Promise.race([
            closed,
            new Promise<Closed>((done) =>
              setTimeout(() => done({ code: -1, reason: `still open after ${ms} ms` }), ms).unref(),
            ),
          ]),
        next,
        send: (frame) => socket.send(encode(frame)),
        sendTogether,
      }),
    );
  });
}

export class HandshakeRefused extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string | string[] | undefined>,
  ) {
    super(`handshake refused with HTTP ${status}`);
  }
}

/** The handshake's outcome: 101 when the socket opened, otherwise the HTTP status of the refusal. */
export async function handshakeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  try {
    const raw = await rawSocket(url, { headers });
    raw.socket.close();
    return 101;
  } catch (error) {
    if (error instanceof HandshakeRefused) return error.status;
    throw error;
  }
}

export function closeRawSockets(): void {
  for (const socket of open.splice(0)) socket.terminate();
}
