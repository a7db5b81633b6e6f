// `npm run bench`: runs every benchmark as a child process of its own, one after another, with
// their printout in bench/results/logs/<suite>.log and one progress bar on stderr; then prints a
// summary of every figure and writes bench/results/latest.json and latest.md.
//
//   node dist-bench/bench/run.js [--quick] [--only a,b] [--strict]
//
// Exits 1 when a suite did not finish (crashed, exited non-zero, sent no result, or is not built);
// a missed target is reported, not a failure, unless --strict.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { describeMachine } from './harness/machine';
import { toMarkdown } from './harness/markdown';
import { clock, ProgressBar } from './harness/progress-bar';
import { isQuick, type BenchResult } from './harness/report';
import { countTargets, summaryText, type RunReport, type SuiteRun } from './harness/summary';

/**
 * In the order they run, with the seconds each is expected to take: weights for the progress bar
 * until a run in the same mode has left its own times in latest.json (measured on a 2-core VM).
 */
const SUITES: { name: string; quick: number; full: number }[] = [
  { name: 'graphql', quick: 150, full: 200 },
  { name: 'subscribers', quick: 20, full: 90 },
  { name: 'counters', quick: 2, full: 16 },
  { name: 'messaging', quick: 18, full: 45 },
  { name: 'leases', quick: 45, full: 110 },
  { name: 'autocomplete', quick: 4, full: 100 },
  { name: 'tasks', quick: 15, full: 180 },
  { name: 'market', quick: 6.5, full: 70 },
  { name: 'location', quick: 55, full: 250 },
];

/** dist-bench/bench/run.js: the repository is two levels up. */
const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(ROOT, 'bench', 'results');
const LOGS = path.join(RESULTS, 'logs');
/** Lines of a failed suite's log shown on the terminal. */
const TAIL_LINES = 25;

interface Options {
  quick: boolean;
  strict: boolean;
  suites: string[];
}

const USAGE = `usage: npm run bench [--quick] [-- --only ${SUITES.map((s) => s.name).join(',')}] [--strict]
  --quick     short runs (under two minutes in all); also \`npm run bench --quick\` or BENCH_QUICK=1
  --only a,b  run only these suites, in the usual order
  --strict    also exit 1 when a figure misses its target`;

function parseOptions(argv: string[]): Options {
  const options: Options = { quick: isQuick(), strict: false, suites: SUITES.map((s) => s.name) };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--strict') options.strict = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const list = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      const wanted = (list ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = wanted.filter((name) => !SUITES.some((s) => s.name === name));
      if (wanted.length === 0 || unknown.length > 0)
        usage(wanted.length === 0 ? '--only needs a list of suites' : `unknown suite: ${unknown.join(', ')}`);
      options.suites = SUITES.map((s) => s.name).filter((name) => wanted.includes(name));
    } else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else usage(`unknown argument: ${arg}`);
  }
  return options;
}

function usage(problem: string): never {
  console.error(`${problem}\n${USAGE}`);
  process.exit(2);
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

/** The children see the mode the runner chose, whatever the runner's own environment said. */
function childEnvironment(quick: boolean): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.BENCH_QUICK;
  delete env.npm_config_quick;
  // Every child would write the same file.
  delete env.BENCH_RESULT_FILE;
  if (quick) env.BENCH_QUICK = '1';
  return env;
}

function tail(file: string, lines: number): string[] {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines);
  } catch {
    return ['(no log)'];
  }
}

interface Progress {
  fraction: number;
  label: string;
}

type Message = { type: 'progress'; fraction: number; label: string } | { type: 'result'; result: BenchResult };

/** Runs one suite to its end (or to `timeoutMs`), reporting its progress as it goes. */
function runOne(
  suite: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  onProgress: (p: Progress) => void,
  onChild: (c: ChildProcess | undefined) => void,
): Promise<SuiteRun> {
  const file = path.join(__dirname, `${suite}.js`);
  const logFile = path.join(LOGS, `${suite}.log`);
  const log = path.relative(ROOT, logFile);
  const started = performance.now();
  const base = { suite, log, exitCode: null, signal: null };
  if (!fs.existsSync(file)) {
    fs.writeFileSync(logFile, `${path.relative(ROOT, file)} does not exist\n`);
    return Promise.resolve({
      ...base,
      status: 'missing',
      seconds: 0,
      error: `${path.relative(ROOT, file)} does not exist (not written yet, or not compiled)`,
    });
  }
  return new Promise((resolve) => {
    const fd = fs.openSync(logFile, 'w');
    let child: ChildProcess;
    try {
      child = fork(file, [], { cwd: ROOT, env, stdio: ['ignore', fd, fd, 'ipc'] });
    } finally {
      fs.closeSync(fd);
    }
    onChild(child);
    let result: BenchResult | undefined;
    let timedOut = false;
    let spawnError: Error | undefined;
    child.on('message', (message: Message) => {
      if (message.type === 'progress') onProgress({ fraction: message.fraction, label: message.label });
      else if (message.type === 'result') result = message.result;
    });
    child.on('error', (error) => (spawnError = error));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      onChild(undefined);
      const seconds = (performance.now() - started) / 1000;
      const run: SuiteRun = { ...base, status: 'ok', exitCode: code, signal, seconds, result };
      if (timedOut) run.error = `timed out after ${Math.round(timeoutMs / 1000)} s`;
      else if (spawnError) run.error = spawnError.message;
      else if (code !== 0) run.error = signal ? `killed by ${signal}` : `exited with code ${code}`;
      else if (!result) run.error = 'exited without sending a result';
      if (run.error) run.status = 'failed';
      resolve(run);
    });
  });
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  fs.mkdirSync(LOGS, { recursive: true });
  const machine = describeMachine(ROOT);
  const expected = expectedSeconds(options.quick);
  const total = options.suites.reduce((sum, name) => sum + expected.get(name)!, 0);
  const env = childEnvironment(options.quick);
  const bar = new ProgressBar();
  const started = performance.now();
  const date = new Date().toISOString();
  let current: ChildProcess | undefined;
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
    const elapsed = (): [number, number] => [
      (performance.now() - started) / 1000,
      (performance.now() - suiteStarted) / 1000,
    ];
    const show = (fraction: number, label: string): void => {
      const [all, own] = elapsed();
      bar.update({
        overall: (done + weight * fraction) / total,
        suite,
        index: i + 1,
        count: options.suites.length,
        label,
        elapsed: all,
        suiteElapsed: own,
      });
    };
    bar.log(`[${i + 1}/${options.suites.length}] ${suite}: started`);
    show(0, 'starting');
    const ticker = setInterval(() => bar.tick(...elapsed()), 1000);
    // A suite far past its expected time is stuck; a generous limit, since the guess may be low.
    const timeoutMs = Number(process.env.BENCH_SUITE_TIMEOUT_S ?? Math.max(300, weight * 4)) * 1000;
    const run = await runOne(
      suite,
      env,
      timeoutMs,
      (p) => show(p.fraction, p.label),
      (child) => (current = child),
    );
    clearInterval(ticker);
    runs.push(run);
    done += weight;
    show(0, run.status === 'ok' ? 'done' : run.status);
    if (run.status === 'ok') {
      const figures = run.result!.figures;
      const missed = figures.filter((f) => f.pass === false).length;
      bar.log(
        `[${i + 1}/${options.suites.length}] ${suite}: done in ${run.seconds.toFixed(1)} s, ${figures.length} figures${missed ? `, ${missed} target${missed === 1 ? '' : 's'} missed` : ''}`,
      );
    } else {
      bar.log(
        `[${i + 1}/${options.suites.length}] ${suite}: ${run.status.toUpperCase()}, ${run.error}${run.status === 'failed' ? `; the end of ${run.log}:` : ''}`,
      );
      if (run.status === 'failed')
        for (const line of tail(path.join(ROOT, run.log), TAIL_LINES)) bar.log(`    ${line}`);
    }
  }
  bar.clear();
  if (interrupted) {
    console.error('npm run bench: interrupted; no results written.');
    process.exit(130);
  }

  const report: RunReport = {
    date,
    quick: options.quick,
    strict: options.strict,
    suites: options.suites,
    seconds: (performance.now() - started) / 1000,
    machine,
    targets: countTargets(runs),
    runs,
  };
  console.log(summaryText(report));
  fs.writeFileSync(path.join(RESULTS, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, 'latest.md'), toMarkdown(report));
  console.log(
    `\nWrote ${path.relative(ROOT, path.join(RESULTS, 'latest.json'))} and latest.md; each suite's printout is in ${path.relative(ROOT, LOGS)}/.`,
  );

  const failed = runs.some((run) => run.status !== 'ok');
  process.exitCode = failed || (options.strict && report.targets.missed > 0) ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
