// Warm-up and measured rounds, the peers taking turns inside each so the machine's noise hits them
// alike; a ratio is then taken round by round (pairedRatio in suite.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { isQuick, type Steps } from './suite';

/** A size from the environment, else the quick or the full default. */
export function size(env: string, quick: number, full: number): number {
  const set = process.env[env];
  return set !== undefined && set !== '' ? Number(set) : isQuick() ? quick : full;
}

type Task = (i: number, slot: number) => Promise<unknown>;

/** Runs task(0..total-1) with `inFlight` of them running at once; `slot` says which of those runs it. */
export async function inParallel(total: number, inFlight: number, task: Task): Promise<void> {
  let next = 0;
  const worker = async (_: unknown, slot: number): Promise<void> => {
    while (next < total) await task(next++, slot);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, total) }, worker));
}

/** Resolves as `work` does, or fails with what `failure()` says (read when it fails) after `ms`. */
export async function within<T>(work: Promise<T>, ms: number, failure: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(failure())), ms)));
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** A failure's message, or a function that tells it when it happens. */
type Failure = string | (() => string);

/** Polls `ready` every `ms` until it holds, failing with `what` after `timeoutMs`. */
export async function until(ready: () => Promise<boolean> | boolean, what: Failure, timeoutMs: number, ms: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(typeof what === 'string' ? what : what());
    await sleep(ms);
  }
}

/** Round 0 is a warm-up, of a quarter `size` (rounded up); 1..rounds are measured. */
const round = (index: number, rounds: number, warm: boolean) => ({
  index,
  warm,
  size: (n: number): number => (warm ? Math.ceil(n / 4) : n),
  label: warm ? 'warm-up' : `round ${index}/${rounds}`,
});

type Round = ReturnType<typeof round>;

/**
 * Warm-up until the rate is steady: warm rounds until the last `window` (2) rates lie within
 * `agree` of their highest and at least `minWork` was done (summed by `work`), or `maxRounds` ran.
 */
export interface Steady<R> {
  rate: (result: R) => number;
  agree: number;
  window?: number;
  work?: (result: R) => number;
  minWork?: number;
  maxRounds: number;
}

const STEADY_WEIGHT = 3;

/** Steps `alternate` takes for these options (a steady warm-up counts 3), to size a Steps counter. */
export function stepsOf(peers: number, rounds: number, warmUp: 'once' | 'none' | 'steady'): number {
  return peers * (rounds + (warmUp === 'once' ? 1 : warmUp === 'steady' ? STEADY_WEIGHT : 0));
}

/**
 * Warms each peer up ('once', the default: round 0, the peers alternating as later), then runs the
 * measured rounds with the peers taking turns (`rotate`: the first goes last next round). Steps:
 * one per peer and round, STEADY_WEIGHT per steady warm-up; `label` prefixes steps and log lines.
 */
export async function alternate<P extends string, R>(options: {
  peers: readonly P[];
  rounds: number;
  warmUp?: 'once' | 'none' | Steady<R>;
  rotate?: boolean;
  steps?: Steps;
  label?: string;
  quiet?: boolean;
  run: (peer: P, round: Round) => Promise<R>;
}) {
  const { peers, rounds, warmUp = 'once', rotate = false, steps, label, quiet = false } = options;
  const perPeer = <T>(make: () => T): Record<P, T> => Object.fromEntries(peers.map((p) => [p, make()])) as Record<P, T>;
  const measured = perPeer((): R[] => []);
  const warm = perPeer(() => ({ results: [] as R[], steady: true }));
  const prefix = label ? `${label}, ` : '';
  const one = async (peer: P, at: Round): Promise<R> => {
    if (!quiet) console.log(`${prefix}${at.label}, ${peer}:`);
    return options.run(peer, at);
  };
  if (typeof warmUp === 'object') {
    for (const peer of peers) {
      steps?.step(`${prefix}warm-up until steady, ${peer}`, STEADY_WEIGHT);
      warm[peer] = await untilSteady(warmUp, () => one(peer, round(0, rounds, true)));
    }
  }
  for (let index = warmUp === 'once' ? 0 : 1; index <= rounds; index++) {
    const at = round(index, rounds, index === 0);
    for (const peer of rotate ? peers.map((_, i) => peers[(i + index) % peers.length]) : peers) {
      steps?.step(`${prefix}${at.label}, ${peer}`);
      (at.warm ? warm[peer].results : measured[peer]).push(await one(peer, at));
    }
  }
  return { measured, warm };
}

/** Warm rounds of `run` until the rule says the rate holds. */
export async function untilSteady<R>(rule: Steady<R>, run: () => Promise<R>) {
  const window = rule.window ?? 2;
  const results: R[] = [];
  let work = 0;
  for (;;) {
    const result = await run();
    results.push(result);
    work += rule.work?.(result) ?? 0;
    const rates = results.slice(-window).map(rule.rate);
    const top = Math.max(...rates);
    const steady = rates.length === window && rates.every((r) => top - r <= rule.agree * top);
    if ((steady && work >= (rule.minWork ?? 0)) || results.length >= rule.maxRounds) return { results, steady };
  }
}
