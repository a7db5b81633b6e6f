// The push queue's workers in this process (the API, or `npm run worker`), when a provider is set
// up and PUSH_WORKER is on: the task runner with the push handlers, and the providers' clients,
// closed after the last run in hand has finished.
import type { Logger } from '../common/logger';
import type { PushConfig } from '../push/settings';
import type { RedisClient, RedisTarget } from '../redis/client/connection';
import { PUSH_QUEUE } from '../redis/keys';
import type { PushDecisions } from '../redis/push/decisions';
import type { Config, TaskConfig } from '../config';
import type { TaskRepository } from '../redis/task';
import { closePushSenders, type PushSenders } from '../push/providers';
import { pushHandlers, type TargetRemover } from './push-handlers';
import { startTaskRunner } from './task-runner';

export interface PushRunnerOptions {
  redis: RedisTarget;
  commands: RedisClient;
  tasks: TaskRepository;
  taskConfig: TaskConfig;
  decisions: PushDecisions;
  targets: TargetRemover;
  senders: PushSenders;
  config: PushConfig;
  logger: Logger;
}

/** How long a device stays a push candidate, and how long the marks of pushes made are kept. */
export function pushDecisionSettings(config: Config): { deviceLifetimeMs: number; markLifetimeMs: number } {
  return {
    deviceLifetimeMs: config.messaging.deviceTtlSeconds * 1000,
    // A mark must outlive the push it stands for, retries included.
    markLifetimeMs: config.push.maxAgeSeconds * 1000 + 3_600_000,
  };
}

export function hasProvider(config: PushConfig): boolean {
  return config.webPush !== undefined || config.apns !== undefined || config.fcm !== undefined;
}

export async function startPushRunner(options: PushRunnerOptions): Promise<{ stop(graceMs: number): Promise<void> }> {
  const { config, senders, logger } = options;
  const runner = await startTaskRunner({
    redis: options.redis,
    commands: options.commands,
    repository: options.tasks,
    handlers: pushHandlers(options),
    tasks: options.taskConfig,
    worker: { queues: [PUSH_QUEUE], concurrency: config.concurrency, handlersModule: undefined, inApi: false },
    logger,
  });
  logger.info({ providers: Object.keys(senders), concurrency: config.concurrency }, 'push workers started');
  return {
    stop: async (graceMs) => {
      await runner.stop(graceMs);
      await closePushSenders(senders);
    },
  };
}
