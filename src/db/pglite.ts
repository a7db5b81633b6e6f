// The embedded PostgreSQL (PGlite: PostgreSQL compiled to WebAssembly, nothing to install) that
// the row cache reads when DATABASE_URL is unset, with a small demo `inventory` table so the
// feature works on a fresh machine. It runs in a thread of its own (pglite-thread.ts), started
// on first use, after its directory has been made if need be: a copy of a template that a
// short-lived process created once per machine (pglite-template.ts). It belongs to one process: a
// lock file beside its directory keeps a second one out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fork } from 'node:child_process';
import readline from 'node:readline';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../common/logger';
import type { SqlConnection, SqlDatabase } from './sql';
import { copyTemplate, defaultTemplateDir, ensureTemplate } from './pglite-template';

type Reply = { id: number; rows: Record<string, unknown>[] } | { id: number; error: string };
type Message = Reply | { ready: true } | { failed: string };

export interface PgliteOptions {
  /**
   * Longest wait for one query (ROW_CACHE_DB_TIMEOUT_MS). PGlite cannot cancel a query, so past it
   * the thread is stopped and the database is opened anew on the next use. Unset: no limit.
   */
  timeoutMs?: number;
  /** Where a refused lock is reported. */
  logger?: Logger;
  /**
   * Where a freshly created directory is kept to be copied (default: one per user in the
   * temporary directory); null creates every directory in place.
   */
  templateDir?: string | null;
  /** Arms the timeout of one query and returns its disarm (tests drive it; default: setTimeout). */
  setTimer?: (fire: () => void, ms: number) => () => void;
}

function realTimer(fire: () => void, ms: number): () => void {
  const timer = setTimeout(fire, ms);
  return () => clearTimeout(timer);
}

/**
 * A script of the build: the thread's and the creating process's. Worker threads and child
 * processes run JavaScript only: running from the TypeScript sources (the tests), that is the
 * build's copy, so `npm run build` must have run.
 */
function builtScript(name: string): string {
  const beside = path.join(__dirname, name);
  if (fs.existsSync(beside)) return beside;
  const built = path.resolve(__dirname, '..', '..', 'dist', 'db', name);
  if (fs.existsSync(built)) return built;
  throw new Error(`${built} is missing: run npm run build`);
}

/** Far above the few seconds initdb takes, so only a hung creation meets it. */
const CREATE_TIMEOUT_MS = 120_000;

/**
 * Runs initdb and creates the demo table in a child process (pglite-create.ts says why). A child
 * that hangs is killed after CREATE_TIMEOUT_MS, so open() fails (and frees the directory's lock)
 * instead of waiting for ever.
 */
function createDirectory(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(builtScript('pglite-create.js'), [dir], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      execArgv: [],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
    const timer = setTimeout(() => {
      stderr = `it did not finish within ${CREATE_TIMEOUT_MS / 1000} s and was stopped. ${stderr}`;
      child.kill('SIGKILL');
    }, CREATE_TIMEOUT_MS).unref();
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `creating the embedded database in ${dir} failed (${signal ?? `exit code ${code}`}): ${stderr.trim() || 'no message'}`,
          ),
        );
    });
  });
}

/** A new directory: a copy of the template (made first if need be), or created in place without one. */
async function makeDirectory(dir: string, templateDir: string | null | undefined): Promise<void> {
  const template = templateDir === undefined ? defaultTemplateDir() : templateDir;
  if (template === null || template === undefined) return createDirectory(dir);
  await ensureTemplate(template, createDirectory);
  copyTemplate(template, dir);
}

/** PGlite prints only when asked to debug, and the WebAssembly runtime only when it fails. */
function forwardThreadOutput(thread: Worker, logger: Logger): void {
  readline.createInterface({ input: thread.stdout }).on('line', (line) => logger.info({ code: 'PGLITE_OUTPUT' }, line));
  readline.createInterface({ input: thread.stderr }).on('line', (line) => logger.warn({ code: 'PGLITE_OUTPUT' }, line));
}

/** Lock files this process holds. One naming our pid but not held here is stale (a restarted container reuses pids). */
const heldLocks = new Set<string>();

/** Whether a process with this pid runs on this machine (EPERM: it does, as another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Thrown when another live process holds the directory. */
class DirectoryLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holder: string,
  ) {
    super(
      `${lockFile} says the embedded database is in use by ${holder}; one embedded database serves one process (several instances need DATABASE_URL)`,
    );
    this.name = 'DirectoryLockedError';
  }
}

/**
 * Takes `<dir>.lock`, holding "pid hostname", created atomically (a hard link, which fails if the
 * file exists). A lock of a process that is gone is taken over; one of a live process, or of
 * another host (whose processes cannot be checked from here), is refused. Returns the release.
 */
export function lockDirectory(dir: string): () => void {
  const file = `${dir}.lock`;
  const owner = `${process.pid} ${os.hostname()}\n`;
  const draft = `${file}.${process.pid}.${Date.now()}`;
  fs.writeFileSync(draft, owner, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.linkSync(draft, file);
        heldLocks.add(file);
        const release = (): void => {
          if (!heldLocks.delete(file)) return;
          process.off('exit', release);
          try {
            if (fs.readFileSync(file, 'utf8') === owner) fs.unlinkSync(file);
          } catch {
            // Gone already.
          }
        };
        process.on('exit', release);
        return release;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      let found: string;
      try {
        found = fs.readFileSync(file, 'utf8');
      } catch {
        continue; // released meanwhile
      }
      const [pidText = '', host = ''] = found.trim().split(' ');
      const pid = Number(pidText);
      const ours = pid === process.pid && host === os.hostname();
      if (ours && heldLocks.has(file)) throw new DirectoryLockedError(file, 'this process (another connection)');
      if (host !== os.hostname())
        throw new DirectoryLockedError(
          file,
          `process ${pidText} on ${host || 'an unknown host'} (remove the file if that process is gone)`,
        );
      if (!ours && Number.isInteger(pid) && pid > 0 && processAlive(pid))
        throw new DirectoryLockedError(file, `process ${pid}`);
      // Stale. Removed only if it still says the same, so a racing process's new lock stays.
      try {
        if (fs.readFileSync(file, 'utf8') === found) fs.unlinkSync(file);
      } catch {
        // Removed by the racer.
      }
    }
    throw new Error(`cannot take ${file}: it keeps changing`);
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

export function pgliteDatabase(dir: string, options: PgliteOptions = {}): SqlDatabase {
  const { timeoutMs, logger, templateDir, setTimer = realTimer } = options;
  const name = `embedded PostgreSQL (PGlite) in ${dir}`;
  /** The last refusal logged, so an outage's retries do not repeat it. */
  let refused: string | undefined;
  return {
    name,
    async open(): Promise<SqlConnection> {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      let release: () => void;
      try {
        release = lockDirectory(dir);
        refused = undefined;
      } catch (error) {
        if (error instanceof DirectoryLockedError && refused !== error.message) {
          refused = error.message;
          logger?.error(
            { component: 'row-cache', database: name, lockFile: error.lockFile, holder: error.holder },
            'the embedded database is in use by another process; this one keeps serving the cached copies it has, and tries again',
          );
        }
        throw error;
      }
      let thread: Worker;
      try {
        if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) await makeDirectory(dir, templateDir);
        // A thread's console writes straight to the process's stdout and stderr: read here, it
        // becomes log lines (code PGLITE_OUTPUT) instead of text among them.
        const ours = logger !== undefined;
        thread = new Worker(builtScript('pglite-thread.js'), { workerData: { dir }, stdout: ours, stderr: ours });
        if (logger) forwardThreadOutput(thread, logger.child({ component: 'row-cache', database: name }));
      } catch (error) {
        release();
        throw error;
      }
      const pending = new Map<
        number,
        { resolve: (rows: Record<string, unknown>[]) => void; reject: (error: Error) => void }
      >();
      let nextId = 0;
      let ended: Error | undefined;

      const ready = new Promise<void>((resolve, reject) => {
        thread.on('message', (message: Message) => {
          if ('ready' in message) return resolve();
          if ('failed' in message) return reject(new Error(message.failed));
          const waiter = pending.get(message.id);
          pending.delete(message.id);
          if ('error' in message) waiter?.reject(new Error(message.error));
          else waiter?.resolve(message.rows);
        });
        const end = (error: Error): void => {
          ended ??= error;
          reject(error);
          for (const waiter of pending.values()) waiter.reject(ended);
          pending.clear();
        };
        thread.on('error', end);
        thread.on('exit', (code) => end(new Error(`the embedded database's thread stopped (exit code ${code})`)));
      });

      const send = (request: {
        sql?: string;
        params?: unknown[];
        close?: boolean;
      }): Promise<Record<string, unknown>[]> => {
        if (ended) return Promise.reject(ended);
        return new Promise((resolve, reject) => {
          const id = ++nextId;
          const disarm =
            timeoutMs === undefined
              ? () => undefined
              : setTimer(() => {
                  // A query that runs on (or a thread that hangs) would stall the refresher and stop().
                  ended ??= new Error(
                    `the embedded database did not answer within ${timeoutMs} ms (ROW_CACHE_DB_TIMEOUT_MS); its thread is stopped`,
                  );
                  void thread.terminate();
                  pending.delete(id);
                  reject(ended);
                }, timeoutMs);
          pending.set(id, {
            resolve: (rows) => {
              disarm();
              resolve(rows);
            },
            reject: (error) => {
              disarm();
              reject(error);
            },
          });
          thread.postMessage({ id, ...request });
        });
      };

      try {
        await ready;
      } catch (error) {
        await thread.terminate();
        release();
        throw error;
      }
      return {
        query: (sql, params) => send({ sql, params }),
        broken: () => ended !== undefined,
        async close() {
          try {
            // A thread that stopped (or was stopped) has nothing left to close.
            if (!ended) await send({ close: true });
          } finally {
            await thread.terminate();
            release();
          }
        },
      };
    },
  };
}
