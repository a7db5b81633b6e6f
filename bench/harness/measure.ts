// One timed piece of work and what it cost: wall time, the requests the clients of this process
// sent (round trips), and on the Redis side the commands executed, scripts run and CPU used.
import { performance } from 'node:perf_hooks';
import type Redis from 'ioredis';
import { countTraffic } from './round-trips';
import { commandCount, median, redisCpuSeconds, scriptStats, sumOf } from './support';

type MeasureOptions = { admin?: Redis; label?: string };

/**
 * Times `work`, which does `ops` operations, and counts what it cost; with `admin` (uncounted)
 * also on the Redis side, whose statistics are reset first. `label`: print rate and round trips.
 */
export async function measure(ops: number, work: () => Promise<unknown>, { admin, label }: MeasureOptions = {}) {
  const traffic = countTraffic();
  if (admin) await admin.config('RESETSTAT');
  const cpu0 = admin ? await redisCpuSeconds(admin) : 0;
  const node0 = process.cpuUsage();
  const sent0 = { ...traffic };
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const [requests, commands] = [traffic.requests - sent0.requests, traffic.commands - sent0.commands];
  const node = process.cpuUsage(node0);
  const sample = {
    ops,
    seconds,
    rate: ops / seconds,
    /** Sent by every counted connection of this process (a pipeline is one request). */
    requests,
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
