// Latency of every call, kept per phase of the soak (steady load, each fault and the stretch after
// it), so a report shows what a fault costs the callers and whether they recover.
import { percentile } from '../harness/support';

interface Phase {
  name: string;
  startedAt: number;
  endedAt?: number;
  ms: number[];
  ok: number;
  refused: number;
  unknown: number;
}

export type PhaseSummary = ReturnType<Latencies['summary']>[number];

export class Latencies {
  private readonly phases: Phase[] = [];
  private total = 0;

  constructor(first: string) {
    this.begin(first);
  }

  begin(name: string): void {
    const now = Date.now();
    const last = this.phases.at(-1);
    if (last) last.endedAt = now;
    this.phases.push({ name, startedAt: now, ms: [], ok: 0, refused: 0, unknown: 0 });
  }

  get current(): string {
    return this.phases.at(-1)!.name;
  }

  /** Seconds since the current phase began. */
  get currentSeconds(): number {
    return (Date.now() - this.phases.at(-1)!.startedAt) / 1000;
  }

  get calls(): number {
    return this.total;
  }

  record(ms: number, kind: 'ok' | 'refused' | 'unknown'): void {
    const phase = this.phases.at(-1)!;
    phase.ms.push(ms);
    phase[kind]++;
    this.total++;
  }

  summary() {
    const now = Date.now();
    return this.phases.map((phase) => {
      const sorted = Array.from(Float64Array.from(phase.ms).sort());
      const seconds = ((phase.endedAt ?? now) - phase.startedAt) / 1000;
      const at = (p: number): number => (sorted.length ? round(percentile(sorted, p)) : 0);
      return {
        name: phase.name,
        seconds: round(seconds),
        calls: sorted.length,
        perSecond: seconds > 0 ? Math.round(sorted.length / seconds) : 0,
        ok: phase.ok,
        refused: phase.refused,
        unknown: phase.unknown,
        p50: at(50),
        p90: at(90),
        p99: at(99),
        max: sorted.length ? round(sorted[sorted.length - 1]) : 0,
      };
    });
  }
}

const round = (n: number): number => Math.round(n * 10) / 10;
