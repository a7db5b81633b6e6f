// What one `npm run bench` produced (latest.json), the summary printed at its end, and latest.md:
// the machine, then per suite its figures (ratios first), its tables and its notes.
import type { Machine } from './machine';
import type { BenchResult, Figure } from './suite';
import { alignedLines } from './support';

/** A suite's run: ok (exited 0 with a result), failed (a non-zero exit, a crash, no result) or missing
 * (not built); `seconds` as the runner saw them, start-up included; `log` relative to the repository. */
export interface SuiteRun {
  suite: string;
  status: 'ok' | 'failed' | 'missing';
  exitCode: number | null;
  signal: string | null;
  seconds: number;
  log: string;
  error?: string;
  result?: BenchResult;
}

export interface RunReport {
  date: string;
  quick: boolean;
  strict: boolean;
  suites: string[];
  seconds: number;
  machine: Machine;
  targets: { met: number; missed: number };
  runs: SuiteRun[];
}

/** Three significant figures or so, without exponent notation. */
function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const size = Math.abs(value);
  if (size >= 1000) return Math.round(value).toLocaleString('en-US');
  return size >= 1 || size === 0 ? value.toFixed(size >= 100 ? 0 : size >= 10 ? 1 : 2) : value.toPrecision(2);
}

const isRatio = (f: Figure): number => Number(f.unit === 'x' || f.unit === '×');

/** The figures as rows of the summary and of latest.md (capitalized there), ratios first. */
const FIGURE_HEADER = ['figure', 'median', 'range', 'unit', 'target', ''];
const figureRows = (figures: Figure[]): string[][] =>
  [...figures]
    .sort((a, b) => isRatio(b) - isRatio(a))
    .map((f) => [
      f.label,
      formatNumber(f.value),
      f.spread ? `${formatNumber(f.spread.min)}-${formatNumber(f.spread.max)}` : '',
      f.unit,
      f.target ? `${f.target.op} ${formatNumber(f.target.value)}` : '',
      f.pass === undefined ? '' : f.pass ? 'PASS' : 'MISS',
    ]);

/** The table printed to stdout at the end of a run. */
export function summaryText(report: RunReport): string {
  const lines = [
    `npm run bench: ${report.runs.length} suites, ${report.quick ? 'quick' : 'full'} run, ${formatNumber(report.seconds)} s`,
  ];
  for (const run of report.runs) {
    const title = run.result?.title ? ` - ${run.result.title}` : '';
    lines.push('', `${run.suite}${title} (${formatNumber(run.seconds)} s)`);
    if (run.status !== 'ok') lines.push(`  ${run.status.toUpperCase()}: ${run.error ?? 'no result'} (log: ${run.log})`);
    const figures = run.result?.figures ?? [];
    if (figures.length === 0) continue;
    const right = (column: number): boolean => column === 1 || column === 2;
    for (const line of alignedLines(FIGURE_HEADER, figureRows(figures), right)) lines.push(`  ${line}`);
  }
  const missed = report.runs.flatMap((run) =>
    (run.result?.figures ?? []).filter((f) => f.pass === false).map((f) => f.id),
  );
  lines.push(
    '',
    `Targets: ${report.targets.met} met, ${report.targets.missed} missed${missed.length ? ` (${missed.join(', ')})` : ''}.`,
  );
  const failed = report.runs.filter((run) => run.status !== 'ok');
  if (failed.length)
    lines.push(`Suites that did not finish: ${failed.map((run) => `${run.suite} (${run.status})`).join(', ')}.`);
  return lines.join('\n');
}

/** A markdown cell: pipes escaped, line breaks flattened, so a table stays one row per line. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** A markdown table, the columns in `right` right-aligned. */
export const markdownTable = (header: string[], rows: string[][], right: number[] = []): string[] => [
  `| ${header.map(cell).join(' | ')} |`,
  `| ${header.map((_, i) => (right.includes(i) ? '---:' : '---')).join(' | ')} |`,
  ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
];

/** bench/results/latest.md. */
export function toMarkdown(report: RunReport): string {
  const { machine } = report;
  const machineRows = [
    ['CPU', `${machine.cpu}, ${machine.cores} cores`],
    ['Memory', `${machine.memoryGiB} GiB`],
    ['OS', machine.os],
    ['Node.js', machine.node],
    ['redis-server', machine.redis],
    ['Load average before the run', String(machine.loadBefore)],
    ['Commit', `${machine.commit}${machine.dirty ? ' (with uncommitted changes)' : ''}`],
  ];
  const lines = [
    '# Benchmark report',
    '',
    `\`npm run bench${report.quick ? ' --quick' : ''}\` on ${report.date}: ${report.runs.length} suites in ${formatNumber(report.seconds)} s; ` +
      `targets ${report.targets.met} met, ${report.targets.missed} missed.`,
    '',
    'Each figure is the median of several rounds after a warm-up, with the range of the rounds; a ratio compares two peers ' +
      'measured alternately in the same run on the same machine, which holds better than absolute numbers on a shared machine.',
    '',
    '## Machine',
    '',
    ...markdownTable(['', 'This run'], machineRows),
    '',
  ];
  const failed = report.runs.filter((run) => run.status !== 'ok');
  if (failed.length) {
    lines.push('## Suites that did not finish', '');
    for (const run of failed)
      lines.push(`- \`${run.suite}\`: ${run.status}, ${run.error ?? 'no result'} (log: \`${run.log}\`)`);
    lines.push('');
  }
  for (const run of report.runs) {
    const result = run.result;
    const failure = run.status === 'ok' ? '' : `, **${run.status}**: ${run.error ?? 'no result'}`;
    lines.push(
      `## ${result?.title ?? run.suite}`,
      '',
      `Suite \`${run.suite}\`, ${formatNumber(run.seconds)} s${failure}.`,
      '',
    );
    if (!result) continue;
    if (result.figures.length) {
      const header = FIGURE_HEADER.map((name) => name.charAt(0).toUpperCase() + name.slice(1));
      lines.push(...markdownTable(header, figureRows(result.figures), [1, 2]), '');
    }
    for (const t of result.tables) lines.push(`### ${cell(t.title)}`, '', ...markdownTable(t.header, t.rows), '');
    if (result.notes.length) lines.push(...result.notes.map((note) => `- ${note.replace(/\s*\n\s*/g, ' ')}`), '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
