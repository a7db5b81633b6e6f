// Structured JSON logs (pino): one object per line, so log shippers need no parsing rules.
import pino, { type Logger } from 'pino';
import type { LogLevel } from './config';

export type { Logger };

export function createLogger(level: LogLevel): Logger {
  return pino({
    level,
    base: { service: 'redis-in-action-graphql' },
    // Tokens must never reach the logs, whatever a log call is handed.
    redact: ['req.headers.authorization', 'headers.authorization', '*.authorization', 'token'],
  });
}
