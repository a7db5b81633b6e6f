// Settings of GET /metrics: where it is served, and which task queues each scrape reads.
import { int, oneOf, parsed, text, type SettingDomain, type SettingsReader } from '../common/settings';
import { MARKET_SALES_QUEUE } from '../redis/keys';
import { queueList } from '../redis/task.settings';

type MetricsMode = 'service' | 'port' | 'off';

const SETTINGS = {
  METRICS: oneOf<MetricsMode, undefined>(['service', 'port', 'off'], {
    default: undefined,
    defaultText: '`service` (`port` when `METRICS_PORT` is set)',
    description:
      'Where `GET /metrics` is served: `service` on the API port to service callers, `port` on a listener of its own without auth, `off` nowhere.',
  }),
  METRICS_PORT: int({
    default: 0,
    defaultText: 'unset',
    min: 0,
    max: 65535,
    bounds: '0 to 65535; only with `METRICS=port`',
    description:
      'The listener of `METRICS=port` (`0` picks a free port); the worker process (`npm run worker`) serves its metrics only this way.',
  }),
  METRICS_HOST: text({ default: '127.0.0.1', description: 'The address of the `METRICS=port` listener.' }),
  METRICS_QUEUES: parsed({
    type: 'list',
    bounds: 'at most 64 queue names, comma-separated',
    default: undefined,
    defaultText: `\`WORKER_QUEUES\`, and \`${MARKET_SALES_QUEUE}\` with \`MARKET_SALE_TASK\``,
    schema: queueList,
    description: 'Task queues whose depth and lag each scrape reads.',
  }),
} as const;

export const METRICS_SETTINGS: SettingDomain = {
  title: 'Metrics',
  summary: 'Where Prometheus metrics are served and which queues they cover.',
  settings: SETTINGS,
};

/** Where GET /metrics is served (docs/operations.md). */
export interface MetricsConfig {
  /** METRICS: on the main port for service callers, on a port of its own without auth, or not at all. */
  mode: MetricsMode;
  /** METRICS_PORT and METRICS_HOST: the listener of mode `port` (0: any free port). */
  port: number;
  host: string;
  /** Queues whose depth and lag each scrape reads (METRICS_QUEUES; default: WORKER_QUEUES and the market's sales queue). */
  queues: string[];
}

/** METRICS_PORT alone means `port`; with another mode it is a mistake worth stopping for (a scraper would find nothing). */
export function readMetrics(
  reader: SettingsReader,
  workerQueues: string[],
  saleTask: string | undefined,
): MetricsConfig {
  const values = reader.read(SETTINGS);
  const portSet = reader.isSet('METRICS_PORT');
  const mode = values.METRICS ?? (portSet ? 'port' : 'service');
  if (mode === 'port' && !portSet) {
    reader.problem('METRICS_PORT', 'METRICS=port needs METRICS_PORT (the port to serve /metrics on)');
  }
  if (mode !== 'port' && portSet) {
    reader.problem('METRICS_PORT', `METRICS_PORT is only for METRICS=port, not METRICS=${mode}`);
  }
  const fallback = [...workerQueues, ...(saleTask === undefined ? [] : [MARKET_SALES_QUEUE])];
  return {
    mode,
    port: values.METRICS_PORT,
    host: values.METRICS_HOST,
    queues: values.METRICS_QUEUES ?? [...new Set(fallback)],
  };
}
