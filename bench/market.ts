// Marketplace (book 6.2, Table 6.1): the SCRIPT, WATCH and LOCK strategies under 1/1, 5/1 and 5/5
// listers/buyers, alternating rounds of equal length from one starting state, the book's
// invariants checked after every run. Method: docs/performance.md, "Method: market".
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type Redis from 'ioredis';
import { MARKET_STRATEGIES, type MarketStrategyName } from '../src/redis/market/repository';
import { RESTOCK, buildMarket, measureCost, startRunner, type ProcessResult, type ProcessSpec } from './market-process';
import { checkInvariants, startingState } from './market-state';
import { bench, isQuick, mean, measure, median, percentile, size, sumOf, type SuiteReport } from './harness';

/** Length of one run (one scenario, one strategy), s. */
const SECONDS = size('BENCH_MARKET_SECONDS', 0.12, 2);
const ROUNDS = size('BENCH_MARKET_ROUNDS', 3, 3);
/** 'threads': each simulated process a worker thread (the only way to count requests per purchase). */
const PROCESSES = process.env.BENCH_MARKET_PROCESSES ?? 'inline';
if (PROCESSES !== 'threads' && PROCESSES !== 'inline')
  throw new Error(`BENCH_MARKET_PROCESSES must be "threads" or "inline", not "${PROCESSES}"`);
/** Purchases (and listings) timed one at a time without contention, per strategy. */
const COST_OPS = isQuick() ? 50 : 200;

const plural = (n: number, what: string): string => `${n} ${what}${n > 1 ? 's' : ''}`;
/** listers, buyers, and the book's Table 6.1 row (WATCH, 60 s). */
const SCENARIOS = (
  [
    [1, 1, { listed: 145_000, bought: 27_000, boughtBelow: false, retries: 80_000, waitMs: 14 }],
    [5, 1, { listed: 331_000, bought: 200, boughtBelow: true, retries: 50_000, waitMs: 150 }],
    [5, 5, { listed: 206_000, bought: 600, boughtBelow: true, retries: 161_000, waitMs: 498 }],
  ] as const
).map(([listers, buyers, book]) => {
  const title = `${plural(listers, 'lister')}, ${plural(buyers, 'buyer')}`;
  // For figure ids: "1 lister, 1 buyer" -> "1lister1buyer".
  return { id: title.replace(/[ ,]/g, ''), title, listers, buyers, book };
});
type Scenario = (typeof SCENARIOS)[number];
const BOOK_SECONDS = 60;
const WARM_UP_SECONDS = 0.3;
const WARM_UP_ORDER: MarketStrategyName[] = ['WATCH', 'LOCK', 'SCRIPT'];
/** Items per lister in a warm-up run (more are granted if it runs out). */
const WARM_UP_STOCK = isQuick() ? 2_000 : 8_000;
/** Items granted per lister: the fastest warm-up's listing rate times the run length times this. */
const STOCK_MARGIN = 1.3;

/** What a run needs: the simulated processes' runner, an uncounted connection and the starting state. */
type Lab = { runner: ReturnType<typeof startRunner>; admin: Redis; state: ReturnType<typeof startingState> };
type Run = Awaited<ReturnType<typeof runOnce>>;
/** One scenario's runs of one strategy, all rounds. */
type Summary = { scenario: Scenario; strategy: MarketStrategyName; runs: Run[] };

/** CPU seconds all cores of the machine have been idle so far (busy: everything else, softirq too). */
const machineIdleSeconds = (): number => os.cpus().reduce((total, cpu) => total + cpu.times.idle, 0) / 1000;
const total = (run: Run, pick: (r: ProcessResult) => number): number => sumOf(run.results, pick);
const purchased = (r: ProcessResult): number => r.outcomes.PURCHASED;
const bought = (run: Run): number => total(run, purchased);
/** Every purchase wait of the runs, ascending. */
const waitsOf = (runs: Run[]): number[] =>
  runs.flatMap((run) => run.results.flatMap((r) => r.waits)).sort((a, b) => a - b);
const count = (value: number): string => Math.round(value).toLocaleString('en-US');
const ms = (value: number): string => (Number.isNaN(value) ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(1));

function specsFor(scenario: Scenario, stock: number, round: number): ProcessSpec[] {
  const make = (role: 'lister' | 'buyer', n: number, from: number, stock: number): ProcessSpec[] =>
    Array.from({ length: n }, (_, id) => ({ role, id, seed: 1000 * round + from + id, stock }));
  return [...make('lister', scenario.listers, 1, stock), ...make('buyer', scenario.buyers, 100, 0)];
}

/** One run of a scenario with one strategy; round 0 is a warm-up run. */
async function runOnce({ runner, admin, state }: Lab, scenario: Scenario, strategy: MarketStrategyName, round: number) {
  const seconds = round === 0 ? Math.min(WARM_UP_SECONDS, SECONDS) : SECONDS;
  await state.restore();
  await runner.prepare(strategy, specsFor(scenario, state.stock, round));
  const run = { seconds: 0, tailMs: 0, results: [] as ProcessResult[], busiestThread: 0, idle: 0 };
  const work = async (): Promise<void> => {
    const [t0, idle0] = [performance.now(), machineIdleSeconds()];
    const done = runner.go();
    await Promise.race([sleep(seconds * 1000), done]);
    runner.stop();
    const stoppedAt = performance.now();
    run.results = await done;
    run.busiestThread = runner.busiestThread();
    run.idle = machineIdleSeconds() - idle0;
    // From go to stop, and from stop until the last call in flight returned.
    [run.seconds, run.tailMs] = [(stoppedAt - t0) / 1000, performance.now() - stoppedAt];
  };
  const sample = await measure(1, work, { admin });
  await checkInvariants(admin, run.results, `${strategy}, ${scenario.title}`);
  const [wall, cpu] = [sample.seconds, sample.nodeCpuMs / 1000];
  return {
    ...run,
    redisCommands: sample.executed,
    /** CPU seconds per second of run: this process (all threads), redis-server, and everything else (noise). */
    clientCpu: cpu / wall,
    redisCpu: sample.redisCpu / wall,
    otherCpu: (os.cpus().length * wall - run.idle - cpu - sample.redisCpu) / wall,
  };
}

type Cost = Awaited<ReturnType<typeof measureCost>>;

const RESULT_COLUMNS = ['listed', 'bought', 'retries', 'failed', 'avg wait ms', 'p99 wait ms'];
/** The summary's cells for some runs: counts (medians of the runs) and waits (pooled). */
function resultCells(runs: Run[]): string[] {
  const picks: ((r: ProcessResult) => number)[] = [(r) => r.listed, purchased, (r) => r.retries, (r) => r.conflicts];
  const waits = waitsOf(runs);
  const medians = picks.map((pick) => count(median(runs.map((run) => total(run, pick)))));
  return [...medians, ms(mean(waits)), ms(percentile(waits, 99))];
}

function printResults(report: SuiteReport, summaries: Summary[], wall: number): void {
  const scale = SECONDS / BOOK_SECONDS;
  const rows = SCENARIOS.flatMap(({ title, book }) => {
    const [listed, bought, retries] = [book.listed, book.bought, book.retries].map((n) => count(n * scale));
    const below = book.boughtBelow ? '<' : '';
    return [
      ...summaries.filter((s) => s.scenario.title === title).map((s) => [title, s.strategy, ...resultCells(s.runs)]),
      [title, `book (WATCH) x${scale.toFixed(3)}`, listed, below + bought, retries, '-', String(book.waitMs), '-'],
    ];
  });
  report.table(`market summary (${wall.toFixed(1)} s)`, ['scenario', 'strategy', ...RESULT_COLUMNS], rows, 2);
  const rounds = summaries[0].runs.length;
  report.note(
    `Counts are per ${SECONDS} s run${rounds > 1 ? ` (medians of ${rounds} rounds; waits pooled)` : ''}; ` +
      `the book's rows are its Table 6.1 (60 s runs) scaled by ${SECONDS}/${BOOK_SECONDS}, waits as printed. ` +
      'With locks the book reports 220,000-230,000 listings and purchases per 60 s run whatever the number of processes, no retries, under 3 ms.',
  );
}

function printDetails(report: SuiteReport, summaries: Summary[]): void {
  const tally = (pick: (r: ProcessResult) => number) => (s: Summary) => sumOf(s.runs, (run) => total(run, pick));
  const counted = (pick: (r: ProcessResult) => number) => (s: Summary) => count(tally(pick)(s));
  const perPurchase = (s: Summary): string =>
    PROCESSES === 'threads' ? (tally((r) => r.purchaseRequests)(s) / tally((r) => r.attempts)(s)).toFixed(2) : '-';
  const perSecond = (pick: (r: ProcessResult) => number) => (s: Summary) =>
    count(tally(pick)(s) / sumOf(s.runs, (run) => run.seconds));
  const avg = (pick: (run: Run) => number) => (s: Summary) => sumOf(s.runs, pick) / s.runs.length;
  const fixed = (pick: (run: Run) => number) => (s: Summary) => avg(pick)(s).toFixed(2);
  report.tableOf('market details', 2, summaries, [
    ['scenario', (s) => s.scenario.title],
    ['strategy', (s) => s.strategy],
    ['attempts', counted((r) => r.attempts)],
    ['bought', counted(purchased)],
    ['gone', counted((r) => r.outcomes.ITEM_GONE)],
    ['price chg', counted((r) => r.outcomes.PRICE_CHANGED)],
    ['completed', counted((r) => r.completed)],
    ['retried', counted((r) => r.retriedCalls)],
    ['reqs/purch', perPurchase],
    ['cmds/bought', (s) => (sumOf(s.runs, (run) => run.redisCommands) / Math.max(1, tally(purchased)(s))).toFixed(1)],
    ['listed/s', perSecond((r) => r.listed)],
    ['bought/s', perSecond(purchased)],
    ['client cpu', fixed((run) => run.clientCpu)],
    ['redis cpu', fixed((run) => run.redisCpu)],
    ['other cpu', fixed((run) => run.otherCpu)],
    ['client busy', fixed((run) => run.busiestThread)],
    ['tail ms', (s) => ms(avg((run) => run.tailMs)(s))],
    ['restocks', counted((r) => r.restocks)],
  ]);
  report.note(
    'Details, over all rounds. gone/price chg: ITEM_GONE/PRICE_CHANGED answers (another buyer was first); completed: calls answered PURCHASED, ' +
      'ITEM_GONE or PRICE_CHANGED with no retry; retried: calls with retries > 0; reqs/purch: requests per purchase() call (threads only: a ' +
      "MULTI/EXEC or pipeline counts 1), all connections of the buyer, retries and lock waits included; cmds/bought: Redis commands the run executed (scripts' inner ones, " +
      "listing and paging included) per item bought; client/redis/other cpu: CPU seconds per second (this process's threads together; redis-server; " +
      'every other process on the machine, which is noise; 2 = two cores); client busy: event-loop utilisation of the busiest client thread (1 = never idle: the client, not Redis, set the pace); tail: time after the stop until the ' +
      'calls in flight returned; restocks: times a lister ran low and was granted more items mid-run.',
  );
}

function printCosts(report: SuiteReport, costs: Cost[]): void {
  report.tableOf('market cost of one operation, uncontended', 1, costs, [
    ['strategy', (c) => c.strategy],
    ['redis cmds/list', (c) => c.list.commands.toFixed(1)],
    ['reqs/list', (c) => c.list.requests.toFixed(1)],
    ['redis cmds/purchase', (c) => c.purchase.commands.toFixed(1)],
    ['reqs/purchase', (c) => c.purchase.requests.toFixed(1)],
  ]);
  report.note(
    `Costs: ${COST_OPS} lists then ${COST_OPS} purchases one at a time with nobody else about. redis cmds: INFO commandstats (commands inside scripts ` +
      'included: a script call counts 1 plus what it runs); reqs: requests the client sent (a MULTI/EXEC or pipeline counts 1; ' +
      'LOCK sends its two releases at once, which count 2).',
  );
}

/** The issue's targets and the ratios, as figures; a ratio leaves out rounds where the other bought nothing. */
function figures(report: SuiteReport, summaries: Summary[], costs: Cost[]): void {
  const runsOf = (scenario: Scenario, strategy: MarketStrategyName): Run[] =>
    summaries.find((s) => s.scenario === scenario && s.strategy === strategy)!.runs;
  for (const scenario of SCENARIOS) {
    const script = runsOf(scenario, 'SCRIPT');
    for (const other of ['WATCH', 'LOCK'] as const) {
      const pairs = runsOf(scenario, other).flatMap((run, i) =>
        bought(run) > 0 ? [[bought(script[i]), bought(run)]] : [],
      );
      if (pairs.length === 0) {
        report.note(
          `${scenario.title}: ${other} bought nothing in any round, so SCRIPT / ${other} has no ratio (SCRIPT bought ${count(median(script.map(bought)))} per run).`,
        );
        continue;
      }
      const [id, label] = [`script_vs_${other.toLowerCase()}`, `items bought, SCRIPT / ${other}`];
      const [ours, theirs] = [0, 1].map((side) => pairs.map((pair) => pair[side]));
      report.ratio(`market.${scenario.id}.${id}`, `${scenario.title}: ${label}`, ours, theirs, { op: '>=', value: 1 });
    }
    const p99PerRound = script.map((run) => percentile(waitsOf([run]), 99));
    const p99 = percentile(waitsOf(script), 99);
    const label = `${scenario.title}: SCRIPT p99 purchase wait (rounds pooled)`;
    report.pooled(`market.${scenario.id}.script_p99_wait`, label, 'ms', p99, p99PerRound, { op: '<=', value: 3 });
  }
  const script = summaries.filter((s) => s.strategy === 'SCRIPT').flatMap((s) => s.runs.flatMap((run) => run.results));
  const [retries, none] = [sumOf(script, (r) => r.retries), { op: '==', value: 0 } as const];
  report.value('market.script_retries', 'SCRIPT: purchase retries, all scenarios', 'retries', retries, none);
  const [completed, attempted] = [sumOf(script, (r) => r.completed), sumOf(script, (r) => r.attempts)];
  const firstTry = `${count(completed)} of the ${count(attempted)} purchases it attempted`;
  report.note(`SCRIPT completed ${firstTry} at the first try.`);
  for (const { strategy, list, purchase } of costs) {
    const [id, label] = [`market.${strategy.toLowerCase()}.round_trips_per`, `${strategy}: round trips per`];
    const target = strategy === 'SCRIPT' ? ({ op: '<=', value: 1 } as const) : undefined;
    report.value(`${id}_purchase`, `${label} purchase, uncontended`, 'round trips', purchase.requests, target);
    if (target) report.value(`${id}_list`, `${label} listing, uncontended`, 'round trips', list.requests, target);
  }
}

bench({ id: 'market', title: 'Marketplace (book 6.2, Table 6.1): SCRIPT, WATCH and LOCK strategies' }, async (b) => {
  const { url, admin, report, defer } = b;
  const granter = await buildMarket(url, 'SCRIPT', 1);
  defer(() => granter.close());
  const state = startingState(admin, b.connect({ db: 1 }), granter.repository);
  const runner = startRunner(url, PROCESSES === 'threads');
  defer(() => runner.close());
  const lab = { runner, admin, state };
  const benchStarted = performance.now();
  // Per scenario: the warm-up (about one run) and the rounds; then the cost measurement (one more).
  const steps = b.steps(SCENARIOS.length * (1 + ROUNDS * MARKET_STRATEGIES.length) + 1);
  console.log(
    `market benchmark: the book's Table 6.1 for SCRIPT, WATCH and LOCK, same redis-server; ${SECONDS} s per run, ` +
      `${ROUNDS} round(s), ${os.cpus().length} cores (load average ${os.loadavg()[0].toFixed(1)}), simulated processes as ${PROCESSES === 'threads' ? 'one worker thread each, each with its own connections and strategy' : 'async loops of one process sharing one strategy'}.`,
  );

  const summaries: Summary[] = [];
  for (const scenario of SCENARIOS) {
    steps.step(`${scenario.title}, warm-up`);
    await state.reset(scenario, WARM_UP_STOCK);
    // A short run of each strategy warms up every process and measures how fast a lister lists.
    const rates = [];
    for (const strategy of WARM_UP_ORDER) {
      const run = await runOnce(lab, scenario, strategy, 0);
      rates.push({ strategy, rate: total(run, (r) => r.listed) / scenario.listers / run.seconds });
    }
    const fastest = Math.max(...rates.map((r) => r.rate));
    await state.grow(Math.ceil((fastest * SECONDS * STOCK_MARGIN) / 1000) * 1000);
    console.log(
      `  ${scenario.title}: warmed up (listings per lister ${rates.map((r) => `${r.strategy} ${count(r.rate)}/s`).join(', ')}); ` +
        `${count(state.stock)} items granted per lister (${((performance.now() - benchStarted) / 1000).toFixed(1)} s since the start)`,
    );

    const mine = MARKET_STRATEGIES.map((strategy) => ({ scenario, strategy, runs: [] as Run[] }));
    summaries.push(...mine);
    for (let round = 1; round <= ROUNDS; round++) {
      // The order rotates: the first strategy goes last in the next round.
      for (const { strategy, runs } of mine.map((_, i) => mine[(i + round - 1) % mine.length])) {
        steps.step(`${scenario.title}, round ${round}/${ROUNDS}, ${strategy}`);
        const run = await runOnce(lab, scenario, strategy, round);
        runs.push(run);
        const cells = resultCells([run]).map((cell, i) => `${RESULT_COLUMNS[i]} ${cell}`);
        console.log(`  ${scenario.title}, ${strategy.padEnd(6)} round ${round}: ${cells.join(', ')}; invariants hold`);
      }
    }
  }
  steps.step('cost of one operation');
  const costs: Cost[] = [];
  for (const strategy of MARKET_STRATEGIES) costs.push(await measureCost(url, admin, strategy, COST_OPS));

  printResults(report, summaries, (performance.now() - benchStarted) / 1000);
  printDetails(report, summaries);
  printCosts(report, costs);
  const restocks = sumOf(summaries, (s) => sumOf(s.runs, (run) => total(run, (r) => r.restocks)));
  if (restocks > 0)
    report.note(
      `Listers ran low ${restocks} times during a run and were granted ${RESTOCK} more items each time, on a connection ` +
        'of their own and ahead of need (see restocks above); those grants added to the load on Redis and on the client.',
    );
  figures(report, summaries, costs);
});
