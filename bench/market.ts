// Marketplace (book 6.2, Table 6.1): the SCRIPT, WATCH and LOCK strategies under 1/1, 5/1 and 5/5
// listers/buyers, alternating rounds of equal length from one starting state, the book's
// invariants checked after every run. Method: docs/performance.md, "Method: market".
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import os from 'node:os';
import path from 'node:path';
import type Redis from 'ioredis';
import { MARKET_STRATEGIES, type MarketStrategyName } from '../src/redis/market/repository';
import {
  BUYER_FUNDS,
  RESTOCK,
  buildMarket,
  buyerName,
  grantItems,
  itemName,
  listerName,
  prepare,
  simulate,
  type FromWorker,
  type ProcessResult,
  type ProcessSpec,
  type ToWorker,
  type WorkerSetup,
} from './market-process';
import { checkInvariants, StartingState } from './market-state';
import {
  bench,
  commandCount,
  isQuick,
  measure,
  median,
  percentile,
  redisCpuSeconds,
  type SuiteReport,
  inParallel,
  tableOf,
  sumOf,
} from './harness';
import { setTimeout as sleep } from 'node:timers/promises';

function readSettings() {
  const number = (name: string, fallback: number, min: number, max: number, integer: boolean): number => {
    const text = process.env[name];
    if (text === undefined || text === '') return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      throw new Error(`${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, not "${text}"`);
    }
    return value;
  };
  const processes = process.env.BENCH_MARKET_PROCESSES ?? 'inline';
  if (processes !== 'threads' && processes !== 'inline') {
    throw new Error(`BENCH_MARKET_PROCESSES must be "threads" or "inline", not "${processes}"`);
  }
  return {
    /** Length of one run (one scenario, one strategy). */
    seconds: number('BENCH_MARKET_SECONDS', isQuick() ? 0.12 : 2, 0.1, 600, false),
    rounds: number('BENCH_MARKET_ROUNDS', 3, 1, 20, true),
    processes,
    /** Purchases (and listings) timed one at a time without contention, per strategy. */
    costOps: isQuick() ? 50 : 200,
  } as const;
}

interface Scenario {
  /** For figure ids. */
  id: string;
  title: string;
  listers: number;
  buyers: number;
  /** The book's Table 6.1 row (WATCH, 60 s). */
  book: { listed: number; bought: number; boughtBelow: boolean; retries: number; waitMs: number };
}

const SCENARIOS: Scenario[] = [
  {
    id: '1lister1buyer',
    title: '1 lister, 1 buyer',
    listers: 1,
    buyers: 1,
    book: { listed: 145_000, bought: 27_000, boughtBelow: false, retries: 80_000, waitMs: 14 },
  },
  {
    id: '5listers1buyer',
    title: '5 listers, 1 buyer',
    listers: 5,
    buyers: 1,
    book: { listed: 331_000, bought: 200, boughtBelow: true, retries: 50_000, waitMs: 150 },
  },
  {
    id: '5listers5buyers',
    title: '5 listers, 5 buyers',
    listers: 5,
    buyers: 5,
    book: { listed: 206_000, bought: 600, boughtBelow: true, retries: 161_000, waitMs: 498 },
  },
];
const BOOK_SECONDS = 60;
const WARM_UP_SECONDS = 0.3;
const WARM_UP_ORDER: MarketStrategyName[] = ['WATCH', 'LOCK', 'SCRIPT'];
/** Items per lister in a warm-up run (more are granted if it runs out). */
const WARM_UP_STOCK = isQuick() ? 2_000 : 8_000;
/** Items granted per lister: the fastest warm-up's listing rate times the run length times this. */
const STOCK_MARGIN = 1.3;
const MAX_LISTERS = Math.max(...SCENARIOS.map((s) => s.listers));
const MAX_BUYERS = Math.max(...SCENARIOS.map((s) => s.buyers));

/** Runs the simulated processes of one run. */
interface Runner {
  /** Builds each process's market on the state already in Redis and warms up its connections; not timed. */
  prepare(strategy: MarketStrategyName, specs: ProcessSpec[]): Promise<void>;
  /** Starts every process; resolves when all have stopped after stop(). */
  go(): Promise<ProcessResult[]>;
  stop(): void;
  /** Busiest client thread's event-loop utilisation since go() (1 = never idle). */
  busiestThread(): number;
  close(): Promise<void>;
}

/** One worker thread per simulated process; listers on workers 0.., buyers after them. */
class ThreadRunner implements Runner {
  private readonly flag = new SharedArrayBuffer(4);
  private readonly stopFlag = new Int32Array(this.flag);
  private readonly workers: Worker[];
  private readonly pending = new Map<Worker, { resolve: (m: FromWorker) => void; reject: (e: Error) => void }>();
  private active: Worker[] = [];
  private started: ReturnType<Worker['performance']['eventLoopUtilization']>[] = [];

  constructor(url: string) {
    const setup: WorkerSetup = { marketProcess: true, url, stop: this.flag };
    this.workers = Array.from({ length: MAX_LISTERS + MAX_BUYERS }, () => {
      const worker = new Worker(path.join(__dirname, 'market-process.js'), { workerData: setup });
      const settle = (take: (p: { resolve: (m: FromWorker) => void; reject: (e: Error) => void }) => void): void => {
        const waiting = this.pending.get(worker);
        this.pending.delete(worker);
        if (waiting) take(waiting);
      };
      worker.on('message', (message: FromWorker) =>
        settle((p) =>
          message.type === 'failed'
            ? p.reject(new Error(`a market process failed:\n${message.error}`))
            : p.resolve(message),
        ),
      );
      worker.on('error', (error) => settle((p) => p.reject(error)));
      worker.on('exit', (code) => settle((p) => p.reject(new Error(`a market process exited (code ${code})`))));
      return worker;
    });
  }

  private ask(worker: Worker, message: ToWorker): Promise<FromWorker> {
    return new Promise((resolve, reject) => {
      this.pending.set(worker, { resolve, reject });
      worker.postMessage(message);
    });
  }

  async prepare(strategy: MarketStrategyName, specs: ProcessSpec[]): Promise<void> {
    this.active = specs.map((spec) => this.workers[spec.role === 'lister' ? spec.id : MAX_LISTERS + spec.id]);
    await Promise.all(specs.map((spec, i) => this.ask(this.active[i], { type: 'prepare', strategy, spec })));
  }

  async go(): Promise<ProcessResult[]> {
    Atomics.store(this.stopFlag, 0, 0);
    this.started = this.active.map((w) => w.performance.eventLoopUtilization());
    const replies = await Promise.all(this.active.map((w) => this.ask(w, { type: 'go' })));
    return replies.map((reply) => (reply as Extract<FromWorker, { type: 'done' }>).result);
  }

  stop(): void {
    Atomics.store(this.stopFlag, 0, 1);
  }

  busiestThread(): number {
    return Math.max(...this.active.map((w, i) => w.performance.eventLoopUtilization(this.started[i]).utilization));
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** Every simulated process an async loop of this process, all sharing one market strategy. */
class InlineRunner implements Runner {
  private market: Awaited<ReturnType<typeof buildMarket>> | undefined;
  private specs: ProcessSpec[] = [];
  private stopped = false;
  private started = performance.eventLoopUtilization();

  constructor(private readonly url: string) {}

  async prepare(strategy: MarketStrategyName, specs: ProcessSpec[]): Promise<void> {
    this.market = await buildMarket(this.url, strategy, specs.length);
    this.specs = specs;
    await Promise.all(specs.map((spec) => prepare(this.market!.repository, spec)));
  }

  async go(): Promise<ProcessResult[]> {
    this.stopped = false;
    this.started = performance.eventLoopUtilization();
    const results = await Promise.all(
      this.specs.map((spec) =>
        simulate(this.market!.repository, this.market!.granter, spec, () => this.stopped, undefined),
      ),
    );
    await this.market!.close();
    return results;
  }

  stop(): void {
    this.stopped = true;
  }

  busiestThread(): number {
    return performance.eventLoopUtilization(this.started).utilization;
  }

  async close(): Promise<void> {}
}

interface Run {
  scenario: Scenario;
  strategy: MarketStrategyName;
  /** From go to stop, and from stop until the last call in flight returned. */
  seconds: number;
  tailMs: number;
  results: ProcessResult[];
  redisCommands: number;
  /** CPU seconds per second of run: this process (all threads) and redis-server. */
  clientCpu: number;
  redisCpu: number;
  /** Everything else the machine ran meanwhile (other processes: noise). */
  otherCpu: number;
  busiestThread: number;
  /** Setting up before the run and checking the invariants after it. */
  overheadSeconds: number;
}

/** CPU seconds all cores of the machine have been idle so far (busy: everything else, softirq too). */
function machineIdleSeconds(): number {
  return os.cpus().reduce((total, cpu) => total + cpu.times.idle, 0) / 1000;
}

const bought = (run: Run): number => sumOf(run.results, (r) => r.outcomes.PURCHASED);
function specsFor(scenario: Scenario, stock: number, round: number): ProcessSpec[] {
  const seed = 1000 * round;
  const make = (role: 'lister' | 'buyer', n: number, from: number, stock: number): ProcessSpec[] =>
    Array.from({ length: n }, (_, id) => ({ role, id, seed: seed + from + id, stock }));
  return [...make('lister', scenario.listers, 1, stock), ...make('buyer', scenario.buyers, 100, 0)];
}

async function runOnce(
  runner: Runner,
  admin: Redis,
  state: StartingState,
  scenario: Scenario,
  strategy: MarketStrategyName,
  round: number,
  seconds: number,
): Promise<Run> {
  const preparing = performance.now();
  await state.restore();
  const specs = specsFor(scenario, state.stock, round);
  await runner.prepare(strategy, specs);
  const prepareSeconds = (performance.now() - preparing) / 1000;
  await admin.config('RESETSTAT');
  const redisCpu0 = await redisCpuSeconds(admin);
  const cpu0 = process.cpuUsage();
  const idle0 = machineIdleSeconds();
  const t0 = performance.now();
  const done = runner.go();
  await Promise.race([sleep(seconds * 1000), done]);
  runner.stop();
  const stoppedAt = performance.now();
  const results = await done;
  const ended = performance.now();
  const busiestThread = runner.busiestThread();
  const cpu = process.cpuUsage(cpu0);
  const idle = machineIdleSeconds() - idle0;
  const redisCpu = (await redisCpuSeconds(admin)) - redisCpu0;
  const redisCommands = await commandCount(admin);
  const wall = (ended - t0) / 1000;
  const machine = os.cpus().length * wall - idle;
  const checking = performance.now();
  await checkInvariants(admin, results, `${strategy}, ${scenario.title}`);
  return {
    scenario,
    strategy,
    seconds: (stoppedAt - t0) / 1000,
    tailMs: ended - stoppedAt,
    results,
    redisCommands,
    clientCpu: (cpu.user + cpu.system) / 1e6 / wall,
    redisCpu: redisCpu / wall,
    otherCpu: (machine - (cpu.user + cpu.system) / 1e6 - redisCpu) / wall,
    busiestThread,
    overheadSeconds: prepareSeconds + (performance.now() - checking) / 1000,
  };
}

interface Cost {
  strategy: MarketStrategyName;
  listCommands: number;
  listRequests: number;
  purchaseCommands: number;
  purchaseRequests: number;
}

/** Redis commands (those inside scripts too) and client requests of one list and one purchase, no contention. */
async function measureCost(url: string, admin: Redis, strategy: MarketStrategyName, ops: number): Promise<Cost> {
  await admin.flushdb();
  const market = await buildMarket(url, strategy, 1);
  try {
    const repository = market.repository;
    await grantItems(repository, 0, 0, ops);
    await repository.grantFunds(buyerName(0), BUYER_FUNDS);
    await prepare(repository, { role: 'lister', id: 0, seed: 1, stock: ops });
    await prepare(repository, { role: 'buyer', id: 0, seed: 2, stock: 0 });
    const cost = async (work: (n: number) => Promise<unknown>): Promise<[number, number]> => {
      const sample = await measure(ops, () => inParallel(ops, 1, work), { admin });
      return [sample.executed / ops, sample.requests / ops];
    };
    const [listCommands, listRequests] = await cost((n) => repository.list(listerName(0), itemName(0, n), 10));
    const [purchaseCommands, purchaseRequests] = await cost((n) =>
      repository.purchase({ buyer: buyerName(0), seller: listerName(0), item: itemName(0, n), price: 10 }),
    );
    return { strategy, listCommands, listRequests, purchaseCommands, purchaseRequests };
  } finally {
    await market.close();
  }
}

interface Summary {
  scenario: Scenario;
  strategy: MarketStrategyName;
  runs: Run[];
  listed: number;
  bought: number;
  retries: number;
  failed: number;
  attempts: number;
  completed: number;
  avgWait: number;
  p99Wait: number;
  /** Per round (runs in order), for paired ratios and spreads. */
  boughtPerRound: number[];
  p99PerRound: number[];
}

function summarize(scenario: Scenario, strategy: MarketStrategyName, runs: Run[]): Summary {
  const med = (pick: (r: ProcessResult) => number): number => median(runs.map((run) => sumOf(run.results, pick)));
  const waits = runs.flatMap((run) => run.results.flatMap((r) => [...r.waits])).sort((a, b) => a - b);
  return {
    scenario,
    strategy,
    runs,
    listed: med((r) => r.listed),
    bought: med((r) => r.outcomes.PURCHASED),
    retries: med((r) => r.retries),
    failed: med((r) => r.conflicts),
    attempts: med((r) => r.attempts),
    completed: med((r) => r.completed),
    avgWait: waits.reduce((a, b) => a + b, 0) / waits.length,
    p99Wait: percentile(waits, 99),
    boughtPerRound: runs.map(bought),
    p99PerRound: runs.map((run) =>
      percentile(
        run.results.flatMap((r) => [...r.waits]).sort((a, b) => a - b),
        99,
      ),
    ),
  };
}

const count = (value: number): string => Math.round(value).toLocaleString('en-US');
const ms = (value: number): string => (Number.isNaN(value) ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(1));

function printResults(report: SuiteReport, summaries: Summary[], seconds: number, wall: number): void {
  const scale = seconds / BOOK_SECONDS;
  const header = ['scenario', 'strategy', 'listed', 'bought', 'retries', 'failed', 'avg wait ms', 'p99 wait ms'];
  const rows = SCENARIOS.flatMap(({ title, book }) => [
    ...summaries
      .filter((x) => x.scenario.title === title)
      .map((s) => [
        title,
        s.strategy,
        ...[s.listed, s.bought, s.retries, s.failed].map(count),
        ms(s.avgWait),
        ms(s.p99Wait),
      ]),
    [
      title,
      `book (WATCH) x${scale.toFixed(3)}`,
      count(book.listed * scale),
      `${book.boughtBelow ? '<' : ''}${count(book.bought * scale)}`,
      count(book.retries * scale),
      '-',
      String(book.waitMs),
      '-',
    ],
  ]);
  report.table(`market summary (${wall.toFixed(1)} s)`, header, rows, 2);
  report.note(
    `Counts are per ${seconds} s run${summaries[0].runs.length > 1 ? ` (medians of ${summaries[0].runs.length} rounds; waits pooled)` : ''}; ` +
      `the book's rows are its Table 6.1 (60 s runs) scaled by ${seconds}/${BOOK_SECONDS}, waits as printed. ` +
      'With locks the book reports 220,000-230,000 listings and purchases per 60 s run whatever the number of processes, no retries, under 3 ms.',
  );
}

function printDetails(report: SuiteReport, summaries: Summary[]): void {
  const all = (s: Summary): ProcessResult[] => s.runs.flatMap((run) => run.results);
  const tally = (pick: (r: ProcessResult) => number) => (s: Summary) => sumOf(all(s), pick);
  const counted = (pick: (r: ProcessResult) => number) => (s: Summary) => count(tally(pick)(s));
  const perPurchase = (s: Summary): string =>
    all(s).every((r) => r.role === 'lister' || r.purchaseRequests !== undefined)
      ? (tally((r) => r.purchaseRequests ?? 0)(s) / tally((r) => r.attempts)(s)).toFixed(2)
      : '-';
  const seconds = (s: Summary): number => s.runs.reduce((t, run) => t + run.seconds, 0);
  const avg = (pick: (run: Run) => number) => (s: Summary) =>
    s.runs.reduce((t, run) => t + pick(run), 0) / s.runs.length;
  const purchased = tally((r) => r.outcomes.PURCHASED);
  tableOf(report, 'market details', 2, summaries, [
    ['scenario', (s) => s.scenario.title],
    ['strategy', (s) => s.strategy],
    ['attempts', counted((r) => r.attempts)],
    ['bought', counted((r) => r.outcomes.PURCHASED)],
    ['gone', counted((r) => r.outcomes.ITEM_GONE)],
    ['price chg', counted((r) => r.outcomes.PRICE_CHANGED)],
    ['completed', counted((r) => r.completed)],
    ['retried', counted((r) => r.retriedCalls)],
    ['reqs/purch', perPurchase],
    [
      'cmds/bought',
      (s) => (s.runs.reduce((t, run) => t + run.redisCommands, 0) / Math.max(1, purchased(s))).toFixed(1),
    ],
    ['listed/s', (s) => count(tally((r) => r.listed)(s) / seconds(s))],
    ['bought/s', (s) => count(purchased(s) / seconds(s))],
    ['client cpu', (s) => avg((run) => run.clientCpu)(s).toFixed(2)],
    ['redis cpu', (s) => avg((run) => run.redisCpu)(s).toFixed(2)],
    ['other cpu', (s) => avg((run) => run.otherCpu)(s).toFixed(2)],
    ['client busy', (s) => avg((run) => run.busiestThread)(s).toFixed(2)],
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

function printCosts(report: SuiteReport, costs: Cost[], ops: number): void {
  report.table(
    'market cost of one operation, uncontended',
    ['strategy', 'redis cmds/list', 'reqs/list', 'redis cmds/purchase', 'reqs/purchase'],
    costs.map((c) => [
      c.strategy,
      c.listCommands.toFixed(1),
      c.listRequests.toFixed(1),
      c.purchaseCommands.toFixed(1),
      c.purchaseRequests.toFixed(1),
    ]),
    1,
  );
  report.note(
    `Costs: ${ops} lists then ${ops} purchases one at a time with nobody else about. redis cmds: INFO commandstats (commands inside scripts ` +
      'included: a script call counts 1 plus what it runs); reqs: requests the client sent (a MULTI/EXEC or pipeline counts 1; ' +
      'LOCK sends its two releases at once, which count 2).',
  );
}

/**
 * The issue's targets and the strategies' ratios, as figures. A ratio leaves out rounds where the
 * other strategy bought nothing (WATCH can, under contention): those have no ratio to take.
 */
function figures(report: SuiteReport, summaries: Summary[], costs: Cost[]): void {
  const find = (scenario: Scenario, strategy: MarketStrategyName): Summary =>
    summaries.find((s) => s.scenario === scenario && s.strategy === strategy)!;
  for (const scenario of SCENARIOS) {
    const script = find(scenario, 'SCRIPT');
    for (const other of ['WATCH', 'LOCK'] as const) {
      const them = find(scenario, other);
      const rounds = them.boughtPerRound.flatMap((theirs, i) => (theirs > 0 ? [i] : []));
      if (rounds.length === 0) {
        report.note(
          `${scenario.title}: ${other} bought nothing in any round, so SCRIPT / ${other} has no ratio (SCRIPT bought ${count(script.bought)} per run).`,
        );
        continue;
      }
      const label = `${scenario.title}: items bought, SCRIPT / ${other}`;
      const [ours, theirs] = [script, them].map((x) => rounds.map((i) => x.boughtPerRound[i]));
      report.ratio(`market.${scenario.id}.script_vs_${other.toLowerCase()}`, label, ours, theirs, {
        op: '>=',
        value: 1,
      });
    }
    report.figure({
      id: `market.${scenario.id}.script_p99_wait`,
      label: `${scenario.title}: SCRIPT p99 purchase wait (rounds pooled)`,
      unit: 'ms',
      value: script.p99Wait,
      spread: { min: Math.min(...script.p99PerRound), max: Math.max(...script.p99PerRound) },
      target: { op: '<=', value: 3 },
    });
  }
  const retries = summaries
    .filter((s) => s.strategy === 'SCRIPT')
    .reduce((t, s) => t + s.runs.reduce((u, run) => u + sumOf(run.results, (r) => r.retries), 0), 0);
  report.value('market.script_retries', 'SCRIPT: purchase retries, all scenarios', 'retries', retries, {
    op: '==',
    value: 0,
  });
  const script = summaries.filter((s) => s.strategy === 'SCRIPT').flatMap((s) => s.runs.flatMap((run) => run.results));
  const [completed, attempted] = [sumOf(script, (r) => r.completed), sumOf(script, (r) => r.attempts)];
  report.note(
    `SCRIPT completed ${count(completed)} of the ${count(attempted)} purchases it attempted at the first try.`,
  );
  const atMostOne = { op: '<=', value: 1 } as const;
  for (const cost of costs) {
    const script = cost.strategy === 'SCRIPT';
    const label = `${cost.strategy}: round trips per purchase, uncontended`;
    const id = `market.${cost.strategy.toLowerCase()}.round_trips_per_purchase`;
    report.value(id, label, 'round trips', cost.purchaseRequests, script ? atMostOne : undefined);
    if (script) {
      const listLabel = 'SCRIPT: round trips per listing, uncontended';
      report.value('market.script.round_trips_per_list', listLabel, 'round trips', cost.listRequests, atMostOne);
    }
  }
}

bench({ id: 'market', title: 'Marketplace (book 6.2, Table 6.1): SCRIPT, WATCH and LOCK strategies' }, async (b) => {
  const { url, admin, report, defer } = b;
  const settings = readSettings();
  const spare = b.connect({ db: 1 });
  const granter = await buildMarket(url, 'SCRIPT', 1);
  defer(() => granter.close());
  const state = new StartingState(admin, spare, granter.repository);
  const runner: Runner = settings.processes === 'threads' ? new ThreadRunner(url) : new InlineRunner(url);
  defer(() => runner.close());
  const benchStarted = performance.now();
  // Per scenario: the warm-up (about one run) and the rounds; then the cost measurement (one more).
  const steps = b.steps(SCENARIOS.length * (1 + settings.rounds * MARKET_STRATEGIES.length) + 1);
  console.log(
    `market benchmark: the book's Table 6.1 for SCRIPT, WATCH and LOCK, same redis-server; ${settings.seconds} s per run, ` +
      `${settings.rounds} round(s), ${os.cpus().length} cores (load average ${os.loadavg()[0].toFixed(1)}), simulated processes as ${settings.processes === 'threads' ? 'one worker thread each, each with its own connections and strategy' : 'async loops of one process sharing one strategy'}.`,
  );
  const warmUpSeconds = Math.min(WARM_UP_SECONDS, settings.seconds);

  const summaries: Summary[] = [];
  for (const scenario of SCENARIOS) {
    steps.step(`${scenario.title}, warm-up`);
    await state.reset(scenario, WARM_UP_STOCK);
    // A short run of each strategy warms up every simulated process of the scenario and
    // measures how fast a lister lists; each lister is then granted enough items for a whole
    // run of the fastest strategy (cold code makes this an underestimate at times: a lister
    // that runs low is restocked, apart, as it goes).
    const rates: string[] = [];
    let fastest = 0;
    for (const strategy of WARM_UP_ORDER) {
      const run = await runOnce(runner, admin, state, scenario, strategy, 0, warmUpSeconds);
      const rate = sumOf(run.results, (r) => r.listed) / scenario.listers / run.seconds;
      rates.push(`${strategy} ${count(rate)}/s`);
      fastest = Math.max(fastest, rate);
    }
    await state.grow(scenario, Math.ceil((fastest * settings.seconds * STOCK_MARGIN) / 1000) * 1000);
    console.log(
      `  ${scenario.title}: warmed up (listings per lister ${rates.join(', ')}); ${count(state.stock)} items granted per lister ` +
        `(${((performance.now() - benchStarted) / 1000).toFixed(1)} s since the start)`,
    );

    const runs = new Map<MarketStrategyName, Run[]>(MARKET_STRATEGIES.map((s) => [s, []]));
    for (let round = 1; round <= settings.rounds; round++) {
      const order = MARKET_STRATEGIES.map((_, i) => MARKET_STRATEGIES[(i + round - 1) % MARKET_STRATEGIES.length]);
      for (const strategy of order) {
        steps.step(`${scenario.title}, round ${round}/${settings.rounds}, ${strategy}`);
        const run = await runOnce(runner, admin, state, scenario, strategy, round, settings.seconds);
        runs.get(strategy)!.push(run);
        const waits = run.results.flatMap((r) => [...r.waits]).sort((a, b) => a - b);
        console.log(
          `  ${scenario.title}, ${strategy.padEnd(6)} round ${round}: listed ${count(sumOf(run.results, (r) => r.listed))}, bought ${count(bought(run))}, ` +
            `retries ${count(sumOf(run.results, (r) => r.retries))}, failed ${count(sumOf(run.results, (r) => r.conflicts))}, ` +
            `wait p50 ${ms(percentile(waits, 50))} p99 ${ms(percentile(waits, 99))} ms; invariants hold (set-up and check ${run.overheadSeconds.toFixed(2)} s)`,
        );
      }
    }
    for (const strategy of MARKET_STRATEGIES) summaries.push(summarize(scenario, strategy, runs.get(strategy)!));
  }
  steps.step('cost of one operation');
  const costs: Cost[] = [];
  for (const strategy of MARKET_STRATEGIES) costs.push(await measureCost(url, admin, strategy, settings.costOps));

  printResults(report, summaries, settings.seconds, (performance.now() - benchStarted) / 1000);
  printDetails(report, summaries);
  printCosts(report, costs, settings.costOps);
  const restocks = summaries.reduce(
    (t, s) => t + s.runs.reduce((u, run) => u + sumOf(run.results, (r) => r.restocks), 0),
    0,
  );
  if (restocks > 0) {
    report.note(
      `Listers ran low ${restocks} times during a run and were granted ${RESTOCK} more items each time, on a connection ` +
        'of their own and ahead of need (see restocks above); those grants added to the load on Redis and on the client.',
    );
  }
  figures(report, summaries, costs);
});
