// Warm-up and measured rounds with peers taking turns: the loop every suite ran by hand. Peers
// alternate inside each round so the machine's noise hits them alike, and a ratio is taken round
// by round (pairedRatio in suite.ts).
import { isQuick } from './report';
import type { Steps } from './suite';

/** A size from the environment, else the quick or the full default. */
export function size(env: string, quick: number, full: number): number {
  const set = process.env[env];
  return set !== undefined && set !== '' ? Number(set) : isQuick() ? quick : full;
}

/** Runs task(0..total-1) with `inFlight` of them running at once; `slot` says which of those runs it. */
export async function inParallel(
  total: number,
  inFlight: number,
  task: (i: number, slot: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(inFlight, total) }, async (_, slot) => {
      while (next < total) await task(next++, slot);
    }),
  );
}

/** Resolves as `work` does, or fails with what `failure()` says (read when it fails) after `ms`. */
export async function within<T>(work: Promise<T>, ms: number, failure: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(failure())), ms)));
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Where a run stands: round 0 is a warm-up, 1..rounds are measured. */
export interface Round {
  index: number;
  warm: boolean;
  /** `n` in a measured round, a quarter of it (rounded up) in a one-round warm-up. */
  size(n: number): number;
  /** "warm-up" or "round i/n", for labels and the log. */
  label: string;
}

/**
 * Warm-up until the rate is steady: warm rounds until the last `window` rates lie within `agree`
 * of their highest and at least `minWork` was done (summed by `work`), or `maxRounds` ran.
 */
export interface Steady<R> {
  rate: (result: R) => number;
  agree: number;
  window?: number;
  work?: (result: R) => number;
  minWork?: number;
  maxRounds: number;
}

export interface WarmUp<R> {
  results: R[];
  steady: boolean;
}

export interface AlternateOptions<P, R> {
  peers: readonly P[];
  /** Measured rounds. */
  rounds: number;
  /** 'once' (the default): one warm round per peer inside round 0, peers alternating as in the others. */
  warmUp?: 'once' | 'none' | Steady<R>;
  /** Rotate the peers' order each round (the first goes last next time). */
  rotate?: boolean;
  /** Progress: one step per peer and round, a steady warm-up counting `steadyWeight` (3). */
  steps?: Steps;
  steadyWeight?: number;
  /** Prefix of progress labels and log lines. */
  label?: string;
  /** Quiet: no log line per round. */
  quiet?: boolean;
  run: (peer: P, round: Round) => Promise<R>;
}

export interface Alternated<P extends string, R> {
  /** Measured rounds per peer, in round order. */
  measured: Record<P, R[]>;
  /** Warm-up rounds per peer. */
  warm: Record<P, WarmUp<R>>;
}

/** Steps `alternate` takes for these options, to size a Steps counter. */
export function stepsOf(peers: number, rounds: number, warmUp: 'once' | 'none' | 'steady', steadyWeight = 3): number {
  return peers * (rounds + (warmUp === 'once' ? 1 : warmUp === 'steady' ? steadyWeight : 0));
}

const round = (index: number, rounds: number, warm: boolean): Round => ({
  index,
  warm,
  size: (n) => (warm ? Math.ceil(n / 4) : n),
  label: warm ? 'warm-up' : `round ${index}/${rounds}`,
});

/** Warms each peer up, then runs `rounds` measured rounds with the peers taking turns. */
export async function alternate<P extends string, R>(options: AlternateOptions<P, R>): Promise<Alternated<P, R>> {
  const { peers, rounds, rotate = false, steps, steadyWeight = 3, label, quiet = false } = options;
  const warmUp = options.warmUp ?? 'once';
  const measured = Object.fromEntries(peers.map((p) => [p, []])) as unknown as Record<P, R[]>;
  const warm = Object.fromEntries(peers.map((p) => [p, { results: [], steady: true }])) as unknown as Record<
    P,
    WarmUp<R>
  >;
  const prefix = label ? `${label}, ` : '';
  const one = async (peer: P, at: Round): Promise<R> => {
    if (!quiet) console.log(`${prefix}${at.label}, ${peer}:`);
    return options.run(peer, at);
  };
  if (typeof warmUp === 'object') {
    for (const peer of peers) {
      steps?.step(`${prefix}warm-up until steady, ${peer}`, steadyWeight);
      warm[peer] = await untilSteady(warmUp, () => one(peer, round(0, rounds, true)));
    }
  }
  const first = warmUp === 'once' ? 0 : 1;
  for (let index = first; index <= rounds; index++) {
    const at = round(index, rounds, index === 0);
    const turn = rotate ? peers.map((_, i) => peers[(i + index) % peers.length]) : peers;
    for (const peer of turn) {
      steps?.step(`${prefix}${at.label}, ${peer}`);
      const result = await one(peer, at);
      (at.warm ? warm[peer].results : measured[peer]).push(result);
    }
  }
  return { measured, warm };
}

/** Warm rounds of `run` until the rule says the rate holds. */
export async function untilSteady<R>(rule: Steady<R>, run: () => Promise<R>): Promise<WarmUp<R>> {
  const window = rule.window ?? 2;
  const results: R[] = [];
  let work = 0;
  for (;;) {
    const result = await run();
    results.push(result);
    work += rule.work?.(result) ?? 0;
    const rates = results.slice(-window).map(rule.rate);
    const top = Math.max(...rates);
    const isSteady = rates.length === window && rates.every((r) => top - r <= rule.agree * top);
    if ((isSteady && work >= (rule.minWork ?? 0)) || results.length >= rule.maxRounds)
      return { results, steady: isSteady };
  }
}
