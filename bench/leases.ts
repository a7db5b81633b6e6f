// Locks and semaphores: our LeaseAcquirer (one script per attempt and per release, FIFO queue,
// waiters woken by pub/sub) against redis-semaphore and, for semaphores, the book's fair semaphore
// (6.3, plain and lock-guarded), alternately on one redis-server, each warmed up until steady.
// Method, deployment and targets: docs/performance.md, "Method: graphql, subscribers, leases, counters".
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type Redis from 'ioredis';
import { defaultTimeoutOptions } from 'redis-semaphore';
import type { LeaseKind } from '../src/redis/keys';
import {
  alternate,
  bench,
  commandCount,
  median,
  percentile,
  scriptStats,
  size,
  stepsOf,
  type SuiteReport,
} from './harness';
import {
  book,
  ours,
  PASS_SIGNAL,
  PEERS,
  theirs,
  TTL_MS,
  WAIT_MS,
  type Peer,
  type PeerName,
  type Scenario,
} from './leases/peers';
/** Acquire+release pairs per measured round of an uncontended scenario. */
const OPS = size('BENCH_LEASE_OPS', 400, 4_000);
/** Pairs per measured round of the lock with contenders holding it HOLD_MS (more for the others). */
const CONTENDED_OPS = size('BENCH_LEASE_CONTENDED_OPS', 50, 600);
const ROUNDS = size('BENCH_LEASE_ROUNDS', 3, 5);
/** Warm-up per scenario and peer, quick mode too, until the rate holds (see the warm-up note). */
const WARM_MIN_PAIRS = size('BENCH_LEASE_WARM_PAIRS', 3_000, 3_000);
const WARM_ROUND_PAIRS = 1_000;
const WARM_STEADY = 0.1;
const WARM_MAX_ROUNDS = 12;
const CONTENDERS = 20;
const PARALLEL_NAMES = 50;
const SEMAPHORE_LIMIT = 5;
/** Work done while holding a slot in the `hold` scenarios (a timer of this many ms). */
const HOLD_MS = size('BENCH_LEASE_HOLD_MS', 1, 1);

const kindId = (kind: LeaseKind, limit: number): string => (kind === 'lock' ? 'lock' : `semaphore${limit}`);
const kindTitle = (kind: LeaseKind, limit: number): string => (kind === 'lock' ? 'lock' : `semaphore(${limit})`);

const uncontended = (kind: LeaseKind, limit: number, callers: number, ops: number): Scenario => ({
  id: `${kindId(kind, limit)}.uncontended.${callers === 1 ? '1caller' : `${callers}names`}`,
  title: `${kindTitle(kind, limit)}, uncontended, ${callers === 1 ? '1 caller' : `${callers} names at once`}`,
  ...{ kind, limit, callers, ownNames: true, ops, holdMs: 0 },
});

const contended = (kind: LeaseKind, limit: number, ops: number, holdMs: number): Scenario => ({
  id: `${kindId(kind, limit)}.contended.${holdMs > 0 ? `hold${holdMs}ms` : 'nohold'}`,
  title: `${kindTitle(kind, limit)}, ${CONTENDERS} contenders, ${holdMs > 0 ? `hold ${holdMs} ms` : 'no hold'}`,
  ...{ kind, limit, callers: CONTENDERS, ownNames: false, ops, holdMs },
});

const SCENARIOS: Scenario[] = [
  uncontended('lock', 1, 1, OPS),
  uncontended('lock', 1, PARALLEL_NAMES, OPS * 2),
  contended('lock', 1, CONTENDED_OPS, HOLD_MS),
  contended('lock', 1, CONTENDED_OPS * 4, 0),
  uncontended('semaphore', SEMAPHORE_LIMIT, 1, OPS),
  contended('semaphore', SEMAPHORE_LIMIT, CONTENDED_OPS * 2, HOLD_MS),
  contended('semaphore', SEMAPHORE_LIMIT, CONTENDED_OPS * 4, 0),
];

interface RoundResult {
  seconds: number;
  pairs: number;
  failures: number;
  commandSent: number;
  subscriberSent: number;
  messages: number;
  executed: number;
  /** Scripts Redis ran (EVALSHA and EVAL) and the microseconds it spent in them. */
  scripts: number;
  scriptMicros: number;
  attempts: number;
  abandoned: number;
  waits: number[];
  grants: number[];
  /** Grants that found `limit` callers already holding the name. */
  overLimit: number;
}

async function round(peer: Peer, scenario: Scenario, admin: Redis, prefix: string, ops: number): Promise<RoundResult> {
  await admin.config('RESETSTAT');
  const counts = (): number[] => [
    peer.command.requests,
    peer.subscriber?.requests ?? 0,
    peer.messages?.count ?? 0,
    (peer.repositories ?? []).reduce((sum, r) => sum + r.attempts, 0),
    (peer.repositories ?? []).reduce((sum, r) => sum + r.abandoned, 0),
  ];
  const before = counts();
  const waits: number[] = [];
  const grants = new Array<number>(scenario.callers).fill(0);
  // Holders per name as the callers see them: counted out before the release is sent, so a grant
  // can only find too many holders when Redis really granted too many.
  const holding = new Map<string, number>();
  let overLimit = 0;
  let started = 0;
  let failures = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: scenario.callers }, async (_, caller) => {
      const name = scenario.ownNames ? `${prefix}-${caller}` : prefix;
      while (started < ops) {
        started++;
        const asked = performance.now();
        const release = await peer.acquire(name, scenario, `caller-${caller}`);
        if (!release) {
          failures++;
          continue;
        }
        waits.push(performance.now() - asked);
        grants[caller]++;
        const holders = (holding.get(name) ?? 0) + 1;
        if (holders > scenario.limit) overLimit++;
        holding.set(name, holders);
        if (scenario.holdMs > 0) await sleep(scenario.holdMs);
        holding.set(name, holding.get(name)! - 1);
        await release();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const [commandSent, subscriberSent, messages, attempts, abandoned] = counts().map((n, i) => n - before[i]);
  return {
    ...{ seconds, pairs: waits.length, failures, commandSent, subscriberSent, messages, attempts, abandoned },
    executed: await commandCount(admin),
    ...(await scriptStats(admin)),
    ...{ waits, grants, overLimit },
  };
}

interface Summary {
  scenario: string;
  peer: PeerName;
  sentPerPair: number;
  overLimit: number;
  /** Per measured round, for paired ratios. */
  rates: number[];
  p99s: number[];
  row: string[];
}

const ms = (value: number): string => (value < 10 ? value.toFixed(2) : value.toFixed(1));
const p99 = (waits: number[]): number =>
  percentile(
    [...waits].sort((a, b) => a - b),
    99,
  );

function summarize(scenario: Scenario, peer: Peer, rounds: RoundResult[], oursRate?: number): Summary {
  const rates = rounds.map((r) => r.pairs / r.seconds);
  const total = (pick: (r: RoundResult) => number): number => rounds.reduce((sum, r) => sum + pick(r), 0);
  const pairs = total((r) => r.pairs);
  const perPair = (pick: (r: RoundResult) => number): number => total(pick) / pairs;
  const waits = rounds.flatMap((r) => r.waits).sort((a, b) => a - b);
  // Grants each caller got over all measured rounds: with fair FIFO waiting, about equal.
  const grants = rounds[0].grants.map((_, caller) => total((r) => r.grants[caller]));
  const [fewest, most] = [Math.min(...grants), Math.max(...grants)];
  const rate = median(rates);
  const microsPerScript = total((r) => r.scriptMicros) / total((r) => r.scripts);
  const sent = perPair((r) => r.commandSent);
  const isOurs = peer.label === 'ours';
  return {
    scenario: scenario.title,
    peer: peer.label,
    sentPerPair: sent,
    overLimit: total((r) => r.overLimit),
    rates,
    p99s: rounds.map((r) => p99(r.waits)),
    row: [
      scenario.title,
      peer.label,
      `${rate.toFixed(0)} (${Math.min(...rates).toFixed(0)}-${Math.max(...rates).toFixed(0)})`,
      oursRate === undefined ? '' : (oursRate / rate).toFixed(2),
      isOurs ? `${sent.toFixed(2)} (+${perPair((r) => r.subscriberSent).toFixed(3)})` : sent.toFixed(2),
      isOurs ? perPair((r) => r.messages).toFixed(2) : '-',
      perPair((r) => r.executed).toFixed(1),
      Number.isFinite(microsPerScript) ? microsPerScript.toFixed(2) : '-',
      peer.repositories ? perPair((r) => r.attempts).toFixed(2) : '-',
      ms(percentile(waits, 50)),
      ms(percentile(waits, 99)),
      ms(waits[waits.length - 1] ?? NaN),
      fewest === most ? String(fewest) : `${fewest}-${most}`,
      String(total((r) => r.overLimit)),
      String(total((r) => r.failures)),
    ],
  };
}

const BOOK_IDS = { 'book fair semaphore': 'book_fair', 'book semaphore+lock': 'book_with_lock' } as const;

/** The issue's targets and the book's ratio, as figures. */
function figures(report: SuiteReport, summaries: Summary[], overLimit: (peer: PeerName) => number): void {
  const atMostOne = { op: '<=', value: 1 } as const;
  for (const scenario of SCENARIOS) {
    const of = (peer: PeerName): Summary | undefined =>
      summaries.find((s) => s.scenario === scenario.title && s.peer === peer);
    const [mine, them] = [of('ours')!, of('redis-semaphore')!];
    const [id, title] = [`leases.${scenario.id}`, scenario.title];
    const books = Object.entries(BOOK_IDS).flatMap(([peer, bookId]) => {
      const other = of(peer as PeerName);
      return other ? [{ peer, bookId, other }] : [];
    });
    const ratioTarget = { op: '>=', value: 1 } as const;
    report.ratio(
      `${id}.ours_vs_redis_semaphore`,
      `${title}: ours / redis-semaphore (pairs/s)`,
      mine.rates,
      them.rates,
      ratioTarget,
    );
    if (!scenario.ownNames)
      report.ratio(
        `${id}.p99_wait_ours_vs_redis_semaphore`,
        `${title}: p99 wait, ours / redis-semaphore`,
        mine.p99s,
        them.p99s,
        atMostOne,
      );
    for (const { peer, bookId, other } of books)
      report.ratio(`${id}.ours_vs_${bookId}`, `${title}: ours / ${peer} (pairs/s)`, mine.rates, other.rates);
    if (!scenario.ownNames || scenario.callers !== 1) continue;
    const perOperation = `${title}: ours, round trips per operation (acquire or release)`;
    report.value(`${id}.ours_round_trips`, perOperation, 'round trips', mine.sentPerPair / 2, atMostOne);
    for (const { peer, bookId, other } of books)
      report.value(
        `${id}.${bookId}_round_trips`,
        `${title}: ${peer}, round trips per operation`,
        'round trips',
        other.sentPerPair / 2,
      );
  }
  const held = 'grants that found the limit already held';
  report.value('leases.ours_over_limit', `ours: ${held}, all scenarios and warm-ups`, 'grants', overLimit('ours'), {
    op: '==',
    value: 0,
  });
  const bookFair = overLimit('book fair semaphore');
  report.value('leases.book_fair_over_limit', `book fair semaphore: ${held}, warm-ups included`, 'grants', bookFair);
}

bench(
  {
    id: 'leases',
    title: "Locks and semaphores (book 6.2-6.3): ours beside redis-semaphore and the book's fair semaphore",
  },
  async (context) => {
    const { admin, report } = context;
    const made = [await ours(context), theirs(context), book(context, false), book(context, true)];
    const peers = new Map(made.map((peer) => [peer.label, peer]));
    const summaries: Summary[] = [];
    const warmups: { peer: PeerName; pairs: number; overLimit: number; steady: boolean }[] = [];
    const takers = (scenario: Scenario): PeerName[] =>
      PEERS.filter((name) => peers.get(name)!.kinds.includes(scenario.kind));
    const steps = context.steps(SCENARIOS.reduce((sum, s) => sum + stepsOf(takers(s).length, ROUNDS, 'steady'), 0));
    for (const scenario of SCENARIOS) {
      const taking = takers(scenario);
      const prefix = (peer: PeerName): string =>
        `bench-${scenario.kind}-${scenario.callers}-${scenario.ownNames ? 'own' : 'shared'}-${scenario.holdMs}-${peer.replace(/\W+/g, '-')}`;
      const { measured, warm } = await alternate<PeerName, RoundResult>({
        peers: taking,
        rounds: ROUNDS,
        steps,
        quiet: true,
        label: scenario.title,
        warmUp: {
          rate: (r) => r.pairs / r.seconds,
          agree: WARM_STEADY,
          work: (r) => r.pairs + r.failures,
          minWork: WARM_MIN_PAIRS,
          maxRounds: WARM_MAX_ROUNDS,
        },
        run: (name, at) => {
          const ops = at.warm ? Math.max(WARM_ROUND_PAIRS, scenario.ops) : scenario.ops;
          return round(peers.get(name)!, scenario, admin, prefix(name), ops);
        },
      });
      for (const name of taking) {
        const { results, steady } = warm[name];
        const pairs = results.reduce((sum, r) => sum + r.pairs + r.failures, 0);
        warmups.push({ peer: name, pairs, overLimit: results.reduce((sum, r) => sum + r.overLimit, 0), steady });
      }
      const oursRate = median(measured.ours.map((r) => r.pairs / r.seconds));
      for (const name of taking)
        summaries.push(summarize(scenario, peers.get(name)!, measured[name], name === 'ours' ? undefined : oursRate));
    }
    report.table(
      `leases summary (medians of ${ROUNDS} rounds; waits pooled over the rounds)`,
      [
        ...['scenario', 'peer', 'pairs/s (min-max)', 'ours/this', 'sent/pair (+sub)', 'msgs/pair', 'redis cmds/pair'],
        ...['redis µs/script', 'attempts/acq', 'wait p50 ms', 'p99 ms', 'max ms', 'grants/caller', 'over limit'],
        'timeouts',
      ],
      summaries.map((s) => s.row),
      2,
    );
    const unsteady = warmups.filter((w) => !w.steady).length;
    for (const note of [
      'sent/pair: requests sent per acquire+release on the command connections (+ on the LeaseSignals subscriber connection, ' +
        'whose SUBSCRIBE is made in the warm-up and kept while the name is busy); msgs/pair: release notices the subscriber received; ' +
        'redis µs/script: time Redis spent per script call (EVALSHA, INFO commandstats); attempts/acq: acquire scripts run per grant; grants/caller: fewest-most grants one caller got over all rounds (equal = fair); ' +
        'over limit: grants that found the limit already held (counted in the bench, a holder counted out before its release is sent).',
      `Warm-up, per scenario and peer, quick mode too: rounds of at least ${WARM_ROUND_PAIRS} pairs until ${WARM_MIN_PAIRS}+ pairs were made ` +
        `and two successive rounds' rates agreed within ${WARM_STEADY * 100} %, at most ${WARM_MAX_ROUNDS} rounds ` +
        `(here ${Math.min(...warmups.map((w) => w.pairs))}-${Math.max(...warmups.map((w) => w.pairs))} pairs; ` +
        `${unsteady === 0 ? 'all steady' : `${unsteady} of ${warmups.length} still moving at the cap`}).`,
      `Acquire waits up to ${WAIT_MS} ms and holds for ${TTL_MS} ms; "hold" callers keep the slot for a ${HOLD_MS} ms timer; each acquire gets a fresh AbortSignal (${PASS_SIGNAL ? 'on' : 'off: BENCH_LEASE_SIGNAL=0'}); redis-semaphore runs with retryInterval ${defaultTimeoutOptions.retryInterval} ms (its default) and refreshInterval 0.`,
      "The book's fair semaphore gives up at once when no slot is free; its callers here try again after 1 ms (as the book's acquire_lock does), up to the same 10 s wait.",
      `Targets (the lease issue): at least as fast as redis-semaphore, one round trip per operation uncontended, and a lower p99 wait under contention.`,
    ])
      report.note(note);
    const overLimit = (peer: PeerName): number =>
      [...summaries, ...warmups].filter((s) => s.peer === peer).reduce((sum, s) => sum + s.overLimit, 0);
    figures(report, summaries, overLimit);
  },
);
