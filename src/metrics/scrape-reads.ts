// Reads of Redis made when the metrics are scraped (queue depths, the location backlog): bounded
// in time, shared by the gauges one read fills, and counted when they fail, so a slow or absent
// Redis makes a scrape leave those series out instead of hanging or failing it.
import { Counter, type Registry } from 'prom-client';
import { withTimeout } from '../common/timeout';

/** Longest a scrape waits for one read. Prometheus's default scrape timeout is 10 s. */
const READ_TIMEOUT_MS = 2000;

export class ScrapeReads {
  private readonly failures: Counter<'source'>;

  constructor(registry: Registry) {
    this.failures = new Counter({
      name: 'ria_metrics_read_failures_total',
      help: 'Reads of Redis for a scrape that failed or timed out, by what they read; their series were left out',
      labelNames: ['source'],
      registers: [registry],
    });
  }

  /**
   * `read` once per scrape, whichever of its gauges asks first; undefined when it fails or takes
   * too long. The registry collects every metric of a scrape in one synchronous pass, so the
   * gauges that ask in the same turn of the event loop belong to the same scrape.
   */
  shared<T>(source: string, read: () => Promise<T>): () => Promise<T | undefined> {
    this.failures.inc({ source }, 0);
    let current: Promise<T | undefined> | undefined;
    return () => {
      if (current) return current;
      current = withTimeout(read(), READ_TIMEOUT_MS).catch(() => {
        this.failures.inc({ source });
        return undefined;
      });
      setImmediate(() => (current = undefined));
      return current;
    };
  }
}
