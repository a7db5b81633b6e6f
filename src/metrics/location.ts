// Location log ingest: lines stored by this process's appends (and appends held back for room),
// chunks and lines counted by its aggregator, and at each scrape what waits in Redis to be counted.
// Ingest has stalled when chunks wait and no process counts any.
import { Gauge, type Registry } from 'prom-client';
import type { AppendObserver, IngestBacklog } from '../redis/location/repository';
import type { ScrapeReads } from './scrape-reads';
import { FastCounter, type CounterChild } from './fast';

/** Datasets a scrape reads at most (LOCATION_MAX_DATASETS is 100 by default). */
const MAX_DATASETS = 100;

export class LocationMetrics implements AppendObserver {
  private readonly appends = new Map<string, CounterChild>();
  private readonly linesAppended: CounterChild;
  private readonly chunksCounted: CounterChild;
  private readonly linesCounted: CounterChild;

  constructor(private readonly registry: Registry) {
    const appends = new FastCounter(
      'ria_location_appends_total',
      'Chunks of log lines sent to be stored, by outcome: ok (stored), stored (a resend, stored already), full (held back: LOCATION_MAX_HELD_BYTES)',
      ['outcome'],
      registry,
    );
    for (const status of ['OK', 'STORED', 'FULL']) this.appends.set(status, appends.child(status.toLowerCase()));
    this.linesAppended = new FastCounter(
      'ria_location_lines_appended_total',
      'Log lines stored by this process',
      [],
      registry,
    ).child();
    this.chunksCounted = new FastCounter(
      'ria_location_chunks_aggregated_total',
      "Chunks this process's aggregator counted",
      [],
      registry,
    ).child();
    this.linesCounted = new FastCounter(
      'ria_location_lines_aggregated_total',
      "Log lines this process's aggregator counted",
      [],
      registry,
    ).child();
  }

  appended(status: string, lines: number): void {
    this.appends.get(status)?.inc();
    this.linesAppended.inc(lines);
  }

  /** The aggregator's onChunk: a chunk another aggregator had committed first is not counted again. */
  readonly chunk = (_dataset: string, lines: number, committed: boolean): void => {
    if (!committed) return;
    this.chunksCounted.inc();
    this.linesCounted.inc(lines);
  };

  /** What waits in Redis to be counted, read at each scrape. */
  watchBacklog(reads: ScrapeReads, repository: { backlog(maxDatasets: number): Promise<IngestBacklog> }): void {
    const read = reads.shared('location_backlog', () => repository.backlog(MAX_DATASETS));
    const gauge = (name: string, help: string, value: (backlog: IngestBacklog) => number): void =>
      void new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          const backlog = await read();
          this.reset();
          if (backlog) this.set(value(backlog));
        },
      });
    gauge(
      'ria_location_chunks_waiting',
      `Chunks of log lines stored and not yet counted (over at most ${MAX_DATASETS} datasets)`,
      (backlog) => backlog.chunks,
    );
    gauge(
      'ria_location_bytes_waiting',
      `Bytes of those chunks: what LOCATION_MAX_HELD_BYTES bounds (over at most ${MAX_DATASETS} datasets)`,
      (backlog) => backlog.bytes,
    );
  }
}
