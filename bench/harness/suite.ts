// The contract between a suite and `npm run bench` (which forks it and hears over IPC): whether
// to be quick, how far it is, and the figures, tables and notes it collects while printing its log.
import { median, printTable } from './support';

/** One measured figure: a stable id (`graphql.sendMessage.product_vs_raw`), what a reader sees, the
 * median of the rounds and their range; `pass` is worked out from a target the issue or docs set. */
export interface Figure {
  id: string;
  label: string;
  value: number;
  unit: string;
  spread?: { min: number; max: number };
  target?: { op: '>=' | '<=' | '=='; value: number };
  pass?: boolean;
}

export type Table = SuiteReport['tables'][number];

/** What a suite hands back to the runner. */
export type BenchResult = Pick<SuiteReport, 'figures' | 'tables' | 'notes'> & {
  suite: string;
  title: string;
  quick: boolean;
  seconds: number;
};

/** `--quick` on the command line, `BENCH_QUICK=1`, or `npm run bench --quick` (npm sets npm_config_quick). */
export const isQuick = (): boolean =>
  process.argv.includes('--quick') ||
  process.env.BENCH_QUICK === '1' ||
  !['', 'false', undefined].includes(process.env.npm_config_quick);

/** Tells the runner how far this suite is (a fraction 0..1) and what it is doing now. */
export function progress(fraction: number, label: string): void {
  process.send?.({ type: 'progress', fraction: Math.max(0, Math.min(1, fraction)), label });
}

/** Median and spread of a set of rounds. */
export function summarize(values: number[]): { value: number; spread: { min: number; max: number } } {
  return { value: median(values), spread: { min: Math.min(...values), max: Math.max(...values) } };
}

export class SuiteReport {
  readonly figures: Figure[] = [];
  readonly tables: { title: string; header: string[]; rows: string[][] }[] = [];
  /** Method and caveats, one sentence each. */
  readonly notes: string[] = [];

  figure(f: Omit<Figure, 'pass'>): void {
    if (!Number.isFinite(f.value)) throw new Error(`figure ${f.id} is not a number (${f.value})`);
    const { op, value } = f.target ?? { op: '==', value: NaN };
    const pass = { '>=': f.value >= value, '<=': f.value <= value, '==': f.value === value }[op];
    this.figures.push(f.target ? { ...f, pass } : f);
  }

  /** A ratio of two peers' rounds (unit x), taken round by round. */
  ratio(id: string, label: string, ours: number[], theirs: number[], target?: Figure['target']): void {
    this.figure({ id, label, unit: 'x', ...pairedRatio(ours, theirs), target });
  }

  /** The median of some rounds, with their range. */
  median(id: string, label: string, unit: string, rounds: number[], target?: Figure['target']): void {
    this.figure({ id, label, unit, ...summarize(rounds), target });
  }

  /** A value over the rounds pooled (a percentile of every wait, say), with that value's range per round. */
  pooled(id: string, label: string, unit: string, value: number, perRound: number[], target?: Figure['target']): void {
    this.figure({ id, label, unit, value, spread: summarize(perRound).spread, target });
  }

  /** One value without a spread (a count, or a total over the rounds). */
  value(id: string, label: string, unit: string, value: number, target?: Figure['target']): void {
    this.figure({ id, label, unit, value, target });
  }

  /** Prints the table to the log, as the suite always did, and keeps it for the report. */
  table(title: string, header: string[], rows: string[][], textColumns: number): void {
    console.log(`\n${title}`);
    printTable(header, rows, textColumns);
    this.tables.push({ title, header, rows });
  }

  /** A table given column by column: its header and how an item shows in it. */
  tableOf<T>(title: string, textColumns: number, items: readonly T[], columns: [string, (item: T) => string][]): void {
    const header = columns.map(([name]) => name);
    const rows = items.map((item) => columns.map(([, cell]) => cell(item)));
    this.table(title, header, rows, textColumns);
  }

  note(...texts: string[]): void {
    for (const text of texts) console.log(`  ${text}`);
    this.notes.push(...texts);
  }
}

/** Progress in steps of known count (rounds, mostly). */
export class Steps {
  private done = 0;

  constructor(private readonly total: number) {}

  /** Reports the steps done so far and what runs now, the next step, which counts `weight`. */
  step(label: string, weight = 1): void {
    progress(this.done / this.total, label);
    this.done += weight;
  }
}

/** One ratio per pair of rounds (round i of each peer ran back to back, under the same noise); median and range. */
export function pairedRatio(ours: number[], theirs: number[]): ReturnType<typeof summarize> {
  if (ours.length !== theirs.length || ours.length === 0)
    throw new Error(`paired rounds differ in number: ${ours.length} and ${theirs.length}`);
  return summarize(ours.map((value, i) => value / theirs[i]));
}
