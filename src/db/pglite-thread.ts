// The embedded PostgreSQL's own thread (worker_threads). PGlite runs PostgreSQL as WebAssembly,
// synchronously: creating a new data directory takes seconds and every query runs to its end
// without yielding, so on the API's thread it would stall every request. Here it stalls nothing.
// Messages in: { id, sql, params } or { id, close: true }; out: { id, rows } or { id, error }.
import { parentPort, workerData } from 'node:worker_threads';

interface Request {
  id: number;
  sql?: string;
  params?: unknown[];
  close?: boolean;
}

/** The demo table, seeded when it is empty: promotion stock that a shop page shows live. */
const DEMO_TABLE = `
CREATE TABLE IF NOT EXISTS inventory (
  id integer PRIMARY KEY,
  name text NOT NULL,
  price_cents integer NOT NULL CHECK (price_cents >= 0),
  stock integer NOT NULL CHECK (stock >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO inventory (id, name, price_cents, stock)
SELECT * FROM (VALUES
  (1, 'Espresso cup', 450, 120), (2, 'Pour-over kettle', 3900, 15), (3, 'Burr grinder', 12900, 4),
  (4, 'Paper filters (100)', 590, 300), (5, 'Milk jug', 1450, 40), (6, 'Tamper', 2200, 25),
  (7, 'Scale', 2900, 18), (8, 'French press', 3400, 22), (9, 'Moka pot', 2700, 30),
  (10, 'Travel mug', 1900, 60), (11, 'Cold brew bottle', 2400, 12), (12, 'Cleaning tablets', 990, 80),
  (13, 'Knock box', 1700, 9), (14, 'Descaler', 1290, 45), (15, 'Dosing cup', 1100, 33),
  (16, 'Latte art pen', 690, 70), (17, 'Thermometer', 1390, 27), (18, 'Beans, house blend 1 kg', 2600, 50),
  (19, 'Beans, single origin 250 g', 1500, 7), (20, 'Gift card', 2500, 1000)
) AS demo(id, name, price_cents, stock)
WHERE NOT EXISTS (SELECT 1 FROM inventory);
`;

async function main(): Promise<void> {
  const port = parentPort!;
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create((workerData as { dir: string }).dir);
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
