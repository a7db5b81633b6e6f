// The task system's shapes: records as stored, runs handed to workers, requests and settings.
// A leaf module, so the scripts' callers and the API's types import them without the repository.
import type { TaskPriority } from '../keys';

export const TASK_STATES = ['DELAYED', 'WAITING', 'ACTIVE', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** A task as stored; times are unix ms by the Redis server's clock. */
export interface TaskRecord {
  id: string;
  queue: string;
  number: number;
  name: string;
  priority: TaskPriority;
  state: TaskState;
  runAt: number;
  attempts: number;
  maxAttempts: number;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  /** JSON text as the client sent it, or undefined. */
  args?: string;
  /** JSON text of the handler's result, or undefined. */
  result?: string;
  /** The last failed run's error, kept while the task runs again; a run that completes clears it. */
  error?: string;
  /** What the handler last reported of its progress (JSON text), or undefined. */
  progress?: string;
  /** The task's own first backoff and its kind, when it set them (else the queue's, doubling). */
  backoffMs?: number;
  backoff?: BackoffKind;
  /** The task's own run timeout, when it set one (else the workers' TASK_RUN_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Times retryTask gave it another set of runs. */
  retries?: number;
}

export const BACKOFF_KINDS = ['EXPONENTIAL', 'FIXED'] as const;
export type BackoffKind = (typeof BACKOFF_KINDS)[number];

/** A run handed to a worker: `attempt` identifies it when renewing and settling. */
export interface TakenTask {
  id: string;
  number: number;
  name: string;
  attempt: number;
  args: string | undefined;
  /** The task's own run timeout, if it set one. */
  timeoutMs?: number;
}

export interface QueueStats {
  paused: boolean;
  waiting: Record<TaskPriority, number>;
  delayed: number;
  active: number;
  completed: number;
  failed: number;
  cancelled: number;
}

/** What a queue holds undone, for the metrics scrape (task-depth.lua). */
export interface QueueDepth {
  waiting: number;
  delayed: number;
  active: number;
  paused: boolean;
  /** How long the longest-due task not yet taken has been due, by Redis's clock; 0 for none. */
  lagMs: number;
}

export interface EnqueueRequest {
  queue: string;
  name: string;
  /** JSON text, or undefined for no arguments. */
  args: string | undefined;
  priority: TaskPriority;
  delayMs: number;
  idempotencyKey: string | undefined;
  /** Runs before it is FAILED; the queue's TASK_MAX_ATTEMPTS when undefined. */
  maxAttempts?: number;
  /** First wait before a retry; the queue's TASK_BACKOFF_MS when undefined. */
  backoffMs?: number;
  /** EXPONENTIAL (doubling per run, the default) or FIXED. */
  backoff?: BackoffKind;
  /** Longest run; the workers' TASK_RUN_TIMEOUT_MS when undefined. */
  timeoutMs?: number;
}

/** One page of a queue's tasks in one state. */
export interface TaskPage {
  tasks: TaskRecord[];
  /** Where the next page starts; undefined when there is no next page. */
  cursor: string | undefined;
}

/** The orders task-list.lua knows: oldest first (ASC) or newest first (DESC). */
export type ListOrder = 'ASC' | 'DESC';

export type Outcome =
  | { kind: 'COMPLETED'; result: string | undefined }
  /** `retry: false` for errors that another run cannot fix (no handler for the name). */
  | { kind: 'FAILED'; error: string; retry: boolean };

export interface TaskSettings {
  /** Runs of a task before it is FAILED for good (the first run included). */
  maxAttempts: number;
  /** Wait before the first retry; doubled for each further one, up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Finished (completed, failed, cancelled) tasks remembered per queue. */
  history: number;
  /** Most tasks one queue may hold, waiting, delayed, active and remembered together. */
  maxTasksPerQueue: number;
}
