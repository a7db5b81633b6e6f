// What every part of the soak's load has in common: it sets up its data, runs until told to stop,
// drains (pulls what is still waiting, lets tasks finish), and then checks its invariants.
import { benchTokens } from '../harness/server-process';
import type { ApiPool } from './client';

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
  setup(): Promise<void>;
  /** Sends load until `stop()` is true. */
  run(stop: () => boolean): Promise<void>;
  /** After the load: takes in what is still on its way, up to `deadline` (Date.now() ms). */
  drain(deadline: number): Promise<void>;
  check(): Check[];
  /** Counts for the report (calls acknowledged, refused, left unknown). */
  stats(): Record<string, number>;
}

const tokenCache = new Map<string, string>();

export function signer(hours: number): SoakContext['token'] {
  return (user, service = false) => {
    const key = `${service ? 's' : 'u'}:${user}`;
    let token = tokenCache.get(key);
    if (!token) {
      token = benchTokens.sign(user, service ? ['service'] : [], Math.ceil(hours * 3600));
      tokenCache.set(key, token);
    }
    return token;
  };
}

export const check = (name: string, ok: boolean, detail: string): Check => ({ name, ok, detail });

/** The first few entries of a list, for a failure's detail line. */
export const sample = (values: unknown[], count = 5): string =>
  `${values
    .slice(0, count)
    .map((v) => JSON.stringify(v))
    .join(', ')}${values.length > count ? `, … (${values.length} in all)` : ''}`;
