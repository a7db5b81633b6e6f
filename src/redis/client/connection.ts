// ioredis connections, to one Redis or to a Redis Cluster. Commands, pub/sub and blocking reads
// each get their own connection, as a subscribed or blocked connection cannot serve other commands.
import Redis, { Cluster, type RedisOptions } from 'ioredis';
import type { Logger } from '../../common/logger';
import { withTimeout } from '../../common/timeout';
import './ioredis-patches';
import { UNREACHABLE_POLICY } from './retry-policy';
import type { RedisClient } from './redis-client';
import { defineScripts, requireReplicas, type ReplicaWait } from './scripts';

export type { RedisClient } from './redis-client';

/** A Redis Cluster: some of its nodes (the rest are discovered) and the credentials for all. */
export interface ClusterTarget {
  nodes: { host: string; port: number }[];
  username?: string;
  password?: string;
  tls?: boolean;
}

/** A `redis://` or `rediss://` URL of one Redis, or a cluster. */
export type RedisTarget = string | ClusterTarget;

export interface ConnectOptions {
  /** Shown in CLIENT LIST, which helps when several processes share one Redis. */
  name: string;
  logger: Logger;
  /** Fail a command after this long instead of letting a request hang on a stuck Redis. */
  commandTimeoutMs?: number;
  /**
   * On a cluster, SSUBSCRIBE goes to the node that owns the channel's slot (ioredis keeps one
   * subscriber connection per primary and moves channels when slots move). Only for connections
   * that subscribe to sharded channels.
   */
  shardedSubscriber?: boolean;
  /** Scripts that write are acknowledged only once this many replicas have the write. */
  replicaWait?: ReplicaWait;
}

export const isCluster = (client: RedisClient): client is Cluster => client.isCluster;

/**
 * Pub/sub as the scripts announce on it: sharded (SSUBSCRIBE, SPUBLISH, 'smessage') on a cluster,
 * plain on one Redis. The one place that chooses, for every subscriber and publisher.
 */
export function notificationCommands(client: RedisClient) {
  const sharded = isCluster(client);
  return {
    sharded,
    messageEvent: sharded ? 'smessage' : 'message',
    subscribe: (channel: string): Promise<unknown> =>
      sharded ? client.ssubscribe(channel) : client.subscribe(channel),
    unsubscribe: (channel: string): Promise<unknown> =>
      sharded ? client.sunsubscribe(channel) : client.unsubscribe(channel),
    publish: (channel: string, message: string): Promise<unknown> =>
      sharded ? client.spublish(channel, message) : client.publish(channel, message),
  };
}

/** How ioredis names the connection of a shard's sharded subscriber (its cluster/util getConnectionName). */
const SHARD_SUBSCRIBER_NAME = 'ioredis-cluster(ssubscriber)';

/**
 * Calls `lost` when subscriptions of a subscriber connection may have lapsed (notices published
 * meanwhile reached nobody) and `back` once it is subscribed again; both may be called when
 * nothing was lost, so `back` should act only on what `lost` marked. One place for the pub/sub
 * catch-up (schema/pubsub.ts) and lease waiters (leases/signals.ts).
 *
 * On one Redis the connection closes and reconnects ('close', 'ready'). On a cluster a shard's
 * subscriber connection is not reconnected but replaced (it says '-node'), and a new slot layout
 * moves channels to other shards; ioredis subscribes again, then says 'subscribersReady' (also
 * after a refresh that changed nothing). Which channels a lost shard held is not told, so all are
 * lost. The cluster says '-node' for its ordinary node connections too (it keeps some to learn
 * the slots, even on a subscriber client); those hold no subscription and are told apart by
 * ioredis's name for a shard subscriber's connection, so they cost no catch-up.
 */
export function onSubscriberBack(client: RedisClient, lost: () => void, back: () => void): void {
  if (!isCluster(client)) {
    client.on('close', lost);
    client.on('ready', back);
    return;
  }
  const layoutOf = (): string => client.slots.map((nodes) => nodes[0]).join();
  let layout = layoutOf();
  client.on('-node', (node: Redis | null) => {
    // A node connection may have no name at all (null); a shard subscriber's always has one.
    const name: unknown = node?.options.connectionName;
    if (node === null || (typeof name === 'string' && name.startsWith(SHARD_SUBSCRIBER_NAME))) lost();
  });
  client.on('subscribersReady', () => {
    const now = layoutOf();
    if (now !== layout) lost();
    layout = now;
    back();
  });
}

const describeTarget = (target: RedisTarget): string =>
  typeof target === 'string'
    ? redactUrl(target)
    : `cluster ${target.nodes.map((node) => `${node.host}:${node.port}`).join(',')}`;

function nodeOptions(options: ConnectOptions): RedisOptions {
  return {
    connectionName: options.name,
    ...UNREACHABLE_POLICY,
    // A command whose reply was lost with the connection may have run: sending it again could
    // run a script twice (a task enqueued twice, a task taken and stranded). Fail it instead;
    // callers retry with their idempotency keys.
    autoResendUnfulfilledCommands: false,
    commandTimeout: options.commandTimeoutMs,
    // How long a closing socket to a dead Redis may linger; shutdown should not wait on it.
    disconnectTimeout: 200,
  };
}

function createClient(target: RedisTarget, options: ConnectOptions): RedisClient {
  if (typeof target === 'string') {
    return new Redis(target, {
      lazyConnect: true,
      ...nodeOptions(options),
      // ioredis 5 may send its ready check (INFO) after a SUBSCRIBE queued while it reconnects:
      // Redis refuses INFO in subscriber mode and ioredis takes that as fatal, reconnecting again
      // with subscriptions in flux (ioredis#2037, fixed in 6). A subscriber needs no ready check:
      // Redis takes SUBSCRIBE even while it loads its data.
      ...(options.shardedSubscriber === true ? { enableReadyCheck: false } : {}),
    });
  }
  const { retryStrategy: _perNode, ...perNode } = nodeOptions(options);
  return new Cluster(target.nodes, {
    lazyConnect: true,
    redisOptions: {
      ...perNode,
      username: target.username,
      password: target.password,
      tls: target.tls ? {} : undefined,
    },
    shardedSubscribers: options.shardedSubscriber === true,
    // A command for a node whose connection is down fails at once (STORE_UNAVAILABLE) instead of
    // waiting in that node's queue: after a primary dies, requests for its slots fail fast, and
    // once its replica is promoted they go there within a slot refresh, not after the backlog
    // of reconnect attempts (docs/scaling.md, when things fail).
    // Subscriber connections keep their queue: a SSUBSCRIBE made while ioredis moves its
    // subscriber to a new primary must wait for it, not be lost.
    enableOfflineQueue: options.shardedSubscriber === true,
    // While a failover is under way, MOVED/TRYAGAIN/CLUSTERDOWN are retried for a short while
    // (a replica is promoted within cluster-node-timeout), then the request fails as
    // STORE_UNAVAILABLE. Commands are not resent after a lost reply (above), so no script runs twice.
    maxRedirections: 16,
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    clusterRetryStrategy: UNREACHABLE_POLICY.retryStrategy,
    // A node that went away is reconnected (it may come back as a replica), not only dropped.
    clusterNodeRetryStrategy: UNREACHABLE_POLICY.retryStrategy,
    // The cluster's view is refreshed now and then, so a failover nobody has hit yet is noticed.
    slotsRefreshInterval: 2000,
    slotsRefreshTimeout: 1000,
    enableReadyCheck: true,
  });
}

export async function connectRedis(target: RedisTarget, options: ConnectOptions): Promise<RedisClient> {
  const logger = options.logger.child({ component: 'redis', connection: options.name });
  const client = createClient(target, options);
  defineScripts(client);
  if (options.replicaWait) requireReplicas(client, options.replicaWait);

  // ioredis emits an error on every failed reconnect; log the change of state, not each attempt.
  let healthy = true;
  client.on('error', (error: Error) => {
    if (healthy) logger.warn({ err: error.message }, 'redis connection lost; reconnecting');
    healthy = false;
  });
  client.on('ready', () => {
    if (!healthy) logger.info('redis connection restored');
    healthy = true;
  });

  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    // The cause keeps the error recognisable as STORE_UNAVAILABLE for connections made on a request.
    throw new Error(`Cannot reach Redis at ${describeTarget(target)}: ${(error as Error).message}`, { cause: error });
  }
  if (isCluster(client) && !options.shardedSubscriber) await connectEveryNode(client);
  return client;
}

const NODE_CONNECT_WAIT_MS = 2000;

/**
 * ioredis connects to a cluster node when the first command for it is sent. Without an offline
 * queue (above), a command sent while that connection is still being made is put off and tried
 * again about 200 ms later, overtaking later ones: of 300 concurrent RPUSHes on a new client,
 * most rounds stored them out of order. So every node is connected as soon as the cluster is
 * ready (and after each reconnect), and any node added later at once. Not while the cluster
 * itself connects: its ready check would meet a half-open node connection and stall.
 * Resolves once the nodes known now answer, or after NODE_CONNECT_WAIT_MS (a node that is down
 * reconnects by itself; its slots fail fast meanwhile).
 */
async function connectEveryNode(client: Cluster): Promise<void> {
  const connect = (node: Redis): Promise<unknown> =>
    node.status === 'wait' ? node.connect().catch(() => undefined) : Promise.resolve();
  client.on('ready', () => void Promise.all(client.nodes('all').map(connect)));
  client.on('+node', (node: Redis) => {
    if (client.status === 'ready') void connect(node);
  });
  await withTimeout(Promise.all(client.nodes('all').map(connect)), NODE_CONNECT_WAIT_MS).catch(() => undefined);
}

/**
 * Warns when Redis may evict keys: an evicted lock frees it while held, and an evicted fencing
 * counter starts again at 1. Managed services may refuse CONFIG GET; that is not an error.
 */
export async function warnIfEvicting(client: RedisClient, logger: Logger): Promise<string | undefined> {
  try {
    const [, policy] = (await client.config('GET', 'maxmemory-policy')) as [string, string];
    if (policy && policy !== 'noeviction') {
      logger.warn(
        { policy },
        'Redis may evict keys (maxmemory-policy is not noeviction): locks could be freed while held and fencing tokens could repeat',
      );
    }
    return policy;
  } catch {
    return undefined;
  }
}

/**
 * Warns when a primary has fewer replicas than writes wait for: every write there would fail
 * with STORE_UNAVAILABLE after REDIS_WAIT_TIMEOUT_MS. Returns the fewest replicas of any primary.
 */
export async function warnIfTooFewReplicas(
  client: RedisClient,
  wait: ReplicaWait,
  logger: Logger,
): Promise<number | undefined> {
  if (wait.replicas === 0) return undefined;
  try {
    const primaries = isCluster(client) ? client.nodes('master') : [client];
    const counts = await Promise.all(
      primaries.map(async (node) => Number(/^connected_slaves:(\d+)/m.exec(await node.info('replication'))?.[1] ?? 0)),
    );
    const fewest = Math.min(...counts);
    if (fewest < wait.replicas) {
      logger.warn(
        { required: wait.replicas, replicas: fewest },
        'REDIS_WAIT_REPLICAS asks for more replicas than a primary has: its writes will fail with STORE_UNAVAILABLE',
      );
    }
    return fewest;
  } catch {
    return undefined;
  }
}

/** For the readiness probe: resolves when Redis answers. */
export async function pingRedis(client: RedisClient): Promise<void> {
  await client.ping();
}

/** Closes politely, and gives up on a Redis that no longer answers. */
export async function closeRedis(client: RedisClient): Promise<void> {
  if (client.status === 'end') return;
  // QUIT on a connection that is down would wait in the offline queue; just stop reconnecting.
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  // A Redis that stops answering mid-QUIT is simply dropped.
  await withTimeout(client.quit(), 2000).catch(() => undefined);
  client.disconnect();
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'an unparsable URL';
  }
}
