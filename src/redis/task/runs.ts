// The workers' and pollers' side: taking tasks under a lease, renewing it, reporting progress,
// settling a run (and taking the next in the same round trip), and the poller's step that moves
// due tasks and runs whose lease ran out.
import { runScript } from '../client/scripts';
import { decode, orUndefined, type TaskStore } from './store';
import type { Outcome, TakenTask, TaskState } from './types';

/** Most tasks one poller step moves, expires or forgets, so one script never runs long. */
const PROMOTE_BATCH = 1000;

type Run = Pick<TakenTask, 'number' | 'attempt'>;

export async function progress(store: TaskStore, queue: string, run: Run, json: string): Promise<boolean> {
  const keys = store.keysOf(queue);
  const recorded = await runScript(
    store.redis,
    'task-progress',
    [keys.meta, keys.progress],
    [queue, run.number, run.attempt, json],
  );
  return Number(recorded) === 1;
}

export async function extend<R extends Run>(store: TaskStore, queue: string, runs: R[], leaseMs: number): Promise<R[]> {
  if (runs.length === 0) return [];
  const keys = store.keysOf(queue);
  const held = (await runScript(
    store.redis,
    'task-extend',
    [keys.meta, keys.active],
    [leaseMs, ...runs.flatMap((run) => [run.number, run.attempt])],
  )) as number[];
  return runs.filter((_, i) => held[i] !== 1);
}

/** Settles `ended` (when given) and takes up to `count` tasks, in one task-next script. */
export async function next(
  store: TaskStore,
  queue: string,
  ended: { run: Run; outcome: Outcome } | undefined,
  count: number,
  leaseMs: number,
): Promise<{ state: TaskState | undefined; taken: TakenTask[] }> {
  const keys = store.keysOf(queue);
  const outcome = ended?.outcome;
  const kind =
    outcome === undefined
      ? ''
      : outcome.kind === 'COMPLETED'
        ? 'COMPLETED'
        : outcome.retry
          ? 'FAILED'
          : 'FAILED_FOR_GOOD';
  const detail = outcome === undefined ? '' : outcome.kind === 'COMPLETED' ? (outcome.result ?? '') : outcome.error;
  const [state, ...rest] = (await runScript(
    store.redis,
    'task-next',
    [
      keys.meta,
      keys.args,
      keys.results,
      keys.errors,
      keys.active,
      keys.delayed,
      keys.done,
      keys.counts,
      keys.idempotency,
      keys.pollerWake,
      keys.workerWake,
      ...keys.lists,
      keys.progress,
      keys.paused,
    ],
    [
      queue,
      ended === undefined ? '' : ended.run.number,
      ended === undefined ? 0 : ended.run.attempt,
      kind,
      detail,
      store.settings.backoffMs,
      store.settings.maxBackoffMs,
      store.settings.history,
      count,
      leaseMs,
    ],
  )) as [string, ...(string | number)[]];
  const taken: TakenTask[] = [];
  for (let i = 0; i < rest.length; i += 3) {
    const record = decode(queue, rest[i], String(rest[i + 1]));
    const run: TakenTask = {
      id: record.id,
      number: record.number,
      name: record.name,
      attempt: record.attempts,
      args: orUndefined(String(rest[i + 2])),
    };
    if (record.timeoutMs !== undefined) run.timeoutMs = record.timeoutMs;
    taken.push(run);
  }
  return { state: state === '' ? undefined : (state as TaskState), taken };
}

export async function promote(
  store: TaskStore,
  queue: string,
): Promise<{ moved: number; expired: number; nextInMs: number; full: boolean }> {
  const keys = store.keysOf(queue);
  const [moved, expired, nextInMs, forgotten] = (await runScript(
    store.redis,
    'task-promote',
    [
      keys.meta,
      keys.delayed,
      keys.active,
      ...keys.lists,
      keys.workerWake,
      keys.errors,
      keys.done,
      keys.counts,
      keys.idempotency,
      keys.args,
      keys.results,
      keys.progress,
    ],
    [queue, PROMOTE_BATCH, store.settings.backoffMs, store.settings.maxBackoffMs, store.settings.history],
  )) as [number, number, number, number];
  return { moved, expired, nextInMs, full: [moved, expired, forgotten].includes(PROMOTE_BATCH) };
}
