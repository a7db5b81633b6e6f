// The context a suite's scenario runs in: its own redis-server, connections and server processes
// that are closed however the run ends, the report, and progress. A suite file calls bench() once
// and holds only its scenario.
import Redis, { type RedisOptions } from 'ioredis';
import { defineScripts } from '../../src/redis/client/scripts';
import { uncounted } from './round-trips';
import type { ServerProcess } from './server-process';
import { isQuick, progress, reportResult } from './report';
import { Steps, SuiteReport } from './suite';
import { withBenchRedis } from './support';

export interface Bench {
  quick: boolean;
  report: SuiteReport;
  /** redis://127.0.0.1:port of the suite's own redis-server. */
  url: string;
  /** A connection left out of the round-trip counts, scripts defined: INFO, CONFIG, seeding, checks. */
  admin: Redis;
  /** A new connection (counted), scripts defined, disconnected when the suite ends. */
  connect(options?: RedisOptions): Redis;
  /** Waits for a server process to start and stops it when the suite ends. */
  server(started: Promise<ServerProcess>): Promise<ServerProcess>;
  /** Runs `cleanup` when the suite ends, the last deferred first. */
  defer(cleanup: () => unknown): void;
  /** A progress counter of `total` steps. */
  steps(total: number): Steps;
}

export interface BenchOptions {
  /** Stable suite id, as `npm run bench -- --only` names it. */
  id: string;
  title: string;
}

/**
 * Runs a suite: starts its redis-server, hands the context to `scenario`, cleans up, and reports
 * the result over IPC when run by bench/run.ts, to BENCH_RESULT_FILE when that is set. A failure
 * prints the error and exits 1, with no result.
 */
export function bench(options: BenchOptions, scenario: (b: Bench) => Promise<void>): void {
  const started = performance.now();
  const quick = isQuick();
  const report = new SuiteReport();
  withBenchRedis(async (url) => {
    const cleanups: (() => unknown)[] = [];
    const connect = (redisOptions: RedisOptions = {}): Redis => {
      const client = new Redis(url, redisOptions);
      defineScripts(client);
      cleanups.push(() => client.disconnect());
      return client;
    };
    const context: Bench = {
      quick,
      report,
      url,
      admin: uncounted(connect()),
      connect,
      async server(started) {
        const server = await started;
        cleanups.push(() => server.stop());
        return server;
      },
      defer: (cleanup) => void cleanups.push(cleanup),
      steps: (total) => new Steps(total),
    };
    try {
      await scenario(context);
    } finally {
      for (const cleanup of cleanups.reverse()) await cleanup();
    }
  })
    .then(async () => {
      progress(1, 'done');
      const { figures, tables, notes } = report;
      const seconds = (performance.now() - started) / 1000;
      await reportResult({ suite: options.id, title: options.title, quick, seconds, figures, tables, notes });
      // The IPC channel would keep this process alive after its work is done.
      if (process.connected) process.disconnect();
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
