// Task queues under load: tasks enqueued with idempotency keys, run by a worker process the soak
// kills mid-task. Checks: every acknowledged task completes once, by a run the handler finished,
// and the killed worker's task ran again elsewhere. docs/development.md#soak.
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { until } from '../harness/rounds';
import { check, Load, none, sample, type Check } from './actor';

// `priority` left out: NORMAL.
const ENQUEUE = `mutation($queue: String!, $key: String!, $ms: Int!, $priority: TaskPriority) {
  enqueueTask(queue: $queue, name: "soak", args: { ms: $ms }, idempotencyKey: $key, priority: $priority) { id }
}`;
const TASK = `query($id: ID!) { task(id: $id) { id state attempts result error } }`;
const QUEUE = `query($name: String!) { queue(name: $name) { completed failed cancelled active delayed waitingHigh waitingNormal waitingLow } }`;

const PRODUCERS = 2;
/** How long a task under the kill works: long enough to be certainly mid-run when the worker dies. */
const LONG_TASK_MS = 4000;
const USER = 'soak-tasks';

/** A line of the handler's log (handlers.cjs): a run's start or end. */
type Run = { event: 'start' | 'end'; id: string; attempt: number; pid: number };
type Task = { ms: number; priority?: 'HIGH' };
type Final = { state: string; error: string | null; result: { pid: number; attempt: number } | null };

export class TaskLoad extends Load {
  readonly name = 'tasks';
  readonly queue = `soak-${this.soak.seed}`;
  /** idempotency key -> task id */
  private readonly tasks = new Map<string, string>();
  private readonly ids = new Set<string>();
  private readonly keyConflicts: string[] = [];
  /** Enqueues whose answer never came before the load stopped: sent again while draining. */
  private readonly unanswered: { key: string; task: Task }[] = [];
  private readonly finals = new Map<string, Final>();
  private completed: number | undefined;
  /** Tasks a killed worker had started and not finished, with the pid it had. */
  private readonly orphans = new Map<string, number>();
  private next = 0;
  protected readonly counts = { resent: 0 };

  protected clients() {
    return Array.from({ length: PRODUCERS }, () => () => this.produce());
  }

  /** Enqueues a long task, calls `kill` once worker `pid` runs it, and keeps what that pid left unfinished. */
  async killMidTask(pid: number, kill: () => Promise<void>): Promise<string> {
    const id = await this.enqueue({ ms: LONG_TASK_MS, priority: 'HIGH' }, () => false);
    if (!id) throw new Error('the long task was not enqueued');
    const started = () => this.runs().some((run) => run.id === id && run.event === 'start' && run.pid === pid);
    await until(started, `worker ${pid} did not start task ${id} within 30 s`, 30_000, 20);
    await kill();
    const runs = this.runs().filter((run) => run.pid === pid);
    const ended = new Set(runs.filter((run) => run.event === 'end').map((run) => `${run.id}/${run.attempt}`));
    for (const run of runs)
      if (run.event === 'start' && !ended.has(`${run.id}/${run.attempt}`)) this.orphans.set(run.id, pid);
    return id;
  }

  override async drain(deadline: number): Promise<void> {
    // The idempotency key makes a second send return the task the first stored, or store it now:
    // either way every key ends with one known task, and the queue's count must match exactly.
    for (const { key, task } of this.unanswered.splice(0)) await this.enqueue(task, () => Date.now() > deadline, key);
    const pending = new Set(this.tasks.values());
    while (pending.size > 0 && Date.now() < deadline) {
      for (const id of pending) {
        const outcome = await this.call<Final | null>(USER, TASK, { id }, true);
        if (outcome.kind !== 'ok' || outcome.data === null) continue;
        this.finals.set(id, outcome.data);
        if (['COMPLETED', 'FAILED', 'CANCELLED'].includes(outcome.data.state)) pending.delete(id);
      }
      if (pending.size > 0) await sleep(500);
    }
    const stats = await this.call<{ completed: number }>(USER, QUEUE, { name: this.queue }, true);
    if (stats.kind === 'ok') this.completed = stats.data.completed;
  }

  check(): Check[] {
    const ids = [...this.tasks.values()];
    const final = (id: string): Final | undefined => this.finals.get(id);
    const done = ids.filter((id) => final(id)?.state === 'COMPLETED');
    const notDone = ids
      .filter((id) => final(id)?.state !== 'COMPLETED')
      .map((id) => `${id}: ${final(id)?.state ?? 'unknown'} ${final(id)?.error ?? ''}`.trim());
    const runs = this.runs();
    const ends = new Set(runs.filter((run) => run.event === 'end').map((run) => `${run.id}/${run.attempt}/${run.pid}`));
    const unrecorded = done.filter((id) => {
      const result = final(id)?.result;
      return !result || !ends.has(`${id}/${result.attempt}/${result.pid}`);
    });
    const orphans = [...this.orphans].map(([id, pid]) => {
      const rerun = runs.some((run) => run.id === id && run.event === 'end' && run.pid !== pid);
      const by = final(id)?.state === 'COMPLETED' ? final(id)?.result?.pid : undefined;
      return { id, ok: rerun && by !== undefined && by !== pid };
    });
    const { unanswered, completed, counts } = this;
    return [
      none('tasks: every acknowledged task completed', notDone, `${ids.length} tasks`, ids.length > 0),
      none(
        'tasks: each once (one task per key, the queue counts each completion once)',
        this.keyConflicts,
        `${this.ids.size} distinct ids for ${ids.length} keys${unanswered.length ? ` and ${unanswered.length} never answered` : ''}; queue counts ${completed ?? 'unknown'} completed; ${counts.resent} enqueues sent again`,
        unanswered.length === 0 && this.ids.size === ids.length && completed === ids.length,
      ),
      none('tasks: the recorded result is a run the handler finished', unrecorded, `${ids.length} results matched`),
      check(
        'tasks: a task running when its worker was killed ran again and completed',
        orphans.length > 0 && orphans.every((o) => o.ok),
        `${orphans.length} left running by a killed worker: ${sample(orphans.map((o) => `${o.id} ${o.ok ? 'completed elsewhere' : 'NOT completed elsewhere'}`))}`,
      ),
    ];
  }

  override stats(): Record<string, number> {
    const [enqueued, unanswered, leftRunningByKill] = [this.tasks.size, this.unanswered.length, this.orphans.size];
    return { enqueued, resent: this.counts.resent, unanswered, leftRunningByKill };
  }

  private async produce(): Promise<void> {
    await this.enqueue({ ms: 20 + Math.floor(this.soak.random() * 200) }, this.stopped);
    await this.pause(100, 150);
  }

  private async enqueue(task: Task, stop: () => boolean, key = `soak-${this.soak.seed}-${this.next++}`) {
    const variables = { queue: this.queue, key, ...task };
    const outcome = await this.untilAnswered<{ id: string }>(stop, USER, ENQUEUE, variables, true);
    if (outcome === undefined) this.unanswered.push({ key, task });
    else if (outcome.kind !== 'ok') this.keyConflicts.push(`${key}: refused ${outcome.code} ${outcome.message}`);
    else {
      const { id } = outcome.data;
      if (this.ids.has(id)) this.keyConflicts.push(`${key}: answered with another key's task ${id}`);
      this.tasks.set(key, id);
      this.ids.add(id);
      return id;
    }
  }

  /** The handler's log so far. */
  private runs(): Run[] {
    const log = fs.existsSync(this.soak.taskLog) ? fs.readFileSync(this.soak.taskLog, 'utf8') : '';
    return log.split('\n').flatMap((line) => (line ? [JSON.parse(line) as Run] : []));
  }
}
