// Servers under test run in their own process, so their CPU time and memory can be read from
// /proc without the load generator's, and so they can be pinned to a core of their own.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type Redis from 'ioredis';
import { TokenVerifier } from '../../src/security/auth';
import { freeLoopbackPort } from '../../src/redis/client/embedded';

const BENCH_JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123';
/** Signs tokens the product server started by `startProduct` accepts. */
export const benchTokens = new TokenVerifier({ secret: BENCH_JWT_SECRET });

/** Whether processes can be pinned to CPUs (`taskset` exists). */
export const pinnable = (): boolean => ['/usr/bin/taskset', '/bin/taskset'].some((p) => fs.existsSync(p));

/**
 * Runs `script` in a Node process of its own, pinned to `cpus` (`taskset -c`) where taskset exists,
 * with `env` alone as its environment; keeps the last 20 kB it wrote.
 */
export function startNodeProcess(script: string, env: NodeJS.ProcessEnv, cpus?: string, nodeArgs: string[] = []) {
  const node = [process.execPath, ...nodeArgs, script];
  const [command, ...args] = cpus !== undefined && pinnable() ? ['taskset', '-c', cpus, ...node] : node;
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pid = child.pid!;
  return {
    pid,
    child,
    /** Everything the process wrote (its last 20 kB), for a failure message. */
    output: (): string => output,
    /** User + system CPU seconds the process has used so far. */
    cpuSeconds(): number {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      // After "pid (comm) ": state is field 3, so utime (14) and stime (15) are at 11 and 12.
      return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ on Linux
    },
    /** Resident memory in bytes now. */
    rssBytes(): number {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) * 1024;
    },
    /** Sends `signal` (SIGKILL after 15 s) and waits until the process exited. */
    async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export type NodeProcess = ReturnType<typeof startNodeProcess>;

/**
 * Runs `script` on a free port (PORT), pinned to `cpus` where taskset exists, and waits until
 * `readyPath` answers 200 (with `anyAnswer`: answers at all).
 */
export async function startServerProcess(options: {
  script: string;
  env: Record<string, string>;
  cpus?: string;
  readyPath: string;
  anyAnswer?: boolean;
  nodeArgs?: string[];
}) {
  const port = await freeLoopbackPort();
  const env = { ...process.env, ...options.env, PORT: String(port), HOST: '127.0.0.1' };
  const started = startNodeProcess(options.script, env, options.cpus, options.nodeArgs);
  const origin = `http://127.0.0.1:${port}`;
  const name = path.basename(options.script);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (started.child.exitCode !== null) throw new Error(`${name} exited during start-up:\n${started.output()}`);
    const status = await fetch(`${origin}${options.readyPath}`, { signal: AbortSignal.timeout(1000) })
      .then((response) => response.arrayBuffer().then(() => response.status))
      .catch(() => 0); // no answer within a second
    if (status === 200 || (options.anyAnswer && status > 0)) break;
    if (Date.now() > deadline) {
      started.child.kill('SIGKILL');
      throw new Error(`${name} was not ready in 30 s:\n${started.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { ...started, origin, port };
}

export type ServerProcess = Awaited<ReturnType<typeof startServerProcess>>;

/**
 * The product's settings in the benchmark (peers built from its parts get the same): no request
 * log (it would be measured too), idle workers off, and limits raised so the load generator, one
 * address, is not throttled.
 */
export const PRODUCT_ENV: Record<string, string> = {
  NODE_ENV: 'production',
  JWT_SECRET: BENCH_JWT_SECRET,
  LOG_LEVEL: 'warn',
  ROW_CACHE: 'off',
  COUNTER_CLEANUP: 'off',
  RATE_LIMIT_USER_PER_MINUTE: '10000000',
  RATE_LIMIT_IP_PER_MINUTE: '10000000',
  WS_MAX_SOCKETS_PER_USER: '100000',
  WS_MAX_SOCKETS_PER_ADDRESS: '100000',
};

/** The product as users run it: dist-bench's copy of src/main.ts with PRODUCT_ENV on the given Redis. */
export const startProduct = (redisUrl: string, env: Record<string, string> = {}, cpus?: string, nodeArgs?: string[]) =>
  startServerProcess({
    nodeArgs,
    script: path.join(__dirname, '..', '..', 'src', 'main.js'),
    readyPath: '/readyz',
    cpus,
    env: { ...PRODUCT_ENV, REDIS_URL: redisUrl, ...env },
  });

/** Pins a running process and its threads to `cpus` (`taskset -c` list); nothing where taskset is missing. */
export function pin(pid: number, cpus: string): void {
  if (pinnable()) spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

/** The pid of the redis-server behind a connection (INFO server). */
export const redisPid = async (redis: Redis): Promise<number> =>
  Number(/process_id:(\d+)/.exec(await redis.info('server'))![1]);
