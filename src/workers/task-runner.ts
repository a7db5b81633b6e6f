// Workers and pollers for the queues of one process (the worker process, or the API process with
// TASK_WORKER=on). Each worker and each poller blocks on a connection of its own, never on the
// one that serves requests.
import type { RedisClient } from '../redis/client/connection';
import type { TaskConfig, WorkerConfig } from '../config';
import type { Logger } from '../common/logger';
import { connectRedis, type RedisTarget } from '../redis/client/connection';
import type { TaskRepository } from '../redis/task';
import type { TaskHandlers } from './task-handlers';
import { TaskPoller } from './task-poller';
import { TaskWorker } from './task-worker';

export interface TaskRunnerOptions {
  redis: RedisTarget;
  /** The process's command connection, which the pollers use to end their blocking pops on time. */
  commands: RedisClient;
  repository: TaskRepository;
  handlers: TaskHandlers;
  tasks: TaskConfig;
  worker: WorkerConfig;
  logger: Logger;
}

export interface TaskRunner {
  workers: TaskWorker[];
  pollers: TaskPoller[];
  stop(graceMs: number): Promise<void>;
}

export async function startTaskRunner(options: TaskRunnerOptions): Promise<TaskRunner> {
  const { redis, commands, repository, handlers, tasks, worker, logger } = options;
  const workers: TaskWorker[] = [];
  const pollers: TaskPoller[] = [];
  const stop = async (graceMs: number): Promise<void> => {
    await Promise.all([...workers.map((one) => one.stop(graceMs)), ...pollers.map((one) => one.stop())]);
  };
  try {
    for (const queue of worker.queues) {
      const workerConnection = await connectRedis(redis, { name: `ria:task-worker:${queue}`, logger });
      workers.push(
        new TaskWorker({
          queue,
          repository,
          blocking: workerConnection,
          handlers,
          concurrency: worker.concurrency,
          leaseMs: tasks.visibilityMs,
          runTimeoutMs: tasks.runTimeoutMs,
          maxResultBytes: tasks.maxArgsBytes,
          logger,
        }),
      );
      const pollerConnection = await connectRedis(redis, { name: `ria:task-poller:${queue}`, logger });
      pollers.push(new TaskPoller({ queue, repository, blocking: pollerConnection, control: commands, logger }));
    }
  } catch (error) {
    await stop(0);
    throw error;
  }
  for (const one of [...pollers, ...workers]) one.start();
  logger.info(
    { queues: worker.queues, concurrency: worker.concurrency, handlers: Object.keys(handlers) },
    'task workers started',
  );
  return { workers, pollers, stop };
}
