// A real PostgreSQL server per test file, where one is installed: initdb into a temporary
// directory, `postgres` on a free loopback port with trust authentication, stopped afterwards.
// PostgreSQL refuses to run as root, so under root it runs as the `postgres` user (setpriv).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freeLoopbackPort } from '../../src/redis/client/embedded';

export interface TestPostgres {
  url: string;
  port: number;
  /** Runs SQL as the superuser. */
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Stops the server (fast shutdown), as an outage would. */
  halt(): Promise<void>;
  /** Starts it again on the same port and data. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** The directory holding initdb and postgres, or undefined when PostgreSQL is not installed. */
export function findPostgres(): string | undefined {
  const onPath = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const candidates = [...onPath, '/usr/local/bin', '/usr/lib/postgresql', '/usr/local/pgsql/bin', '/opt/homebrew/bin'];
  const dirs: string[] = [];
  for (const candidate of candidates) {
    if (candidate === '/usr/lib/postgresql' && fs.existsSync(candidate)) {
      const versions = fs.readdirSync(candidate).sort((a, b) => Number(b) - Number(a));
      dirs.push(...versions.map((version) => path.join(candidate, version, 'bin')));
    } else {
      dirs.push(candidate);
    }
  }
  return dirs.find((dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'postgres')));
}

/** Runs a command as the postgres user when we are root (PostgreSQL refuses root). */
function asOwner(
  uid: number | undefined,
  gid: number | undefined,
  command: string,
  args: string[],
): [string, string[]] {
  if (uid === undefined) return [command, args];
  return ['setpriv', [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--', command, ...args]];
}

function userIds(name: string): { uid: number; gid: number } {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) throw new Error(`running as root, and there is no "${name}" user to run PostgreSQL as`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export async function startTestPostgres(binDir: string): Promise<TestPostgres> {
  const root = process.getuid?.() === 0;
  const owner = root ? userIds('postgres') : undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-test-pg-'));
  const dataDir = path.join(dir, 'data');
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);

  const [initCommand, initArgs] = asOwner(owner?.uid, owner?.gid, path.join(binDir, 'initdb'), [
    '-D',
    dataDir,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  const init = spawnSync(initCommand, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.stdout || init.error?.message}`);
  }

  const port = await freeLoopbackPort();
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | undefined;
  let output = '';

  const launch = async (): Promise<void> => {
    const [command, args] = asOwner(owner?.uid, owner?.gid, path.join(binDir, 'postgres'), [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ]);
    output = '';
    const started = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    started.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child = started;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`postgres exited at start: ${output}`);
      const probe = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
      try {
        await probe.connect();
        await probe.end();
        return;
      } catch {
        await probe.end().catch(() => undefined);
        if (Date.now() > deadline) throw new Error(`postgres did not start in time: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };

  const halt = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGINT'); // fast shutdown: ends sessions, as a crash or restart would
    const timer = setTimeout(() => running.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    await launch();
  } catch (error) {
    await halt();
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  return {
    url,
    port,
    async query(sql, params) {
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<Record<string, unknown>>(sql, params)).rows;
      } finally {
        await client.end();
      }
    },
    halt,
    resume: launch,
    async stop() {
      await halt();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
