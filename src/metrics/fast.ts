// Counters and histograms for the hot paths (every request, every Redis command). prom-client's
// own check and hash their labels on every update, about 1 µs a counter and 1.5 µs a histogram;
// here a caller looks a label set's child up once, keeps it, and updates it with plain arithmetic.
// The registry reads them only when it is scraped, in the same text format as its own metrics.
import type { Metric, Registry } from 'prom-client';

export class CounterChild {
  value = 0;

  inc(by = 1): void {
    this.value += by;
  }
}

export class HistogramChild {
  /** Observations per bucket, not cumulative: counts[i] has those in (bounds[i-1], bounds[i]]. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(value: number): void {
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    if (i < bounds.length) this.counts[i]++;
    this.sum += value;
    this.count++;
  }
}

/** One line of the scrape, as the registry reads them from get(). */
interface Sample {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

interface Snapshot {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: Sample[];
}

abstract class FastMetric<Child> {
  private readonly children = new Map<string, { labels: Record<string, string>; child: Child }>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    registry: Registry,
  ) {
    // The registry keeps any object with a name and get(); its types list prom-client's own classes.
    registry.registerMetric(this as unknown as Metric);
  }

  /** The child of these label values, in labelNames' order; callers keep it and update it directly. */
  child(...values: string[]): Child {
    const key = values.join('\u0000');
    let entry = this.children.get(key);
    if (!entry) {
      const labels = Object.fromEntries(this.labelNames.map((name, i) => [name, values[i]]));
      entry = { labels, child: this.makeChild() };
      this.children.set(key, entry);
    }
    return entry.child;
  }

  protected abstract makeChild(): Child;

  protected abstract valuesOf(labels: Record<string, string>, child: Child): Sample[];

  abstract readonly type: 'counter' | 'histogram';

  get(): Promise<Snapshot> {
    const values = [...this.children.values()].flatMap(({ labels, child }) => this.valuesOf(labels, child));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: 'sum', values });
  }
}

export class FastCounter extends FastMetric<CounterChild> {
  readonly type = 'counter';

  protected makeChild(): CounterChild {
    return new CounterChild();
  }

  protected valuesOf(labels: Record<string, string>, child: CounterChild): Sample[] {
    return [{ labels, value: child.value }];
  }
}

export class FastHistogram extends FastMetric<HistogramChild> {
  readonly type = 'histogram';

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    registry: Registry,
    private readonly bounds: readonly number[],
  ) {
    super(name, help, labelNames, registry);
  }

  protected makeChild(): HistogramChild {
    return new HistogramChild(this.bounds);
  }

  protected valuesOf(labels: Record<string, string>, child: HistogramChild): Sample[] {
    const values: Sample[] = [];
    let cumulative = 0;
    this.bounds.forEach((bound, i) => {
      cumulative += child.counts[i];
      values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: bound }, value: cumulative });
    });
    values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: child.count });
    values.push({ metricName: `${this.name}_sum`, labels, value: child.sum });
    values.push({ metricName: `${this.name}_count`, labels, value: child.count });
    return values;
  }
}

/** Latency buckets in seconds: a GraphQL operation (HTTP or WebSocket). */
export const REQUEST_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Latency buckets in seconds: one Redis command. */
export const COMMAND_SECONDS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];
