// Locks and semaphores benchmark: our LeaseAcquirer (one Lua script per acquire attempt and per
// release, FIFO queue in Redis, waiters woken by pub/sub) against the npm package redis-semaphore
// (SET NX / a Lua script, waiters poll every retryInterval), both measured in the same run against
// the same redis-server, alternately, so the machine's noise hits both alike.
//
// For each scenario it reports acquire+release pairs per second (median of the rounds, with the
// range) and the ratio ours/theirs; commands the clients sent per pair (each one a round trip),
// with our LeaseSignals subscriber connection counted apart; commands Redis executed per pair
// (INFO commandstats, those inside scripts included); and the time from calling acquire until it
// resolved with a grant (p50, p99, max over all measured rounds), with how evenly the grants went
// round the callers. The issue's target: at least as fast as redis-semaphore, one round trip per
// operation, and a lower p99 wait under contention.
//
// Deployment as in src/server.ts: one process, ONE shared command connection for all callers, plus
// (ours only) one subscriber connection for LeaseSignals. redis-semaphore gets one shared
// connection too. Callers are concurrent async loops in this process, not separate processes, and
// each acquire is handed a fresh AbortSignal, as the resolvers hand over the request's.
// redis-semaphore runs with its default retryInterval (10 ms) and without auto-refresh
// (refreshInterval 0), since ours does not refresh by itself either. Each scenario gets one
// warm-up round per peer (scripts loaded, our subscription made), then ROUNDS measured ones.
import { performance } from 'node:perf_hooks';
import Redis from 'ioredis';
import pino from 'pino';
import { defaultTimeoutOptions, Mutex, Semaphore, TimeoutError, type LockOptions } from 'redis-semaphore';
import type { LeaseKind } from '../src/redis/keys';
import { LeaseRepository, type Attempt, type AttemptRequest } from '../src/redis/lease';
import { LeaseSignals } from '../src/redis/lease-signals';
import { LeaseAcquirer } from '../src/redis/lease-wait';
import { defineScripts } from '../src/redis/scripts';
import { commandCount, median, percentile, printTable, runBenchmark, withBenchRedis } from './support';

/** Acquire+release pairs per measured round of an uncontended scenario. */
const OPS = Number(process.env.BENCH_LEASE_OPS ?? 4_000);
/** Pairs per measured round of the lock with contenders holding it HOLD_MS (more for the others). */
const CONTENDED_OPS = Number(process.env.BENCH_LEASE_CONTENDED_OPS ?? 600);
const ROUNDS = Number(process.env.BENCH_LEASE_ROUNDS ?? 5);
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

const uncontended = (kind: LeaseKind, limit: number, callers: number, ops: number): Scenario => ({
  title: `${kind === 'lock' ? 'lock' : `semaphore(${limit})`}, uncontended, ${callers === 1 ? '1 caller' : `${callers} names at once`}`,
  kind,
  limit,
  callers,
  ownNames: true,
  ops,
  holdMs: 0,
});

const contended = (kind: LeaseKind, limit: number, ops: number, holdMs: number): Scenario => ({
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

/** Commands sent on one connection (each is a request and a reply: a round trip). */
interface Counter {
  sent: number;
}

function counted(client: Redis, counter: Counter): Redis {
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
    counter.sent++;
    return send(...args);
  }) as Redis['sendCommand'];
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
  attempts: number;
  abandoned: number;
  waits: number[];
  grants: number[];
}

/**
 * The signal a resolver passes to acquire: one per request, aborted if the client goes away
 * (src/server.ts abortedOnClose). BENCH_LEASE_SIGNAL=0 passes none.
 */
const PASS_SIGNAL = process.env.BENCH_LEASE_SIGNAL !== '0';
const requestSignal = (): AbortSignal | undefined => (PASS_SIGNAL ? new AbortController().signal : undefined);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

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
        grants[caller]!++;
        if (scenario.holdMs > 0) await sleep(scenario.holdMs);
        await release();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const executed = await commandCount(admin);
  return {
    seconds,
    pairs: waits.length,
    failures,
    commandSent: peer.command.sent - before.command,
    subscriberSent: (peer.subscriber?.sent ?? 0) - before.subscriber,
    messages: (peer.messages?.sent ?? 0) - before.messages,
    executed,
    attempts: (peer.repositories ?? []).reduce((sum, r) => sum + r.attempts, 0) - before.attempts,
    abandoned: (peer.repositories ?? []).reduce((sum, r) => sum + r.abandoned, 0) - before.abandoned,
    waits,
    grants,
  };
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
  attemptsPerAcquire: number | undefined;
  p50: number;
  p99: number;
  max: number;
  grantsMin: number;
  grantsMax: number;
  failures: number;
}

function summarize(scenario: Scenario, peer: Peer, rounds: RoundResult[]): Summary {
  const rates = rounds.map((r) => r.pairs / r.seconds);
  const pairs = rounds.reduce((sum, r) => sum + r.pairs, 0);
  const total = (pick: (r: RoundResult) => number): number => rounds.reduce((sum, r) => sum + pick(r), 0);
  const waits = rounds.flatMap((r) => r.waits).sort((a, b) => a - b);
  // Grants each caller got over all measured rounds: with fair FIFO waiting, about equal.
  const grants = rounds[0]!.grants.map((_, caller) => total((r) => r.grants[caller]!));
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
    attemptsPerAcquire: peer.repositories ? total((r) => r.attempts) / pairs : undefined,
    p50: percentile(waits, 50),
    p99: percentile(waits, 99),
    max: waits[waits.length - 1] ?? NaN,
    grantsMin: Math.min(...grants),
    grantsMax: Math.max(...grants),
    failures: total((r) => r.failures),
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
      command,
      subscriber,
      messages,
      repositories: [repositories.lock, repositories.semaphore],
      acquire: async (name, scenario, owner) => {
        const acquirer = acquirers[scenario.kind];
        const lease = await acquirer.acquire({ name, limit: scenario.limit, ttlMs: TTL_MS, owner, waitMs: WAIT_MS }, requestSignal());
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
      command,
      // A new Mutex/Semaphore per acquire, as a request handler would make one.
      acquire: async (name, scenario) => {
        const lock = scenario.kind === 'lock' ? new Mutex(client, name, options) : new Semaphore(client, name, scenario.limit, options);
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

function table(summaries: Summary[]): void {
  const header = [
    'scenario',
    'peer',
    'pairs/s (min-max)',
    'ours/theirs',
    'sent/pair (+sub)',
    'msgs/pair',
    'redis cmds/pair',
    'attempts/acq',
    'wait p50 ms',
    'p99 ms',
    'max ms',
    'grants/caller',
    'timeouts',
  ];
  const rows: string[][] = [];
  for (const s of summaries) {
    const other = summaries.find((o) => o.scenario === s.scenario && o.peer !== s.peer);
    rows.push([
      s.scenario,
      s.peer,
      `${s.rate.toFixed(0)} (${s.rateMin.toFixed(0)}-${s.rateMax.toFixed(0)})`,
      s.peer === 'ours' && other ? (s.rate / other.rate).toFixed(2) : '',
      s.peer === 'ours' ? `${s.sentPerPair.toFixed(2)} (+${s.subscriberPerPair.toFixed(3)})` : s.sentPerPair.toFixed(2),
      s.peer === 'ours' ? s.messagesPerPair.toFixed(2) : '-',
      s.executedPerPair.toFixed(1),
      s.attemptsPerAcquire === undefined ? '-' : s.attemptsPerAcquire.toFixed(2),
      ms(s.p50),
      ms(s.p99),
      ms(s.max),
      s.grantsMin === s.grantsMax ? String(s.grantsMin) : `${s.grantsMin}-${s.grantsMax}`,
      String(s.failures),
    ]);
  }
  printTable(header, rows, 2);
}

async function main(): Promise<void> {
  await withBenchRedis(async (url) => {
    const admin = new Redis(url);
    const mine = await ours(url);
    const other = await theirs(url);
    const peers = [mine.peer, other.peer];
    const summaries: Summary[] = [];
    const benchStarted = performance.now();
    try {
      console.log(
        `leases benchmark: ours (LeaseAcquirer: one shared command connection + one LeaseSignals subscriber connection) ` +
          `against redis-semaphore 5.8.0 (Mutex/Semaphore on one shared connection; retryInterval ${THEIR_RETRY_MS} ms (default), ` +
          `refreshInterval 0), same redis-server, alternately: 1 warm-up + ${ROUNDS} rounds each.`,
      );
      console.log(
        `  acquire waits up to ${WAIT_MS} ms (the lock's default) and holds for ${TTL_MS} ms; "hold" callers keep the slot for a ${HOLD_MS} ms timer before ` +
          `releasing, "no hold" ones release at once; each acquire gets a fresh AbortSignal as a resolver passes (${PASS_SIGNAL ? 'on' : 'off: BENCH_LEASE_SIGNAL=0'}).`,
      );
      console.log(
        '  "sent" counts commands the client connections sent (each a round trip); "redis cmds" what Redis executed (INFO commandstats, inside scripts too).',
      );
      for (const scenario of SCENARIOS) {
        console.log(`${scenario.title}: ${scenario.ops} acquire+release pairs per round`);
        const prefix = (peer: Peer): string => `bench-${scenario.kind}-${scenario.callers}-${scenario.ownNames ? 'own' : 'shared'}-${scenario.holdMs}-${peer.label}`;
        for (const peer of peers) await round(peer, scenario, admin, prefix(peer), Math.ceil(scenario.ops / 4));
        const results = new Map<Peer, RoundResult[]>(peers.map((peer) => [peer, []]));
        for (let i = 0; i < ROUNDS; i++) {
          for (const peer of peers) {
            const result = await round(peer, scenario, admin, prefix(peer), scenario.ops);
            results.get(peer)!.push(result);
            console.log(roundLine(peer, result));
          }
        }
        for (const peer of peers) summaries.push(summarize(scenario, peer, results.get(peer)!));
      }
      console.log(`\nleases summary (medians of ${ROUNDS} rounds; waits pooled over the rounds; ${((performance.now() - benchStarted) / 1000).toFixed(1)} s):`);
      table(summaries);
      console.log(
        '  sent/pair: commands sent per acquire+release on the command connection (+ on the LeaseSignals subscriber connection, ' +
          'whose SUBSCRIBE is made in the warm-up and kept while the name is busy); msgs/pair: release notices the subscriber received; ' +
          'attempts/acq: acquire scripts run per grant; grants/caller: fewest-most grants one caller got over all rounds (equal = fair).',
      );
    } finally {
      mine.close();
      other.close();
      admin.disconnect();
    }
  });
}

runBenchmark(main);
