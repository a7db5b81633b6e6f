// A pino logger whose JSON lines the test can read back.
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Logger } from '../../src/common/logger';

export interface CapturedLogs {
  logger: Logger;
  lines: Record<string, unknown>[];
}

export function captureLogs(level: pino.Level = 'info'): CapturedLogs {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

/**
 * Waits for a log line that `match` accepts and returns it: for work whose length depends on the
 * machine (opening a database, a worker's first round), the line is the event to wait for.
 * `timeoutMs` is only a safety net, for a line that never comes.
 */
export async function waitForLine(
  lines: readonly Record<string, unknown>[],
  match: (line: Record<string, unknown>) => boolean,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = lines.find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no such log line within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
