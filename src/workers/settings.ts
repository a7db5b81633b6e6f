// Settings of the task workers: which queues this process works on, with which handlers, how
// many tasks at once, and whether the API process runs them too.
import { flag, int, parsed, text, type SettingDomain, type SettingsReader } from '../common/settings';
import { queueList } from '../redis/task.settings';

const SETTINGS = {
  WORKER_QUEUES: parsed({
    type: 'list',
    bounds: 'at most 64 queue names, comma-separated',
    default: [],
    defaultText: 'none',
    schema: queueList,
    description: 'Queues the worker process (or the API with `TASK_WORKER=on`) works on.',
  }),
  WORKER_CONCURRENCY: int({ default: 4, min: 1, max: 256, description: 'Tasks run at once per queue and process.' }),
  TASK_HANDLERS: text({
    default: undefined,
    description: 'Path of the module that exports your handlers by task name.',
  }),
  TASK_WORKER: flag({
    default: false,
    bounds: 'on/off; `on` needs `WORKER_QUEUES` and `TASK_HANDLERS`',
    description: 'Also run workers inside the API process.',
  }),
} as const;

export const WORKER_SETTINGS: SettingDomain = {
  title: 'Task workers',
  summary: 'Which queues this process works on (`npm run worker`, or the API with `TASK_WORKER=on`).',
  settings: SETTINGS,
};

export interface WorkerConfig {
  /** Queues this process works on (WORKER_QUEUES); empty: none. */
  queues: string[];
  /** Tasks run at once per queue. */
  concurrency: number;
  /** Module that exports the handlers by task name (TASK_HANDLERS). */
  handlersModule: string | undefined;
  /** Whether the API process runs workers too (TASK_WORKER=on). */
  inApi: boolean;
}

export function readWorker(reader: SettingsReader): WorkerConfig {
  const values = reader.read(SETTINGS);
  const worker = {
    queues: values.WORKER_QUEUES,
    concurrency: values.WORKER_CONCURRENCY,
    handlersModule: values.TASK_HANDLERS,
    inApi: values.TASK_WORKER,
  };
  if (worker.inApi && (worker.queues.length === 0 || worker.handlersModule === undefined)) {
    reader.problem('TASK_WORKER', 'TASK_WORKER=on needs WORKER_QUEUES and TASK_HANDLERS');
  }
  return worker;
}
