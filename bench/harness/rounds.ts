// Warm-up and measured rounds with the peers taking turns inside each round, so the machine's
// noise hits them alike; a ratio is then taken round by round (pairedRatio in suite.ts).
import { isQuick, type Steps } from './suite';

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
const round = (index: number, rounds: number, warm: boolean) => ({
  index,
  warm,
  /** `n` in a measured round, a quarter of it (rounded up) in a one-round warm-up. */
  size: (n: number): number => (warm ? Math.ceil(n / 4) : n),
  /** "warm-up" or "round i/n", for labels and the log. */
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

/** Steps `alternate` takes for these options, to size a Steps counter. */
export function stepsOf(peers: number, rounds: number, warmUp: 'once' | 'none' | 'steady', steadyWeight = 3): number {
  return peers * (rounds + (warmUp === 'once' ? 1 : warmUp === 'steady' ? steadyWeight : 0));
}

/**
 * Warms each peer up, then runs `rounds` measured rounds with the peers taking turns. Warm-up
 * 'once' (the default) is one round per peer inside round 0, the peers alternating as in the
 * others. `rotate` moves the first peer to the end each round. Progress: one step per peer and
 * round, a steady warm-up counting `steadyWeight`; `label` prefixes the steps and the log line
 * each round prints unless `quiet`. Returns the measured and the warm rounds per peer.
 */
export async function alternate<P extends string, R>(options: {
  peers: readonly P[];
  rounds: number;
  warmUp?: 'once' | 'none' | Steady<R>;
  rotate?: boolean;
  steps?: Steps;
  steadyWeight?: number;
  label?: string;
  quiet?: boolean;
  run: (peer: P, round: Round) => Promise<R>;
}) {
  const { peers, rounds, warmUp = 'once', rotate = false, steps, steadyWeight = 3, label, quiet = false } = options;
  const measured = Object.fromEntries(peers.map((p) => [p, []])) as unknown as Record<P, R[]>;
  const warm = Object.fromEntries(peers.map((p) => [p, { results: [], steady: true }])) as unknown as Record<
    P,
    { results: R[]; steady: boolean }
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
  for (let index = warmUp === 'once' ? 0 : 1; index <= rounds; index++) {
    const at = round(index, rounds, index === 0);
    for (const peer of rotate ? peers.map((_, i) => peers[(i + index) % peers.length]) : peers) {
      steps?.step(`${prefix}${at.label}, ${peer}`);
      const result = await one(peer, at);
      (at.warm ? warm[peer].results : measured[peer]).push(result);
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
