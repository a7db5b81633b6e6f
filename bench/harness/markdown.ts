// bench/results/latest.md: the run as a reader wants it: the machine first, then per suite its
// figures (ratios first, with targets), its own tables and its notes.
import { figureRow, formatNumber, ordered, type RunReport } from './summary';

/** A cell: pipes escaped, line breaks flattened, so a table stays one row per line. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

function table(header: string[], rows: string[][], right: Set<number> = new Set()): string[] {
  return [
    `| ${header.map(cell).join(' | ')} |`,
    `| ${header.map((_, i) => (right.has(i) ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ];
}

export function toMarkdown(report: RunReport): string {
  const { machine } = report;
  const lines: string[] = [];
  lines.push('# Benchmark report', '');
  lines.push(
    `\`npm run bench${report.quick ? ' --quick' : ''}\` on ${report.date}: ${report.runs.length} suites in ${formatNumber(report.seconds)} s; ` +
      `targets ${report.targets.met} met, ${report.targets.missed} missed.`,
    '',
  );
  lines.push(
    'Each figure is the median of several rounds after a warm-up, with the range of the rounds; a ratio compares two peers ' +
      'measured alternately in the same run on the same machine, which holds better than absolute numbers on a shared machine.',
    '',
  );
  lines.push('## Machine', '');
  lines.push(
    ...table(
      ['', 'This run'],
      [
        ['CPU', `${machine.cpu}, ${machine.cores} cores`],
        ['Memory', `${machine.memoryGiB} GiB`],
        ['OS', machine.os],
        ['Node.js', machine.node],
        ['redis-server', machine.redis],
        ['Load average before the run', String(machine.loadBefore)],
        ['Commit', `${machine.commit}${machine.dirty ? ' (with uncommitted changes)' : ''}`],
      ],
    ),
    '',
  );
  const failed = report.runs.filter((run) => run.status !== 'ok');
  if (failed.length) {
    lines.push('## Suites that did not finish', '');
    for (const run of failed)
      lines.push(`- \`${run.suite}\`: ${run.status}, ${run.error ?? 'no result'} (log: \`${run.log}\`)`);
    lines.push('');
  }
  for (const run of report.runs) {
    const result = run.result;
    lines.push(`## ${result?.title ?? run.suite}`, '');
    lines.push(
      `Suite \`${run.suite}\`, ${formatNumber(run.seconds)} s${run.status === 'ok' ? '' : `, **${run.status}**: ${run.error ?? 'no result'}`}.`,
      '',
    );
    if (!result) continue;
    if (result.figures.length) {
      const rows = ordered(result.figures).map(figureRow);
      lines.push(...table(['Figure', 'Median', 'Range', 'Unit', 'Target', ''], rows, new Set([1, 2])), '');
    }
    for (const t of result.tables) {
      lines.push(`### ${cell(t.title)}`, '');
      lines.push(...table(t.header, t.rows), '');
    }
    if (result.notes.length) {
      lines.push(...result.notes.map((note) => `- ${note.replace(/\s*\n\s*/g, ' ')}`), '');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
