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
