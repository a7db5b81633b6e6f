// The peers of the leases benchmark, each as the deployment in src/app/parts.ts would hold it:
// ours (LeaseAcquirer on one shared command connection plus the LeaseSignals subscriber),
// redis-semaphore on one shared connection, and the book's fair semaphore, plain on one shared
// connection or guarded by the book's lock (a connection per caller, as its WATCH needs).
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type Redis from 'ioredis';
import pino from 'pino';
import { Mutex, Semaphore, TimeoutError, type LockOptions } from 'redis-semaphore';
import type { LeaseKind } from '../../src/redis/keys';
import { LeaseRepository, type Attempt, type AttemptRequest } from '../../src/redis/leases/repository';
import { LeaseSignals } from '../../src/redis/leases/signals';
import { LeaseAcquirer } from '../../src/redis/leases/acquirer';
import { countOn, type Bench, type Traffic } from '../harness';
import { acquireFairSemaphore, acquireSemaphoreWithLock, releaseFairSemaphore } from './book-semaphore';

/** The lock's defaults in the API: wait up to 10 s, hold for 10 s. */
export const WAIT_MS = 10_000;
export const TTL_MS = 10_000;

export interface Scenario {
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

export const PEERS = ['ours', 'redis-semaphore', 'book fair semaphore', 'book semaphore+lock'] as const;
export type PeerName = (typeof PEERS)[number];

export interface Peer {
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

/**
 * The signal a resolver passes to acquire: one per request, aborted if the client goes away
 * (src/app/server.ts abortedOnClose). BENCH_LEASE_SIGNAL=0 passes none.
 */
export const PASS_SIGNAL = process.env.BENCH_LEASE_SIGNAL !== '0';
const requestSignal = (): AbortSignal | undefined => (PASS_SIGNAL ? new AbortController().signal : undefined);

export async function ours({ connect, defer }: Bench): Promise<Peer> {
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

export function theirs({ connect }: Bench): Peer {
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
export function book({ connect }: Bench, withLock: boolean): Peer {
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
