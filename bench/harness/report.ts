// The contract between one benchmark and `npm run bench`: how a benchmark learns it should be
// quick, reports its progress, and hands back its figures. A benchmark stays runnable on its own
// (`node dist-bench/bench/<name>.js`); run by bench/run.ts it is a forked child, so progress and
// results travel over the IPC channel and its own printout goes to a log file.
import fs from 'node:fs';
import { median } from './support';

/** One measured figure. A ratio compares two peers measured in the same run. */
export interface Figure {
  /** Stable id, e.g. `graphql.sendMessage.product_vs_raw`. */
  id: string;
  /** What a reader sees, e.g. `sendMessage: product / raw node:http (req/s)`. */
  label: string;
  value: number;
  unit: string;
  /** Lowest and highest of the measured rounds (the value is their median). */
  spread?: { min: number; max: number };
  /** Present when the issue or the README sets a target for this figure. */
  target?: { op: '>=' | '<=' | '=='; value: number };
  /** Filled in by `figure()` from the target. */
  pass?: boolean;
}

export interface Table {
  title: string;
  header: string[];
  rows: string[][];
}

export interface BenchResult {
  suite: string;
  title: string;
  quick: boolean;
  seconds: number;
  figures: Figure[];
  tables: Table[];
  /** Method and caveats, one sentence each. */
  notes: string[];
}

/** A figure, with `pass` worked out from its target. */
export function figure(f: Omit<Figure, 'pass'>): Figure {
  if (!f.target) return f;
  const { op, value } = f.target;
  const pass = op === '>=' ? f.value >= value : op === '<=' ? f.value <= value : f.value === value;
  return { ...f, pass };
}

/** `--quick` on the command line, `BENCH_QUICK=1`, or `npm run bench --quick` (npm turns that into npm_config_quick). */
export function isQuick(): boolean {
  return (
    process.argv.includes('--quick') ||
    process.env.BENCH_QUICK === '1' ||
    (process.env.npm_config_quick !== undefined &&
      process.env.npm_config_quick !== '' &&
      process.env.npm_config_quick !== 'false')
  );
}

/** Tells the runner how far this benchmark is (a fraction 0..1) and what it is doing now. */
export function progress(fraction: number, label: string): void {
  const message = { type: 'progress', fraction: Math.max(0, Math.min(1, fraction)), label };
  if (process.send) process.send(message);
  else if (process.env.BENCH_PROGRESS === '1')
    process.stderr.write(`[${(message.fraction * 100).toFixed(0)}% ${process.uptime().toFixed(1)} s] ${label}\n`);
}

/**
 * Hands the result to the runner (over IPC when forked by it), and writes it to
 * BENCH_RESULT_FILE when that is set. Resolves once the message is flushed.
 */
export async function reportResult(result: BenchResult): Promise<void> {
  if (process.env.BENCH_RESULT_FILE) fs.writeFileSync(process.env.BENCH_RESULT_FILE, JSON.stringify(result, null, 2));
  if (process.send) {
    await new Promise<void>((resolve, reject) =>
      process.send!({ type: 'result', result }, (error: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}

/** Median and spread of a set of rounds. */
export function summarize(values: number[]): { value: number; spread: { min: number; max: number } } {
  return { value: median(values), spread: { min: Math.min(...values), max: Math.max(...values) } };
}
