// The command client on a cluster (a *.cluster.test.ts file: only with TEST_REDIS=cluster).
// It fails commands for a node that is down at once, without queueing them; so it must have a
// connection to every node before it is used, or commands sent while one is still being made are
// put off and overtake each other.
import { closeRedis, isCluster } from '../../src/redis/client/connection';
import { productClient, startTestRedis, type TestRedis } from '../support/redis';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis.stop();
});

it('keeps the order of concurrent commands on a new client: 300 RPUSHes land in the order sent, in each of 5 rounds', async () => {
  for (let round = 0; round < 5; round++) {
    const client = await productClient(redis, 'test:order');
    try {
      if (!isCluster(client)) throw new Error('expected a cluster client');
      const nodes = client.nodes('all');
      expect(nodes.length).toBeGreaterThanOrEqual(3);
      expect(nodes.map((node) => node.status).filter((status) => status !== 'ready')).toEqual([]);
      const key = `order{round-${round}}`;
      const lengths = await Promise.all(Array.from({ length: 300 }, (_, i) => client.rpush(key, String(i))));
      expect(lengths).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
      expect((await client.lrange(key, 0, -1)).map(Number)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    } finally {
      await closeRedis(client);
    }
  }
});
