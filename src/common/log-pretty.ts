// Readable log lines for a developer at a terminal (LOG_FORMAT=pretty): pino-pretty's formatter,
// one line per entry with its fields after the message, and the start-up banner (main.ts) as a
// block of labelled lines instead of a row of fields.
import { prettyFactory, isColorSupported } from 'pino-pretty';
import type { DestinationStream } from 'pino';

/** The banner line's fields, in the order and under the labels the block shows them. */
const BANNER_LABELS: Record<string, string> = {
  url: 'API',
  sandbox: 'Sandbox',
  app: 'Web app',
  metrics: 'Metrics',
  tokenNote: 'Tokens',
  userAuthorization: 'User token',
  serviceAuthorization: 'Service token',
};
const LABEL_WIDTH = Math.max(...Object.values(BANNER_LABELS).map((label) => label.length));

/**
 * A pino destination that writes each line readably to `destination`, in the caller's thread:
 * pino calls write() synchronously, so nothing waits in a buffer when the process exits.
 */
export function prettyDestination(
  destination: DestinationStream,
  colorize: boolean = isColorSupported,
): DestinationStream {
  const prettify = prettyFactory({
    colorize,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
    singleLine: true,
  });
  return {
    write(line: string): void {
      destination.write(isBanner(line) ? banner(line, prettify) : prettify(line));
    },
  };
}

/** A cheap look first: a string field holding this text would have its quotes escaped. */
const isBanner = (line: string): boolean => line.includes('"banner":true');

function banner(line: string, prettify: (log: object) => string): string {
  const log = JSON.parse(line) as Record<string, unknown>;
  if (log.banner !== true) return prettify(log);
  const header: Record<string, unknown> = {};
  const block: string[] = [];
  for (const [key, value] of Object.entries(log)) {
    if (key === 'banner') continue;
    if (key in BANNER_LABELS) continue;
    header[key] = value;
  }
  for (const [key, label] of Object.entries(BANNER_LABELS)) {
    if (log[key] !== undefined) block.push(`    ${label.padEnd(LABEL_WIDTH)}  ${String(log[key])}\n`);
  }
  return prettify(header) + block.join('');
}
