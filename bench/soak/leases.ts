// A lock and a counting semaphore under contention. Checks: no overlap beyond the limit of the
// intervals each holder certainly held (overlaps()), fencing tokens rising in grant order. docs/development.md#soak.
import { Load, none, type Check } from './actor';

const HOLD_MS = 3000;
const WAIT_MS = 2000;
const SEMAPHORE_LIMIT = 3;

/** A grant's fencing token and its holder's times (ms): asked, grant arrived, release sent (or given up on). */
export type Hold = Record<'fencingToken' | 'asked' | 'granted' | 'released', number>;

/** The two leases: who contends, what they count, how long each holds (ms, and up to how much more), the calls. */
const LEASES = {
  lock: {
    clients: 4,
    user: 'soak-locker',
    counts: ['lockGrants', 'lockTimeouts'],
    limit: 1,
    holdMs: [2, 10],
    acquire: `mutation($name: String!, $wait: Int!, $hold: Int!) {
      acquireLock(name: $name, acquireTimeoutMs: $wait, lockTimeoutMs: $hold) { id: token fencingToken }
    }`,
    release: `mutation($name: String!, $id: String!) { releaseLock(name: $name, token: $id) }`,
  },
  semaphore: {
    clients: 6,
    user: 'soak-slot',
    counts: ['semaphoreGrants', 'semaphoreFull'],
    limit: SEMAPHORE_LIMIT,
    holdMs: [5, 20],
    acquire: `mutation($name: String!, $limit: Int!, $wait: Int!, $hold: Int!) {
      acquireSemaphore(name: $name, limit: $limit, waitMs: $wait, timeoutMs: $hold) { id fencingToken }
    }`,
    release: `mutation($name: String!, $id: String!) { releaseSemaphore(name: $name, id: $id) }`,
  },
} as const;
type Lease = keyof typeof LEASES;

export class LeaseLoad extends Load {
  readonly name = 'leases';
  private readonly holds: Record<Lease, Hold[]> = { lock: [], semaphore: [] };
  protected readonly counts = {
    lockGrants: 0,
    lockTimeouts: 0,
    semaphoreGrants: 0,
    semaphoreFull: 0,
    failed: 0,
    releasedFalse: 0,
  };

  protected clients() {
    return (['lock', 'semaphore'] as const).flatMap((lease) =>
      Array.from({ length: LEASES[lease].clients }, (_, i) => () => this.hold(lease, `${LEASES[lease].user}-${i}`)),
    );
  }

  check(): Check[] {
    const { lock, semaphore } = this.holds;
    const crowded = overlaps(semaphore, SEMAPHORE_LIMIT);
    const disorder = [...tokenOrder(lock, 'lock'), ...tokenOrder(semaphore, 'semaphore')];
    return [
      none('lock: no two holders at once', overlaps(lock, 1), `${lock.length} holds`),
      none(`semaphore: never more than ${SEMAPHORE_LIMIT} holders`, crowded, `${semaphore.length} holds`),
      none('fencing tokens rise in grant order, never repeat', disorder, `${lock.length + semaphore.length} tokens`),
    ];
  }

  /** Asks, holds a moment, releases, and notes the times of each. */
  private async hold(lease: Lease, user: string): Promise<void> {
    const { acquire, release, limit, holdMs, counts } = LEASES[lease];
    const [granted, refused] = counts;
    const name = `soak-${this.soak.seed}-${lease}`;
    const asked = Date.now();
    const variables = { name, wait: WAIT_MS, hold: HOLD_MS, ...(limit > 1 && { limit }) };
    const grant = await this.call<{ id: string; fencingToken: number } | null>(user, acquire, variables, true);
    const grantedAt = Date.now();
    if (grant.kind !== 'ok') {
      this.counts.failed++;
      return this.pause(100);
    }
    if (grant.data === null) return void this.counts[refused]++;
    this.counts[granted]++;
    await this.pause(holdMs[0], holdMs[1]);
    const released = Date.now();
    const answer = await this.call<boolean>(user, release, { name, id: grant.data.id }, true);
    if (answer.kind === 'ok' && !answer.data) this.counts.releasedFalse++;
    this.holds[lease].push({ fencingToken: grant.data.fencingToken, asked, granted: grantedAt, released });
    await this.pause(0, 20);
  }
}

/**
 * Where more than `limit` holds overlap, each held for certain from its grant's arrival until its
 * release was sent, cut at the lease's lapse counted from the request (a sweep over starts and ends).
 */
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
