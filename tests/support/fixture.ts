// One API server per test file with the usual hooks: a clean database before each test, every
// WebSocket closed after it, the server stopped at the end even when a test fails.
import { connectWs, type WsClient } from './graphql';
import { startTestServer, type TestServer } from './server';

export interface ServerFixture {
  /** Set once beforeAll has run. */
  readonly api: TestServer;
  /** A graphql-ws client that is disposed after the current test. */
  connect(token: string): WsClient;
}

export function serverForThisFile(env: Record<string, string> = {}): ServerFixture {
  let api: TestServer | undefined;
  const sockets: WsClient[] = [];
  beforeAll(async () => {
    api = await startTestServer(env);
  }, 60_000); // a cluster of six redis-servers can take a while to agree on a busy machine
  beforeEach(async () => {
    await api!.redis.client.flushdb();
  });
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.dispose()));
  });
  afterAll(async () => {
    await api?.stop();
  });
  return {
    get api() {
      if (!api) throw new Error('the test server is not started yet');
      return api;
    },
    connect(token) {
      const socket = connectWs(this.api.url, token);
      sockets.push(socket);
      return socket;
    },
  };
}
