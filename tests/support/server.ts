// Starts the real API server in-process on port 0 against a test redis-server, with tokens for a
// user, a second user and a service caller.
import { loadConfig, type Config } from '../../src/config';
import { startServer, type RunningServer } from '../../src/app/server';
import { captureLogs } from './logs';
import { startTestRedis, type TestRedis } from './redis';

export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export interface TestServer {
  url: string;
  server: RunningServer;
  config: Config;
  redis: TestRedis;
  logs: Record<string, unknown>[];
  tokens: { user: string; other: string; service: string };
  stop(): Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}, redis?: TestRedis): Promise<TestServer> {
  const ownRedis = redis === undefined;
  const store = redis ?? (await startTestRedis());
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    ...store.env,
    JWT_SECRET: TEST_SECRET,
    COUNTER_CLEANUP: 'off',
    // Test files send thousands of requests from one address; the security tests set real limits.
    RATE_LIMIT_USER_PER_MINUTE: '10000000',
    RATE_LIMIT_IP_PER_MINUTE: '10000000',
    ...env,
  });
  const { logger, lines } = captureLogs('debug');
  let server: RunningServer;
  try {
    server = await startServer(config, logger);
  } catch (error) {
    if (ownRedis) await store.stop();
    throw error;
  }
  const hour = 3600;
  return {
    url: server.url,
    server,
    config,
    redis: store,
    logs: lines,
    tokens: {
      user: server.verifier.sign('alice', [], hour),
      other: server.verifier.sign('bob', [], hour),
      service: server.verifier.sign('billing-service', ['service'], hour),
    },
    async stop() {
      await server.stop();
      if (ownRedis) await store.stop();
    },
  };
}
