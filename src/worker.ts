// Worker process entry point (`npm run worker`): runs the handlers in TASK_HANDLERS for the
// queues in WORKER_QUEUES against the Redis at REDIS_URL, until SIGTERM or SIGINT.
import { loadConfigOrExit } from './config';
import { createLogger } from './logger';
import { closeRedis, connectRedis } from './redis/connection';
import { TaskRepository } from './redis/tasks';
import { loadHandlers } from './workers/task-handlers';
import { startTaskRunner } from './workers/task-runner';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel);
  const missing = [
    config.redisUrl === undefined &&
      config.redisCluster === undefined &&
      'REDIS_URL or REDIS_CLUSTER_NODES (the API server\'s embedded Redis is its own; or run the handlers inside the API with TASK_WORKER=on)',
    config.worker.queues.length === 0 && 'WORKER_QUEUES (comma-separated queue names)',
    config.worker.handlersModule === undefined && 'TASK_HANDLERS (path of the module exporting your handlers)',
  ].filter(Boolean);
  if (missing.length > 0) {
    console.error(`The worker needs:\n  - ${missing.join('\n  - ')}`);
    process.exit(1);
  }

  try {
    const handlers = await loadHandlers(config.worker.handlersModule!);
    const redis = config.redisCluster ?? config.redisUrl!;
    const commands = await connectRedis(redis, { name: 'ria:task-commands', logger, commandTimeoutMs: 5000, replicaWait: config.redisWait });
    const runner = await startTaskRunner({
      redis,
      commands,
      repository: new TaskRepository(commands, config.tasks),
      handlers,
      tasks: config.tasks,
      worker: config.worker,
      logger,
    });
    // As the API does: a bug reported as one JSON log line, not a raw stack trace; the tasks in
    // hand run again elsewhere once their leases lapse.
    for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
      process.on(event, (error: unknown) => {
        logger.fatal({ err: error }, event === 'uncaughtException' ? 'uncaught exception' : 'unhandled promise rejection');
        process.exit(1);
      });
    }
    let stopping = false;
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.on(signal, () => {
        if (stopping) process.exit(1);
        stopping = true;
        logger.info({ signal }, 'stopping: finishing the tasks in hand');
        runner
          .stop(config.shutdownTimeoutMs)
          .then(() => closeRedis(commands))
          .then(
            () => process.exit(0),
            (error: unknown) => {
              logger.error({ err: error }, 'error while stopping');
              process.exit(1);
            },
          );
      });
    }
  } catch (error) {
    logger.fatal({ err: error }, `worker start-up failed: ${(error as Error).message}`);
    process.exit(1);
  }
}

void main();
