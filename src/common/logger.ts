// The process's one way to write: pino, as JSON lines (one object per line, so log shippers need
// no parsing rules), or as readable lines for a developer at a terminal (log-pretty.ts).
import pino, { type DestinationStream, type Logger } from 'pino';
import { prettyDestination } from './log-pretty';

export type { Logger };
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
/** LOG_FORMAT: `auto` is readable lines outside production on a terminal, JSON otherwise. */
export type LogFormat = 'json' | 'pretty' | 'auto';
export const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty', 'auto'];

/** What `auto` becomes: a person reads a terminal; anything else (a pipe, a file, a shipper) reads JSON. */
export function chooseLogFormat(
  format: LogFormat,
  where: { production: boolean; terminal: boolean },
): Exclude<LogFormat, 'auto'> {
  if (format !== 'auto') return format;
  return !where.production && where.terminal ? 'pretty' : 'json';
}

/**
 * `output` is for tests; the process writes to stdout, in colour on a terminal that has it. Pretty
 * lines are formatted and written synchronously in this thread (not by pino's worker-thread
 * transport), so a line logged just before process.exit is never lost; pino's own JSON stream
 * flushes itself on exit.
 */
export function createLogger(
  level: LogLevel,
  format: Exclude<LogFormat, 'auto'> = 'json',
  output: { destination?: DestinationStream; colorize?: boolean } = {},
): Logger {
  const options = {
    level,
    base: { service: 'redis-in-action-graphql' },
    // Tokens must never reach the logs, whatever a log call is handed. Applied before the line is
    // serialised, so the pretty format gets it too.
    redact: ['req.headers.authorization', 'headers.authorization', '*.authorization', 'token'],
  };
  const { destination, colorize } = output;
  if (format === 'pretty')
    return pino(options, prettyDestination(destination ?? pino.destination({ sync: true }), colorize));
  return destination ? pino(options, destination) : pino(options);
}

/** The logger of an entry point (main.ts, worker.ts): LOG_FORMAT decided against its stdout. */
export function processLogger(level: LogLevel, format: LogFormat, production: boolean): Logger {
  return createLogger(level, chooseLogFormat(format, { production, terminal: process.stdout.isTTY === true }));
}

/**
 * Node's warnings (MaxListenersExceededWarning, deprecations, experimental features) as warn lines
 * with code NODE_WARNING, in place of Node's own listener, which prints them to stderr as text.
 * Called before the entry point's first await: warnings are emitted on the next tick, so none
 * raised while the modules loaded is missed.
 */
export function logProcessWarnings(logger: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error & { code?: string }) =>
    logger.warn({ code: 'NODE_WARNING', warning: warning.name, nodeCode: warning.code }, warning.message),
  );
}
