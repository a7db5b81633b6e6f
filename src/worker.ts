// Worker process entry point (`npm run worker`): runs the handlers in TASK_HANDLERS for the
// queues in WORKER_QUEUES, and counts location log chunks (LOCATION_WORKER, on unless
// production), against the Redis at REDIS_URL, until SIGTERM or SIGINT.
import { loadConfigOrExit } from './config';
import { logProcessWarnings, processLogger } from './common/logger';
import { closeRedis, connectRedis } from './redis/client/connection';
import { TaskRepository } from './redis/task';
import { loadHandlers } from './workers/task-handlers';
import { startTaskRunner } from './workers/task-runner';
import { TaskScheduleRepository } from './redis/task-schedule';
import { TaskScheduler } from './workers/task-scheduler';
import { LocationRepository } from './redis/location/repository';
import { LocationAggregator } from './workers/location-aggregator';
import { lazyLocator } from './geo/ip-locator';
import { Registry } from 'prom-client';
import { processMetrics } from './metrics';
import { timeCommands } from './redis/client/command-timing';
import { startMetricsListener } from './transports/metrics';
import { createPushSenders } from './push/providers';
import { PushDecisions } from './redis/push/decisions';
import { PushTargets } from './redis/push/targets';
import { hasProvider, pushDecisionSettings, startPushRunner } from './workers/push-runner';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = processLogger(config.logLevel, config.logFormat, config.isProduction);
  logProcessWarnings(logger);
  // As the API does, from the start (loading the handlers' module runs its code): an uncaught
  // exception is one fatal log line and the end of the process, whose tasks in hand run again
  // elsewhere once their leases lapse; a rejected promise nobody awaited (a handler's stray
  // promise) is an error line, as it leaves nothing half-done.
  process.on('uncaughtException', (error: unknown) => {
    logger.fatal({ err: error }, 'uncaught exception');
    process.exit(1);
  });
  process.on('unhandledRejection', (error: unknown) => logger.error({ err: error }, 'unhandled promise rejection'));
  // Tasks are run unless LOCATION_WORKER=on was asked for with neither WORKER_QUEUES nor
  // TASK_HANDLERS: then the process only counts location logs.
  // Pushes are sent wherever a provider is set up (PUSH_WORKER=on, the default): a process may
  // do only that, with neither WORKER_QUEUES nor TASK_HANDLERS.
  const runsPush = config.push.worker && hasProvider(config.push);
  const noUserTasks = config.worker.queues.length === 0 && config.worker.handlersModule === undefined;
  const locationOnly = config.location.aggregate && config.location.aggregateAsked && noUserTasks;
  const runsTasks = !locationOnly && !(runsPush && noUserTasks);
  const missing = [
    config.redisUrl === undefined &&
      config.redisCluster === undefined &&
      "REDIS_URL or REDIS_CLUSTER_NODES (the API server's embedded Redis is its own; or run the handlers inside the API with TASK_WORKER=on)",
    runsTasks &&
      config.worker.queues.length === 0 &&
      'WORKER_QUEUES (comma-separated queue names), or LOCATION_WORKER=on alone to only count location logs',
    runsTasks &&
      config.worker.handlersModule === undefined &&
      'TASK_HANDLERS (path of the module exporting your handlers)',
  ].filter(Boolean);
  if (missing.length > 0) {
    logger.fatal({ code: 'CONFIG_INVALID' }, `The worker needs:\n  - ${missing.join('\n  - ')}`);
    process.exit(1);
  }

  try {
    const redis = config.redisCluster ?? config.redisUrl!;
    const commands = await connectRedis(redis, {
      name: 'ria:task-commands',
      logger,
      commandTimeoutMs: 5000,
      replicaWait: config.redisWait,
    });
    // A worker has no API port: its metrics are served only on a port of their own (METRICS=port).
    const metrics = config.metrics.mode === 'port' ? processMetrics(new Registry()) : undefined;
    if (metrics) timeCommands(commands, metrics.redis);
    const tasks = new TaskRepository(commands, config.tasks);
    const runner = runsTasks
      ? await startTaskRunner({
          redis,
          commands,
          repository: tasks,
          handlers: await loadHandlers(config.worker.handlersModule!),
          tasks: config.tasks,
          worker: config.worker,
          logger,
        })
      : undefined;
    // Repeating tasks are enqueued wherever their queue's pollers run.
    const push = runsPush
      ? await startPushRunner({
          redis,
          commands,
          tasks,
          taskConfig: config.tasks,
          decisions: new PushDecisions(commands, pushDecisionSettings(config)),
          targets: new PushTargets(commands, config.messaging),
          senders: await createPushSenders(config.push, logger),
          config: config.push,
          logger,
        })
      : undefined;
    const scheduler = runsTasks
      ? new TaskScheduler({
          queues: config.worker.queues,
          repository: new TaskScheduleRepository(commands, config.tasks),
          logger,
        })
      : undefined;
    scheduler?.start();
    const locations = new LocationRepository(commands, config.location);
    const aggregator = config.location.aggregate
      ? new LocationAggregator({
          repository: locations,
          locator: lazyLocator(config.location.databases),
          logger,
          ...config.location,
          onChunk: metrics?.location.chunk,
        })
      : undefined;
    aggregator?.start();
    metrics?.watchQueues(tasks, config.metrics.queues);
    if (aggregator) metrics?.watchLocationBacklog(locations);
    const listener = metrics
      ? await startMetricsListener({ registry: metrics.registry, ...config.metrics, logger })
      : undefined;
    logger.info(
      { tasks: runsTasks, push: runsPush, location: aggregator?.consumer ?? false, metrics: listener?.url },
      'worker started',
    );
    let stopping = false;
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.on(signal, () => {
        if (stopping) process.exit(1);
        stopping = true;
        logger.info({ signal }, 'stopping: finishing the tasks in hand');
        Promise.all([
          runner?.stop(config.shutdownTimeoutMs),
          push?.stop(config.shutdownTimeoutMs),
          scheduler?.stop(),
          aggregator?.stop(),
          listener?.close(),
        ])
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
