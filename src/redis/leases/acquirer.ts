// Acquiring a lock or semaphore slot, waiting if asked to: the caller takes a place in the
// queue in Redis, then sleeps until a release names its ticket, the first holder's time runs
// out, or a poll interval passes, and asks again (keeping its place). All waiting is measured on
// this process's monotonic clock as durations; who gets a slot is decided in Redis.
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { AppError } from '../../common/errors';
import {
  newLeaseId,
  type Attempt,
  type AttemptRequest,
  type Lease,
  type LeaseRepository,
  type ReleaseNotice,
} from './repository';
import type { LeaseSignals } from './signals';

export interface AcquireRequest {
  name: string;
  limit: number;
  ttlMs: number;
  owner: string;
  /** 0: one attempt, no queueing. */
  waitMs: number;
}

export interface WaitTiming {
  /** A waiter asks again at least this often, in case a release notice was lost. */
  pollMs: number;
  /** A queue place lapses if its waiter has not asked again for this long (it died). */
  holdMs: number;
}

const DEFAULT_WAIT_TIMING: WaitTiming = { pollMs: 500, holdMs: 2500 };

export class LeaseAcquirer {
  constructor(
    readonly repository: LeaseRepository,
    private readonly signals: LeaseSignals,
    private readonly shutdown: AbortSignal,
    private readonly timing: WaitTiming = DEFAULT_WAIT_TIMING,
  ) {
    // Every waiting caller listens for shutdown; hundreds at once are expected, not a leak.
    setMaxListeners(0, shutdown);
  }

  /**
   * A lease, or undefined when none was free in time. `signal` aborts the wait (the client went
   * away); a slot granted after that is given back at once. If Redis fails mid-way, the acquire
   * is abandoned in Redis too (a grant whose reply was lost is not left held) and the error thrown.
   */
  async acquire(request: AcquireRequest, signal?: AbortSignal): Promise<Lease | undefined> {
    // Two signals rather than AbortSignal.any, which keeps a reference per call on the long-lived one.
    const cancel = signal ? [signal, this.shutdown] : [this.shutdown];
    if (cancel.some((s) => s.aborted)) return undefined;
    const id = newLeaseId();
    try {
      const lease = await this.acquireAs(id, request, cancel);
      if (lease && cancel.some((s) => s.aborted)) {
        await this.repository.release(request.name, id);
        return undefined;
      }
      return lease;
    } catch (error) {
      // A refusal (AppError) wrote nothing. Anything else may have been a grant whose reply was
      // lost: this is sent after it on the same connection, so Redis runs it after the grant.
      if (!(error instanceof AppError)) await this.repository.abandon(request.name, id).catch(() => undefined);
      throw error;
    }
  }

  private async acquireAs(id: string, request: AcquireRequest, cancel: AbortSignal[]): Promise<Lease | undefined> {
    const started = performance.now();
    const { name, limit, ttlMs, owner, waitMs } = request;
    const asking = { name, id, limit, ttlMs, owner, holdMs: waitMs === 0 ? 0 : this.timing.holdMs };
    if (waitMs === 0) {
      const only = await this.repository.attempt(asking);
      return only.granted ? only.lease : undefined;
    }
    const channel = this.repository.channel(name);
    // Most acquires get their slot at once: ask first, unless this process already listens to
    // the name (then listening first costs nothing and saves asking twice).
    if (!this.signals.isSubscribed(channel)) {
      const first = await this.repository.attempt(asking);
      if (first.granted) return first.lease;
      return this.wait(asking, channel, first, started + waitMs, cancel);
    }
    return this.wait(asking, channel, undefined, started + waitMs, cancel);
  }

  /**
   * Waits in the queue for a slot: `first` is the attempt already made, if any (the caller is
   * queued, but nothing listens for releases yet).
   */
  private async wait(
    asking: AttemptRequest,
    channel: string,
    first: Attempt | undefined,
    deadline: number,
    cancel: AbortSignal[],
  ): Promise<Lease | undefined> {
    const attempt = (): Promise<Attempt> => this.repository.attempt(asking);
    const wake = new Wake();
    // A notice names the last ticket that may take a freed slot; 0 means nobody was queued.
    // Notices that arrive before this caller knows its ticket are kept and judged once it does.
    let ticket: number | undefined;
    const early: number[] = [];
    const mayGo = (upTo: number): boolean => upTo === 0 || (ticket !== undefined && ticket <= upTo);
    // No notice: releases may have been missed while the subscriber was away; ask again anyway.
    const onNotice = (notice: ReleaseNotice | undefined): void => {
      const upTo = notice?.upTo ?? 0;
      if (ticket === undefined) early.push(upTo);
      else if (mayGo(upTo)) wake.fire();
    };

    let stopListening: (() => void) | undefined;
    try {
      if (!first) stopListening = await this.signals.listen(channel, onNotice);
      let last = first ?? (await attempt());
      if (last.granted) return last.lease;
      ticket = last.ticket;
      if (early.some(mayGo)) wake.fire();
      // Freshly subscribed: a release made before the subscription is caught by asking again now.
      let askNow = stopListening === undefined;
      stopListening ??= await this.signals.listen(channel, onNotice);
      for (;;) {
        if (askNow) {
          wake.reset();
          last = await attempt();
          if (last.granted) return last.lease;
          ticket = last.ticket;
        }
        askNow = true;
        const left = deadline - performance.now();
        if (left <= 0 || cancel.some((s) => s.aborted)) break;
        const untilExpiry = last.retryAfterMs === undefined ? Infinity : last.retryAfterMs + 1;
        await wake.wait(Math.min(left, this.timing.pollMs, untilExpiry), cancel);
      }
    } finally {
      stopListening?.();
    }
    // Giving up the place promptly lets the next in line go; if Redis cannot be reached, the
    // place lapses by itself and the answer is still "not acquired".
    await this.repository.abandon(asking.name, asking.id).catch(() => undefined);
    return undefined;
  }
}

/** A one-shot alarm that can be armed again: fire() before wait() makes the wait return at once. */
class Wake {
  private fired = false;
  private wakeUp: (() => void) | undefined;

  fire(): void {
    this.fired = true;
    this.wakeUp?.();
  }

  reset(): void {
    this.fired = false;
  }

  wait(ms: number, cancel: AbortSignal[]): Promise<void> {
    if (this.fired || cancel.some((s) => s.aborted)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        for (const s of cancel) s.removeEventListener('abort', done);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      for (const s of cancel) s.addEventListener('abort', done, { once: true });
      this.wakeUp = done;
    });
  }
}
