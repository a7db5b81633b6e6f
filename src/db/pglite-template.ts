// A freshly created embedded database directory, kept once per machine and user, so that a new
// directory is a copy (a fraction of a second) instead of an initdb (seconds of CPU). Each PGlite
// version and demo table has a template of its own; one that cannot be kept safely is not used.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_TABLE, MEMORY_SETTINGS } from './pglite-setup';

/** What a directory's content depends on: the PGlite build and what is created in it. */
function templateKey(): string {
  const entry = require.resolve('@electric-sql/pglite');
  const manifest = path.join(path.dirname(entry), '..', 'package.json');
  const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
  const hash = createHash('sha256')
    .update(JSON.stringify([DEMO_TABLE, MEMORY_SETTINGS]))
    .digest('hex')
    .slice(0, 12);
  return `pglite-${version}-${hash}`;
}

/**
 * The default place: a directory of this user's in the temporary directory. Another user could
 * have made it first (to hand us a database of theirs), so it is used only if it is ours, a
 * real directory, and closed to others.
 */
export function defaultTemplateDir(): string | undefined {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const parent = path.join(os.tmpdir(), `redis-in-action-templates-${uid ?? 'user'}`);
  try {
    fs.mkdirSync(parent, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  const stat = fs.lstatSync(parent, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0) return undefined;
  return path.join(parent, templateKey());
}

/**
 * The template at `template`, made by `create` (into a scratch directory beside it, renamed into
 * place once complete, so a half-made one is never copied; a racing process's rename wins and
 * ours is dropped).
 */
export async function ensureTemplate(template: string, create: (dir: string) => Promise<void>): Promise<void> {
  if (fs.existsSync(path.join(template, 'PG_VERSION'))) return;
  const scratch = `${template}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await create(scratch);
    fs.renameSync(scratch, template);
  } catch (error) {
    if (!fs.existsSync(path.join(template, 'PG_VERSION'))) throw error;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Copies the template into `dir` (which may hold what an interrupted copy left). PG_VERSION,
 * which says a directory is ready, goes last: a copy cut short is copied again next time.
 */
export function copyTemplate(template: string, dir: string): void {
  const marker = path.join(template, 'PG_VERSION');
  fs.cpSync(template, dir, { recursive: true, force: true, filter: (source) => source !== marker });
  fs.copyFileSync(marker, path.join(dir, 'PG_VERSION'));
}
