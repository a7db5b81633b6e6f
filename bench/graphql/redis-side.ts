// The Redis side of the GraphQL-path benchmark: how many commands one operation sends to Redis
// (MONITOR, which shows commands run inside scripts as coming from "lua", so those are left
// out), and how fast redis-server runs those same commands on its own (redis-benchmark).
import { spawnSync } from 'node:child_process';
import Redis from 'ioredis';

/** Commands clients sent per operation over `count` operations, and those the first one sent, as argument lists. */
export async function countRoundTrips(redisUrl: string, count: number, operation: (n: number) => Promise<void>) {
  const control = new Redis(redisUrl);
  // monitor() answers with a second connection; both are closed at the end.
  const source = new Redis(redisUrl);
  const monitor = await source.monitor();
  const seen: string[][] = [];
  let waiting: { marker: string; resolve: () => void } | undefined;
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (args[0]?.toLowerCase() === 'echo' && waiting && args[1] === waiting.marker) waiting.resolve();
    else if (source !== 'lua') seen.push(args);
  });
  // An ECHO from this process marks where an operation's commands end: MONITOR lists commands in
  // the order Redis ran them. Done when MONITOR has shown the ECHO and its reply is in: a reply
  // still on its way when the connections close would be rejected with nobody to hear it.
  const mark = async (marker: string): Promise<void> => {
    const shown = new Promise<void>((resolve) => (waiting = { marker, resolve }));
    await Promise.all([shown, control.echo(marker)]);
  };
  try {
    await mark('start');
    seen.length = 0;
    await operation(0);
    await mark('first');
    const firstOperation = seen.splice(0);
    for (let n = 1; n < count; n++) await operation(n);
    await mark('end');
    return { perOperation: (firstOperation.length + seen.length) / count, firstOperation };
  } finally {
    for (const client of [monitor, source, control]) client.disconnect();
  }
}

/** Operations per second redis-server alone sustains for these commands: 1 / (sum of 1/rate of each). */
export function redisLimit(redisUrl: string, commands: string[][], clients: number, requests: number, cpus?: string) {
  const { hostname, port, username, password } = new URL(redisUrl);
  const auth = password
    ? ['--user', decodeURIComponent(username || 'default'), '-a', decodeURIComponent(password)]
    : [];
  const pinned = cpus === undefined ? [] : ['taskset', '-c', cpus];
  let secondsPerOperation = 0;
  for (const args of commands) {
    const options = ['-h', hostname, '-p', port, '-c', String(clients), '-n', String(requests), '--csv', ...auth];
    const [command, ...argv] = [...pinned, 'redis-benchmark', ...options, ...args];
    const result = spawnSync(command, argv, { encoding: 'utf8', timeout: 60_000 });
    const last = result.stdout.trim().split('\n').pop() ?? '';
    // The test name is the command line and may hold quotes; seven numbers end the line.
    const rate = Number(/","([\d.]+)"(?:,"[\d.]+"){6}$/.exec(last)?.[1]);
    if (!(rate > 0)) throw new Error(`redis-benchmark gave no rate for ${args[0]}: ${result.stdout}${result.stderr}`);
    secondsPerOperation += 1 / rate;
  }
  return 1 / secondsPerOperation;
}
