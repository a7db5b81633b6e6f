// A lock and a counting semaphore under contention. Each holder notes when it asked, when the
// grant arrived and when it sent the release; from these the check builds the shortest interval
// during which the holder certainly held the lease: from the grant's arrival to the release's
// sending, cut at the lease's lapse counted from the request's sending (the server's lapse can only
// be later). Any overlap of such intervals beyond the limit is a real double grant, whatever the
// network did; and fencing tokens must rise in the order grants arrived.
import { check, sample, type Actor, type Check, type SoakContext } from './actor';
import { type Outcome } from './client';
import { setTimeout as sleep } from 'node:timers/promises';

const LOCK_CLIENTS = 4;
const SEMAPHORE_CLIENTS = 6;
const SEMAPHORE_LIMIT = 3;
const HOLD_MS = 3000;
const WAIT_MS = 2000;

type CountName = 'lockGrants' | 'lockTimeouts' | 'semaphoreGrants' | 'semaphoreFull' | 'failed' | 'releasedFalse';

export interface Hold {
  fencingToken: number;
  asked: number;
  granted: number;
  /** When the release was sent (or the client gave up on it). */
  released: number;
}

const ACQUIRE_LOCK = `mutation($name: String!, $wait: Int!, $hold: Int!) {
  acquireLock(name: $name, acquireTimeoutMs: $wait, lockTimeoutMs: $hold) { token fencingToken }
}`;
const RELEASE_LOCK = `mutation($name: String!, $token: String!) { releaseLock(name: $name, token: $token) }`;
const ACQUIRE_SEMAPHORE = `mutation($name: String!, $limit: Int!, $wait: Int!, $hold: Int!) {
  acquireSemaphore(name: $name, limit: $limit, waitMs: $wait, timeoutMs: $hold) { id fencingToken }
}`;
const RELEASE_SEMAPHORE = `mutation($name: String!, $id: String!) { releaseSemaphore(name: $name, id: $id) }`;

export class LeaseLoad implements Actor {
  readonly name = 'leases';
  private readonly lockHolds: Hold[] = [];
  private readonly semaphoreHolds: Hold[] = [];
  private readonly counts: Record<CountName, number> = {
    lockGrants: 0,
    lockTimeouts: 0,
    semaphoreGrants: 0,
    semaphoreFull: 0,
    failed: 0,
    releasedFalse: 0,
  };
  private readonly lockName: string;
  private readonly semaphoreName: string;

  constructor(private readonly soak: SoakContext) {
    this.lockName = `soak-${soak.runId}-lock`;
    this.semaphoreName = `soak-${soak.runId}-semaphore`;
  }

  async setup(): Promise<void> {}

  async run(stop: () => boolean): Promise<void> {
    const loops: Promise<void>[] = [];
    for (let i = 0; i < LOCK_CLIENTS; i++) loops.push(this.lockClient(`soak-locker-${i}`, stop));
    for (let i = 0; i < SEMAPHORE_CLIENTS; i++) loops.push(this.semaphoreClient(`soak-slot-${i}`, stop));
    await Promise.all(loops);
  }

  async drain(): Promise<void> {}

  check(): Check[] {
    const lockOverlaps = overlaps(this.lockHolds, 1);
    const semaphoreOverlaps = overlaps(this.semaphoreHolds, SEMAPHORE_LIMIT);
    const order = [...tokenOrder(this.lockHolds, 'lock'), ...tokenOrder(this.semaphoreHolds, 'semaphore')];
    return [
      check(
        'lock: no two holders at once',
        lockOverlaps.length === 0,
        lockOverlaps.length ? sample(lockOverlaps) : `${this.lockHolds.length} holds`,
      ),
      check(
        `semaphore: never more than ${SEMAPHORE_LIMIT} holders`,
        semaphoreOverlaps.length === 0,
        semaphoreOverlaps.length ? sample(semaphoreOverlaps) : `${this.semaphoreHolds.length} holds`,
      ),
      check(
        'fencing tokens rise in grant order, never repeat',
        order.length === 0,
        order.length ? sample(order) : `${this.lockHolds.length + this.semaphoreHolds.length} tokens`,
      ),
    ];
  }

  stats(): Record<string, number> {
    return { ...this.counts };
  }

  private lockClient(user: string, stop: () => boolean): Promise<void> {
    return this.holder(user, stop, this.lockHolds, {
      acquire: (token) =>
        this.soak.api.call<{ token: string; fencingToken: number } | null>(
          token,
          ACQUIRE_LOCK,
          { name: this.lockName, wait: WAIT_MS, hold: HOLD_MS },
          'acquireLock',
        ),
      release: (token, grant) =>
        this.soak.api.call<boolean>(token, RELEASE_LOCK, { name: this.lockName, token: grant.token }, 'releaseLock'),
      holdMs: () => 2 + this.soak.random() * 10,
      counts: ['lockGrants', 'lockTimeouts'],
    });
  }

  private semaphoreClient(user: string, stop: () => boolean): Promise<void> {
    return this.holder(user, stop, this.semaphoreHolds, {
      acquire: (token) =>
        this.soak.api.call<{ id: string; fencingToken: number } | null>(
          token,
          ACQUIRE_SEMAPHORE,
          { name: this.semaphoreName, limit: SEMAPHORE_LIMIT, wait: WAIT_MS, hold: HOLD_MS },
          'acquireSemaphore',
        ),
      release: (token, grant) =>
        this.soak.api.call<boolean>(
          token,
          RELEASE_SEMAPHORE,
          { name: this.semaphoreName, id: grant.id },
          'releaseSemaphore',
        ),
      holdMs: () => 5 + this.soak.random() * 20,
      counts: ['semaphoreGrants', 'semaphoreFull'],
    });
  }

  /** Asks, holds a moment, releases, and notes the times of each; until the load stops. */
  private async holder<G extends { fencingToken: number }>(
    user: string,
    stop: () => boolean,
    holds: Hold[],
    lease: {
      acquire(token: string): Promise<Outcome<G | null>>;
      release(token: string, grant: G): Promise<Outcome<boolean>>;
      holdMs(): number;
      counts: [granted: CountName, refused: CountName];
    },
  ): Promise<void> {
    const token = this.soak.token(user, true);
    while (!stop()) {
      const asked = Date.now();
      const grant = await lease.acquire(token);
      const granted = Date.now();
      if (grant.kind !== 'ok') {
        this.counts.failed++;
        await sleep(100);
        continue;
      }
      if (grant.data === null) {
        this.counts[lease.counts[1]]++;
        continue;
      }
      this.counts[lease.counts[0]]++;
      await sleep(lease.holdMs());
      const released = Date.now();
      const release = await lease.release(token, grant.data);
      if (release.kind === 'ok' && !release.data) this.counts.releasedFalse++;
      holds.push({ fencingToken: grant.data.fencingToken, asked, granted, released });
      await sleep(this.soak.random() * 20);
    }
  }
}

/** Where more than `limit` certain-hold intervals overlap (a sweep over starts and ends). */
export function overlaps(holds: Hold[], limit: number): string[] {
  const events: [number, number, Hold][] = [];
  for (const hold of holds) {
    const end = Math.min(hold.released, hold.asked + HOLD_MS);
    // Ends sort before starts at the same millisecond: touching intervals do not overlap.
    if (end > hold.granted) events.push([hold.granted, 1, hold], [end, -1, hold]);
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const found: string[] = [];
  const open = new Set<Hold>();
  for (const [at, step, hold] of events) {
    if (step < 0) {
      open.delete(hold);
      continue;
    }
    open.add(hold);
    if (open.size > limit)
      found.push(`at ${new Date(at).toISOString()}: tokens ${[...open].map((h) => h.fencingToken).join(', ')}`);
  }
  return found;
}

/** Tokens never repeat, and rise in the order grants were given. */
export function tokenOrder(holds: Hold[], what: string): string[] {
  const found: string[] = [];
  const tokens = new Set<number>();
  for (const hold of holds) {
    if (tokens.has(hold.fencingToken)) found.push(`${what} token ${hold.fencingToken} granted twice`);
    tokens.add(hold.fencingToken);
  }
  // A grant that arrived before a lower token was even asked for was given out of order.
  const byToken = [...holds].sort((a, b) => a.fencingToken - b.fencingToken);
  let latestAsk: Hold | undefined;
  for (const hold of byToken) {
    if (latestAsk && hold.granted < latestAsk.asked)
      found.push(`${what} token ${hold.fencingToken} arrived before token ${latestAsk.fencingToken} was asked for`);
    if (!latestAsk || hold.asked > latestAsk.asked) latestAsk = hold;
  }
  return found;
}
