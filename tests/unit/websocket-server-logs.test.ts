// A failure inside the WebSocket protocol server (a bug: no client can cause one, as graphql-ws
// checks every message first) is one error line with code WS_INTERNAL_ERROR and a 4500 close (graphql-ws's Internal server error),
// never graphql-ws's console.error. The protocol server here is a stand-in whose handler fails.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'graphql-ws';
import WebSocket, { WebSocketServer } from 'ws';
import { serveGraphqlWs, type SocketExtra } from '../../src/transports/websocket-server';
import { captureLogs } from '../support/logs';

const failing: Server<SocketExtra> = {
  opened(socket) {
    socket.onMessage(() => Promise.reject(new Error('a bug in a hook')));
    return () => Promise.reject(new Error('a bug on close'));
  },
};

it('logs a failed message and a failed close as WS_INTERNAL_ERROR error lines, closing with 4500', async () => {
  const httpServer = http.createServer();
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { logger, lines } = captureLogs('debug');
  const transport = serveGraphqlWs(new WebSocketServer({ server: httpServer }), failing, logger);
  const consoleError = jest.spyOn(console, 'error');
  try {
    const { port } = httpServer.address() as AddressInfo;
    const client = new WebSocket(`ws://127.0.0.1:${port}`, 'graphql-transport-ws');
    await new Promise((resolve) => client.once('open', resolve));
    const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)));
    client.send('{"type":"connection_init"}');
    expect(await closed).toBe(4500);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines.map((line) => [line.level, line.code, line.msg, (line.err as { message?: string }).message])).toEqual([
      [50, 'WS_INTERNAL_ERROR', 'websocket message failed; socket closed', 'a bug in a hook'],
      [50, 'WS_INTERNAL_ERROR', 'websocket close handling failed', 'a bug on close'],
    ]);
    expect(consoleError).not.toHaveBeenCalled();
  } finally {
    consoleError.mockRestore();
    await transport.dispose();
    await new Promise((resolve) => httpServer.close(resolve));
  }
});
