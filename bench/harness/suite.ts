// What the domain benchmarks share to meet the contract of bench/harness/report.ts: one place to collect
// figures, tables and notes while the benchmark still prints to its log, progress counted in
// steps, and the ratio of two peers taken round by round.
import { figure, progress, summarize, type Figure, type Table } from './report';
import { printTable } from './support';

export class SuiteReport {
  readonly figures: Figure[] = [];
  readonly tables: Table[] = [];
  readonly notes: string[] = [];

  figure(f: Omit<Figure, 'pass'>): void {
    if (!Number.isFinite(f.value)) throw new Error(`figure ${f.id} is not a number (${f.value})`);
    this.figures.push(figure(f));
  }

  /** A ratio of two peers' rounds (unit x), taken round by round. */
  ratio(id: string, label: string, ours: number[], theirs: number[], target?: Figure['target']): void {
    this.figure({ id, label, unit: 'x', ...pairedRatio(ours, theirs), target });
  }

  /** The median of some rounds, with their range. */
  median(id: string, label: string, unit: string, rounds: number[], target?: Figure['target']): void {
    this.figure({ id, label, unit, ...summarize(rounds), target });
  }

  /** One value without a spread (a count, or a total over the rounds). */
  value(id: string, label: string, unit: string, value: number, target?: Figure['target']): void {
    this.figure({ id, label, unit, value, target });
  }

  /** Prints the table to the log, as the benchmark always did, and keeps it for the report. */
  table(title: string, header: string[], rows: string[][], textColumns: number): void {
    console.log(`\n${title}`);
    printTable(header, rows, textColumns);
    this.tables.push({ title, header, rows });
  }

  /** Prints the note and keeps it: method and caveats, one sentence each. */
  note(text: string): void {
    console.log(`  ${text}`);
    this.notes.push(text);
  }
}

/** A table given column by column: its header and how an item shows in it. */
export function tableOf<T>(
  report: SuiteReport,
  title: string,
  textColumns: number,
  items: readonly T[],
  columns: [string, (item: T) => string][],
): void {
  report.table(
    title,
    columns.map(([header]) => header),
    items.map((item) => columns.map(([, cell]) => cell(item))),
    textColumns,
  );
}

/**
 * Progress in steps of known count (rounds, mostly): each step() reports the fraction done so far
 * and what is running now.
 */
export class Steps {
  private done = 0;

  constructor(private readonly total: number) {}

  /** Reports the steps done so far and starts the next, which counts `weight` steps. */
  step(label: string, weight = 1): void {
    progress(this.done / this.total, label);
    this.done += weight;
  }
}

/**
 * The ratio of two peers measured in alternating rounds: one ratio per pair of rounds (round i of
 * each ran back to back, under the same noise), then their median and range.
 */
export function pairedRatio(ours: number[], theirs: number[]): { value: number; spread: { min: number; max: number } } {
  if (ours.length !== theirs.length || ours.length === 0)
    throw new Error(`paired rounds differ in number: ${ours.length} and ${theirs.length}`);
  return summarize(ours.map((value, i) => value / theirs[i]));
}
