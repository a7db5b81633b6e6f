// The server's keep-alive: every socket is pinged once per period from one timer for all sockets,
// and a socket that has not answered the last ping by the next is dropped; one that answers stays.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'graphql-ws';
import WebSocket, { WebSocketServer } from 'ws';
import { serveGraphqlWs, type SocketExtra } from '../../src/transports/websocket-server';
import { captureLogs } from '../support/logs';

/** A protocol server that accepts every socket and reads nothing: only the pings are under test. */
const silent: Server<SocketExtra> = { opened: () => () => Promise.resolve() };

/** A client that counts the pings it gets, answering them or not; resolves once open. */
async function client(port: number, answers: boolean) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}`, 'graphql-transport-ws', { autoPong: answers });
  const seen = { pings: 0, closedWith: undefined as number | undefined };
  const waiters: { pings: number; resolve: () => void }[] = [];
  socket.on('ping', () => {
    seen.pings++;
    for (const waiter of waiters.filter((one) => seen.pings >= one.pings)) waiter.resolve();
  });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve((seen.closedWith = code))));
  await new Promise((resolve) => socket.once('open', resolve));
  const pinged = (pings: number) => new Promise<void>((resolve) => waiters.push({ pings, resolve }));
  return { socket, seen, closed, pinged };
}

it('drops a socket that does not answer a ping by the next one, and keeps one that answers', async () => {
  const httpServer = http.createServer();
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const transport = serveGraphqlWs(new WebSocketServer({ server: httpServer }), silent, captureLogs('info').logger, {
    keepAliveMs: 1000,
  });
  try {
    const { port } = httpServer.address() as AddressInfo;
    const [silentClient, answering] = await Promise.all([client(port, false), client(port, true)]);
    // Terminated without a close frame: 1006 on the client's side, after exactly one unanswered ping.
    expect(await silentClient.closed).toBe(1006);
    expect(silentClient.seen.pings).toBe(1);
    // Three pings answered, each checked at the next: still open.
    await answering.pinged(3);
    expect(answering.seen.closedWith).toBeUndefined();
    expect(answering.socket.readyState).toBe(WebSocket.OPEN);
    answering.socket.close();
    await answering.closed;
  } finally {
    await transport.dispose();
    await new Promise((resolve) => httpServer.close(resolve));
  }
});
