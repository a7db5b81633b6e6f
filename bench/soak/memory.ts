// Memory over the soak, sampled every few seconds per process lifetime (so a restart's drop is not
// read as shrinkage): growth per minute as a least-squares slope, per-minute means, and the keyspace
// grouped by key shape. What is sampled: docs/development.md#soak.
import type Redis from 'ioredis';
import { mean, sumOf } from '../harness/support';

export type Growth = ReturnType<MemorySampler['growth']>[number];
/** Per-minute means of each series: `mb[i]` is the series' mean in minute i + 1, null without samples. */
export type Curve = ReturnType<MemorySampler['curve']>;

export class MemorySampler {
  /** Per series, [seconds since the soak started, bytes]. */
  private readonly series: { name: string; points: [number, number][] }[] = [];
  private readonly started = Date.now();

  add(name: string, bytes: number): void {
    if (!Number.isFinite(bytes)) return;
    let series = this.series.find((s) => s.name === name);
    if (!series) this.series.push((series = { name, points: [] }));
    series.points.push([(Date.now() - this.started) / 1000, bytes]);
  }

  /** The mean of each series in each whole minute of the run (a mean smooths the collector's swing). */
  curve() {
    const last = Math.max(0, ...this.series.flatMap((s) => s.points.map(([t]) => t)));
    const minutes = Array.from({ length: Math.ceil(last / 60) }, (_, i) => i + 1);
    return {
      minutes,
      series: this.series.map(({ name, points }) => ({
        name,
        mb: minutes.map((m) => {
          const inMinute = points.filter(([t]) => t >= (m - 1) * 60 && t < m * 60).map(([, b]) => b);
          return inMinute.length ? mb(mean(inMinute)) : null;
        }),
      })),
    };
  }

  /** Growth of each series from `fromSecond` on (the warm-up before it left out). */
  growth(fromSecond: number) {
    return this.series.flatMap(({ name, points: all }) => {
      const points = all.filter(([t]) => t >= fromSecond);
      if (points.length < 3) return [];
      const [first, last] = [points[0], points.at(-1)!];
      const [minutes, mbPerMinute] = [round((last[0] - first[0]) / 60), round((slope(points) * 60) / 2 ** 20, 3)];
      return [{ name, minutes, firstMb: mb(first[1]), lastMb: mb(last[1]), mbPerMinute }];
    });
  }
}

type KeyGroup = { shape: string; keys: number; bytes: number };

/** Keys grouped by shape (shapeOf), with the bytes they take, most first. */
export async function keyspace(redis: Redis): Promise<KeyGroup[]> {
  const groups = new Map<string, KeyGroup>();
  for await (const keys of redis.scanStream({ count: 1000 }) as AsyncIterable<string[]>) {
    if (keys.length === 0) continue;
    const pipeline = redis.pipeline();
    for (const key of keys) pipeline.memory('USAGE', key, 'SAMPLES', '0');
    const sizes = (await pipeline.exec()) ?? [];
    keys.forEach((key, i) => {
      const shape = shapeOf(key);
      const group = groups.get(shape) ?? { shape, keys: 0, bytes: 0 };
      group.keys++;
      group.bytes += Number(sizes[i]?.[1] ?? 0);
      groups.set(shape, group);
    });
  }
  return [...groups.values()].sort((a, b) => b.bytes - a.bytes);
}

/** Each shape's keys and bytes at the end and what they grew by since `before`, most bytes added first. */
export const growthByShape = (before: KeyGroup[], after: KeyGroup[]) =>
  after
    .map((group) => {
      const old = before.find((b) => b.shape === group.shape);
      return { ...group, keysAdded: group.keys - (old?.keys ?? 0), bytesAdded: group.bytes - (old?.bytes ?? 0) };
    })
    .sort((a, b) => b.bytesAdded - a.bytesAdded);

/** The hash tag and numbers replaced, the first four `:` parts kept: `ctr:{ctr-12}:s:60:hits` is `ctr:{…}:s:60`. */
export function shapeOf(key: string): string {
  return key
    .replace(/\{[^}]*\}/, '{…}')
    .split(':')
    .slice(0, 4)
    .map((part) => (/\d/.test(part) && part !== '{…}' && !/^s$|^\d+$/.test(part) ? '…' : part))
    .join(':');
}

/** Least-squares slope of bytes over seconds. */
function slope(points: [number, number][]): number {
  const [meanT, meanB] = [mean(points.map(([t]) => t)), mean(points.map(([, b]) => b))];
  const den = sumOf(points, ([t]) => (t - meanT) ** 2);
  return den === 0 ? 0 : sumOf(points, ([t, b]) => (t - meanT) * (b - meanB)) / den;
}

export const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;
const mb = (bytes: number): number => round(bytes / 2 ** 20);

/** What the finished tasks (read by the end's check) and chat dedupe records, kept on purpose, take. */
export function keptBytes(groups: KeyGroup[]) {
  const sum = (shape: RegExp): number => sumOf(groups, (g) => (shape.test(g.shape) ? g.bytes : 0));
  return { taskHistory: sum(/^queue:/), chatDedupe: sum(/^chat:\{…\}:sent(-exp)?$/) };
}
