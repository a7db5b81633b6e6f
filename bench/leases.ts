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
// steady (warmUp below), in quick mode too, then runs ROUNDS measured ones. Quick mode (isQuick in
// bench/harness/report.ts) runs 3 measured rounds of fewer pairs.
import { performance } from 'node:perf_hooks';
import Redis from 'ioredis';
import pino from 'pino';
import { defaultTimeoutOptions, Mutex, Semaphore, TimeoutError, type LockOptions } from 'redis-semaphore';
import type { LeaseKind } from '../src/redis/keys';
import { LeaseRepository, type Attempt, type AttemptRequest } from '../src/redis/leases/repository';
import { LeaseSignals } from '../src/redis/leases/signals';
import { LeaseAcquirer } from '../src/redis/leases/acquirer';
import { defineScripts } from '../src/redis/client/scripts';
import { isQuick } from './harness/report';
import { acquireFairSemaphore, acquireSemaphoreWithLock, releaseFairSemaphore } from './book-semaphore';
import { pairedRatio, runSuite, Steps, type SuiteReport } from './harness/suite';
import { commandCount, median, percentile, withBenchRedis } from './harness/support';
import { setTimeout as sleep } from 'node:timers/promises';

const QUICK = isQuick();
/** Acquire+release pairs per measured round of an uncontended scenario. */
const OPS = Number(process.env.BENCH_LEASE_OPS ?? (QUICK ? 400 : 4_000));
/** Pairs per measured round of the lock with contenders holding it HOLD_MS (more for the others). */
const CONTENDED_OPS = Number(process.env.BENCH_LEASE_CONTENDED_OPS ?? (QUICK ? 50 : 600));
const ROUNDS = Number(process.env.BENCH_LEASE_ROUNDS ?? (QUICK ? 3 : 5));
/**
 * Warm-up, per scenario and peer, quick mode too: rounds of WARM_ROUND_PAIRS (or the measured
 * size, if larger) until at least WARM_MIN_PAIRS pairs were made and the last two rounds' rates
 * agree within WARM_STEADY, but no more than WARM_MAX_ROUNDS rounds. A JIT still compiling, a
 * script not yet cached or a subscription not yet made shows as a rate still moving.
 */
const WARM_MIN_PAIRS = Number(process.env.BENCH_LEASE_WARM_PAIRS ?? 3_000);
const WARM_ROUND_PAIRS = 1_000;
const WARM_STEADY = 0.1;
const WARM_MAX_ROUNDS = 12;
const CONTENDERS = 20;
const PARALLEL_NAMES = 50;
const SEMAPHORE_LIMIT = 5;
/** Work done while holding a slot in the `hold` scenarios (a timer of this many ms). */
const HOLD_MS = Number(process.env.BENCH_LEASE_HOLD_MS ?? 1);
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

const uncontended = (kind: LeaseKind, limit: number, callers: number, ops: number): Scenario => ({
  id: `${kindId(kind, limit)}.uncontended.${callers === 1 ? '1caller' : `${callers}names`}`,
  title: `${kind === 'lock' ? 'lock' : `semaphore(${limit})`}, uncontended, ${callers === 1 ? '1 caller' : `${callers} names at once`}`,
  kind,
  limit,
  callers,
  ownNames: true,
  ops,
  holdMs: 0,
});

const contended = (kind: LeaseKind, limit: number, ops: number, holdMs: number): Scenario => ({
  id: `${kindId(kind, limit)}.contended.${holdMs > 0 ? `hold${holdMs}ms` : 'nohold'}`,
  title: `${kind === 'lock' ? 'lock' : `semaphore(${limit})`}, ${CONTENDERS} contenders, ${holdMs > 0 ? `hold ${holdMs} ms` : 'no hold'}`,
  kind,
  limit,
  callers: CONTENDERS,
  ownNames: false,
  ops,
  holdMs,
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

/** Requests sent on some connections: each a round trip (a MULTI/EXEC block sent at once counts one). */
interface Counter {
  sent: number;
}

function counted(client: Redis, counter: Counter): Redis {
  const send = client.sendCommand.bind(client);
  const seen = new WeakSet<object>();
  client.sendCommand = (...args: Parameters<Redis['sendCommand']>) => {
    // A pipeline hands each of its commands over with its own stream, new for each exec.
    const stream = args[1] as object | undefined;
    if (stream === undefined) counter.sent++;
    else if (!seen.has(stream)) {
      seen.add(stream);
      counter.sent++;
    }
    return send(...args);
  };
  return client;
}

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

interface Peer {
  label: string;
  /** The kinds of lease it takes part in. */
  kinds: LeaseKind[];
  acquire: Acquire;
  /** Connections whose sent commands are counted, by what they are for. */
  command: Counter;
  subscriber?: Counter;
  /** Pub/sub messages the subscriber connection received. */
  messages?: Counter;
  repositories?: CountingRepository[];
}

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
  const before = {
    command: peer.command.sent,
    subscriber: peer.subscriber?.sent ?? 0,
    messages: peer.messages?.sent ?? 0,
    attempts: (peer.repositories ?? []).reduce((sum, r) => sum + r.attempts, 0),
    abandoned: (peer.repositories ?? []).reduce((sum, r) => sum + r.abandoned, 0),
  };
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
      const owner = `caller-${caller}`;
      while (started < ops) {
        started++;
        const asked = performance.now();
        const release = await peer.acquire(name, scenario, owner);
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
  const executed = await commandCount(admin);
  const { scripts, scriptMicros } = await scriptStats(admin);
  return {
    seconds,
    pairs: waits.length,
    failures,
    commandSent: peer.command.sent - before.command,
    subscriberSent: (peer.subscriber?.sent ?? 0) - before.subscriber,
    messages: (peer.messages?.sent ?? 0) - before.messages,
    executed,
    scripts,
    scriptMicros,
    attempts: (peer.repositories ?? []).reduce((sum, r) => sum + r.attempts, 0) - before.attempts,
    abandoned: (peer.repositories ?? []).reduce((sum, r) => sum + r.abandoned, 0) - before.abandoned,
    waits,
    grants,
    overLimit,
  };
}

/** Script calls and the time Redis spent in them (INFO commandstats, since the last RESETSTAT). */
async function scriptStats(admin: Redis): Promise<{ scripts: number; scriptMicros: number }> {
  const stats = await admin.info('commandstats');
  let scripts = 0;
  let scriptMicros = 0;
  for (const match of stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+),usec=(\d+)/gm)) {
    scripts += Number(match[1]);
    scriptMicros += Number(match[2]);
  }
  return { scripts, scriptMicros };
}

interface Warmed {
  peer: string;
  pairs: number;
  /** Grants that found the limit already held during the warm-up: they count against the target too. */
  overLimit: number;
  rounds: number;
  steady: boolean;
}

/** Rounds until the rate is steady: see WARM_MIN_PAIRS. */
async function warmUp(peer: Peer, scenario: Scenario, admin: Redis, prefix: string): Promise<Warmed> {
  const size = Math.max(WARM_ROUND_PAIRS, scenario.ops);
  let pairs = 0;
  let overLimit = 0;
  let previous = 0;
  for (let rounds = 1; ; rounds++) {
    const result = await round(peer, scenario, admin, prefix, size);
    pairs += result.pairs + result.failures;
    overLimit += result.overLimit;
    const rate = result.pairs / result.seconds;
    const steady = previous > 0 && Math.abs(rate - previous) <= WARM_STEADY * Math.max(rate, previous);
    if ((steady && pairs >= WARM_MIN_PAIRS) || rounds >= WARM_MAX_ROUNDS)
      return { peer: peer.label, pairs, overLimit, rounds, steady };
    previous = rate;
  }
}

interface Summary {
  scenario: string;
  peer: string;
  rate: number;
  rateMin: number;
  rateMax: number;
  sentPerPair: number;
  subscriberPerPair: number;
  messagesPerPair: number;
  executedPerPair: number;
  /** Microseconds Redis spent per script it ran. */
  microsPerScript: number;
  attemptsPerAcquire: number | undefined;
  p50: number;
  p99: number;
  max: number;
  grantsMin: number;
  grantsMax: number;
  failures: number;
  overLimit: number;
  /** Per measured round, for paired ratios. */
  rates: number[];
  p99s: number[];
}

function summarize(scenario: Scenario, peer: Peer, rounds: RoundResult[]): Summary {
  const rates = rounds.map((r) => r.pairs / r.seconds);
  const pairs = rounds.reduce((sum, r) => sum + r.pairs, 0);
  const total = (pick: (r: RoundResult) => number): number => rounds.reduce((sum, r) => sum + pick(r), 0);
  const waits = rounds.flatMap((r) => r.waits).sort((a, b) => a - b);
  // Grants each caller got over all measured rounds: with fair FIFO waiting, about equal.
  const grants = rounds[0].grants.map((_, caller) => total((r) => r.grants[caller]));
  return {
    scenario: scenario.title,
    peer: peer.label,
    rate: median(rates),
    rateMin: Math.min(...rates),
    rateMax: Math.max(...rates),
    sentPerPair: total((r) => r.commandSent) / pairs,
    subscriberPerPair: total((r) => r.subscriberSent) / pairs,
    messagesPerPair: total((r) => r.messages) / pairs,
    executedPerPair: total((r) => r.executed) / pairs,
    microsPerScript: total((r) => r.scriptMicros) / total((r) => r.scripts),
    attemptsPerAcquire: peer.repositories ? total((r) => r.attempts) / pairs : undefined,
    p50: percentile(waits, 50),
    p99: percentile(waits, 99),
    max: waits[waits.length - 1] ?? NaN,
    grantsMin: Math.min(...grants),
    grantsMax: Math.max(...grants),
    failures: total((r) => r.failures),
    overLimit: total((r) => r.overLimit),
    rates,
    p99s: rounds.map((r) =>
      percentile(
        [...r.waits].sort((a, b) => a - b),
        99,
      ),
    ),
  };
}

async function ours(url: string): Promise<{ peer: Peer; close: () => void }> {
  const command: Counter = { sent: 0 };
  const subscriber: Counter = { sent: 0 };
  const messages: Counter = { sent: 0 };
  const commands = counted(new Redis(url), command);
  defineScripts(commands);
  const subscriberConnection = counted(new Redis(url), subscriber);
  subscriberConnection.on('message', () => messages.sent++);
  // Ready before use, as connectRedis makes them in the server (ioredis loses a SUBSCRIBE sent
  // while it is still connecting).
  await Promise.all([commands.ping(), subscriberConnection.ping()]);
  const signals = new LeaseSignals(subscriberConnection, pino({ level: 'silent' }));
  const shutdown = new AbortController();
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
    peer: {
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
    },
    close: () => {
      shutdown.abort();
      signals.close();
      commands.disconnect();
      subscriberConnection.disconnect();
    },
  };
}

async function theirs(url: string): Promise<{ peer: Peer; close: () => void }> {
  const command: Counter = { sent: 0 };
  const client = counted(new Redis(url), command);
  await client.ping();
  // Auto-refresh off: ours does not refresh by itself either. retryInterval left at its default.
  const options: LockOptions = { lockTimeout: TTL_MS, acquireTimeout: WAIT_MS, refreshInterval: 0 };
  return {
    peer: {
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
    },
    close: () => client.disconnect(),
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

async function bookFair(url: string): Promise<{ peer: Peer; close: () => void }> {
  const command: Counter = { sent: 0 };
  const client = counted(new Redis(url), command);
  await client.ping();
  return {
    peer: {
      label: 'book fair semaphore',
      kinds: ['semaphore'],
      command,
      acquire: async (name, scenario) => {
        const semname = `semaphore:${name}`;
        const identifier = await bookWaiting(() =>
          acquireFairSemaphore(client, semname, scenario.limit, TTL_MS / 1000),
        );
        return identifier === undefined ? undefined : () => releaseFairSemaphore(client, semname, identifier);
      },
    },
    close: () => client.disconnect(),
  };
}

async function bookWithLock(url: string): Promise<{ peer: Peer; close: () => void }> {
  const command: Counter = { sent: 0 };
  // release_lock WATCHes, and WATCH belongs to a connection: one per caller, made in the warm-up.
  const clients = new Map<string, Redis>();
  const clientOf = async (owner: string): Promise<Redis> => {
    let client = clients.get(owner);
    if (!client) {
      client = counted(new Redis(url), command);
      clients.set(owner, client);
      await client.ping();
    }
    return client;
  };
  return {
    peer: {
      label: 'book semaphore+lock',
      kinds: ['semaphore'],
      command,
      acquire: async (name, scenario, owner) => {
        const client = await clientOf(owner);
        const semname = `semaphore:${name}`;
        const identifier = await bookWaiting(() =>
          acquireSemaphoreWithLock(client, semname, scenario.limit, TTL_MS / 1000),
        );
        return identifier === undefined ? undefined : () => releaseFairSemaphore(client, semname, identifier);
      },
    },
    close: () => {
      for (const client of clients.values()) client.disconnect();
    },
  };
}

const ms = (value: number): string => (value < 10 ? value.toFixed(2) : value.toFixed(1));

function roundLine(peer: Peer, result: RoundResult): string {
  const waits = [...result.waits].sort((a, b) => a - b);
  const extra = peer.repositories ? `, ${(result.attempts / result.pairs).toFixed(2)} attempts/acquire` : '';
  return (
    `    ${peer.label.padEnd(15)} ${(result.pairs / result.seconds).toFixed(0).padStart(6)} pairs/s  ` +
    `${(result.commandSent / result.pairs).toFixed(2)} sent/pair${extra}, wait p50 ${ms(percentile(waits, 50))} ms p99 ${ms(percentile(waits, 99))} ms` +
    (result.failures ? `, ${result.failures} timed out` : '') +
    (result.abandoned ? `, ${result.abandoned} acquires abandoned` : '')
  );
}

function table(report: SuiteReport, summaries: Summary[]): void {
  const header = [
    'scenario',
    'peer',
    'pairs/s (min-max)',
    'ours/this',
    'sent/pair (+sub)',
    'msgs/pair',
    'redis cmds/pair',
    'redis µs/script',
    'attempts/acq',
    'wait p50 ms',
    'p99 ms',
    'max ms',
    'grants/caller',
    'over limit',
    'timeouts',
  ];
  const rows: string[][] = [];
  for (const s of summaries) {
    const mine = summaries.find((o) => o.scenario === s.scenario && o.peer === 'ours')!;
    rows.push([
      s.scenario,
      s.peer,
      `${s.rate.toFixed(0)} (${s.rateMin.toFixed(0)}-${s.rateMax.toFixed(0)})`,
      s === mine ? '' : (mine.rate / s.rate).toFixed(2),
      s.peer === 'ours' ? `${s.sentPerPair.toFixed(2)} (+${s.subscriberPerPair.toFixed(3)})` : s.sentPerPair.toFixed(2),
      s.peer === 'ours' ? s.messagesPerPair.toFixed(2) : '-',
      s.executedPerPair.toFixed(1),
      Number.isFinite(s.microsPerScript) ? s.microsPerScript.toFixed(2) : '-',
      s.attemptsPerAcquire === undefined ? '-' : s.attemptsPerAcquire.toFixed(2),
      ms(s.p50),
      ms(s.p99),
      ms(s.max),
      s.grantsMin === s.grantsMax ? String(s.grantsMin) : `${s.grantsMin}-${s.grantsMax}`,
      String(s.overLimit),
      String(s.failures),
    ]);
  }
  report.table(`leases summary (medians of ${ROUNDS} rounds; waits pooled over the rounds)`, header, rows, 2);
}

/** The issue's targets and the book's ratio, as figures. */
function figures(report: SuiteReport, scenarios: Scenario[], summaries: Summary[], warmups: Warmed[]): void {
  const find = (scenario: Scenario, peer: string): Summary | undefined =>
    summaries.find((s) => s.scenario === scenario.title && s.peer === peer);
  for (const scenario of scenarios) {
    const mine = find(scenario, 'ours')!;
    const theirs = find(scenario, 'redis-semaphore')!;
    report.figure({
      id: `leases.${scenario.id}.ours_vs_redis_semaphore`,
      label: `${scenario.title}: ours / redis-semaphore (pairs/s)`,
      unit: 'x',
      ...pairedRatio(mine.rates, theirs.rates),
      target: { op: '>=', value: 1 },
    });
    if (!scenario.ownNames) {
      report.figure({
        id: `leases.${scenario.id}.p99_wait_ours_vs_redis_semaphore`,
        label: `${scenario.title}: p99 wait, ours / redis-semaphore`,
        unit: 'x',
        ...pairedRatio(mine.p99s, theirs.p99s),
        target: { op: '<=', value: 1 },
      });
    }
    for (const [peer, id] of [
      ['book fair semaphore', 'book_fair'],
      ['book semaphore+lock', 'book_with_lock'],
    ] as const) {
      const book = find(scenario, peer);
      if (book)
        report.figure({
          id: `leases.${scenario.id}.ours_vs_${id}`,
          label: `${scenario.title}: ours / ${peer} (pairs/s)`,
          unit: 'x',
          ...pairedRatio(mine.rates, book.rates),
        });
    }
    if (scenario.ownNames && scenario.callers === 1) {
      report.figure({
        id: `leases.${scenario.id}.ours_round_trips`,
        label: `${scenario.title}: ours, round trips per operation (acquire or release)`,
        unit: 'round trips',
        value: mine.sentPerPair / 2,
        target: { op: '<=', value: 1 },
      });
      for (const peer of ['book fair semaphore', 'book semaphore+lock']) {
        const book = find(scenario, peer);
        if (book) {
          report.figure({
            id: `leases.${scenario.id}.${peer === 'book fair semaphore' ? 'book_fair' : 'book_with_lock'}_round_trips`,
            label: `${scenario.title}: ${peer}, round trips per operation`,
            unit: 'round trips',
            value: book.sentPerPair / 2,
          });
        }
      }
    }
  }
  const over = (peer: string): number =>
    [...summaries, ...warmups].filter((s) => s.peer === peer).reduce((sum, s) => sum + s.overLimit, 0);
  report.figure({
    id: 'leases.ours_over_limit',
    label: 'ours: grants that found the limit already held, all scenarios and warm-ups',
    unit: 'grants',
    value: over('ours'),
    target: { op: '==', value: 0 },
  });
  report.figure({
    id: 'leases.book_fair_over_limit',
    label: 'book fair semaphore: grants that found the limit already held, warm-ups included',
    unit: 'grants',
    value: over('book fair semaphore'),
  });
}

runSuite(
  'leases',
  "Locks and semaphores (book 6.2-6.3): ours beside redis-semaphore and the book's fair semaphore",
  async (report) => {
    await withBenchRedis(async (url) => {
      const admin = new Redis(url);
      const made = [await ours(url), await theirs(url), await bookFair(url), await bookWithLock(url)];
      const peers = made.map((m) => m.peer);
      const summaries: Summary[] = [];
      const warmups: Warmed[] = [];
      const benchStarted = performance.now();
      const runs = SCENARIOS.reduce(
        (sum, scenario) => sum + peers.filter((p) => p.kinds.includes(scenario.kind)).length * (ROUNDS + 3),
        0,
      );
      const steps = new Steps(runs);
      try {
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
          const taking = peers.filter((p) => p.kinds.includes(scenario.kind));
          console.log(`${scenario.title}: ${scenario.ops} acquire+release pairs per round`);
          const prefix = (peer: Peer): string =>
            `bench-${scenario.kind}-${scenario.callers}-${scenario.ownNames ? 'own' : 'shared'}-${scenario.holdMs}-${peer.label.replace(/\W+/g, '-')}`;
          for (const peer of taking) {
            steps.step(`${scenario.title}, warm-up, ${peer.label}`, 3);
            const warmed = await warmUp(peer, scenario, admin, prefix(peer));
            warmups.push(warmed);
            console.log(
              `    ${peer.label.padEnd(15)} warmed up: ${warmed.pairs} pairs in ${warmed.rounds} rounds` +
                (warmed.steady ? '' : `, rate still moving after ${WARM_MAX_ROUNDS} rounds`),
            );
          }
          const results = new Map<Peer, RoundResult[]>(taking.map((peer) => [peer, []]));
          for (let i = 0; i < ROUNDS; i++) {
            for (const peer of taking) {
              steps.step(`${scenario.title}, round ${i + 1}/${ROUNDS}, ${peer.label}`);
              const result = await round(peer, scenario, admin, prefix(peer), scenario.ops);
              results.get(peer)!.push(result);
              console.log(roundLine(peer, result));
            }
          }
          for (const peer of taking) summaries.push(summarize(scenario, peer, results.get(peer)!));
        }
        console.log(`\nleases: ${((performance.now() - benchStarted) / 1000).toFixed(1)} s`);
        table(report, summaries);
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
        figures(report, SCENARIOS, summaries, warmups);
      } finally {
        for (const m of made) m.close();
        admin.disconnect();
      }
    });
  },
);
