// Creates the embedded PostgreSQL's directory (initdb and the demo table), as a short-lived child
// process of the API: PGlite runs initdb in a second PostgreSQL instance and an initdb module of
// its own, which took the API process from about 40 MB to about 780 MB at its peak and left it at
// about 740 MB (250 MB even after the thread that did it was stopped). A process gives all of
// that back when it exits. Argument: the directory. Exit code 0 once it is ready.
import { DEMO_TABLE, pgliteOptions } from './pglite-setup';

async function create(dir: string): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dir, await pgliteOptions());
  await db.exec(DEMO_TABLE);
  await db.close();
}

// The API went away (its IPC channel closed): no one waits for this directory any more.
process.on('disconnect', () => process.exit(1));
create(process.argv[2]).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${describe(error)}\n`);
    process.exit(1);
  },
);

/** PGlite's file system throws emscripten's ErrnoError, which has a name and a number but no message. */
function describe(error: unknown): string {
  const { message, name, errno } = (error ?? {}) as { message?: unknown; name?: unknown; errno?: unknown };
  if (typeof message === 'string' && message !== '') return message;
  if (errno !== undefined)
    return `${String(name ?? 'file system error')} (emscripten errno ${String(errno)}) writing the data directory`;
  return String(error);
}
