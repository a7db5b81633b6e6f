// Runs the built server as users run it (`node dist/main.js`) in child processes, and cleans up
// every process and temporary directory afterwards, even when a test fails.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'main.js');
const WORKER = path.join(ROOT, 'dist', 'worker.js');

export interface ServerProcess {
  proc: ChildProcess;
  lines: Record<string, unknown>[];
  output: () => string;
  /** What the process wrote to stdout and to stderr, each on its own. */
  written: { stdout: string; stderr: string };
  exited: Promise<number | null>;
  waitFor(predicate: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
}

const running: ChildProcess[] = [];
const tempDirs: string[] = [];

export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-process-'));
  tempDirs.push(dir);
  return dir;
}

export function spawnServer(env: Record<string, string>): ServerProcess {
  return spawnBuilt(MAIN, 'server', { PORT: '0', ...env });
}

/**
 * Runs a built entry point in a child process that cleanUpProcesses removes. Output is split into
 * lines across chunks, so no log line is lost when the pipe delivers it in pieces.
 */
function spawnBuilt(script: string, what: string, env: Record<string, string>): ServerProcess {
  const proc = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(proc);
  const lines: Record<string, unknown>[] = [];
  let raw = '';
  const written = { stdout: '', stderr: '' };
  const pending = { stdout: '', stderr: '' };
  const reader =
    (stream: 'stdout' | 'stderr') =>
    (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      raw += text;
      written[stream] += text;
      const parts = (pending[stream] + text).split('\n');
      pending[stream] = parts.pop()!;
      for (const line of parts) {
        if (!line.trim().startsWith('{')) continue;
        try {
          lines.push(JSON.parse(line));
        } catch {
          // not a log line: the raw output keeps it
        }
      }
    };
  proc.stdout.on('data', reader('stdout'));
  proc.stderr.on('data', reader('stderr'));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return {
    proc,
    lines,
    output: () => raw,
    written,
    exited,
    async waitFor(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.find(predicate);
        if (found) return found;
        if (proc.exitCode !== null || proc.signalCode !== null || Date.now() > deadline)
          throw new Error(`${what} output:\n${raw}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** A zombie has exited; only its parent's bookkeeping remains. */
export function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export interface Started {
  server: ServerProcess;
  url: string;
  redisPid: number | undefined;
}

export async function startAndWait(env: Record<string, string>): Promise<Started> {
  const server = spawnServer(env);
  const listening = await server.waitFor((line) => typeof line.msg === 'string' && line.msg.startsWith('listening on'));
  const redisLine = server.lines.find((line) => line.msg === 'embedded redis-server ready');
  return { server, url: listening.url as string, redisPid: redisLine?.pid as number | undefined };
}

/**
 * Starts the built API process with task workers of its own (TASK_WORKER=on; `env` names the
 * queues and handlers) and waits until they run. An in-process server cannot load the handlers
 * module under jest: loadHandlers uses import(), which jest's VM refuses.
 */
export async function startApiWithWorkers(env: Record<string, string>): Promise<Started> {
  ensureBuilt();
  const started = await startAndWait({ ...env, TASK_WORKER: 'on' });
  await started.server.waitFor((line) => line.msg === 'task workers started');
  return started;
}

/** Builds dist/ when it is missing (npm test builds it before jest runs). */
export function ensureBuilt(): void {
  if (!fs.existsSync(MAIN)) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
}

/** Kills every server process still running and removes the temporary directories. */
export function cleanUpProcesses(): void {
  for (const proc of running.splice(0)) if (proc.exitCode === null) proc.kill('SIGKILL');
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Runs the built task worker as users run it (`node dist/worker.js`, i.e. `npm run worker`). */
export function spawnWorker(env: Record<string, string>): ServerProcess {
  return spawnBuilt(WORKER, 'worker', env);
}

/** Starts a worker process and waits until its workers have started on every queue. */
export async function startWorker(env: Record<string, string>): Promise<ServerProcess> {
  const worker = spawnWorker(env);
  await worker.waitFor((line) => line.msg === 'task workers started');
  return worker;
}
