// What one `npm run bench` produced (written as bench/results/latest.json), and the summary table
// printed at its end: every figure of every suite, ratios first, with its target and PASS/MISS.
import type { Machine } from './machine';
import type { BenchResult, Figure } from './report';

export interface SuiteRun {
  suite: string;
  /** ok: exited 0 with a result; failed: a non-zero exit, a crash or no result; missing: not built. */
  status: 'ok' | 'failed' | 'missing';
  exitCode: number | null;
  signal: string | null;
  /** Wall time as the runner saw it, start-up included. */
  seconds: number;
  /** The suite's printout, relative to the repository. */
  log: string;
  error?: string;
  result?: BenchResult;
}

export interface RunReport {
  date: string;
  quick: boolean;
  strict: boolean;
  /** The suites asked for, in order. */
  suites: string[];
  seconds: number;
  machine: Machine;
  targets: { met: number; missed: number };
  runs: SuiteRun[];
}

/** Ratios compare two peers measured in the same run: what the report is about. */
const isRatio = (f: Figure): boolean => f.unit === 'x' || f.unit === '×';

/** Three significant figures or so, without exponent notation. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const size = Math.abs(value);
  if (size >= 1000) return Math.round(value).toLocaleString('en-US');
  if (size >= 100) return value.toFixed(0);
  if (size >= 10) return value.toFixed(1);
  if (size >= 1 || size === 0) return value.toFixed(2);
  if (Number.isInteger(value)) return String(value);
  return value.toPrecision(2);
}

/** A figure as a row of the summary and of latest.md: label, median, range, unit, target, PASS/MISS. */
export const figureRow = (f: Figure): string[] => [
  f.label,
  formatNumber(f.value),
  f.spread ? `${formatNumber(f.spread.min)}-${formatNumber(f.spread.max)}` : '',
  f.unit,
  f.target ? `${f.target.op} ${formatNumber(f.target.value)}` : '',
  f.pass === undefined ? '' : f.pass ? 'PASS' : 'MISS',
];

/** Ratios first, then the rest, each group in the suite's own order. */
export const ordered = (figures: Figure[]): Figure[] => [
  ...figures.filter(isRatio),
  ...figures.filter((f) => !isRatio(f)),
];

export function countTargets(runs: SuiteRun[]): { met: number; missed: number } {
  const figures = runs.flatMap((run) => run.result?.figures ?? []);
  return { met: figures.filter((f) => f.pass === true).length, missed: figures.filter((f) => f.pass === false).length };
}

function aligned(header: string[], rows: string[][], right: Set<number>): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

/** The table printed to stdout at the end of a run. */
export function summaryText(report: RunReport): string {
  const lines: string[] = [];
  lines.push(
    `npm run bench: ${report.runs.length} suites, ${report.quick ? 'quick' : 'full'} run, ${formatNumber(report.seconds)} s`,
  );
  for (const run of report.runs) {
    lines.push('');
    const title = run.result?.title ? ` - ${run.result.title}` : '';
    lines.push(`${run.suite}${title} (${formatNumber(run.seconds)} s)`);
    if (run.status !== 'ok') lines.push(`  ${run.status.toUpperCase()}: ${run.error ?? 'no result'} (log: ${run.log})`);
    const figures = ordered(run.result?.figures ?? []);
    if (figures.length === 0) continue;
    for (const line of aligned(
      ['figure', 'median', 'range', 'unit', 'target', ''],
      figures.map(figureRow),
      new Set([1, 2]),
    ))
      lines.push(`  ${line}`);
  }
  lines.push('');
  const missed = report.runs.flatMap((run) =>
    (run.result?.figures ?? []).filter((f) => f.pass === false).map((f) => f.id),
  );
  lines.push(
    `Targets: ${report.targets.met} met, ${report.targets.missed} missed${missed.length ? ` (${missed.join(', ')})` : ''}.`,
  );
  const failed = report.runs.filter((run) => run.status !== 'ok');
  if (failed.length)
    lines.push(`Suites that did not finish: ${failed.map((run) => `${run.suite} (${run.status})`).join(', ')}.`);
  return lines.join('\n');
}
