// Time-series counters under load. An update whose answer was lost is not sent again (no
// idempotency key), so each precision's count lies between the acknowledged updates and those plus
// the lost ones. docs/development.md#soak.
import { sumOf } from '../harness/support';
import { check, Load, type Check } from './actor';

const CLIENTS = 2;
const PRECISIONS = [60, 3600, 86400];
/** COUNTER_SAMPLES, the samples kept per precision (the cleanup worker trims the rest). */
const SAMPLES_KEPT = 120;
const USER = 'soak-counters';

const UPDATE = `mutation($name: String!, $count: Int!) { updateCounter(name: $name, count: $count) }`;
const READ = `query($name: String!, $precision: Int!) { counter(name: $name, precision: $precision, limit: 1000) { time count } }`;

export class CounterLoad extends Load {
  readonly name = 'counters';
  protected readonly counts = { acknowledged: 0, lost: 0, refused: 0 };
  private readonly counterName = `soak-${this.soak.seed}-hits`;
  private readonly totals = new Map<number, number>();
  /** The precisions whose kept samples reach back past the start of the run (with an hour to spare). */
  private readonly precisions = PRECISIONS.filter((p) => p * SAMPLES_KEPT >= (this.soak.minutes + 60) * 60);

  protected clients() {
    return Array.from({ length: CLIENTS }, () => () => this.update());
  }

  override async drain(): Promise<void> {
    for (const precision of this.precisions) {
      const samples = await this.call<{ count: number }[]>(USER, READ, { name: this.counterName, precision }, true);
      const counted = samples.kind === 'ok' ? sumOf(samples.data, (s) => s.count) : undefined;
      if (counted !== undefined) this.totals.set(precision, counted);
    }
  }

  check(): Check[] {
    const { acknowledged, lost, refused } = this.counts;
    const wrong = this.precisions.filter((p) => {
      const total = this.totals.get(p);
      return total === undefined || total < acknowledged || total > acknowledged + lost;
    });
    return [
      check(
        lost === 0 ? 'counters: exact' : 'counters: exact but for updates whose answer was lost',
        wrong.length === 0 && acknowledged > 0 && this.precisions.length > 0,
        `${acknowledged} acknowledged, ${lost} lost, ${refused} refused; counted ${this.precisions.map((p) => `${this.totals.get(p) ?? '?'} at ${p} s`).join(', ')}`,
      ),
    ];
  }

  private async update(): Promise<void> {
    const count = 1 + Math.floor(this.soak.random() * 3);
    const outcome = await this.call<boolean>(USER, UPDATE, { name: this.counterName, count }, true);
    if (outcome.kind === 'ok') this.counts.acknowledged += count;
    else if (outcome.kind === 'unknown') this.counts.lost += count;
    else this.counts.refused++;
    await (outcome.kind === 'ok' ? this.pause(20, 40) : this.pause(200));
  }
}
