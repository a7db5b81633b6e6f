// The soak's report: printed, and written to bench/results/soak-latest.json and .md.
import fs from 'node:fs';
import path from 'node:path';
import { describeMachine, type Machine } from '../harness/machine';
import { markdownTable } from '../harness/summary';
import type { Check } from './actor';
import type { PhaseSummary } from './client';
import type { Curve, Growth, growthByShape } from './memory';

export interface SoakReport {
  startedAt: string;
  minutes: number;
  seed: number;
  calls: number;
  phases: PhaseSummary[];
  faults: { at: string; what: string; detail: string }[];
  checks: Check[];
  stats: Record<string, Record<string, number>>;
  memory: Growth[];
  /** Growth over the last two thirds of the run, after warm-up and history filling. */
  memoryLate: Growth[];
  memoryCurve: Curve;
  keyspace: ReturnType<typeof growthByShape>;
  errorLines: { api: number; worker: number; samples: string[] };
}

type Table = [header: string[], rows: string[][]];

const KEY_SHAPES_SHOWN = 12;
const MEMORY_HEADER = ['series', 'minutes', 'first MB', 'last MB', 'MB/min'];

/** Writes the report as JSON and as markdown, and prints the markdown. */
export function writeReport(report: SoakReport, dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  // Described once, before either file is written (a written file would make the tree look changed).
  const machine = describeMachine(path.resolve(dir, '..', '..'));
  const text = markdown(report, machine);
  fs.writeFileSync(path.join(dir, 'soak-latest.json'), `${JSON.stringify({ machine, ...report }, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, 'soak-latest.md'), text);
  const held = `${report.checks.filter((c) => c.ok).length}/${report.checks.length} invariants held`;
  console.log(`\n${text}\nSoak: ${held}; report: ${path.relative(process.cwd(), path.join(dir, 'soak-latest.md'))}`);
}

const cells = (row: object): string[] => Object.values(row).map(String);

function tables(report: SoakReport): [string, Table][] {
  const memoryTable = (memory: Growth[]): Table => [MEMORY_HEADER, memory.map(cells)];
  const phases = report.phases.map(({ ok: _ok, ...phase }) => cells(phase));
  const rounded = (...values: number[]): string[] => values.map((n) => String(Math.round(n)));
  const shapes = report.keyspace
    .slice(0, KEY_SHAPES_SHOWN)
    .map((k) => [k.shape, ...rounded(k.keys, k.keysAdded, k.bytes / 1024, k.bytesAdded / 1024)]);
  const keys: Table = [['key shape', 'keys', 'added', 'KB', 'KB added'], shapes];
  return [
    [
      'Latency per phase (ms)',
      [['phase', 'seconds', 'calls', 'calls/s', 'refused', 'lost', 'p50', 'p90', 'p99', 'max'], phases],
    ],
    ['Memory growth after the first 30 s', memoryTable(report.memory)],
    ['Memory growth over the last two thirds', memoryTable(report.memoryLate)],
    ['Memory per minute (mean MB; a restarted process continues its column)', curveTable(report.memoryCurve)],
    [`What Redis grew by, by key shape (top ${KEY_SHAPES_SHOWN})`, keys],
  ];
}

/** One column per series, a restarted process's series joined to its predecessor's. */
function curveTable(curve: Curve): Table {
  const columns = new Map<string, (number | null)[]>();
  for (const series of curve.series) {
    const name = series.name.replace(/ \(pid \d+\)/, '');
    const column = columns.get(name) ?? curve.minutes.map(() => null);
    // The later process wins the minute of a restart.
    series.mb.forEach((value, i) => (value === null ? undefined : (column[i] = value)));
    columns.set(name, column);
  }
  return [
    ['minute', ...columns.keys()],
    curve.minutes.map((minute, i) => [
      String(minute),
      ...[...columns.values()].map((column) => String(column[i] ?? '')),
    ]),
  ];
}

function markdown(report: SoakReport, machine: Machine): string {
  return [
    `# Soak, ${report.startedAt}`,
    '',
    `${report.minutes} min, seed ${report.seed}, ${report.calls} calls against two API processes on one Redis (append-only file, \`appendfsync everysec\`). Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.redis}, commit ${machine.commit}${machine.dirty ? ' (with uncommitted changes)' : ''}.`,
    '',
    '## Invariants',
    '',
    ...report.checks.map((c) => `- ${c.ok ? 'PASS' : '**FAIL**'} ${c.name}: ${c.detail}`),
    '',
    '## Faults',
    '',
    ...report.faults.map((f) => `- ${f.at} ${f.what}: ${f.detail}`),
    '',
    ...tables(report).flatMap(([title, table]) => [`## ${title}`, '', ...markdownTable(...table), '']),
    `Error-level log lines: ${report.errorLines.api} from the API processes, ${report.errorLines.worker} from the worker.`,
    '',
    ...report.errorLines.samples.map((line) => `    ${line}`),
    '',
    '## Counts',
    '',
    ...Object.entries(report.stats).map(([actor, counts]) => {
      const listed = Object.entries(counts).map((c) => c.join(' '));
      return `- ${actor}: ${listed.join(', ')}`;
    }),
    '',
  ].join('\n');
}
