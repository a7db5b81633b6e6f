// The machine a benchmark run came from, for the report: figures are only comparable with the
// hardware, software and commit that produced them beside them.
import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** stdout of a command, or undefined where it cannot run. */
function output(command: string, args: string[], cwd: string): string | undefined {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

export function describeMachine(root: string) {
  const cpus = os.cpus();
  const redis = output('redis-server', ['--version'], root);
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    node: process.version,
    redis: redis ? (/v=(\S+)/.exec(redis)?.[1] ?? redis) : 'not found',
    /** Load average over the minute before the run: another busy process skews every figure. */
    loadBefore: Math.round(os.loadavg()[0] * 100) / 100,
    commit: output('git', ['rev-parse', 'HEAD'], root) ?? 'unknown',
    /** Uncommitted changes in the working tree when the run started. */
    dirty: (output('git', ['status', '--porcelain', '--untracked-files=no'], root) ?? '') !== '',
  };
}

export type Machine = ReturnType<typeof describeMachine>;
