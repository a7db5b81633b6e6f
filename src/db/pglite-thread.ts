// The embedded PostgreSQL's own thread (worker_threads). PGlite runs PostgreSQL as WebAssembly,
// synchronously: creating a new data directory takes seconds and every query runs to its end
// without yielding, so on the API's thread it would stall every request. Here it stalls nothing.
// Messages in: { id, sql, params } or { id, close: true }; out: { id, rows } or { id, error }.
import { parentPort, workerData } from 'node:worker_threads';
import { DEMO_TABLE, pgliteOptions } from './pglite-setup';

interface Request {
  id: number;
  sql?: string;
  params?: unknown[];
  close?: boolean;
}

async function main(): Promise<void> {
  const port = parentPort!;
  const { PGlite } = await import('@electric-sql/pglite');
  // The directory exists (pglite-create.ts made it); the demo table is checked again regardless.
  const db = await PGlite.create((workerData as { dir: string }).dir, await pgliteOptions());
  await db.exec(DEMO_TABLE);
  port.on('message', (request: Request) => {
    if (request.close) {
      db.close().then(
        () => port.postMessage({ id: request.id, rows: [] }),
        (error: unknown) => port.postMessage({ id: request.id, error: (error as Error).message }),
      );
      return;
    }
    db.query<Record<string, unknown>>(request.sql!, request.params).then(
      (result) => port.postMessage({ id: request.id, rows: result.rows }),
      (error: unknown) => port.postMessage({ id: request.id, error: (error as Error).message }),
    );
  });
  port.postMessage({ ready: true });
}

main().catch((error: unknown) => {
  parentPort!.postMessage({ failed: (error as Error).message });
});
