// What the embedded PostgreSQL runs with, shared by the process that creates its directory
// (pglite-create.ts) and the thread that serves it (pglite-thread.ts).
/**
 * PostgreSQL's memory settings, in PGlite's single-user mode. Its defaults (shared_buffers 128 MB,
 * work_mem 4 MB, maintenance_work_mem 64 MB) are a server's, for a demo table of 20 rows read by
 * key; 16 MB of buffers keeps every page of a table of some 100,000 such rows in memory.
 */
export const MEMORY_SETTINGS = {
  shared_buffers: '16MB',
  temp_buffers: '1MB',
  work_mem: '1MB',
  maintenance_work_mem: '8MB',
  wal_buffers: '512kB',
} as const;

/** PGlite's own start parameters with the settings above. */
export async function pgliteOptions(): Promise<{ startParams: string[] }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const settings = Object.entries(MEMORY_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  return { startParams: [...PGlite.defaultStartParams, ...settings] };
}

/** The demo table, seeded when it is empty: promotion stock that a shop page shows live. */
export const DEMO_TABLE = `
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
