// Time-series counters under load. A counter update has no idempotency key, so one whose answer
// was lost is not sent again: the count must then lie between the acknowledged updates and those
// plus the lost ones, and be exact when none was lost. Every precision must agree.
import { check, type Actor, type Check, type SoakContext } from './actor';
import { setTimeout as sleep } from 'node:timers/promises';

const CLIENTS = 2;
const PRECISIONS = [60, 3600, 86400];
/** COUNTER_SAMPLES, the samples kept per precision (the cleanup worker trims the rest). */
const SAMPLES_KEPT = 120;

const UPDATE = `mutation($name: String!, $count: Int!) { updateCounter(name: $name, count: $count) }`;
const READ = `query($name: String!, $precision: Int!) { counter(name: $name, precision: $precision, limit: 1000) { time count } }`;

export class CounterLoad implements Actor {
  readonly name = 'counters';
  private readonly counterName: string;
  private acknowledged = 0;
  private lost = 0;
  private refused = 0;
  private readonly totals = new Map<number, number>();
  /** The precisions whose kept samples reach back past the start of the run (with an hour to spare). */
  private readonly precisions: number[];

  constructor(
    private readonly soak: SoakContext,
    minutes: number,
  ) {
    this.counterName = `soak-${soak.runId}-hits`;
    this.precisions = PRECISIONS.filter((p) => p * SAMPLES_KEPT >= (minutes + 60) * 60);
  }

  async setup(): Promise<void> {}

  async run(stop: () => boolean): Promise<void> {
    await Promise.all(Array.from({ length: CLIENTS }, () => this.client(stop)));
  }

  async drain(): Promise<void> {
    const token = this.soak.token('soak-counters', true);
    for (const precision of this.precisions) {
      const samples = await this.soak.api.call<{ count: number }[]>(
        token,
        READ,
        { name: this.counterName, precision },
        'counter',
      );
      if (samples.kind === 'ok')
        this.totals.set(
          precision,
          samples.data.reduce((sum, s) => sum + s.count, 0),
        );
    }
  }

  check(): Check[] {
    const [low, high] = [this.acknowledged, this.acknowledged + this.lost];
    const wrong = this.precisions.filter((p) => {
      const total = this.totals.get(p);
      return total === undefined || total < low || total > high;
    });
    return [
      check(
        this.lost === 0 ? 'counters: exact' : 'counters: exact but for updates whose answer was lost',
        wrong.length === 0 && low > 0 && this.precisions.length > 0,
        `${this.acknowledged} acknowledged, ${this.lost} lost, ${this.refused} refused; counted ${this.precisions.map((p) => `${this.totals.get(p) ?? '?'} at ${p} s`).join(', ')}`,
      ),
    ];
  }

  stats(): Record<string, number> {
    return { acknowledged: this.acknowledged, lost: this.lost, refused: this.refused };
  }

  private async client(stop: () => boolean): Promise<void> {
    const token = this.soak.token('soak-counters', true);
    while (!stop()) {
      const count = 1 + Math.floor(this.soak.random() * 3);
      const outcome = await this.soak.api.call<boolean>(
        token,
        UPDATE,
        { name: this.counterName, count },
        'updateCounter',
      );
      if (outcome.kind === 'ok') this.acknowledged += count;
      else if (outcome.kind === 'unknown') this.lost += count;
      else this.refused++;
      await sleep(outcome.kind === 'ok' ? 20 + this.soak.random() * 40 : 200);
    }
  }
}
