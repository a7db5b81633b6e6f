// A real local Redis Cluster for tests: redis-server processes started with --cluster-enabled,
// joined by `redis-cli --cluster create`, on free loopback ports, with a password, in a temporary
// directory that goes with them. Nodes can be killed, restarted and failed over, and a primary added.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Redis, { Cluster, type RedisOptions } from 'ioredis';
import type { ClusterTarget } from '../../src/redis/client/connection';
import { closeClients } from './clients';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ClusterOptions {
  primaries?: number;
  replicasPerPrimary?: number;
  /** cluster-node-timeout: how long a node may be silent before it is failed over. */
  nodeTimeoutMs?: number;
  /** appendonly yes (everysec) on every node. */
  appendOnly?: boolean;
}

interface ClusterNodeProcess {
  port: number;
  dir: string;
  proc: ChildProcess | undefined;
}

export interface TestCluster {
  target: ClusterTarget;
  env: Record<string, string>;
  password: string;
  nodes: ClusterNodeProcess[];
  /** URLs of the nodes that were primaries when the cluster was made. */
  primaryUrls: string[];
  client(options?: RedisOptions): Cluster;
  /** A plain connection to one node. */
  node(port: number): Redis;
  /** Kills a node with SIGKILL (no goodbye to the cluster). */
  kill(port: number): Promise<void>;
  /** Starts a killed node again with its data and cluster config. */
  restart(port: number): Promise<void>;
  /**
   * Freezes a node with SIGSTOP (it keeps its connections but answers nothing, as a stalled VM)
   * until resume(port). roles() and waitHealthy() leave a frozen node out rather than wait on it.
   */
  pause(port: number): void;
  /** Lets a frozen node go on (SIGCONT). */
  resume(port: number): void;
  /** The primaries now, by port, and their replicas. */
  roles(): Promise<{ primaries: number[]; replicas: Map<number, number> }>;
  /** Resolves when every slot is served and every live node agrees. */
  waitHealthy(timeoutMs?: number): Promise<void>;
  /**
   * Starts one more node, introduces it with CLUSTER MEET and resolves with its port once every
   * live node knows it: a primary that holds no slots until some are moved to it.
   */
  addPrimary(): Promise<number>;
  /** The cluster node id of the node on `port` (what CLUSTER SETSLOT names). */
  nodeId(port: number): Promise<string>;
  stop(): Promise<void>;
}

const living = new Set<ChildProcess>();
process.once('exit', () => {
  for (const proc of living) proc.kill('SIGKILL');
});

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port whose cluster bus port (port + 10000) is free as well. */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 20000);
    if (taken.has(port) || taken.has(port + 10000) || taken.has(port - 10000)) continue;
    if ((await portIsFree(port)) && (await portIsFree(port + 10000))) {
      taken.add(port);
      return port;
    }
  }
  throw new Error('no free port pair for a cluster node');
}

function launch(node: ClusterNodeProcess, password: string, options: Required<ClusterOptions>): ChildProcess {
  const args = [
    '--port',
    String(node.port),
    '--bind',
    '127.0.0.1',
    '--dir',
    node.dir,
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    'nodes.conf',
    '--cluster-node-timeout',
    String(options.nodeTimeoutMs),
    '--requirepass',
    password,
    '--masterauth',
    password,
    '--appendonly',
    options.appendOnly ? 'yes' : 'no',
    '--appendfsync',
    'everysec',
    // Replicas sync at once instead of waiting 5 s for others to share a diskless transfer.
    '--repl-diskless-sync-delay',
    '0',
    '--save',
    '',
    '--protected-mode',
    'no',
    '--loglevel',
    'warning',
    '--logfile',
    path.join(node.dir, 'redis.log'),
  ];
  const proc = spawn('redis-server', args, { stdio: 'ignore' });
  living.add(proc);
  proc.once('exit', () => living.delete(proc));
  return proc;
}

async function waitAnswering(port: number, password: string, proc?: ChildProcess, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Another test file may have taken the port (or its bus port) after we found it free.
    if (proc && (proc.exitCode !== null || proc.signalCode !== null)) throw new PortTaken(port);
    const probe = new Redis({
      port,
      host: '127.0.0.1',
      password,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.ping();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`cluster node ${port} did not start`);
      await sleep(50);
    } finally {
      probe.disconnect();
    }
  }
}

class PortTaken extends Error {
  constructor(port: number) {
    super(`cluster node ${port} exited at start (its port was taken)`);
  }
}

/** Starts a cluster; when a port was taken meanwhile by another test file, starts again on others. */
export async function startTestCluster(given: ClusterOptions = {}): Promise<TestCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(given);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt >= 3) throw error;
    }
  }
}

async function startOnce(given: ClusterOptions): Promise<TestCluster> {
  const options: Required<ClusterOptions> = {
    primaries: given.primaries ?? 3,
    replicasPerPrimary: given.replicasPerPrimary ?? 1,
    nodeTimeoutMs: given.nodeTimeoutMs ?? 5000,
    appendOnly: given.appendOnly ?? false,
  };
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-test-cluster-'));
  const password = randomBytes(18).toString('base64url');
  const taken = new Set<number>();
  const nodes: ClusterNodeProcess[] = [];
  const count = options.primaries * (1 + options.replicasPerPrimary);
  const clients: (Redis | Cluster)[] = [];
  const paused = new Set<number>();
  const running = (one: ClusterNodeProcess): boolean =>
    one.proc !== undefined && one.proc.exitCode === null && one.proc.signalCode === null && !paused.has(one.port);

  const stop = async (): Promise<void> => {
    await closeClients(clients.splice(0));
    await Promise.all(
      nodes.map(async (node) => {
        const proc = node.proc;
        if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
        const exited = new Promise((resolve) => proc.once('exit', resolve));
        proc.kill('SIGKILL');
        await exited;
      }),
    );
    fs.rmSync(root, { recursive: true, force: true });
  };

  try {
    for (let i = 0; i < count; i++) {
      const port = await freeClusterPort(taken);
      const dir = path.join(root, String(port));
      fs.mkdirSync(dir);
      nodes.push({ port, dir, proc: undefined });
    }
    for (const node of nodes) node.proc = launch(node, password, options);
    await Promise.all(nodes.map((node) => waitAnswering(node.port, password, node.proc)));

    const created = spawnSync(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...nodes.map((node) => `127.0.0.1:${node.port}`),
        '--cluster-replicas',
        String(options.replicasPerPrimary),
        '--cluster-yes',
      ],
      { env: { ...process.env, REDISCLI_AUTH: password }, encoding: 'utf8', timeout: 30_000 },
    );
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);

    const node = (port: number): Redis => {
      const made = new Redis({ port, host: '127.0.0.1', password, maxRetriesPerRequest: 1, lazyConnect: false });
      made.on('error', () => undefined);
      clients.push(made);
      return made;
    };

    const roles = async (): Promise<{ primaries: number[]; replicas: Map<number, number> }> => {
      const primaries: number[] = [];
      const replicas = new Map<number, number>();
      for (const one of nodes) {
        if (!running(one)) continue;
        const probe = node(one.port);
        try {
          const info = await probe.info('replication');
          if (/role:master/.test(info)) primaries.push(one.port);
          const of = /master_port:(\d+)/.exec(info);
          if (of) replicas.set(one.port, Number(of[1]));
        } catch {
          // not answering: neither
        } finally {
          probe.disconnect();
        }
      }
      return { primaries: primaries.sort(), replicas };
    };

    const waitHealthy = async (timeoutMs = 30_000): Promise<void> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const live = nodes.filter(running);
        let healthy = true;
        for (const one of live) {
          const probe = node(one.port);
          try {
            const info = await probe.cluster('INFO');
            if (!/cluster_state:ok/.test(info) || !/cluster_slots_ok:16384/.test(info)) healthy = false;
            const replication = await probe.info('replication');
            if (/role:slave/.test(replication) && !/master_link_status:up/.test(replication)) healthy = false;
          } catch {
            healthy = false;
          } finally {
            probe.disconnect();
          }
        }
        if (healthy) return;
        if (Date.now() > deadline) throw new Error('the test cluster did not become healthy');
        await sleep(100);
      }
    };

    const nodeId = async (port: number): Promise<string> => {
      const probe = node(port);
      try {
        return String(await probe.cluster('MYID'));
      } finally {
        probe.disconnect();
      }
    };

    const addPrimary = async (): Promise<number> => {
      const port = await freeClusterPort(taken);
      const dir = path.join(root, String(port));
      fs.mkdirSync(dir);
      const added: ClusterNodeProcess = { port, dir, proc: undefined };
      nodes.push(added);
      added.proc = launch(added, password, options);
      await waitAnswering(port, password, added.proc);
      const id = await nodeId(port);
      const introducer = node(nodes[0].port);
      try {
        await introducer.cluster('MEET', '127.0.0.1', port);
      } finally {
        introducer.disconnect();
      }
      // Every node knows every other, the new one included (gossip spreads it), and is
      // connected to it: SETSLOT on any of them names the new one, and it names the others.
      const live = nodes.filter(running);
      const deadline = Date.now() + 30_000;
      for (;;) {
        const views = await Promise.all(
          live.map(async (one) => {
            const probe = node(one.port);
            try {
              const lines = String(await probe.cluster('NODES'))
                .split('\n')
                .filter((line) => line.trim() !== '');
              // And each says the cluster is up: until the new node has learnt every slot's
              // owner it answers CLUSTERDOWN, to a MIGRATE into it as well (seen under load).
              return (
                lines.length === live.length &&
                lines.some((line) => line.startsWith(id)) &&
                lines.every((line) => / connected/.test(line) && !/handshake|noaddr|fail/.test(line)) &&
                String(await probe.cluster('INFO')).includes('cluster_state:ok')
              );
            } catch {
              return false;
            } finally {
              probe.disconnect();
            }
          }),
        );
        if (views.every(Boolean)) return port;
        if (Date.now() > deadline) throw new Error(`the cluster did not take in the node on ${port}`);
        await sleep(100);
      }
    };

    await waitHealthy();
    const { primaries } = await roles();
    const target: ClusterTarget = { nodes: nodes.map((one) => ({ host: '127.0.0.1', port: one.port })), password };
    return {
      target,
      env: { REDIS_CLUSTER_NODES: nodes.map((one) => `redis://:${password}@127.0.0.1:${one.port}`).join(',') },
      password,
      nodes,
      primaryUrls: primaries.map((port) => `redis://:${password}@127.0.0.1:${port}`),
      client(clientOptions = {}) {
        const made = new Cluster(target.nodes, {
          redisOptions: { password, ...clientOptions },
          // As the product's subscriber connections: SSUBSCRIBE goes to the channel's shard.
          shardedSubscribers: true,
          retryDelayOnFailover: 100,
          retryDelayOnClusterDown: 100,
          slotsRefreshInterval: 1000,
        });
        made.on('error', () => undefined);
        clients.push(made);
        return made;
      },
      node,
      async kill(port) {
        const one = nodes.find((candidate) => candidate.port === port);
        const proc = one?.proc;
        if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
        const exited = new Promise((resolve) => proc.once('exit', resolve));
        proc.kill('SIGKILL');
        await exited;
      },
      async restart(port) {
        const one = nodes.find((candidate) => candidate.port === port);
        if (!one) throw new Error(`no node on ${port}`);
        one.proc = launch(one, password, options);
        await waitAnswering(port, password, one.proc);
      },
      pause(port) {
        const proc = nodes.find((candidate) => candidate.port === port)?.proc;
        if (!proc || proc.exitCode !== null || proc.signalCode !== null) throw new Error(`no running node on ${port}`);
        paused.add(port);
        proc.kill('SIGSTOP');
      },
      resume(port) {
        if (!paused.delete(port)) return;
        nodes.find((candidate) => candidate.port === port)?.proc?.kill('SIGCONT');
      },
      roles,
      waitHealthy,
      addPrimary,
      nodeId,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
