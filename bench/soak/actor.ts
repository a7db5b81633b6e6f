// What every part of the soak's load has in common: it sets up its data, runs until told to stop,
// drains (pulls what is still waiting, lets tasks finish), and then checks its invariants.
import { setTimeout as sleep } from 'node:timers/promises';
import { benchTokens } from '../harness/server-process';
import type { ApiPool, Outcome } from './client';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface SoakContext {
  api: ApiPool;
  /** A bearer token for `user`, a service caller when `service` is set. */
  token(user: string, service?: boolean): string;
  /** A number in [0, 1) from the run's seeded generator, so a run can be replayed. */
  random(): number;
  /** Unique per run, so a second run against the same Redis does not meet the first's data. */
  runId: string;
}

export interface Actor {
  readonly name: string;
  setup?(): Promise<void>;
  /** Sends load until `stop()` is true. */
  run(stop: () => boolean): Promise<void>;
  /** After the load: takes in what is still on its way, up to `deadline` (Date.now() ms). */
  drain?(deadline: number): Promise<void>;
  check(): Check[];
  /** Counts for the report (calls acknowledged, refused, left unknown). */
  stats(): Record<string, number>;
}

/** An actor's common parts: its counts as its stats, calls as a user, seeded pauses and picks. */
export abstract class Load implements Actor {
  abstract readonly name: string;
  protected abstract readonly counts: Record<string, number>;

  constructor(protected readonly soak: SoakContext) {}

  abstract run(stop: () => boolean): Promise<void>;
  abstract check(): Check[];

  stats(): Record<string, number> {
    return { ...this.counts };
  }

  /** `query` sent as `user`, a service caller when `service` is set. */
  protected call<T>(
    user: string,
    query: string,
    variables?: Record<string, unknown>,
    service = false,
  ): Promise<Outcome<T>> {
    return this.soak.api.call<T>(this.soak.token(user, service), query, variables);
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

export function signer(hours: number): SoakContext['token'] {
  return (user, service = false) => {
    const key = `${service ? 's' : 'u'}:${user}`;
    const token = tokenCache.get(key) ?? benchTokens.sign(user, service ? ['service'] : [], Math.ceil(hours * 3600));
    tokenCache.set(key, token);
    return token;
  };
}

export const check = (name: string, ok: boolean, detail: string): Check => ({ name, ok, detail });

/** A check that holds when nothing was found: the found ones as its detail, else `detail`. */
export const none = (name: string, found: unknown[], detail: string, ok = true): Check =>
  check(name, ok && found.length === 0, found.length ? sample(found) : detail);

/** The first few entries of a list, for a failure's detail line. */
export const sample = (values: unknown[], count = 5): string =>
  `${values
    .slice(0, count)
    .map((v) => JSON.stringify(v))
    .join(', ')}${values.length > count ? `, … (${values.length} in all)` : ''}`;
