// Settings of task queues: the size of a task, its delays, retries and run time, and how much a
// queue keeps. The list shape of queue names is here too, for the workers' and metrics' settings.
import { z } from 'zod';
import { int, type SettingDomain, type SettingsReader } from '../common/settings';
import type { TaskSettings } from './task';

/** Queue names, comma-separated: trimmed, NFC, each once, at most 64. */
export const queueList = z.string().transform((value, context) => {
  const queues = [...new Set(value.split(',').map((part) => part.trim().normalize('NFC')))];
  if (queues.length > 64 || !queues.every((queue) => /^[\p{L}\p{N}\p{M}_\-./@]{1,128}$/u.test(queue))) {
    context.addIssue({
      code: 'custom',
      message: `must be a comma-separated list of at most 64 queue names, got "${value}"`,
    });
    return z.NEVER;
  }
  return queues;
});

const SETTINGS = {
  TASK_MAX_ARGS_BYTES: int({
    default: 64 * 1024,
    min: 64,
    max: 1024 * 1024,
    description: 'Largest task `args` and handler result, as JSON in UTF-8 bytes.',
  }),
  TASK_MAX_DELAY_MS: int({
    default: 7 * 86_400_000,
    defaultText: '`604800000` (7 days)',
    min: 1000,
    max: 2_147_483_647,
    description: 'Longest `delayMs` of `enqueueTask` and `rescheduleTask`.',
  }),
  TASK_MAX_ATTEMPTS: int({ default: 5, min: 1, max: 100, description: 'Runs of a task before it is `FAILED`.' }),
  TASK_BACKOFF_MS: int({
    default: 1000,
    min: 0,
    max: 3_600_000,
    description: 'Wait before the first retry; doubled for each further one, up to `TASK_MAX_BACKOFF_MS`.',
  }),
  TASK_MAX_BACKOFF_MS: int({ default: 600_000, min: 0, max: 86_400_000, description: 'Longest wait before a retry.' }),
  TASK_VISIBILITY_TIMEOUT_MS: int({
    default: 30_000,
    min: 1000,
    max: 3_600_000,
    description: 'A running task whose worker stops renewing its lease for this long runs again.',
  }),
  TASK_RUN_TIMEOUT_MS: int({
    default: 300_000,
    min: 100,
    max: 86_400_000,
    description: 'Longest run of a handler; a longer one is stopped and counts as a failed run.',
  }),
  TASK_HISTORY: int({
    default: 10_000,
    min: 1,
    max: 1_000_000,
    bounds: '1 to 1000000, lower than `TASK_MAX_PER_QUEUE`',
    description: 'Finished tasks remembered per queue (with their idempotency keys).',
  }),
  TASK_MAX_PER_QUEUE: int({
    default: 1_000_000,
    min: 10,
    max: 100_000_000,
    description: 'Most tasks in one queue, history included; more get `CONFLICT`.',
  }),
  TASK_MAX_BATCH: int({
    default: 1000,
    min: 1,
    max: 10_000,
    description: 'Most tasks one `enqueueTasks` call may hold (the request is bounded by `BODY_LIMIT_BYTES` too).',
  }),
  TASK_MAX_SCHEDULES: int({
    default: 1000,
    min: 1,
    max: 100_000,
    description: 'Most repeating-task schedules per queue; more get `CONFLICT`.',
  }),
} as const;

export const TASK_SETTINGS: SettingDomain = {
  title: 'Task queues',
  summary: 'What one task may carry, how it is retried, and how much one queue holds.',
  settings: SETTINGS,
};

export interface TaskConfig extends TaskSettings {
  /** Largest `args` of a task, and largest result, as JSON in UTF-8 bytes. */
  maxArgsBytes: number;
  /** Longest `delayMs` of enqueueTask and rescheduleTask. */
  maxDelayMs: number;
  /** A taken task whose worker stops answering for this long goes back to waiting. */
  visibilityMs: number;
  /** Longest one run of a handler may take before it is stopped and counted as failed. */
  runTimeoutMs: number;
  /** Most tasks one enqueueTasks call may hold (the request's size is bounded by BODY_LIMIT_BYTES too). */
  maxBatch: number;
  /** Most repeating-task schedules one queue may hold. */
  maxSchedules: number;
}

export function readTasks(reader: SettingsReader): TaskConfig {
  const values = reader.read(SETTINGS);
  if (values.TASK_HISTORY >= values.TASK_MAX_PER_QUEUE) {
    // Finished tasks count against the queue's limit: a history as large would fill it for good.
    reader.problem('TASK_HISTORY', 'TASK_HISTORY must be lower than TASK_MAX_PER_QUEUE');
  }
  return {
    maxArgsBytes: values.TASK_MAX_ARGS_BYTES,
    maxDelayMs: values.TASK_MAX_DELAY_MS,
    maxAttempts: values.TASK_MAX_ATTEMPTS,
    backoffMs: values.TASK_BACKOFF_MS,
    maxBackoffMs: values.TASK_MAX_BACKOFF_MS,
    visibilityMs: values.TASK_VISIBILITY_TIMEOUT_MS,
    runTimeoutMs: values.TASK_RUN_TIMEOUT_MS,
    history: values.TASK_HISTORY,
    maxTasksPerQueue: values.TASK_MAX_PER_QUEUE,
    maxBatch: values.TASK_MAX_BATCH,
    maxSchedules: values.TASK_MAX_SCHEDULES,
  };
}
