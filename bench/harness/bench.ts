// The context a suite's scenario runs in: its own redis-server, connections and server processes
// closed however the run ends, the report, and progress. A suite file calls bench() once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Redis, { type RedisOptions } from 'ioredis';
import pino from 'pino';
import { EmbeddedRedis } from '../../src/redis/client/embedded';
import { defineScripts } from '../../src/redis/client/scripts';
import { uncounted } from './round-trips';
import type { ServerProcess } from './server-process';
import { isQuick, progress, Steps, SuiteReport, type BenchResult } from './suite';

function context(url: string, report: SuiteReport, cleanups: (() => unknown)[]) {
  /**
   * A new connection (counted), disconnected when the suite ends; with our scripts defined unless
   * `plain`: a peer's connection, since ioredis copies every defined script onto each MULTI it sends.
   */
  const connect = (options: RedisOptions = {}, plain = false): Redis => {
    const client = new Redis(url, options);
    if (!plain) defineScripts(client);
    cleanups.push(() => client.disconnect());
    return client;
  };
  return {
    quick: isQuick(),
    report,
    /** redis://127.0.0.1:port of the suite's own redis-server. */
    url,
    /** Left out of the round-trip counts: INFO, CONFIG, seeding, checks. */
    admin: uncounted(connect()),
    connect,
    /** Waits for a server process to start and stops it when the suite ends, also one still starting then. */
    server(started: Promise<ServerProcess>): Promise<ServerProcess> {
      cleanups.push(async () => (await started.catch(() => undefined))?.stop());
      return started;
    },
    /** Runs `cleanup` when the suite ends, the last deferred first. */
    defer: (cleanup: () => unknown): void => void cleanups.push(cleanup),
    steps: (total: number): Steps => new Steps(total),
  };
}

export type Bench = ReturnType<typeof context>;

/** Runs a suite with its context and reports the result; a failure prints the error and exits 1. */
export function bench({ id: suite, title }: { id: string; title: string }, scenario: (b: Bench) => Promise<void>) {
  const started = performance.now();
  const report = new SuiteReport();
  const run = async (): Promise<void> => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-bench-'));
    const redis = await EmbeddedRedis.start({ dataDir, appendOnly: false, logger: pino({ level: 'silent' }) });
    const cleanups: (() => unknown)[] = [];
    try {
      await scenario(context(redis.url, report, cleanups)).finally(async () => {
        for (const cleanup of cleanups.reverse()) await cleanup();
      });
    } finally {
      await redis.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    progress(1, 'done');
    const { figures, tables, notes } = report;
    const seconds = (performance.now() - started) / 1000;
    const result: BenchResult = { suite, title, quick: isQuick(), seconds, figures, tables, notes };
    if (process.send)
      await new Promise<void>((resolve, reject) =>
        process.send!({ type: 'result', result }, (error: Error | null) => (error ? reject(error) : resolve())),
      );
    // The IPC channel would keep this process alive after its work is done.
    if (process.connected) process.disconnect();
  };
  run().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
