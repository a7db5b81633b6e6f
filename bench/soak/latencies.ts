// Latency of every call, kept per phase of the soak (steady load, each fault and the stretch after
// it), so a report shows what a fault costs the callers and whether they recover.
import { percentile } from '../harness/support';

type Kind = 'ok' | 'refused' | 'unknown';
export type PhaseSummary = ReturnType<Latencies['summary']>[number];

export class Latencies {
  private readonly phases: ({ name: string; startedAt: number; ms: number[] } & Record<Kind, number>)[] = [];
  calls = 0;

  constructor(first: string) {
    this.begin(first);
  }

  begin(name: string): void {
    this.phases.push({ name, startedAt: Date.now(), ms: [], ok: 0, refused: 0, unknown: 0 });
  }

  get current(): string {
    return this.phases.at(-1)!.name;
  }

  /** Seconds since the current phase began. */
  get currentSeconds(): number {
    return (Date.now() - this.phases.at(-1)!.startedAt) / 1000;
  }

  record(ms: number, kind: Kind): void {
    const phase = this.phases.at(-1)!;
    phase.ms.push(ms);
    phase[kind]++;
    this.calls++;
  }

  summary() {
    return this.phases.map(({ name, startedAt, ms, ok, refused, unknown }, i) => {
      const sorted = Array.from(Float64Array.from(ms).sort());
      // A phase ends where the next begins.
      const seconds = ((this.phases[i + 1]?.startedAt ?? Date.now()) - startedAt) / 1000;
      const [calls, perSecond] = [sorted.length, seconds > 0 ? Math.round(sorted.length / seconds) : 0];
      // The report's table shows these in this order, all but `ok`.
      return { name, seconds: round(seconds), calls, perSecond, ok, refused, unknown, ...percentiles(sorted) };
    });
  }
}

const percentiles = (sorted: number[]) => {
  const at = (p: number): number => (sorted.length ? round(percentile(sorted, p)) : 0);
  return { p50: at(50), p90: at(90), p99: at(99), max: at(100) };
};
const round = (n: number): number => Math.round(n * 10) / 10;
