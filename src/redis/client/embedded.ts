// Runs a private redis-server as a child process when no REDIS_URL is given: loopback only, a
// random password, data and append-only file under the data directory. A tiny watchdog process
// stops it if this process dies without cleaning up (even on SIGKILL), so no orphan is left.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import type { Logger } from '../../common/logger';
import { withTimeout } from '../../common/timeout';

export interface EmbeddedRedisOptions {
  dataDir: string;
  logger: Logger;
  /** Append-only file with fsync every second (the product default); tests may turn it off. */
  appendOnly?: boolean;
  startTimeoutMs?: number;
  binary?: string;
}

export const INSTALL_HINT =
  'redis-server is not installed. On Debian/Ubuntu run: sudo apt-get install -y redis-server ' +
  '(or `npm run setup`); elsewhere install Redis 6.2 or newer, or set REDIS_URL to use an existing Redis.';

const PORT_ATTEMPTS = 3;

export class EmbeddedRedis extends EventEmitter {
  private started = false;
  private stopping = false;
  private exited = false;
  private readonly exitPromise: Promise<void>;

  private constructor(
    readonly url: string,
    readonly port: number,
    private readonly child: ChildProcess,
    private readonly watchdog: ChildProcess,
    private readonly logger: Logger,
  ) {
    super();
    this.exitPromise = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exited = true;
        this.stopWatchdog();
        if (this.started && !this.stopping) {
          logger.error(
            { code: 'REDIS_SERVER_EXITED', exitCode: code, signal },
            'embedded redis-server exited unexpectedly',
          );
          this.emit('unexpected-exit', code, signal);
        }
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  static async start(options: EmbeddedRedisOptions): Promise<EmbeddedRedis> {
    const binary = options.binary ?? 'redis-server';
    if (!findExecutable(binary)) throw new Error(INSTALL_HINT);
    prepareDataDir(options.dataDir);

    let lastError: Error | undefined;
    for (let attempt = 1; attempt <= PORT_ATTEMPTS; attempt += 1) {
      const port = await freeLoopbackPort();
      try {
        return await EmbeddedRedis.launch(binary, port, options);
      } catch (error) {
        lastError = error as Error;
        // Another process may take the port between our probe and redis binding it: try another.
        if (!/Address already in use/i.test(lastError.message)) throw lastError;
      }
    }
    throw lastError ?? new Error('could not start redis-server');
  }

  private static async launch(binary: string, port: number, options: EmbeddedRedisOptions): Promise<EmbeddedRedis> {
    const password = randomBytes(24).toString('base64url');
    const confPath = path.join(options.dataDir, 'redis.conf');
    fs.writeFileSync(confPath, redisConf(options, port, password), { mode: 0o600 });

    // Own process group: a Ctrl-C in the terminal reaches only the API process, which then stops
    // Redis after draining requests instead of losing it mid-drain.
    const child = spawn(binary, [confPath], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const logger = options.logger.child({ component: 'redis-server' });
    const output: string[] = [];
    const ready = new Promise<void>((resolve, reject) => {
      const onLine = (line: string): void => {
        output.push(line);
        if (output.length > 50) output.shift();
        forwardLogLine(logger, line);
        if (line.includes('Ready to accept connections')) resolve();
      };
      readline.createInterface({ input: child.stdout }).on('line', onLine);
      readline.createInterface({ input: child.stderr }).on('line', onLine);
      child.once('error', (error) => reject(new Error(`could not run ${binary}: ${error.message}`)));
      child.once('exit', (code, signal) =>
        reject(new Error(`redis-server exited during start (code ${code}, signal ${signal}):\n${output.join('\n')}`)),
      );
    });

    const watchdog = startWatchdog(child.pid!);
    const instance = new EmbeddedRedis(`redis://:${password}@127.0.0.1:${port}`, port, child, watchdog, logger);
    const timeoutMs = options.startTimeoutMs ?? 60_000;
    try {
      await withTimeout(ready, timeoutMs, `redis-server did not become ready within ${timeoutMs} ms`);
    } catch (error) {
      await instance.stop();
      throw error;
    }
    instance.started = true;
    logger.info({ port, pid: child.pid, dataDir: options.dataDir }, 'embedded redis-server ready');
    return instance;
  }

  /** Killed before redis-server is stopped on purpose, so it cannot signal a reused pid later. */
  private stopWatchdog(): void {
    this.watchdog.kill('SIGKILL');
    this.watchdog.stdin?.destroy();
  }

  /** SIGTERM lets redis-server flush its append-only file before it exits. */
  async stop(timeoutMs = 15_000): Promise<void> {
    this.stopping = true;
    this.stopWatchdog();
    if (this.exited) return;
    this.child.kill('SIGTERM');
    try {
      await withTimeout(this.exitPromise, timeoutMs);
    } catch {
      this.logger.warn({ code: 'REDIS_SERVER_KILLED' }, 'redis-server did not stop in time; killing it');
      this.child.kill('SIGKILL');
      await this.exitPromise;
    }
  }
}

/** The redis.conf of a loopback-only, password-protected redis-server (the tests' ones too). */
export function redisConf(
  options: Pick<EmbeddedRedisOptions, 'dataDir' | 'appendOnly'>,
  port: number,
  password: string,
): string {
  const quoted = (value: string): string => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return [
    '# Written at every start by the API server; edits here are overwritten.',
    'bind 127.0.0.1',
    `port ${port}`,
    'protected-mode yes',
    'daemonize no',
    `dir ${quoted(options.dataDir)}`,
    `pidfile ${quoted(path.join(options.dataDir, 'redis.pid'))}`,
    'logfile ""',
    `requirepass ${password}`,
    `appendonly ${options.appendOnly === false ? 'no' : 'yes'}`,
    'appendfsync everysec',
    // The append-only file is the durable copy; periodic RDB snapshots would only add forks.
    'save ""',
    '',
  ].join('\n');
}

/**
 * A shell that blocks reading a pipe from this process. When this process dies for any reason
 * (SIGKILL included), the kernel closes the pipe, `read` returns and the shell signals
 * redis-server: TERM lets the product's Redis flush its append-only file; tests use KILL.
 */
export function startWatchdog(redisPid: number, signal: 'TERM' | 'KILL' = 'TERM'): ChildProcess {
  const watchdog = spawn('sh', ['-c', `read _unused; kill -${signal} "$0" 2>/dev/null`, String(redisPid)], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.unref();
  (watchdog.stdin as unknown as net.Socket | null)?.unref();
  return watchdog;
}

/** Refuses a data directory whose Redis is still running: two servers must not share one. */
function prepareDataDir(dataDir: string): void {
  if (/[\r\n]/.test(dataDir)) throw new Error('DATA_DIR must not contain line breaks');
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const pidFile = path.join(dataDir, 'redis.pid');
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  } catch {
    return;
  }
  if (Number.isInteger(pid) && pid > 0 && isRedisProcess(pid)) {
    throw new Error(
      `DATA_DIR ${dataDir} is in use by redis-server pid ${pid} (is another API server running?); ` +
        'stop it or choose another DATA_DIR',
    );
  }
  fs.rmSync(pidFile, { force: true });
}

function isRedisProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('redis-server');
  } catch {
    return true; // alive, and no /proc to tell otherwise: be safe
  }
}

/** Every line redis-server writes becomes a log line of ours: it never reaches our stdout as text. */
function forwardLogLine(logger: Logger, line: string): void {
  // redis-server lines look like "pid:role date time <level> message". Its start-up banner uses
  // the warning level too, so only lines that read like a problem are raised to warn.
  const match = /^\d+:[A-Z] .+? ([.\-*#]) (.*)$/.exec(line);
  const message = match ? match[2] : line;
  if (match?.[1] === '#' && /warning|error|fail|unable|can't|cannot|refus/i.test(message))
    logger.warn({ code: 'REDIS_SERVER_WARNING' }, message);
  else logger.debug({ code: 'REDIS_SERVER_OUTPUT' }, message);
}

export function findExecutable(name: string): string | undefined {
  const candidates = name.includes('/')
    ? [name]
    : (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, name));
  return candidates.find((candidate) => {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return fs.statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
