// A real redis-server per test file, on a free loopback port, in a temporary directory. Never the
// default port, never a server the tests did not start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import pino from 'pino';
import { EmbeddedRedis } from '../../src/redis/embedded';

export interface TestRedis {
  url: string;
  pid: number;
  /** A plain client for arranging and inspecting data. */
  client: Redis;
  stop(): Promise<void>;
}

export async function startTestRedis(): Promise<TestRedis> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-test-redis-'));
  const server = await EmbeddedRedis.start({ dataDir, appendOnly: false, logger: pino({ level: 'silent' }) });
  const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  return {
    url: server.url,
    pid: server.pid!,
    client,
    async stop() {
      client.disconnect();
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
