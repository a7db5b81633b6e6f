// The user's task handlers: a module (TASK_HANDLERS) that exports an object from task name to
// function, as `handlers` or as its default export. CommonJS and ES modules both load.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from '../common/logger';

interface TaskContext {
  /** The task's id, `<queue>:<number>`. */
  id: string;
  name: string;
  /** 1 on the first run, 2 on the first retry, ... */
  attempt: number;
  /** Aborted when the run times out, its lease is lost or the worker shuts down: stop soon. */
  signal: AbortSignal;
  logger: Logger;
  /**
   * Reports progress (any JSON up to 4 KB: a percentage, a step): stored on the task and told to
   * taskChanged subscribers. Resolves once written; reports made meanwhile are coalesced.
   */
  progress(value: unknown): Promise<void>;
}

/** Returns the result (anything JSON can hold) or throws to fail the run. */
export type TaskHandler = (args: unknown, context: TaskContext) => unknown;
export type TaskHandlers = Record<string, TaskHandler>;

export async function loadHandlers(modulePath: string): Promise<TaskHandlers> {
  const url = pathToFileURL(path.resolve(modulePath)).href;
  const loaded = (await import(url)) as { handlers?: unknown; default?: unknown };
  const defaultExport = loaded.default as { handlers?: unknown } | undefined;
  const handlers = loaded.handlers ?? defaultExport?.handlers ?? defaultExport;
  if (typeof handlers !== 'object' || handlers === null) {
    throw new Error(`${modulePath} must export \`handlers\`: an object from task name to function`);
  }
  if (Object.keys(handlers).length === 0) throw new Error(`${modulePath} exports no handlers`);
  const notFunctions = Object.entries(handlers)
    .filter(([, value]) => typeof value !== 'function')
    .map(([name]) => name);
  if (notFunctions.length > 0) throw new Error(`${modulePath}: handlers ${notFunctions.join(', ')} are not functions`);
  return handlers as TaskHandlers;
}

/** The handler for a task name, never one inherited from Object.prototype. */
export function handlerFor(handlers: TaskHandlers, name: string): TaskHandler | undefined {
  return Object.hasOwn(handlers, name) ? handlers[name] : undefined;
}
