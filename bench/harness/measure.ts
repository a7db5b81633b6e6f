// One timed piece of work and what it cost: wall time, the requests the clients of this process
// sent (round trips), and on the Redis side the commands executed, scripts run and CPU used.
import { performance } from 'node:perf_hooks';
import type Redis from 'ioredis';
import { countTraffic, since, snapshot } from './round-trips';
import { commandCount, median, redisCpuSeconds, scriptStats, sumOf } from './support';

/**
 * Times `work`, which does `ops` operations, and counts what it cost. With `admin` (an uncounted
 * connection) Redis's statistics are reset before and read after the work; without, those figures
 * are 0. `label` prints one line with the rate and round trips per operation.
 */
export async function measure(
  ops: number,
  work: () => Promise<unknown>,
  { admin, label }: { admin?: Redis; label?: string } = {},
) {
  countTraffic();
  if (admin) await admin.config('RESETSTAT');
  const cpu0 = admin ? await redisCpuSeconds(admin) : 0;
  const node0 = process.cpuUsage();
  const sent0 = snapshot();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const { requests, commands } = since(sent0);
  const node = process.cpuUsage(node0);
  const sample = {
    ops,
    seconds,
    rate: ops / seconds,
    /** Requests sent by every counted ioredis connection of this process (a pipeline counts one). */
    requests,
    /** Commands sent, each command of a pipeline counted. */
    commands,
    nodeCpuMs: (node.user + node.system) / 1000,
    /** Commands Redis executed (inside scripts too), scripts run, µs in them, its CPU seconds. */
    executed: admin ? await commandCount(admin) : 0,
    ...(admin ? await scriptStats(admin) : { scripts: 0, scriptMicros: 0 }),
    redisCpu: admin ? (await redisCpuSeconds(admin)) - cpu0 : 0,
  };
  if (label)
    console.log(
      `  ${label}: ${seconds.toFixed(3)} s, ${sample.rate.toFixed(0)}/s, ${(requests / ops).toFixed(2)} round trips per operation`,
    );
  return sample;
}

export type Sample = Awaited<ReturnType<typeof measure>>;

/** The rate of each sample, for ratios and medians. */
export const rates = (samples: Sample[]): number[] => samples.map((s) => s.rate);

/** A total over the samples divided by their operations: round trips per operation and the like. */
export const perOp = (samples: Sample[], pick = (s: Sample): number => s.requests): number =>
  sumOf(samples, pick) / sumOf(samples, (s) => s.ops);

/** "median (min-max)" with `digits` decimals, the form every summary table uses. */
export function medianRange(values: number[], digits = 0): string {
  return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;
}
