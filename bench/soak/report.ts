// The soak's report: printed as tables, and written to bench/results/soak-latest.json and .md.
import fs from 'node:fs';
import path from 'node:path';
import { describeMachine, type Machine } from '../harness/machine';
import { printTable } from '../harness/support';
import type { Check } from './actor';
import type { PhaseSummary } from './latencies';
import type { Curve, Growth } from './memory';

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
  keyspace: { shape: string; keys: number; bytes: number; keysAdded: number; bytesAdded: number }[];
  errorLines: { api: number; worker: number; samples: string[] };
}

const KEY_SHAPES_SHOWN = 12;

export function writeReport(report: SoakReport, dir: string): void {
  const passed = report.checks.filter((c) => c.ok).length;
  console.log(
    `\nSoak: ${report.minutes} min, seed ${report.seed}, ${report.calls} calls; ${passed}/${report.checks.length} invariants held\n`,
  );
  for (const c of report.checks) console.log(`${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
  console.log('\nFaults');
  for (const f of report.faults) console.log(`  ${f.at}  ${f.what}: ${f.detail}`);
  console.log('\nLatency per phase (ms)');
  printTable(...phaseTable(report.phases), 1);
  console.log('\nMemory growth after the first 30 s');
  printTable(...memoryTable(report.memory), 1);
  console.log('\nMemory growth over the last two thirds');
  printTable(...memoryTable(report.memoryLate), 1);
  console.log('\nMemory per minute (mean MB; a restarted process continues its column)');
  printTable(...curveTable(report.memoryCurve), 1);
  console.log(`\nWhat Redis grew by, by key shape (top ${KEY_SHAPES_SHOWN})`);
  printTable(...keyTable(report.keyspace), 1);
  console.log(
    `\nError-level log lines: ${report.errorLines.api} from the API processes, ${report.errorLines.worker} from the worker`,
  );
  for (const line of report.errorLines.samples) console.log(`  ${line}`);
  for (const [actor, counts] of Object.entries(report.stats)) {
    console.log(
      `${actor}: ${Object.entries(counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  }

  fs.mkdirSync(dir, { recursive: true });
  // Described once, before either file is written (a written file would make the tree look changed).
  const machine = describeMachine(path.resolve(dir, '..', '..'));
  fs.writeFileSync(path.join(dir, 'soak-latest.json'), `${JSON.stringify({ machine, ...report }, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, 'soak-latest.md'), markdown(report, machine));
  console.log(`\nReport: ${path.relative(process.cwd(), path.join(dir, 'soak-latest.md'))}`);
}

function phaseTable(phases: PhaseSummary[]): [string[], string[][]] {
  return [
    ['phase', 'seconds', 'calls', 'calls/s', 'refused', 'lost', 'p50', 'p90', 'p99', 'max'],
    phases.map((p) => [
      p.name,
      String(p.seconds),
      String(p.calls),
      String(p.perSecond),
      String(p.refused),
      String(p.unknown),
      String(p.p50),
      String(p.p90),
      String(p.p99),
      String(p.max),
    ]),
  ];
}

function memoryTable(memory: Growth[]): [string[], string[][]] {
  return [
    ['series', 'minutes', 'first MB', 'last MB', 'MB/min'],
    memory.map((m) => [m.name, String(m.minutes), String(m.firstMb), String(m.lastMb), String(m.mbPerMinute)]),
  ];
}

/** One column per series, a restarted process's series joined to its predecessor's. */
function curveTable(curve: Curve): [string[], string[][]] {
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
      ...[...columns.values()].map((column) => (column[i] === null ? '' : String(column[i]))),
    ]),
  ];
}

function keyTable(keys: SoakReport['keyspace']): [string[], string[][]] {
  return [
    ['key shape', 'keys', 'added', 'KB', 'KB added'],
    keys
      .slice(0, KEY_SHAPES_SHOWN)
      .map((k) => [
        k.shape,
        String(k.keys),
        String(k.keysAdded),
        String(Math.round(k.bytes / 1024)),
        String(Math.round(k.bytesAdded / 1024)),
      ]),
  ];
}

function table([header, rows]: [string[], string[][]]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
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
    '## Latency per phase (ms)',
    '',
    table(phaseTable(report.phases)),
    '',
    '## Memory growth after the first 30 s',
    '',
    table(memoryTable(report.memory)),
    '',
    '## Memory growth over the last two thirds',
    '',
    table(memoryTable(report.memoryLate)),
    '',
    '## Memory per minute (mean MB; a restarted process continues its column)',
    '',
    table(curveTable(report.memoryCurve)),
    '',
    `## What Redis grew by, by key shape (top ${KEY_SHAPES_SHOWN})`,
    '',
    table(keyTable(report.keyspace)),
    '',
    `Error-level log lines: ${report.errorLines.api} from the API processes, ${report.errorLines.worker} from the worker.`,
    '',
    ...report.errorLines.samples.map((line) => `    ${line}`),
    '',
    '## Counts',
    '',
    ...Object.entries(report.stats).map(
      ([actor, counts]) =>
        `- ${actor}: ${Object.entries(counts)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
    ),
    '',
  ].join('\n');
}
