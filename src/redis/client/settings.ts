// Settings of the connection to Redis: one server, a cluster, or (neither) the embedded one, and
// whether writes wait for replicas.
import { z } from 'zod';
import { commaList, int, parsed, type SettingDomain, type SettingsReader } from '../../common/settings';
import type { ClusterTarget } from './connection';
import type { ReplicaWait } from './scripts';

const redisUrl = z.string().refine(
  (value) => {
    try {
      return ['redis:', 'rediss:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  },
  { error: 'must be a redis:// or rediss:// URL' },
);

/** Some nodes (the client discovers the rest); a URL's user and password are used for every node. */
const clusterNodes = z.string().transform((value, context): ClusterTarget => {
  const target: ClusterTarget = { nodes: [] };
  for (const entry of commaList(value)) {
    let url: URL;
    try {
      url = new URL(/^[a-z]+:\/\//i.test(entry) ? entry : `redis://${entry}`);
    } catch {
      url = new URL('invalid://');
    }
    const port = Number(url.port || 6379);
    const redis = url.protocol === 'redis:' || url.protocol === 'rediss:';
    if (!redis || !url.hostname || !Number.isInteger(port) || port < 1 || port > 65535) {
      context.addIssue({
        code: 'custom',
        message: `must list host:port or redis:// URLs separated by commas, got "${entry}"`,
      });
      return z.NEVER;
    }
    target.nodes.push({ host: url.hostname.replace(/^\[|\]$/g, ''), port });
    if (url.password) target.password = decodeURIComponent(url.password);
    if (url.username) target.username = decodeURIComponent(url.username);
    if (url.protocol === 'rediss:') target.tls = true;
  }
  if (target.nodes.length === 0) {
    context.addIssue({ code: 'custom', message: 'must name at least one node' });
    return z.NEVER;
  }
  return target;
});

const SETTINGS = {
  REDIS_URL: parsed({
    type: 'URL',
    bounds: '`redis://` or `rediss://`',
    default: undefined,
    schema: redisUrl,
    description:
      'An existing Redis. Unset (and no cluster): the server runs its own `redis-server` with its data in `DATA_DIR`.',
  }),
  REDIS_CLUSTER_NODES: parsed({
    type: 'list',
    bounds: '`host:port` or `redis://:password@host:port` (`rediss://` for TLS), comma-separated',
    default: undefined,
    schema: clusterNodes,
    description: 'A Redis Cluster instead of one Redis: some of its nodes. Not together with `REDIS_URL`.',
  }),
  REDIS_WAIT_REPLICAS: int({
    default: 0,
    min: 0,
    max: 10,
    description:
      'Acknowledge a write only once this many replicas have it (`WAIT`); needs `REDIS_URL` or `REDIS_CLUSTER_NODES`.',
  }),
  // Below the 5 s command timeout, so a missing replica fails the request, not the connection.
  REDIS_WAIT_TIMEOUT_MS: int({
    default: 500,
    min: 10,
    max: 4000,
    description: 'How long a write waits for its replicas before the request fails with `STORE_UNAVAILABLE`.',
  }),
} as const;

export const REDIS_SETTINGS: SettingDomain = {
  title: 'Redis',
  summary: 'Where the data lives, and how far a write must have gone before it is acknowledged.',
  settings: SETTINGS,
};

export interface RedisConfig {
  /** Unset (and no cluster): an embedded redis-server is started with its data in dataDir. */
  redisUrl: string | undefined;
  /** REDIS_CLUSTER_NODES: a Redis Cluster instead of one Redis. */
  redisCluster: ClusterTarget | undefined;
  /** REDIS_WAIT_REPLICAS / REDIS_WAIT_TIMEOUT_MS: writes acknowledged once replicas have them (0: off). */
  redisWait: ReplicaWait;
}

export function readRedis(reader: SettingsReader): RedisConfig {
  const values = reader.read(SETTINGS);
  let redisCluster = values.REDIS_CLUSTER_NODES;
  if (redisCluster !== undefined && reader.isSet('REDIS_URL')) {
    reader.problem('REDIS_CLUSTER_NODES', 'set REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a cluster), not both');
    redisCluster = undefined;
  }
  const config = {
    redisUrl: values.REDIS_URL,
    redisCluster,
    redisWait: { replicas: values.REDIS_WAIT_REPLICAS, timeoutMs: values.REDIS_WAIT_TIMEOUT_MS },
  };
  if (config.redisWait.replicas > 0 && config.redisUrl === undefined && config.redisCluster === undefined) {
    // The embedded redis-server has no replicas: every write would wait out the timeout and fail.
    reader.problem(
      'REDIS_WAIT_REPLICAS',
      'REDIS_WAIT_REPLICAS needs REDIS_URL or REDIS_CLUSTER_NODES (the embedded Redis has no replicas)',
    );
  }
  return config;
}
