// Structured JSON logs (pino): one object per line, so log shippers need no parsing rules.
import pino, { type Logger } from 'pino';

export type { Logger };
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export function createLogger(level: LogLevel): Logger {
  return pino({
    level,
    base: { service: 'redis-in-action-graphql' },
    // Tokens must never reach the logs, whatever a log call is handed.
    redact: ['req.headers.authorization', 'headers.authorization', '*.authorization', 'token'],
  });
}
