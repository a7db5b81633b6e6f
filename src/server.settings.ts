// Settings of the process itself: environment, listener, data directory, logging, request size,
// shutdown and the web app. Read by src/config.ts; the server in src/app uses the values.
import path from 'node:path';
import { LOG_FORMATS, type LogFormat, type LogLevel } from './common/logger';
import { flag, int, oneOf, text, type SettingDomain, type SettingsReader } from './common/settings';

type NodeEnv = 'development' | 'test' | 'production';

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const SETTINGS = {
  NODE_ENV: oneOf<NodeEnv, NodeEnv>(['development', 'test', 'production'], {
    default: 'development',
    description: 'Production hides error details and introspection, turns off Sandbox, and requires `JWT_SECRET`.',
  }),
  HOST: text({
    default: undefined,
    defaultText: '`127.0.0.1` (`0.0.0.0` in production)',
    description: 'Address to listen on.',
  }),
  PORT: int({ default: 4000, min: 0, max: 65535, description: 'Port for HTTP and WebSocket (`0` picks a free one).' }),
  DATA_DIR: text({
    default: '.data',
    defaultText: '`./.data`',
    description:
      'Embedded Redis data (append-only file, `appendfsync everysec`), the embedded PostgreSQL and the development JWT secret.',
  }),
  LOG_LEVEL: oneOf(LOG_LEVELS, { default: 'info', description: 'Least severe level written.' }),
  LOG_FORMAT: oneOf(LOG_FORMATS, {
    default: 'auto',
    description:
      '`json` (one object per line), `pretty` (readable lines, the banner as a block) or `auto`: pretty outside production when stdout is a terminal, JSON otherwise.',
  }),
  INTROSPECTION: flag({
    default: undefined,
    defaultText: '`on`, `off` in production',
    description: 'Schema introspection, over HTTP and WebSocket.',
  }),
  BODY_LIMIT_BYTES: int({
    default: 100 * 1024,
    min: 1024,
    max: 10 * 1024 * 1024,
    description: 'Largest HTTP request body.',
  }),
  SHUTDOWN_TIMEOUT_MS: int({
    default: 10_000,
    min: 100,
    max: 600_000,
    description: 'How long SIGTERM waits for requests and sockets to drain.',
  }),
  WEB_APP: flag({ default: true, description: 'Serve the reference web app at `/app`.' }),
  WEB_APP_DIR: text({ default: undefined, defaultText: '`dist/web`', description: 'Where the built web app is.' }),
} as const;

export const SERVER_SETTINGS: SettingDomain = {
  title: 'Server',
  summary: 'The process: its environment, listener, data directory, logging, request size and shutdown.',
  settings: SETTINGS,
};

export interface ServerConfig {
  nodeEnv: NodeEnv;
  isProduction: boolean;
  host: string;
  port: number;
  dataDir: string;
  logLevel: LogLevel;
  /** LOG_FORMAT: JSON lines, readable lines, or (auto) readable only outside production on a terminal. */
  logFormat: LogFormat;
  introspection: boolean;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  /** The reference web app at /app: off with WEB_APP=off; WEB_APP_DIR, where its build is. */
  webApp: { enabled: boolean; dir: string | undefined };
}

export function readServer(reader: SettingsReader): ServerConfig {
  const values = reader.read(SETTINGS);
  const isProduction = values.NODE_ENV === 'production';
  return {
    nodeEnv: values.NODE_ENV,
    isProduction,
    host: values.HOST ?? (isProduction ? '0.0.0.0' : '127.0.0.1'),
    port: values.PORT,
    dataDir: path.resolve(values.DATA_DIR),
    logLevel: values.LOG_LEVEL,
    logFormat: values.LOG_FORMAT,
    introspection: values.INTROSPECTION ?? !isProduction,
    bodyLimitBytes: values.BODY_LIMIT_BYTES,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    webApp: { enabled: values.WEB_APP, dir: values.WEB_APP_DIR },
  };
}
