// Process entry point: configuration, start-up, development tokens, signals and exit codes.
import 'reflect-metadata';
import { loadConfigOrExit } from './config';
import { createLogger, type Logger } from './common/logger';
import { startServer, type RunningServer } from './app/server';

const DEV_TOKEN_SECONDS = 30 * 24 * 3600;

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel);

  let server: RunningServer;
  try {
    server = await startServer(config, logger);
  } catch (error) {
    logger.fatal({ err: error }, `start-up failed: ${(error as Error).message}`);
    process.exit(1);
  }
  logger.info(
    { url: server.url, env: config.nodeEnv, embeddedRedis: server.embeddedRedis !== undefined },
    `listening on ${server.url}`,
  );
  if (server.usesDevelopmentSecret && !config.isProduction) printDevelopmentTokens(server, logger);

  let stopping = false;
  const shutdown = (exitCode: number, reason: string): void => {
    if (stopping) return;
    stopping = true;
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
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception');
    shutdown(1, 'uncaught exception');
  });
  // A rejected promise nobody awaited (a task handler's stray promise, with TASK_WORKER=on)
  // leaves nothing half-done, unlike an exception thrown through a synchronous update: an error
  // line, and the process serves on.
  process.on('unhandledRejection', (error) => logger.error({ err: error }, 'unhandled promise rejection'));
}

/** So that Sandbox works at once: paste one of these as the Authorization header. */
function printDevelopmentTokens(server: RunningServer, logger: Logger): void {
  const user = server.verifier.sign('dev-user', [], DEV_TOKEN_SECONDS);
  const service = server.verifier.sign('dev-service', ['service'], DEV_TOKEN_SECONDS);
  logger.info(
    { userAuthorization: `Bearer ${user}`, serviceAuthorization: `Bearer ${service}` },
    'JWT_SECRET is unset: development tokens (valid 30 days) for the Authorization header',
  );
}

void main();
