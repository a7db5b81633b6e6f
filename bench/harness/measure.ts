// One timed piece of work and what it cost: wall time, the requests the clients of this process
// sent (round trips), and on the Redis side the commands executed, scripts run and CPU used.
// Suites used to write this probe each for themselves.
import { performance } from 'node:perf_hooks';
import type Redis from 'ioredis';
import { countTraffic, since, snapshot } from './round-trips';
import { commandCount, median, redisCpuSeconds } from './support';

export interface Sample {
  /** Operations the work did (for the per-operation figures). */
  ops: number;
  seconds: number;
  /** ops / seconds. */
  rate: number;
  /** Requests sent by every counted ioredis connection of this process (a pipeline counts one). */
  requests: number;
  /** Commands sent, each command of a pipeline counted. */
  commands: number;
  /** CPU this process used, ms. */
  nodeCpuMs: number;
  /** With an admin connection: commands Redis executed (inside scripts too), scripts run, µs in them, CPU s. */
  executed: number;
  scripts: number;
  scriptMicros: number;
  redisCpu: number;
}

/** Scripts Redis ran (EVALSHA and EVAL) and the µs it spent in them, since the last RESETSTAT. */
export async function scriptStats(admin: Redis): Promise<{ scripts: number; scriptMicros: number }> {
  const stats = await admin.info('commandstats');
  let scripts = 0;
  let scriptMicros = 0;
  for (const match of stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+),usec=(\d+)/gm)) {
    scripts += Number(match[1]);
    scriptMicros += Number(match[2]);
  }
  return { scripts, scriptMicros };
}

export interface MeasureOptions {
  /** An uncounted connection: Redis's statistics are reset before and read after the work. */
  admin?: Redis;
  /** Prints one line with the rate and round trips per operation under this label. */
  label?: string;
}

/** Times `work`, which does `ops` operations, and counts what it cost. */
export async function measure(
  ops: number,
  work: () => Promise<unknown>,
  options: MeasureOptions = {},
): Promise<Sample> {
  countTraffic();
  const { admin, label } = options;
  if (admin) await admin.config('RESETSTAT');
  const cpu0 = admin ? await redisCpuSeconds(admin) : 0;
  const node0 = process.cpuUsage();
  const sent0 = snapshot();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const sent = since(sent0);
  const node = process.cpuUsage(node0);
  const sample: Sample = {
    ops,
    seconds,
    rate: ops / seconds,
    requests: sent.requests,
    commands: sent.commands,
    nodeCpuMs: (node.user + node.system) / 1000,
    executed: admin ? await commandCount(admin) : 0,
    ...(admin ? await scriptStats(admin) : { scripts: 0, scriptMicros: 0 }),
    redisCpu: admin ? (await redisCpuSeconds(admin)) - cpu0 : 0,
  };
  if (label)
    console.log(
      `  ${label}: ${seconds.toFixed(3)} s, ${sample.rate.toFixed(0)}/s, ${(sample.requests / ops).toFixed(2)} round trips per operation`,
    );
  return sample;
}

/** The rate of each sample, for ratios and medians. */
export const rates = (samples: Sample[]): number[] => samples.map((s) => s.rate);

/** A total over the samples divided by their operations: round trips per operation and the like. */
export const perOp = (samples: Sample[], pick: (s: Sample) => number = (s) => s.requests): number =>
  samples.reduce((sum, s) => sum + pick(s), 0) / samples.reduce((sum, s) => sum + s.ops, 0);

/** "median (min-max)" with `digits` decimals, the form every summary table uses. */
export function medianRange(values: number[], digits = 0): string {
  return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;
}
