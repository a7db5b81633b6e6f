// The peers of the leases benchmark, each as src/app/parts.ts would hold it: ours (LeaseAcquirer on
// one shared command connection plus the LeaseSignals subscriber), redis-semaphore on one shared
// connection, and the book's fair semaphore, plain (one shared connection) or lock-guarded.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import pino from 'pino';
import { Mutex, Semaphore, TimeoutError, type LockOptions } from 'redis-semaphore';
import type { LeaseKind } from '../../src/redis/keys';
import { LeaseRepository, type Attempt, type AttemptRequest } from '../../src/redis/leases/repository';
import { LeaseSignals } from '../../src/redis/leases/signals';
import { LeaseAcquirer } from '../../src/redis/leases/acquirer';
import { countOn, sumOf, type Bench, type Traffic } from '../harness';
import { acquireFairSemaphore, acquireSemaphoreWithLock, releaseFairSemaphore } from './book-semaphore';

/** The lock's defaults in the API: wait up to 10 s, hold for 10 s. */
export const WAIT_MS = 10_000;
export const TTL_MS = 10_000;

/** Our repository, counting script calls so a round shows how many attempts an acquire took. */
class CountingRepository extends LeaseRepository {
  attempts = 0;

  override attempt(request: AttemptRequest): Promise<Attempt> {
    this.attempts++;
    return super.attempt(request);
  }
}

const newTraffic = (): Traffic => ({ requests: 0, commands: 0 });
export type Peer = Awaited<ReturnType<typeof ours>>;
type Lease = { kind: LeaseKind; limit: number };
type Release = () => Promise<unknown>;

/** A peer's connection: counted into `into`, without our scripts (bench(): connect(options, true)). */
const plain = ({ connect }: Bench, into: Traffic): Redis => countOn(connect({}, true), into);

/**
 * The signal a resolver passes to acquire: one per request, aborted if the client goes away
 * (src/app/server.ts abortedOnClose). BENCH_LEASE_SIGNAL=0 passes none.
 */
export const PASS_SIGNAL = process.env.BENCH_LEASE_SIGNAL !== '0';
const requestSignal = (): AbortSignal | undefined => (PASS_SIGNAL ? new AbortController().signal : undefined);

/**
 * Ours. A peer: label, id (in figure ids), kinds of lease, acquire() (the release, or undefined after
 * the wait) and counts(): requests on its command and (ours) subscriber connections, messages that
 * subscriber received, acquire scripts run.
 */
export async function ours({ connect, defer }: Bench) {
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
  const kinds: LeaseKind[] = ['lock', 'semaphore'];
  const repositories = kinds.map((kind) => new CountingRepository(commands, kind, { maxWaiters: 1000 }));
  const acquirers = repositories.map((repository) => new LeaseAcquirer(repository, signals, shutdown.signal));
  return {
    label: 'ours',
    id: 'ours',
    kinds,
    counts: () => [command.requests, subscriber.requests, messages.count, sumOf(repositories, (r) => r.attempts)],
    acquire: async (name: string, { kind, limit }: Lease, owner: string): Promise<Release | undefined> => {
      const acquirer = acquirers[kinds.indexOf(kind)];
      const lease = await acquirer.acquire({ name, limit, ttlMs: TTL_MS, owner, waitMs: WAIT_MS }, requestSignal());
      return lease && (() => acquirer.repository.release(name, lease.id));
    },
  };
}

export function theirs(context: Bench): Peer {
  const command = newTraffic();
  const client = plain(context, command);
  // Auto-refresh off: ours does not refresh by itself either. retryInterval left at its default.
  const options: LockOptions = { lockTimeout: TTL_MS, acquireTimeout: WAIT_MS, refreshInterval: 0 };
  return {
    label: 'redis-semaphore',
    id: 'redis_semaphore',
    kinds: ['lock', 'semaphore'],
    counts: () => [command.requests, 0, 0, 0],
    // A new Mutex/Semaphore per acquire, as a request handler would make one.
    acquire: async (name, { kind, limit }) => {
      const lock = kind === 'lock' ? new Mutex(client, name, options) : new Semaphore(client, name, limit, options);
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

/**
 * The book's semaphore on one shared connection; with its lock, on a connection per caller (made
 * in the warm-up), since release_lock WATCHes and WATCH belongs to a connection. It gives up at
 * once, so its caller tries again after 1 ms, up to the wait.
 */
export function book(context: Bench, withLock: boolean): Peer {
  const command = newTraffic();
  const shared = plain(context, command);
  const clients = new Map<string, Redis>();
  const clientOf = (owner: string): Redis => {
    if (withLock && !clients.has(owner)) clients.set(owner, plain(context, command));
    return withLock ? clients.get(owner)! : shared;
  };
  return {
    label: withLock ? 'book semaphore+lock' : 'book fair semaphore',
    id: withLock ? 'book_with_lock' : 'book_fair',
    kinds: ['semaphore'],
    counts: () => [command.requests, 0, 0, 0],
    acquire: async (name, { limit }, owner) => {
      const client = clientOf(owner);
      const semname = `semaphore:${name}`;
      const attempt = () =>
        (withLock ? acquireSemaphoreWithLock : acquireFairSemaphore)(client, semname, limit, TTL_MS / 1000);
      const end = performance.now() + WAIT_MS;
      let identifier = await attempt();
      while (identifier === undefined && performance.now() < end) {
        await sleep(1);
        identifier = await attempt();
      }
      return identifier === undefined ? undefined : () => releaseFairSemaphore(client, semname, identifier);
    },
  };
}
