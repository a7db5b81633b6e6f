// Locks and counting semaphores (book section 6.2-6.3) as one mechanism: a lock is a semaphore
// of one. Each operation is one script that reads the time from Redis, so the callers' clocks
// never decide who holds a slot or for how long. Waiting for a slot is in ./acquirer.ts.
import { randomFillSync } from 'node:crypto';
import type { RedisClient } from '../client/connection';
import { leaseKeys, type LeaseKind } from '../keys';
import { runScript } from '../client/scripts';

export interface Lease {
  name: string;
  /** The holder's secret: whoever knows it may refresh or release the slot. */
  id: string;
  /** Grows with every grant of this name, so a resource can refuse a holder that lost its slot. */
  fencingToken: number;
  /** Unix ms by the Redis server's clock. */
  expiresAt: number;
  ttlMs: number;
}

export interface AttemptRequest {
  name: string;
  id: string;
  limit: number;
  ttlMs: number;
  owner: string;
  /** How long a queue place is kept without another attempt; 0 = do not queue. */
  holdMs: number;
}

export type Attempt =
  | { granted: true; lease: Lease }
  | {
      granted: false;
      /** Until the first holder's time runs out, or undefined when a queued caller is owed the slot. */
      retryAfterMs: number | undefined;
      /** Place in the queue; 0 when not queued. */
      ticket: number;
      /** Callers queued before this one. */
      ahead: number;
    };

export interface LeaseHolder {
  fencingToken: number;
  expiresAt: number;
  owner: string;
}

export interface LeaseState {
  name: string;
  /** The limit of the last acquire; undefined if nobody ever asked. */
  limit: number | undefined;
  /** The fencing token of the last grant, if any. */
  lastFencingToken: number | undefined;
  /** Holders with time left, soonest to expire first. */
  holders: LeaseHolder[];
  waiting: number;
  /** The server's clock when the state was read, unix ms. */
  now: number;
}

/** What a waiter learns from a release: queued callers with a ticket up to `upTo` may try now. */
export interface ReleaseNotice {
  name: string;
  releasedAt: number;
  /** 0: nobody was queued, anyone may try; -1: no slot is free after all. */
  upTo: number;
}

export const LEASE_ID_PATTERN = /^[0-9a-f]{32}$/;

const ID_BYTES = 16;
/** Random bytes drawn 4 KB at a time: one call to the system's generator per 256 ids, not per id. */
const idPool = Buffer.alloc(ID_BYTES * 256);
let idPoolUsed = idPool.length;

/** 128 random bits, hex. */
export function newLeaseId(): string {
  if (idPoolUsed === idPool.length) {
    randomFillSync(idPool);
    idPoolUsed = 0;
  }
  idPoolUsed += ID_BYTES;
  return idPool.toString('hex', idPoolUsed - ID_BYTES, idPoolUsed);
}

export class LeaseRepository {
  constructor(
    private readonly redis: RedisClient,
    readonly kind: LeaseKind,
    private readonly settings: { maxWaiters: number },
  ) {}

  /** The pub/sub channel on which freed slots of `name` are announced. */
  channel(name: string): string {
    return leaseKeys(this.kind, name).released;
  }

  async attempt(request: AttemptRequest): Promise<Attempt> {
    const reply = (await runScript(this.redis, 'lease-acquire', this.allKeys(request.name), [
      request.id,
      request.limit,
      request.ttlMs,
      request.owner,
      request.holdMs,
      this.settings.maxWaiters,
    ])) as number[];
    if (reply[0] === 1) {
      return {
        granted: true,
        lease: { name: request.name, id: request.id, fencingToken: reply[1], expiresAt: reply[2], ttlMs: reply[3] },
      };
    }
    return { granted: false, retryAfterMs: reply[1] < 0 ? undefined : reply[1], ticket: reply[2], ahead: reply[3] };
  }

  /** Extends the lease from now by `ttlMs` (or its own time); undefined when it was lost. */
  async refresh(name: string, id: string, ttlMs?: number): Promise<Lease | undefined> {
    const keys = leaseKeys(this.kind, name);
    const reply = (await runScript(
      this.redis,
      'lease-refresh',
      [keys.holders, keys.leases, keys.solo],
      [id, ttlMs ?? 0],
    )) as [number, number, number] | null;
    return reply ? { name, id, fencingToken: reply[0], expiresAt: reply[1], ttlMs: reply[2] } : undefined;
  }

  /** True when `id` held a slot until now; false for an unknown, wrong or expired id. */
  async release(name: string, id: string): Promise<boolean> {
    return (await this.forget(name, id)) === 1;
  }

  /**
   * Forgets an acquire that will not be used: its queue place, and its slot if it was granted
   * without the caller learning so (a reply lost to a timeout). True when there was anything.
   */
  async abandon(name: string, id: string): Promise<boolean> {
    return (await this.forget(name, id)) !== 0;
  }

  private async forget(name: string, id: string): Promise<number> {
    return Number(await runScript(this.redis, 'lease-release', this.allKeys(name), [id, this.channel(name), name]));
  }

  async state(name: string, maxHolders: number): Promise<LeaseState> {
    const keys = leaseKeys(this.kind, name);
    const reply = (await runScript(
      this.redis,
      'lease-state',
      [keys.holders, keys.leases, keys.queueExpiry, keys.state, keys.solo],
      [maxHolders],
    )) as (number | string | null)[];
    const [limit, lastFence, waiting, now] = reply;
    const holders: LeaseHolder[] = [];
    for (let i = 4; i + 2 < reply.length; i += 3) {
      holders.push({ fencingToken: Number(reply[i]), expiresAt: Number(reply[i + 1]), owner: String(reply[i + 2]) });
    }
    return {
      name,
      limit: limit === null ? undefined : Number(limit),
      lastFencingToken: lastFence === null ? undefined : Number(lastFence),
      holders,
      waiting: Number(waiting),
      now: Number(now),
    };
  }

  private allKeys(name: string): string[] {
    const keys = leaseKeys(this.kind, name);
    return [keys.holders, keys.leases, keys.queue, keys.queueExpiry, keys.state, keys.solo];
  }
}

/** Parses a release notification; undefined for anything else on the channel. */
export function parseReleaseNotice(message: string): ReleaseNotice | undefined {
  try {
    const value = JSON.parse(message) as Partial<ReleaseNotice>;
    if (typeof value.upTo !== 'number' || typeof value.name !== 'string' || typeof value.releasedAt !== 'number')
      return undefined;
    return value as ReleaseNotice;
  } catch {
    return undefined;
  }
}
