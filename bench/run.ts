// `npm run bench` (options: USAGE below) runs every suite as a child process of its own, one after
// another, its printout in bench/results/logs/<suite>.log and one progress bar on stderr; then it
// prints a summary of every figure and writes bench/results/latest.json and latest.md. Exits 1 when
// a suite did not finish (crashed, exited non-zero, sent no result, or is not built), or with
// --strict when a figure missed its target.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { describeMachine } from './harness/machine';
import { clock, ProgressBar } from './harness/progress-bar';
import { isQuick, type BenchResult } from './harness/suite';
import { summaryText, toMarkdown, type RunReport, type SuiteRun } from './harness/summary';
import { sumOf } from './harness/support';

// In running order, with the seconds each takes on a 2-core VM: the progress bar's weights until
// latest.json holds a run in the same mode.
const SUITES = [
  { name: 'graphql', quick: 220, full: 300 },
  { name: 'subscribers', quick: 120, full: 200 },
  { name: 'counters', quick: 2, full: 16 },
  { name: 'messaging', quick: 18, full: 45 },
  { name: 'leases', quick: 45, full: 110 },
  { name: 'autocomplete', quick: 4, full: 100 },
  { name: 'tasks', quick: 15, full: 180 },
  { name: 'market', quick: 6.5, full: 70 },
  { name: 'location', quick: 55, full: 250 },
  { name: 'push', quick: 30, full: 120 },
];
const NAMES = SUITES.map((s) => s.name);

/** dist-bench/bench/run.js: the repository is two levels up. */
const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(ROOT, 'bench', 'results');
const LOGS = path.join(RESULTS, 'logs');

const USAGE = `usage: npm run bench [--quick] [-- --only ${NAMES.join(',')}] [--strict]
  --quick     short runs (under two minutes in all); also \`npm run bench --quick\` or BENCH_QUICK=1
  --only a,b  run only these suites, in the usual order
  --strict    also exit 1 when a figure misses its target`;

function parseOptions(): { quick: boolean; strict: boolean; suites: string[] } {
  try {
    const { values } = parseArgs({
      options: {
        quick: { type: 'boolean' },
        strict: { type: 'boolean' },
        only: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    const wanted = values.only?.split(/\s*,\s*/).filter(Boolean) ?? NAMES;
    const unknown = wanted.filter((name) => !NAMES.includes(name));
    if (wanted.length === 0) throw new Error('--only needs a list of suites');
    if (unknown.length > 0) throw new Error(`unknown suite: ${unknown.join(', ')}`);
    return { quick: isQuick(), strict: values.strict ?? false, suites: NAMES.filter((name) => wanted.includes(name)) };
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

/** Expected seconds per suite: the last run's in the same mode where there is one, else the table's. */
function expectedSeconds(quick: boolean): Map<string, number> {
  const expected = new Map(SUITES.map((s) => [s.name, quick ? s.quick : s.full]));
  try {
    const last = JSON.parse(fs.readFileSync(path.join(RESULTS, 'latest.json'), 'utf8')) as RunReport;
    if (last.quick === quick)
      for (const run of last.runs) if (run.status === 'ok' && run.seconds > 0) expected.set(run.suite, run.seconds);
  } catch {
    // No earlier run, or one this version cannot read: the table's guesses will do.
  }
  return expected;
}

type Message = { type: 'progress'; fraction: number; label: string } | { type: 'result'; result: BenchResult };

/** The suite running now, for Ctrl-C. */
let current: ChildProcess | undefined;

type Progress = (fraction: number, label: string) => void;

/** Runs one suite to its end (or to `timeoutMs`), reporting its progress as it goes. */
async function runOne(suite: string, quick: boolean, timeoutMs: number, onProgress: Progress): Promise<SuiteRun> {
  const file = path.join(__dirname, `${suite}.js`);
  const logFile = path.join(LOGS, `${suite}.log`);
  const started = performance.now();
  const base = { suite, log: path.relative(ROOT, logFile), exitCode: null, signal: null };
  if (!fs.existsSync(file)) {
    const error = `${path.relative(ROOT, file)} does not exist (not written yet, or not compiled)`;
    fs.writeFileSync(logFile, `${error}\n`);
    return { ...base, status: 'missing', seconds: 0, error };
  }
  // The child runs in the mode the runner chose, whatever the runner's own environment said.
  const env = { ...process.env, BENCH_QUICK: quick ? '1' : undefined, npm_config_quick: undefined };
  const fd = fs.openSync(logFile, 'w');
  const child = (current = fork(file, [], { cwd: ROOT, env, stdio: ['ignore', fd, fd, 'ipc'] }));
  fs.closeSync(fd);
  let result: BenchResult | undefined;
  let error: string | undefined;
  child.on('message', (message: Message) => {
    if (message.type === 'progress') onProgress(message.fraction, message.label);
    else result = message.result;
  });
  child.on('error', (spawnError) => (error ??= spawnError.message));
  const timer = setTimeout(() => {
    error = `timed out after ${Math.round(timeoutMs / 1000)} s`;
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  }, timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('exit', (...exit) => resolve(exit)),
  );
  clearTimeout(timer);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) error ??= signal ? `killed by ${signal}` : `exited with code ${code}`;
  else if (!result) error ??= 'exited without sending a result';
  return { ...base, status: error ? 'failed' : 'ok', exitCode: code, signal, seconds, result, error };
}

async function main(): Promise<void> {
  const options = parseOptions();
  const count = options.suites.length;
  fs.mkdirSync(LOGS, { recursive: true });
  const machine = describeMachine(ROOT);
  const expected = expectedSeconds(options.quick);
  const total = sumOf(options.suites, (name) => expected.get(name)!);
  const bar = new ProgressBar();
  const started = performance.now();
  const date = new Date().toISOString();
  let interrupted = false;
  process.on('SIGINT', () => {
    interrupted = true;
    current?.kill('SIGINT');
  });

  bar.log(
    `npm run bench: ${options.suites.join(', ')} (${options.quick ? 'quick' : 'full'} run, about ${clock(total)}); ` +
      `logs in ${path.relative(ROOT, LOGS)}/`,
  );
  const runs: SuiteRun[] = [];
  let done = 0;
  for (const [i, suite] of options.suites.entries()) {
    if (interrupted) break;
    const weight = expected.get(suite)!;
    const suiteStarted = performance.now();
    let now = { fraction: 0, label: 'starting' };
    // Also every second, for the clocks.
    const show = (fraction = now.fraction, label = now.label): void => {
      now = { fraction, label };
      bar.update({
        overall: (done + weight * fraction) / total,
        suite,
        index: i + 1,
        count,
        label,
        elapsed: (performance.now() - started) / 1000,
        suiteElapsed: (performance.now() - suiteStarted) / 1000,
      });
    };
    bar.log(`[${i + 1}/${count}] ${suite}: started`);
    show();
    const ticker = setInterval(show, 1000);
    // A suite far past its expected time is stuck; a generous limit, since the guess may be low.
    const timeoutMs = Number(process.env.BENCH_SUITE_TIMEOUT_S ?? Math.max(300, weight * 4)) * 1000;
    const run = await runOne(suite, options.quick, timeoutMs, show);
    clearInterval(ticker);
    runs.push(run);
    done += weight;
    show(0, run.status === 'ok' ? 'done' : run.status);
    const missed = run.result?.figures.filter((f) => f.pass === false).length ?? 0;
    const outcome =
      run.status === 'ok'
        ? `done in ${run.seconds.toFixed(1)} s, ${run.result!.figures.length} figures${missed ? `, ${missed} target${missed === 1 ? '' : 's'} missed` : ''}`
        : `${run.status.toUpperCase()}, ${run.error}${run.status === 'failed' ? `; the end of ${run.log}:` : ''}`;
    bar.log(`[${i + 1}/${count}] ${suite}: ${outcome}`);
    if (run.status !== 'failed') continue;
    for (const line of fs.readFileSync(path.join(ROOT, run.log), 'utf8').trimEnd().split('\n').slice(-25))
      bar.log(`    ${line}`);
  }
  bar.clear();
  if (interrupted) {
    console.error('npm run bench: interrupted; no results written.');
    process.exit(130);
  }

  const figures = runs.flatMap((run) => run.result?.figures ?? []);
  const report: RunReport = {
    date,
    quick: options.quick,
    strict: options.strict,
    suites: options.suites,
    seconds: (performance.now() - started) / 1000,
    machine,
    targets: { met: figures.filter((f) => f.pass).length, missed: figures.filter((f) => f.pass === false).length },
    runs,
  };
  console.log(summaryText(report));
  fs.writeFileSync(path.join(RESULTS, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, 'latest.md'), toMarkdown(report));
  console.log(
    `\nWrote ${path.relative(ROOT, path.join(RESULTS, 'latest.json'))} and latest.md; each suite's printout is in ${path.relative(ROOT, LOGS)}/.`,
  );
  process.exitCode = runs.some((run) => run.status !== 'ok') || (options.strict && report.targets.missed > 0) ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
