// The embedded PostgreSQL (PGlite: PostgreSQL compiled to WebAssembly, nothing to install) that
// the row cache reads when DATABASE_URL is unset, with a small demo `inventory` table so the
// feature works on a fresh machine. It runs in a thread of its own (pglite-thread.ts), started
// on first use. It belongs to one process: two servers cannot share its directory.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SqlConnection, SqlDatabase } from './row-source';

type Reply = { id: number; rows: Record<string, unknown>[] } | { id: number; error: string };
type Message = Reply | { ready: true } | { failed: string };

/**
 * The thread's script. Worker threads run JavaScript only: running from the TypeScript sources
 * (the tests), that is the build's copy, so `npm run build` must have run.
 */
function threadScript(): string {
  const beside = path.join(__dirname, 'pglite-thread.js');
  if (fs.existsSync(beside)) return beside;
  const built = path.resolve(__dirname, '..', '..', 'dist', 'db', 'pglite-thread.js');
  if (fs.existsSync(built)) return built;
  throw new Error(`${built} is missing: run npm run build`);
}

export function pgliteDatabase(dir: string): SqlDatabase {
  return {
    name: `embedded PostgreSQL (PGlite) in ${dir}`,
    async open(): Promise<SqlConnection> {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const thread = new Worker(threadScript(), { workerData: { dir } });
      const pending = new Map<number, { resolve: (rows: Record<string, unknown>[]) => void; reject: (error: Error) => void }>();
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
          for (const waiter of pending.values()) waiter.reject(error);
          pending.clear();
        };
        thread.on('error', end);
        thread.on('exit', (code) => end(new Error(`the embedded database's thread stopped (exit code ${code})`)));
      });

      const send = (request: { sql?: string; params?: unknown[]; close?: boolean }): Promise<Record<string, unknown>[]> => {
        if (ended) return Promise.reject(ended);
        return new Promise((resolve, reject) => {
          const id = ++nextId;
          pending.set(id, { resolve, reject });
          thread.postMessage({ id, ...request });
        });
      };

      try {
        await ready;
      } catch (error) {
        await thread.terminate();
        throw error;
      }
      return {
        query: (sql, params) => send({ sql, params }),
        broken: () => ended !== undefined,
        async close() {
          try {
            await send({ close: true });
          } finally {
            await thread.terminate();
          }
        },
      };
    },
  };
}
