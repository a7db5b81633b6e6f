// Locks and semaphores benchmark: our LeaseAcquirer (one Lua script per acquire attempt and per
// release, FIFO queue in Redis, waiters woken by pub/sub) against the npm package redis-semaphore
// (SET NX / a Lua script, waiters poll every retryInterval), both measured in the same run against
// the same redis-server, alternately, so the machine's noise hits both alike. For the semaphore
// scenarios the book's own fair semaphore (6.3) runs beside them too, plain and lock-guarded
// (bench/book-semaphore.ts): it gives up at once when no slot is free, so its caller tries again
// after a millisecond, as the book's acquire_lock does, up to the same wait.
//
// For each scenario it reports acquire+release pairs per second (median of the rounds, with the
// range) and the ratio ours/theirs; commands the clients sent per pair (each one a round trip),
// with our LeaseSignals subscriber connection counted apart; commands Redis executed per pair
// (INFO commandstats, those inside scripts included); and the time from calling acquire until it
// resolved with a grant (p50, p99, max over all measured rounds), with how evenly the grants went
// round the callers, and how often a grant found the limit already held (it must never). The issue's target: at least as fast as redis-semaphore, one round trip per
// operation, and a lower p99 wait under contention.
//
// Deployment as in src/app/parts.ts: one process, ONE shared command connection for all callers, plus
// (ours only) one subscriber connection for LeaseSignals. redis-semaphore gets one shared
// connection too. Callers are concurrent async loops in this process, not separate processes, and
// each acquire is handed a fresh AbortSignal, as the resolvers hand over the request's.
// redis-semaphore runs with its default retryInterval (10 ms) and without auto-refresh
// (refreshInterval 0), since ours does not refresh by itself either. The book's fair semaphore
// shares one connection too (MULTI/EXEC only); its lock-guarded variant releases its lock with
// WATCH, so it has a connection per caller. Each scenario warms every peer up until its rate is
// steady (the warm-up rule below), in quick mode too, then runs ROUNDS measured ones. Quick mode
// runs 3 measured rounds of fewer pairs.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type Redis from 'ioredis';
import pino from 'pino';
import { defaultTimeoutOptions, Mutex, Semaphore, TimeoutError, type LockOptions } from 'redis-semaphore';
import type { LeaseKind } from '../src/redis/keys';
import { LeaseRepository, type Attempt, type AttemptRequest } from '../src/redis/leases/repository';
import { LeaseSignals } from '../src/redis/leases/signals';
import { LeaseAcquirer } from '../src/redis/leases/acquirer';
import { acquireFairSemaphore, acquireSemaphoreWithLock, releaseFairSemaphore } from './book-semaphore';
import {
  alternate,
  bench,
  commandCount,
  countOn,
  median,
  percentile,
  scriptStats,
  size,
  stepsOf,
  type Bench,
  type SuiteReport,
  type Traffic,
} from './harness';

/** Acquire+release pairs per measured round of an uncontended scenario. */
const OPS = size('BENCH_LEASE_OPS', 400, 4_000);
/** Pairs per measured round of the lock with contenders holding it HOLD_MS (more for the others). */
const CONTENDED_OPS = size('BENCH_LEASE_CONTENDED_OPS', 50, 600);
const ROUNDS = size('BENCH_LEASE_ROUNDS', 3, 5);
/**
 * Warm-up, per scenario and peer, quick mode too: rounds of WARM_ROUND_PAIRS (or the measured
 * size, if larger) until at least WARM_MIN_PAIRS pairs were made and the last two rounds' rates
 * agree within WARM_STEADY, but no more than WARM_MAX_ROUNDS rounds. A JIT still compiling, a
 * script not yet cached or a subscription not yet made shows as a rate still moving.
 */
const WARM_MIN_PAIRS = size('BENCH_LEASE_WARM_PAIRS', 3_000, 3_000);
const WARM_ROUND_PAIRS = 1_000;
const WARM_STEADY = 0.1;
const WARM_MAX_ROUNDS = 12;
const CONTENDERS = 20;
const PARALLEL_NAMES = 50;
const SEMAPHORE_LIMIT = 5;
/** Work done while holding a slot in the `hold` scenarios (a timer of this many ms). */
const HOLD_MS = size('BENCH_LEASE_HOLD_MS', 1, 1);
/** The lock's defaults in the API: wait up to 10 s, hold for 10 s. */
const WAIT_MS = 10_000;
const TTL_MS = 10_000;
/** redis-semaphore's default retry interval (not passed, so the default applies: 10 ms in 5.8.0). */
const THEIR_RETRY_MS = defaultTimeoutOptions.retryInterval;

interface Scenario {
  /** For figure ids, e.g. `semaphore5.contended.hold1ms`. */
  id: string;
  title: string;
  kind: LeaseKind;
  limit: number;
  /** Concurrent callers; each loops acquire, hold, release until `ops` pairs were started. */
  callers: number;
  /** true: every caller has a name of its own; false: all share one. */
  ownNames: boolean;
  ops: number;
  holdMs: number;
}

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

/** Our repository, counting script calls so a round shows how many attempts an acquire took. */
class CountingRepository extends LeaseRepository {
  attempts = 0;
  abandoned = 0;

  override attempt(request: AttemptRequest): Promise<Attempt> {
    this.attempts++;
    return super.attempt(request);
  }

  override abandon(name: string, id: string): Promise<boolean> {
    this.abandoned++;
    return super.abandon(name, id);
  }
}

/** Resolves to the function that releases, or undefined when acquire gave up waiting. */
type Acquire = (name: string, scenario: Scenario, owner: string) => Promise<(() => Promise<unknown>) | undefined>;

const PEERS = ['ours', 'redis-semaphore', 'book fair semaphore', 'book semaphore+lock'] as const;
type PeerName = (typeof PEERS)[number];

interface Peer {
  label: PeerName;
  /** The kinds of lease it takes part in. */
  kinds: LeaseKind[];
  acquire: Acquire;
  /** Requests sent on its command connections, and (ours) on the LeaseSignals subscriber connection. */
  command: Traffic;
  subscriber?: Traffic;
  /** Pub/sub messages the subscriber connection received. */
  messages?: { count: number };
  repositories?: CountingRepository[];
}

const newTraffic = (): Traffic => ({ requests: 0, commands: 0 });

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

/**
 * The signal a resolver passes to acquire: one per request, aborted if the client goes away
 * (src/app/server.ts abortedOnClose). BENCH_LEASE_SIGNAL=0 passes none.
 */
const PASS_SIGNAL = process.env.BENCH_LEASE_SIGNAL !== '0';
const requestSignal = (): AbortSignal | undefined => (PASS_SIGNAL ? new AbortController().signal : undefined);

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

async function ours({ connect, defer }: Bench): Promise<Peer> {
  const [command, subscriber, messages] = [newTraffic(), newTraffic(), { count: 0 }];
  const commands = countOn(connect(), command);
  const subscriberConnection = countOn(connect(), subscriber);
  subscriberConnection.on('message', () => messages.count++);
  // Ready before use, as connectRedis makes them in the server (ioredis loses a SUBSCRIBE sent
  // while it is still connecting).
  await Promise.all([commands.ping(), subscriberConnection.ping()]);
  const signals = new LeaseSignals(subscriberConnection, pino({ level: 'silent' }));
  const shutdown = new AbortController();
  defer(() => {
    shutdown.abort();
    signals.close();
  });
  const settings = { maxWaiters: 1000 };
  const repositories = {
    lock: new CountingRepository(commands, 'lock', settings),
    semaphore: new CountingRepository(commands, 'semaphore', settings),
  };
  const acquirers = {
    lock: new LeaseAcquirer(repositories.lock, signals, shutdown.signal),
    semaphore: new LeaseAcquirer(repositories.semaphore, signals, shutdown.signal),
  };
  return {
    label: 'ours',
    kinds: ['lock', 'semaphore'],
    command,
    subscriber,
    messages,
    repositories: [repositories.lock, repositories.semaphore],
    acquire: async (name, scenario, owner) => {
      const acquirer = acquirers[scenario.kind];
      const lease = await acquirer.acquire(
        { name, limit: scenario.limit, ttlMs: TTL_MS, owner, waitMs: WAIT_MS },
        requestSignal(),
      );
      return lease && (() => acquirer.repository.release(name, lease.id));
    },
  };
}

function theirs({ connect }: Bench): Peer {
  const command = newTraffic();
  const client = countOn(connect(), command);
  // Auto-refresh off: ours does not refresh by itself either. retryInterval left at its default.
  const options: LockOptions = { lockTimeout: TTL_MS, acquireTimeout: WAIT_MS, refreshInterval: 0 };
  return {
    label: 'redis-semaphore',
    kinds: ['lock', 'semaphore'],
    command,
    // A new Mutex/Semaphore per acquire, as a request handler would make one.
    acquire: async (name, scenario) => {
      const lock =
        scenario.kind === 'lock'
          ? new Mutex(client, name, options)
          : new Semaphore(client, name, scenario.limit, options);
      try {
        await lock.acquire(requestSignal());
      } catch (error) {
        if (error instanceof TimeoutError) return undefined;
        throw error;
      }
      return () => lock.release();
    },
  };
}

/** The book's fair semaphore: it gives up at once, so its caller tries again after 1 ms, up to the wait. */
async function bookWaiting(tryOnce: () => Promise<string | undefined>): Promise<string | undefined> {
  const end = performance.now() + WAIT_MS;
  for (;;) {
    const identifier = await tryOnce();
    if (identifier !== undefined || performance.now() >= end) return identifier;
    await sleep(1);
  }
}

/**
 * The book's semaphore on one shared connection; with its lock (withLock), on a connection per
 * caller, since release_lock WATCHes and WATCH belongs to a connection (made in the warm-up).
 */
function book({ connect }: Bench, withLock: boolean): Peer {
  const command = newTraffic();
  const shared = countOn(connect(), command);
  const clients = new Map<string, Redis>();
  const clientOf = (owner: string): Redis => {
    if (!withLock) return shared;
    if (!clients.has(owner)) clients.set(owner, countOn(connect(), command));
    return clients.get(owner)!;
  };
  return {
    label: withLock ? 'book semaphore+lock' : 'book fair semaphore',
    kinds: ['semaphore'],
    command,
    acquire: async (name, scenario, owner) => {
      const client = clientOf(owner);
      const semname = `semaphore:${name}`;
      const attempt = withLock ? acquireSemaphoreWithLock : acquireFairSemaphore;
      const identifier = await bookWaiting(() => attempt(client, semname, scenario.limit, TTL_MS / 1000));
      return identifier === undefined ? undefined : () => releaseFairSemaphore(client, semname, identifier);
    },
  };
}

/** The issue's targets and the book's ratio, as figures. */
function figures(report: SuiteReport, summaries: Summary[], overLimit: (peer: PeerName) => number): void {
  const bookIds = { 'book fair semaphore': 'book_fair', 'book semaphore+lock': 'book_with_lock' } as const;
  for (const scenario of SCENARIOS) {
    const of = (peer: PeerName): Summary | undefined =>
      summaries.find((s) => s.scenario === scenario.title && s.peer === peer);
    const [mine, them] = [of('ours')!, of('redis-semaphore')!];
    const id = `leases.${scenario.id}`;
    report.ratio(
      `${id}.ours_vs_redis_semaphore`,
      `${scenario.title}: ours / redis-semaphore (pairs/s)`,
      mine.rates,
      them.rates,
      {
        op: '>=',
        value: 1,
      },
    );
    if (!scenario.ownNames)
      report.ratio(
        `${id}.p99_wait_ours_vs_redis_semaphore`,
        `${scenario.title}: p99 wait, ours / redis-semaphore`,
        mine.p99s,
        them.p99s,
        { op: '<=', value: 1 },
      );
    for (const [peer, bookId] of Object.entries(bookIds) as [PeerName, string][]) {
      const other = of(peer);
      if (other)
        report.ratio(`${id}.ours_vs_${bookId}`, `${scenario.title}: ours / ${peer} (pairs/s)`, mine.rates, other.rates);
    }
    if (!scenario.ownNames || scenario.callers !== 1) continue;
    report.value(
      `${id}.ours_round_trips`,
      `${scenario.title}: ours, round trips per operation (acquire or release)`,
      'round trips',
      mine.sentPerPair / 2,
      { op: '<=', value: 1 },
    );
    for (const [peer, bookId] of Object.entries(bookIds) as [PeerName, string][]) {
      const other = of(peer);
      if (other)
        report.value(
          `${id}.${bookId}_round_trips`,
          `${scenario.title}: ${peer}, round trips per operation`,
          'round trips',
          other.sentPerPair / 2,
        );
    }
  }
  report.value(
    'leases.ours_over_limit',
    'ours: grants that found the limit already held, all scenarios and warm-ups',
    'grants',
    overLimit('ours'),
    { op: '==', value: 0 },
  );
  report.value(
    'leases.book_fair_over_limit',
    'book fair semaphore: grants that found the limit already held, warm-ups included',
    'grants',
    overLimit('book fair semaphore'),
  );
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
    const started = performance.now();
    const steps = context.steps(
      SCENARIOS.reduce(
        (sum, s) => sum + stepsOf(made.filter((p) => p.kinds.includes(s.kind)).length, ROUNDS, 'steady'),
        0,
      ),
    );
    console.log(
      `leases benchmark: ours (LeaseAcquirer: one shared command connection + one LeaseSignals subscriber connection) ` +
        `against redis-semaphore 5.8.0 (Mutex/Semaphore on one shared connection; retryInterval ${THEIR_RETRY_MS} ms (default), ` +
        `refreshInterval 0) and, for semaphores, the book's fair semaphore (plain: one shared connection; with lock: one per caller), same redis-server, alternately: warmed up until steady, then ${ROUNDS} rounds each.`,
    );
    console.log(
      `  acquire waits up to ${WAIT_MS} ms (the lock's default) and holds for ${TTL_MS} ms; "hold" callers keep the slot for a ${HOLD_MS} ms timer before ` +
        `releasing, "no hold" ones release at once; each acquire gets a fresh AbortSignal as a resolver passes (${PASS_SIGNAL ? 'on' : 'off: BENCH_LEASE_SIGNAL=0'}).`,
    );
    console.log(
      '  "sent" counts requests the client connections sent (each a round trip; a MULTI/EXEC block counts one); "redis cmds" what Redis executed (INFO commandstats, inside scripts too).',
    );
    for (const scenario of SCENARIOS) {
      const taking = PEERS.filter((name) => peers.get(name)!.kinds.includes(scenario.kind));
      console.log(`${scenario.title}: ${scenario.ops} acquire+release pairs per round`);
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
        run: async (name, at) => {
          const peer = peers.get(name)!;
          const ops = at.warm ? Math.max(WARM_ROUND_PAIRS, scenario.ops) : scenario.ops;
          const result = await round(peer, scenario, admin, prefix(name), ops);
          const extra = peer.repositories ? `, ${(result.attempts / result.pairs).toFixed(2)} attempts/acquire` : '';
          if (!at.warm)
            console.log(
              `    ${name.padEnd(15)} ${(result.pairs / result.seconds).toFixed(0).padStart(6)} pairs/s  ` +
                `${(result.commandSent / result.pairs).toFixed(2)} sent/pair${extra}, wait p50 ${ms(
                  percentile(
                    [...result.waits].sort((a, b) => a - b),
                    50,
                  ),
                )} ms p99 ${ms(p99(result.waits))} ms` +
                (result.failures ? `, ${result.failures} timed out` : '') +
                (result.abandoned ? `, ${result.abandoned} acquires abandoned` : ''),
            );
          return result;
        },
      });
      for (const name of taking) {
        const { results, steady } = warm[name];
        const pairs = results.reduce((sum, r) => sum + r.pairs + r.failures, 0);
        warmups.push({ peer: name, pairs, overLimit: results.reduce((sum, r) => sum + r.overLimit, 0), steady });
        console.log(
          `    ${name.padEnd(15)} warmed up: ${pairs} pairs in ${results.length} rounds` +
            (steady ? '' : `, rate still moving after ${WARM_MAX_ROUNDS} rounds`),
        );
      }
      const oursRate = median(measured.ours.map((r) => r.pairs / r.seconds));
      for (const name of taking)
        summaries.push(summarize(scenario, peers.get(name)!, measured[name], name === 'ours' ? undefined : oursRate));
    }
    console.log(`\nleases: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    report.table(
      `leases summary (medians of ${ROUNDS} rounds; waits pooled over the rounds)`,
      [
        ...['scenario', 'peer', 'pairs/s (min-max)', 'ours/this', 'sent/pair (+sub)', 'msgs/pair', 'redis cmds/pair'],
        ...[
          'redis µs/script',
          'attempts/acq',
          'wait p50 ms',
          'p99 ms',
          'max ms',
          'grants/caller',
          'over limit',
          'timeouts',
        ],
      ],
      summaries.map((s) => s.row),
      2,
    );
    report.note(
      'sent/pair: requests sent per acquire+release on the command connections (+ on the LeaseSignals subscriber connection, ' +
        'whose SUBSCRIBE is made in the warm-up and kept while the name is busy); msgs/pair: release notices the subscriber received; ' +
        'redis µs/script: time Redis spent per script call (EVALSHA, INFO commandstats); attempts/acq: acquire scripts run per grant; grants/caller: fewest-most grants one caller got over all rounds (equal = fair); ' +
        'over limit: grants that found the limit already held (counted in the bench, a holder counted out before its release is sent).',
    );
    const unsteady = warmups.filter((w) => !w.steady).length;
    report.note(
      `Warm-up, per scenario and peer, quick mode too: rounds of at least ${WARM_ROUND_PAIRS} pairs until ${WARM_MIN_PAIRS}+ pairs were made ` +
        `and two successive rounds' rates agreed within ${WARM_STEADY * 100} %, at most ${WARM_MAX_ROUNDS} rounds ` +
        `(here ${Math.min(...warmups.map((w) => w.pairs))}-${Math.max(...warmups.map((w) => w.pairs))} pairs; ` +
        `${unsteady === 0 ? 'all steady' : `${unsteady} of ${warmups.length} still moving at the cap`}).`,
    );
    report.note(
      "The book's fair semaphore gives up at once when no slot is free; its callers here try again after 1 ms (as the book's acquire_lock does), up to the same 10 s wait.",
    );
    report.note(
      `Targets (the lease issue): at least as fast as redis-semaphore, one round trip per operation uncontended, and a lower p99 wait under contention.`,
    );
    const overLimit = (peer: PeerName): number =>
      [...summaries, ...warmups].filter((s) => s.peer === peer).reduce((sum, s) => sum + s.overLimit, 0);
    figures(report, summaries, overLimit);
  },
);
