// The metrics of one process, in one registry that the composition root (app/server.ts, or
// worker.ts) makes and passes in: tests run several servers in one process, each with its own.
// Each part reports into the piece it is handed; nothing here is a module-level singleton.
import { collectDefaultMetrics, type Registry } from 'prom-client';
import { HttpMetrics } from './http';
import { LocationMetrics } from './location';
import { NotificationMetrics } from './notifications';
import { RedisCommandMetrics } from './redis';
import { ScrapeReads } from './scrape-reads';
import { watchQueues, type QueueReader } from './tasks';
import { WebSocketMetrics } from './websocket';

/** What the task worker process reports (src/worker.ts, with METRICS=port). */
export interface ProcessMetrics {
  registry: Registry;
  redis: RedisCommandMetrics;
  location: LocationMetrics;
  /** The depth and lag of `queues`, read from Redis at each scrape. */
  watchQueues(repository: QueueReader, queues: string[]): void;
  /** The location chunks waiting in Redis, read at each scrape. */
  watchLocationBacklog(repository: Parameters<LocationMetrics['watchBacklog']>[1]): void;
}

/** And the API server, its transports besides. */
export interface ApiMetrics extends ProcessMetrics {
  http: HttpMetrics;
  webSocket: WebSocketMetrics;
  notifications: NotificationMetrics;
}

export function processMetrics(registry: Registry): ProcessMetrics {
  // Node's own: CPU, memory, heap, event loop lag, GC, handles.
  collectDefaultMetrics({ register: registry });
  const reads = new ScrapeReads(registry);
  const location = new LocationMetrics(registry);
  return {
    registry,
    redis: new RedisCommandMetrics(registry),
    location,
    watchQueues: (repository, queues) => watchQueues(registry, reads, repository, queues),
    watchLocationBacklog: (repository) => location.watchBacklog(reads, repository),
  };
}

export function apiMetrics(registry: Registry): ApiMetrics {
  return {
    ...processMetrics(registry),
    http: new HttpMetrics(registry),
    webSocket: new WebSocketMetrics(registry),
    notifications: new NotificationMetrics(registry),
  };
}
