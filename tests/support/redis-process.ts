// A redis-server child for fault tests: loopback only, a password, the append-only file with
// fsync every second (as the product runs it), in a temporary directory. It can be killed outright
// (SIGKILL) and started again on the same port and directory, so it comes back from its AOF and
// clients that kept the URL reconnect by themselves. stopRedisProcesses (an afterAll) removes
// every one left, and a watchdog kills it should the test process itself die.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import Redis from 'ioredis';
import {
  findExecutable,
  freeLoopbackPort,
  INSTALL_HINT,
  redisConf,
  startWatchdog,
} from '../../src/redis/client/embedded';

export interface RedisProcess {
  /** redis://:password@127.0.0.1:port, unchanged across restarts. */
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  /** The pid of the running redis-server, undefined while it is down. */
  readonly pid: number | undefined;
  /** A plain client for inspecting data; made on first use, reconnects after a restart. */
  client(): Redis;
  /** SIGKILL: no chance to flush anything; resolves once the process has exited. */
  kill(): Promise<void>;
  /** Starts redis-server again on the same port and directory; resolves once it accepts commands. */
  restart(): Promise<void>;
  /** SIGTERM (SIGKILL if it lingers), then removes the directory. */
  stop(): Promise<void>;
  /** The last lines redis-server printed, for failure messages. */
  output(): string;
}

interface Running {
  child: ChildProcess;
  watchdog: ChildProcess;
  exited: Promise<void>;
}

const everyProcess: RedisProcess[] = [];

const READY_TIMEOUT_MS = 30_000;
const PORT_BUSY_RETRY_MS = 5000;

export async function startRedisProcess(): Promise<RedisProcess> {
  if (!findExecutable('redis-server')) throw new Error(INSTALL_HINT);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-fault-redis-'));
  const password = randomBytes(18).toString('base64url');
  const output: string[] = [];
  let running: Running | undefined;
  let inspector: Redis | undefined;
  let port = 0;

  const launch = async (): Promise<void> => {
    fs.writeFileSync(path.join(dir, 'redis.conf'), redisConf({ dataDir: dir }, port, password), { mode: 0o600 });
    const child = spawn('redis-server', [path.join(dir, 'redis.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const watchdog = startWatchdog(child.pid!, 'KILL');
    void exited.then(() => watchdog.kill('SIGKILL'));
    running = { child, watchdog, exited };
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`redis-server not ready within ${READY_TIMEOUT_MS} ms:\n${output.join('\n')}`)),
        READY_TIMEOUT_MS,
      );
      const onLine = (line: string): void => {
        output.push(line);
        if (output.length > 200) output.shift();
        if (line.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      };
      readline.createInterface({ input: child.stdout }).on('line', onLine);
      readline.createInterface({ input: child.stderr }).on('line', onLine);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(
          new Error(
            `redis-server exited during start (code ${code}, signal ${signal}):\n${output.slice(-20).join('\n')}`,
          ),
        );
      });
    }).catch(async (error: unknown) => {
      running = undefined;
      child.kill('SIGKILL');
      await exited;
      throw error;
    });
  };

  // A first start may lose its probed port to another process: try another port.
  for (let attempt = 1; ; attempt++) {
    port = await freeLoopbackPort();
    try {
      await launch();
      break;
    } catch (error) {
      if (attempt >= 3 || !/Address already in use/i.test((error as Error).message)) {
        fs.rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }

  const kill = async (signal: NodeJS.Signals): Promise<void> => {
    const current = running;
    running = undefined;
    if (!current) return;
    current.child.kill(signal);
    await current.exited;
  };

  const handle: RedisProcess = {
    url: `redis://:${password}@127.0.0.1:${port}`,
    port,
    dir,
    get pid() {
      return running?.child.pid;
    },
    client() {
      if (!inspector) {
        inspector = new Redis(handle.url, { maxRetriesPerRequest: 1, retryStrategy: () => 100 });
        // Errors while Redis is down on purpose are expected; the commands themselves reject.
        inspector.on('error', () => undefined);
      }
      return inspector;
    },
    kill: () => kill('SIGKILL'),
    async restart() {
      if (running) throw new Error('redis-server is still running');
      // The port must be the same, so the clients' URL stays valid. A socket of the killed server
      // can hold it for a moment; keep trying for a while rather than pick another.
      const deadline = Date.now() + PORT_BUSY_RETRY_MS;
      for (;;) {
        try {
          await launch();
          return;
        } catch (error) {
          if (!/Address already in use/i.test((error as Error).message) || Date.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    },
    async stop() {
      inspector?.disconnect();
      inspector = undefined;
      const current = running;
      if (current) {
        const lingering = setTimeout(() => current.child.kill('SIGKILL'), 10_000);
        await kill('SIGTERM');
        clearTimeout(lingering);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
    output: () => output.join('\n'),
  };
  everyProcess.push(handle);
  return handle;
}

/** Stops every redis-server these helpers started; for afterAll, so a failed test leaves none. */
export async function stopRedisProcesses(): Promise<void> {
  await Promise.all(everyProcess.splice(0).map((redis) => redis.stop()));
}
