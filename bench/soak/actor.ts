// What every part of the soak's load has in common: it sets up its data, repeats its clients' steps
// until the soak stops, drains (pulls what is still waiting, lets tasks finish), and checks its invariants.
import { setTimeout as sleep } from 'node:timers/promises';
import { benchTokens } from '../harness/server-process';
import { PASSING, type ApiPool } from './client';

export interface SoakContext {
  api: ApiPool;
  /** A bearer token for `user`, a service caller when `service` is set. */
  token(user: string, service?: boolean): string;
  /** A number in [0, 1) from the run's seeded generator, so a run can be replayed. */
  random(): number;
  /** Names keys and users: unique per run, so a second run against the same Redis does not meet the first's data. */
  seed: number;
  minutes: number;
  /** The task handler's log of runs (handlers.cjs). */
  taskLog: string;
  /** Set when the load stops and draining begins. */
  stopped: boolean;
}

export abstract class Load {
  abstract readonly name: string;
  protected abstract readonly counts: Record<string, number>;

  constructor(protected readonly soak: SoakContext) {}

  async setup(): Promise<void> {}
  /** One step per client, each repeated until the soak stops. */
  protected abstract clients(): (() => Promise<unknown>)[];
  /** After the load: takes in what is still on its way, up to `deadline` (Date.now() ms). */
  async drain(_deadline: number): Promise<void> {}
  abstract check(): Check[];

  async run(): Promise<void> {
    await Promise.all(
      this.clients().map(async (step) => {
        while (!this.stopped()) await step();
      }),
    );
  }

  stats(): Record<string, number> {
    return { ...this.counts };
  }

  protected readonly stopped = (): boolean => this.soak.stopped;

  protected call<T>(user: string, query: string, variables?: Record<string, unknown>, service = false) {
    return this.soak.api.call<T>(this.soak.token(user, service), query, variables);
  }

  /**
   * `call` sent again until answered or refused (its idempotency key makes a second send return the
   * first's result), each resend counted; undefined, its outcome unknown, when `stop()` came first.
   */
  protected async untilAnswered<T>(stop: () => boolean, ...call: Parameters<Load['call']>) {
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) this.counts.resent++;
      const outcome = await this.call<T>(...call);
      if (outcome.kind === 'ok' || (outcome.kind === 'refused' && !PASSING.has(outcome.code))) return outcome;
      if (stop()) return undefined;
      await sleep(Math.min(1000, 50 * 2 ** Math.min(attempt, 5)));
    }
  }

  /** Waits `ms` and up to `spread` ms more. */
  protected pause(ms: number, spread = 0): Promise<void> {
    return sleep(ms + (spread && this.soak.random() * spread));
  }

  protected pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.soak.random() * values.length)];
  }
}

const tokenCache = new Map<string, string>();

export const signer =
  (hours: number): SoakContext['token'] =>
  (user, service = false) => {
    const key = `${service ? 's' : 'u'}:${user}`;
    if (!tokenCache.has(key))
      tokenCache.set(key, benchTokens.sign(user, service ? ['service'] : [], Math.ceil(hours * 3600)));
    return tokenCache.get(key)!;
  };

export const check = (name: string, ok: boolean, detail: string) => ({ name, ok, detail });
export type Check = ReturnType<typeof check>;

/** A check that holds when nothing was found: the found ones as its detail, else `detail`. */
export const none = (name: string, found: unknown[], detail: string, ok = true): Check =>
  check(name, ok && found.length === 0, found.length ? sample(found) : detail);

/** The first few entries of a list, for a failure's detail line. */
export function sample(values: unknown[], count = 5): string {
  const shown = values.slice(0, count).map((v) => JSON.stringify(v));
  return `${shown.join(', ')}${values.length > count ? `, … (${values.length} in all)` : ''}`;
}
