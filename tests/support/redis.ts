// A real Redis per test file, on free loopback ports, in a temporary directory: one redis-server,
// or with TEST_REDIS=cluster a local Redis Cluster of 3 primaries and 3 replicas (the whole suite
// runs both ways in CI). Never the default port, never a server the tests did not start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Redis, { Cluster, type RedisOptions } from 'ioredis';
import pino from 'pino';
import {
  closeRedis,
  connectRedis,
  type ConnectOptions,
  type RedisClient,
  type RedisTarget,
} from '../../src/redis/client/connection';
import { EmbeddedRedis } from '../../src/redis/client/embedded';
import { defineScripts } from '../../src/redis/client/scripts';
import { closeClients } from './clients';
import { startTestCluster, type TestCluster } from './cluster';

const CLUSTER_MODE = process.env.TEST_REDIS === 'cluster';

export interface TestRedis {
  /** One Redis: its URL. On a cluster: a URL of one primary (for tools that take one node). */
  url: string;
  /** What connectRedis takes. */
  target: RedisTarget;
  /** The environment that points a server process at this Redis. */
  env: Record<string, string>;
  /** On a cluster, the cluster (its nodes, failover controls). */
  cluster: TestCluster | undefined;
  /**
   * A plain client for arranging and inspecting data. On a cluster, KEYS, DBSIZE and FLUSHDB are
   * answered for the whole cluster, so tests read the same either way.
   */
  client: Redis;
  /**
   * How many connections listen on a notification channel: PUBSUB NUMSUB on one Redis, the
   * sharded count (SHARDNUMSUB) summed over the primaries on a cluster.
   */
  subscribers(channel: string): Promise<number>;
  /** The server that holds `key`: the Redis itself, or on a cluster the primary owning its slot. */
  nodeFor(key: string): Promise<Redis>;
  /** Another client like `client` (a Cluster on a cluster, typed as Redis for the tests). */
  newClient(options?: RedisOptions): Redis;
  /** Runs `close` first when the test Redis stops (for connections it did not make itself). */
  onStop(close: () => Promise<void>): void;
  stop(): Promise<void>;
}

/**
 * Listens on channels as the product's scripts publish on them: SUBSCRIBE on one Redis, SSUBSCRIBE
 * (each channel at its own shard) on a cluster. Resolves once subscribed; returns the connection.
 */
export async function listen(
  redis: TestRedis,
  channels: string[],
  onMessage: (channel: string, message: string) => void,
): Promise<Redis> {
  const listener = redis.newClient();
  if (redis.cluster) {
    listener.on('smessage', onMessage);
    for (const channel of channels) await listener.ssubscribe(channel);
  } else {
    listener.on('message', onMessage);
    await listener.subscribe(...channels);
  }
  return listener;
}

/**
 * A new connection with the product's Lua scripts defined, what a repository under test is given;
 * it is closed with the test Redis. Every test file makes its connections here rather than
 * keeping its own copy of these lines and a list of clients to close.
 */
export function scriptClient(redis: TestRedis, options?: RedisOptions): Redis {
  const client = redis.newClient(options);
  defineScripts(client);
  return client;
}

const silent = pino({ level: 'silent' });

/**
 * A connection made as the product makes its own (connectRedis: scripts, reconnect policy, on a
 * cluster the sharded subscriber), closed with QUIT when the test Redis stops.
 */
export async function productClient(
  redis: TestRedis,
  name: string,
  options: Partial<ConnectOptions> = {},
): Promise<RedisClient> {
  const client = await connectRedis(redis.target, { name, logger: silent, ...options });
  redis.onStop(() => closeRedis(client));
  return client;
}

/** The product's pair for notifications: a publisher and a (sharded) subscriber connection. */
export async function productPubSub(redis: TestRedis): Promise<{ publisher: RedisClient; subscriber: RedisClient }> {
  const publisher = await productClient(redis, 'test:publisher');
  const subscriber = await productClient(redis, 'test:subscriber', { shardedSubscriber: true });
  return { publisher, subscriber };
}

/** Runs the closers a test Redis was given, each once, newest first, then forgets them. */
async function runClosers(closers: (() => Promise<void>)[]): Promise<void> {
  for (const close of closers.splice(0).reverse()) await close();
}

/** Runs a test only against one Redis (it inspects what only one Redis shows). */
export const itSingle: jest.It = CLUSTER_MODE ? it.skip : it;

export async function startTestRedis(): Promise<TestRedis> {
  return CLUSTER_MODE ? startClusterRedis() : startSingleRedis();
}

async function startSingleRedis(): Promise<TestRedis> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-test-redis-'));
  const server = await EmbeddedRedis.start({ dataDir, appendOnly: false, logger: pino({ level: 'silent' }) });
  const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  const clients: Redis[] = [client];
  const closers: (() => Promise<void>)[] = [];
  return {
    url: server.url,
    target: server.url,
    env: { REDIS_URL: server.url },
    cluster: undefined,
    client,
    subscribers: async (channel) => Number(((await client.pubsub('NUMSUB', channel)) as [string, number])[1]),
    nodeFor: async () => client,
    newClient(options) {
      const made = new Redis(server.url, options ?? {});
      clients.push(made);
      return made;
    },
    onStop: (close) => closers.push(close),
    async stop() {
      await runClosers(closers);
      await closeClients(clients);
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startClusterRedis(): Promise<TestRedis> {
  const cluster = await startTestCluster();
  const clients: Cluster[] = [];
  const newClient = (options: RedisOptions = {}): Redis => {
    const made = wholeCluster(cluster.client(options));
    clients.push(made as unknown as Cluster);
    return made;
  };
  const client = newClient({ maxRetriesPerRequest: 1 });
  const closers: (() => Promise<void>)[] = [];
  await waitReady(client as unknown as Cluster);
  return {
    url: cluster.primaryUrls[0],
    target: cluster.target,
    env: cluster.env,
    cluster,
    client,
    async subscribers(channel) {
      const counts = await Promise.all(
        (client as unknown as Cluster)
          .nodes('master')
          .map(async (node) => Number(((await node.call('PUBSUB', 'SHARDNUMSUB', channel)) as [string, number])[1])),
      );
      return counts.reduce((sum, n) => sum + n, 0);
    },
    async nodeFor(key) {
      const slot = Number(await client.cluster('KEYSLOT', key));
      const ranges = await client.cluster('SLOTS');
      const owner = ranges.find(([from, to]) => slot >= from && slot <= to);
      const node = (client as unknown as Cluster).nodes('master').find((one) => one.options.port === owner?.[2][1]);
      if (!node) throw new Error(`no primary holds slot ${slot}`);
      return node;
    },
    newClient,
    onStop: (close) => closers.push(close),
    async stop() {
      await runClosers(closers);
      await closeClients(clients);
      await cluster.stop();
    },
  };
}

async function waitReady(client: Cluster): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    client.once('ready', resolve);
    client.once('end', () => reject(new Error('the test cluster client closed before it was ready')));
  });
}

/** Gives a cluster client the whole-database commands tests use, over every primary. */
function wholeCluster(cluster: Cluster): Redis {
  const primaries = (): Redis[] => cluster.nodes('master');
  const overAll = async <T>(work: (node: Redis) => Promise<T>): Promise<T[]> => Promise.all(primaries().map(work));
  Object.assign(cluster, {
    keys: async (pattern: string) => (await overAll((node) => node.keys(pattern))).flat(),
    keysBuffer: async (pattern: string) => (await overAll((node) => node.keysBuffer(pattern))).flat(),
    dbsize: async () => (await overAll((node) => node.dbsize())).reduce((sum, n) => sum + n, 0),
    flushdb: async () => {
      await overAll((node) => node.flushdb());
      return 'OK';
    },
    flushall: async () => {
      await overAll((node) => node.flushall());
      return 'OK';
    },
  });
  return cluster as unknown as Redis;
}

/**
 * Drops the subscriber connections on the node of `channel` (as a restart, a failover or a
 * network blip does) while that node refuses new connections, runs `meanwhile`, then lets
 * connections in again. Whatever `meanwhile` publishes on `channel` certainly finds nobody
 * subscribed: the subscriber cannot have come back before it.
 */
export async function withSubscribersDown(
  redis: TestRedis,
  channel: string,
  meanwhile: () => Promise<void>,
): Promise<void> {
  const node = await redis.nodeFor(channel);
  const [, maxclients] = (await node.config('GET', 'maxclients')) as [string, string];
  await node.config('SET', 'maxclients', '1');
  try {
    await node.client('KILL', 'TYPE', 'pubsub');
    expect(await redis.subscribers(channel)).toBe(0);
    await meanwhile();
    expect(await redis.subscribers(channel)).toBe(0);
  } finally {
    await node.config('SET', 'maxclients', maxclients);
  }
}
