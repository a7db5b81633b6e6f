// Process entry point: configuration, start-up, the banner, signals and exit codes.
import 'reflect-metadata';
import { loadConfigOrExit, type Config } from './config';
import { logProcessWarnings, processLogger } from './common/logger';
import { startServer, type RunningServer } from './app/server';

const DEV_TOKEN_SECONDS = 30 * 24 * 3600;

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = processLogger(config.logLevel, config.logFormat, config.isProduction);
  logProcessWarnings(logger);

  let server: RunningServer | undefined;
  let stopping = false;
  const shutdown = (exitCode: number, reason: string): void => {
    if (stopping) return;
    stopping = true;
    if (!server) process.exit(exitCode);
    logger.info({ reason }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 5000);
    force.unref();
    server.stop().then(
      () => {
        logger.info('stopped');
        process.exit(exitCode);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  // From the start, so nothing thrown while starting reaches stderr as a bare stack trace.
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception');
    shutdown(1, 'uncaught exception');
  });
  // A rejected promise nobody awaited (a task handler's stray promise, with TASK_WORKER=on)
  // leaves nothing half-done, unlike an exception thrown through a synchronous update: an error
  // line, and the process serves on.
  process.on('unhandledRejection', (error) => logger.error({ err: error }, 'unhandled promise rejection'));

  try {
    server = await startServer(config, logger);
  } catch (error) {
    logger.fatal({ err: error }, `start-up failed: ${(error as Error).message}`);
    process.exit(1);
  }
  logger.info(banner(server, config), `listening on ${server.url}`);

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) {
        logger.warn(`second ${signal}: exiting now`);
        process.exit(1);
      }
      shutdown(0, signal);
    });
  }
  server.embeddedRedis?.on('unexpected-exit', () => shutdown(1, 'embedded redis-server exited'));
}

/**
 * The start-up line: where everything is, and (only with a generated development secret) two
 * tokens to paste as Sandbox's Authorization header. One JSON line, or a block in the pretty
 * format; the only line that ever holds a token.
 */
function banner(server: RunningServer, config: Config): Record<string, unknown> {
  const base = server.url.replace(/\/graphql$/, '');
  const fields: Record<string, unknown> = {
    banner: true,
    url: server.url,
    sandbox: config.isProduction ? undefined : server.url,
    app: config.webApp.enabled ? `${base}/app/` : undefined,
    metrics: metricsWhere(server, config, base),
    env: config.nodeEnv,
    embeddedRedis: server.embeddedRedis !== undefined,
  };
  if (server.usesDevelopmentSecret && !config.isProduction) {
    fields.tokenNote = 'JWT_SECRET is unset: development tokens (30 days); paste one as the Authorization header';
    fields.userAuthorization = `Bearer ${server.verifier.sign('dev-user', [], DEV_TOKEN_SECONDS)}`;
    fields.serviceAuthorization = `Bearer ${server.verifier.sign('dev-service', ['service'], DEV_TOKEN_SECONDS)}`;
  }
  return fields;
}

/** Where GET /metrics answers, and to whom. */
function metricsWhere(server: RunningServer, config: Config, base: string): string | undefined {
  if (config.metrics.mode === 'off') return undefined;
  if (config.metrics.mode === 'port') return server.metricsUrl;
  return `${base}/metrics (service token)`;
}

void main();
