// Locks and semaphores: our LeaseAcquirer (one script per attempt and per release, FIFO queue,
// waiters woken by pub/sub) against redis-semaphore and, for semaphores, the book's fair semaphore
// (6.3, plain and lock-guarded), alternately on one redis-server, each warmed up until steady.
// Method, deployment and targets: docs/performance.md, "Method: graphql, subscribers, leases, counters".
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type Redis from 'ioredis';
import { defaultTimeoutOptions } from 'redis-semaphore';
import type { LeaseKind } from '../src/redis/keys';
import { alternate, bench, measure, median, medianRange, percentile, size, stepsOf, sumOf } from './harness';
import { book, ours, PASS_SIGNAL, theirs, TTL_MS, WAIT_MS, type Peer } from './leases/peers';
/** Acquire+release pairs per measured round of an uncontended scenario. */
const OPS = size('BENCH_LEASE_OPS', 400, 4_000);
/** Pairs per measured round of the lock with contenders holding it HOLD_MS (more for the others). */
const CONTENDED_OPS = size('BENCH_LEASE_CONTENDED_OPS', 50, 600);
const ROUNDS = size('BENCH_LEASE_ROUNDS', 3, 5);
/** Warm-up per scenario and peer, quick mode too, until the rate holds (see the warm-up note). */
const WARM = { agree: 0.1, minWork: size('BENCH_LEASE_WARM_PAIRS', 3_000, 3_000), maxRounds: 12 };
const WARM_ROUND_PAIRS = 1_000;
const CONTENDERS = 20;
const PARALLEL_NAMES = 50;
const SEMAPHORE_LIMIT = 5;
/** Work done while holding a slot in the `hold` scenarios (a timer of this many ms). */
const HOLD_MS = size('BENCH_LEASE_HOLD_MS', 1, 1);

const kindId = (kind: LeaseKind, limit: number): string => (kind === 'lock' ? 'lock' : `semaphore${limit}`);
const kindTitle = (kind: LeaseKind, limit: number): string => (kind === 'lock' ? 'lock' : `semaphore(${limit})`);

/** `callers` concurrent callers loop acquire, hold `holdMs`, release until `ops` pairs were started. */
const uncontended = (kind: LeaseKind, limit: number, callers: number, ops: number) => ({
  id: `${kindId(kind, limit)}.uncontended.${callers === 1 ? '1caller' : `${callers}names`}`,
  title: `${kindTitle(kind, limit)}, uncontended, ${callers === 1 ? '1 caller' : `${callers} names at once`}`,
  ...{ kind, limit, callers, ownNames: true, ops, holdMs: 0 },
});

const contended = (kind: LeaseKind, limit: number, ops: number, holdMs: number) => ({
  id: `${kindId(kind, limit)}.contended.${holdMs > 0 ? `hold${holdMs}ms` : 'nohold'}`,
  title: `${kindTitle(kind, limit)}, ${CONTENDERS} contenders, ${holdMs > 0 ? `hold ${holdMs} ms` : 'no hold'}`,
  ...{ kind, limit, callers: CONTENDERS, ownNames: false, ops, holdMs },
});
type Scenario = ReturnType<typeof uncontended>;

const SCENARIOS: Scenario[] = [
  uncontended('lock', 1, 1, OPS),
  uncontended('lock', 1, PARALLEL_NAMES, OPS * 2),
  contended('lock', 1, CONTENDED_OPS, HOLD_MS),
  contended('lock', 1, CONTENDED_OPS * 4, 0),
  uncontended('semaphore', SEMAPHORE_LIMIT, 1, OPS),
  contended('semaphore', SEMAPHORE_LIMIT, CONTENDED_OPS * 2, HOLD_MS),
  contended('semaphore', SEMAPHORE_LIMIT, CONTENDED_OPS * 4, 0),
];

async function round(peer: Peer, scenario: Scenario, admin: Redis, ops: number) {
  const prefix = `bench-${scenario.kind}-${scenario.callers}-${scenario.ownNames ? 'own' : 'shared'}-${scenario.holdMs}-${peer.label.replace(/\W+/g, '-')}`;
  const before = peer.counts();
  const waits: number[] = [];
  const grants = new Array<number>(scenario.callers).fill(0);
  // Holders per name as the callers see them: counted out before the release is sent, so a grant
  // can only find too many holders when Redis really granted too many.
  const holding = new Map<string, number>();
  let overLimit = 0;
  let started = 0;
  let failures = 0;
  const loop = async (_: unknown, caller: number): Promise<void> => {
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
  };
  const sample = await measure(ops, () => Promise.all(Array.from({ length: scenario.callers }, loop)), { admin });
  // In the order of Peer.counts(): sent, subscriber sent, messages, attempts.
  const counts = peer.counts().map((n, i) => n - before[i]);
  return { ...sample, pairs: waits.length, failures, waits, grants, overLimit, counts };
}
type RoundResult = Awaited<ReturnType<typeof round>>;
type Warm = { results: RoundResult[]; steady: boolean };

const ms = (value: number): string => (value < 10 ? value.toFixed(2) : value.toFixed(1));
const ascending = (values: number[]): number[] => [...values].sort((a, b) => a - b);

/** A peer's measured rounds of a scenario: totals per pair over the rounds, waits pooled; its warm-up. */
function summarize(scenario: Scenario, peer: Peer, rounds: RoundResult[], warm: Warm) {
  const total = (pick: (r: RoundResult) => number): number => sumOf(rounds, pick);
  const perPair = (pick: (r: RoundResult) => number): number => total(pick) / total((r) => r.pairs);
  // Grants each caller got over all measured rounds: with fair FIFO waiting, about equal.
  const grants = rounds[0].grants.map((_, caller) => total((r) => r.grants[caller]));
  const [sent, subscriberSent, messages, attempts] = [0, 1, 2, 3].map((i) => perPair((r) => r.counts[i]));
  return {
    scenario,
    peer,
    rates: rounds.map((r) => r.pairs / r.seconds),
    p99s: rounds.map((r) => percentile(ascending(r.waits), 99)),
    waits: ascending(rounds.flatMap((r) => r.waits)),
    sent,
    subscriberSent,
    messages,
    executed: perPair((r) => r.executed),
    microsPerScript: total((r) => r.scriptMicros) / total((r) => r.scripts),
    attempts,
    fewest: Math.min(...grants),
    most: Math.max(...grants),
    overLimit: total((r) => r.overLimit),
    failures: total((r) => r.failures),
    warmPairs: sumOf(warm.results, (r) => r.pairs + r.failures),
    warmOverLimit: sumOf(warm.results, (r) => r.overLimit),
    steady: warm.steady,
  };
}
type Summary = ReturnType<typeof summarize>;

const TITLE = "Locks and semaphores (book 6.2-6.3): ours beside redis-semaphore and the book's fair semaphore";

bench({ id: 'leases', title: TITLE }, async (context) => {
  const { admin, report } = context;
  const peers = [await ours(context), theirs(context), book(context, false), book(context, true)];
  const summaries: Summary[] = [];
  const takers = (scenario: Scenario): Peer[] => peers.filter((peer) => peer.kinds.includes(scenario.kind));
  const peerOf = (label: string): Peer => peers.find((peer) => peer.label === label)!;
  const steps = context.steps(sumOf(SCENARIOS, (s) => stepsOf(takers(s).length, ROUNDS, 'steady')));
  for (const scenario of SCENARIOS) {
    const { measured, warm } = await alternate<string, RoundResult>({
      peers: takers(scenario).map((peer) => peer.label),
      rounds: ROUNDS,
      steps,
      quiet: true,
      label: scenario.title,
      warmUp: { ...WARM, rate: (r) => r.pairs / r.seconds, work: (r) => r.pairs + r.failures },
      run: (label, at) =>
        round(peerOf(label), scenario, admin, at.warm ? Math.max(WARM_ROUND_PAIRS, scenario.ops) : scenario.ops),
    });
    for (const peer of takers(scenario))
      summaries.push(summarize(scenario, peer, measured[peer.label], warm[peer.label]));
  }
  const oursRate = (s: Summary): number =>
    median(summaries.find((o) => o.scenario === s.scenario && o.peer.label === 'ours')!.rates);
  const oursOnly = (s: Summary, cell: string, theirs = '-'): string => (s.peer.label === 'ours' ? cell : theirs);
  report.tableOf(`leases summary (medians of ${ROUNDS} rounds; waits pooled over the rounds)`, 2, summaries, [
    ['scenario', (s) => s.scenario.title],
    ['peer', (s) => s.peer.label],
    ['pairs/s (min-max)', (s) => medianRange(s.rates)],
    ['ours/this', (s) => oursOnly(s, '', (oursRate(s) / median(s.rates)).toFixed(2))],
    ['sent/pair (+sub)', (s) => s.sent.toFixed(2) + oursOnly(s, ` (+${s.subscriberSent.toFixed(3)})`, '')],
    ['msgs/pair', (s) => oursOnly(s, s.messages.toFixed(2))],
    ['redis cmds/pair', (s) => s.executed.toFixed(1)],
    ['redis µs/script', (s) => (Number.isFinite(s.microsPerScript) ? s.microsPerScript.toFixed(2) : '-')],
    ['attempts/acq', (s) => oursOnly(s, s.attempts.toFixed(2))],
    ['wait p50 ms', (s) => ms(percentile(s.waits, 50))],
    ['p99 ms', (s) => ms(percentile(s.waits, 99))],
    ['max ms', (s) => ms(s.waits[s.waits.length - 1] ?? NaN)],
    ['grants/caller', (s) => (s.fewest === s.most ? String(s.fewest) : `${s.fewest}-${s.most}`)],
    ['over limit', (s) => String(s.overLimit)],
    ['timeouts', (s) => String(s.failures)],
  ]);
  const warmPairs = summaries.map((s) => s.warmPairs);
  const unsteady = summaries.filter((s) => !s.steady).length;
  report.note(
    'sent/pair: requests sent per acquire+release on the command connections (+ on the LeaseSignals subscriber connection, ' +
      'whose SUBSCRIBE is made in the warm-up and kept while the name is busy); msgs/pair: release notices the subscriber received; ' +
      'redis µs/script: time Redis spent per script call (EVALSHA, INFO commandstats); attempts/acq: acquire scripts run per grant; grants/caller: fewest-most grants one caller got over all rounds (equal = fair); ' +
      'over limit: grants that found the limit already held (counted in the bench, a holder counted out before its release is sent).',
    `Warm-up, per scenario and peer, quick mode too: rounds of at least ${WARM_ROUND_PAIRS} pairs until ${WARM.minWork}+ pairs were made ` +
      `and two successive rounds' rates agreed within ${WARM.agree * 100} %, at most ${WARM.maxRounds} rounds ` +
      `(here ${Math.min(...warmPairs)}-${Math.max(...warmPairs)} pairs; ` +
      `${unsteady === 0 ? 'all steady' : `${unsteady} of ${summaries.length} still moving at the cap`}).`,
    `Acquire waits up to ${WAIT_MS} ms and holds for ${TTL_MS} ms; "hold" callers keep the slot for a ${HOLD_MS} ms timer; each acquire gets a fresh AbortSignal (${PASS_SIGNAL ? 'on' : 'off: BENCH_LEASE_SIGNAL=0'}); redis-semaphore runs with retryInterval ${defaultTimeoutOptions.retryInterval} ms (its default) and refreshInterval 0.`,
    "The book's fair semaphore gives up at once when no slot is free; its callers here try again after 1 ms (as the book's acquire_lock does), up to the same 10 s wait.",
    `Targets (the lease issue): at least as fast as redis-semaphore, one round trip per operation uncontended, and a lower p99 wait under contention.`,
  );

  // The issue's targets and the book's ratio, as figures.
  const atMostOne = { op: '<=', value: 1 } as const;
  for (const scenario of SCENARIOS) {
    const [mine, ...others] = summaries.filter((s) => s.scenario === scenario);
    const { id, title } = scenario;
    for (const other of others) {
      const target = other.peer.label === 'redis-semaphore' ? ({ op: '>=', value: 1 } as const) : undefined;
      const label = `${title}: ours / ${other.peer.label} (pairs/s)`;
      report.ratio(`leases.${id}.ours_vs_${other.peer.id}`, label, mine.rates, other.rates, target);
      if (other.peer.label === 'redis-semaphore' && !scenario.ownNames) {
        const p99 = `${title}: p99 wait, ours / redis-semaphore`;
        report.ratio(`leases.${id}.p99_wait_ours_vs_redis_semaphore`, p99, mine.p99s, other.p99s, atMostOne);
      }
    }
    if (!scenario.ownNames || scenario.callers !== 1) continue;
    for (const s of [mine, ...others.filter((other) => other.peer.label.startsWith('book'))]) {
      const label = `${title}: ${s.peer.label}, round trips per operation${s === mine ? ' (acquire or release)' : ''}`;
      const target = s === mine ? atMostOne : undefined;
      report.value(`leases.${id}.${s.peer.id}_round_trips`, label, 'round trips', s.sent / 2, target);
    }
  }
  const overLimit = (label: string): number =>
    sumOf(summaries, (s) => (s.peer.label === label ? s.overLimit + s.warmOverLimit : 0));
  const held = 'grants that found the limit already held';
  const oursLabel = `ours: ${held}, all scenarios and warm-ups`;
  report.value('leases.ours_over_limit', oursLabel, 'grants', overLimit('ours'), { op: '==', value: 0 });
  const bookFair = overLimit('book fair semaphore');
  report.value('leases.book_fair_over_limit', `book fair semaphore: ${held}, warm-ups included`, 'grants', bookFair);
});
