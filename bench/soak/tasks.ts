// Task queues under load: tasks enqueued with idempotency keys, run by a worker process the soak
// kills mid-task. Checks: every acknowledged task completes once, by a run the handler finished,
// and the killed worker's task ran again elsewhere. docs/development.md#soak.
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { check, Load, none, sample, type Check, type SoakContext } from './actor';
import { untilAnswered } from './client';

const enqueueQuery = (priority: string): string => `mutation($queue: String!, $key: String!, $ms: Int!) {
  enqueueTask(queue: $queue, name: "soak", args: { ms: $ms }, idempotencyKey: $key${priority}) { id }
}`;
const ENQUEUE = enqueueQuery('');
const ENQUEUE_LONG = enqueueQuery(', priority: HIGH');
const TASK = `query($id: ID!) { task(id: $id) { id state attempts result error } }`;
const QUEUE = `query($name: String!) { queue(name: $name) { completed failed cancelled active delayed waitingHigh waitingNormal waitingLow } }`;

const PRODUCERS = 2;
/** How long a task under the kill works: long enough to be certainly mid-run when the worker dies. */
const LONG_TASK_MS = 4000;

interface TaskLine {
  event: 'start' | 'end';
  id: string;
  attempt: number;
  pid: number;
  at: number;
}

interface Final {
  id: string;
  state: string;
  attempts: number;
  result: { pid: number; attempt: number } | null;
  error: string | null;
}

const USER = 'soak-tasks';

export class TaskLoad extends Load {
  readonly name = 'tasks';
  readonly queue = `soak-${this.soak.runId}`;
  /** idempotency key -> task id */
  private readonly tasks = new Map<string, string>();
  private readonly ids = new Set<string>();
  private readonly keyConflicts: string[] = [];
  /** Enqueues whose answer never came before the load stopped: sent again while draining. */
  private readonly unanswered: { key: string; ms: number; query: string }[] = [];
  private finals = new Map<string, Final>();
  private queueStats: Record<string, number> | undefined;
  /** Tasks a killed worker had started and not finished, with the pid it had. */
  private readonly orphans = new Map<string, number>();
  private next = 0;

  protected readonly counts = { resent: 0 };

  constructor(
    soak: SoakContext,
    private readonly logFile: string,
  ) {
    super(soak);
  }

  async run(stop: () => boolean): Promise<void> {
    await Promise.all(Array.from({ length: PRODUCERS }, () => this.producer(stop)));
  }

  /**
   * Enqueues a long task, waits until the worker `pid` has started it, and then calls `kill`. Every
   * task that pid started without finishing is remembered, to be checked at the end.
   */
  async killMidTask(pid: number, kill: () => Promise<void>): Promise<string> {
    const id = await this.enqueue(LONG_TASK_MS, ENQUEUE_LONG, () => false);
    if (!id) throw new Error('the long task was not enqueued');
    const deadline = Date.now() + 30_000;
    while (!this.lines().some((line) => line.id === id && line.event === 'start' && line.pid === pid)) {
      if (Date.now() > deadline) throw new Error(`worker ${pid} did not start task ${id} within 30 s`);
      await sleep(20);
    }
    await kill();
    const lines = this.lines().filter((line) => line.pid === pid);
    const ended = new Set(lines.filter((line) => line.event === 'end').map((line) => `${line.id}/${line.attempt}`));
    for (const line of lines)
      if (line.event === 'start' && !ended.has(`${line.id}/${line.attempt}`)) this.orphans.set(line.id, pid);
    return id;
  }

  async drain(deadline: number): Promise<void> {
    // The idempotency key makes a second send return the task the first stored, or store it now:
    // either way every key ends with one known task, and the queue's count must match exactly.
    for (const { key, ms, query } of this.unanswered.splice(0))
      await this.enqueue(ms, query, () => Date.now() > deadline, key);
    const pending = new Set(this.tasks.values());
    while (pending.size > 0 && Date.now() < deadline) {
      for (const id of [...pending]) {
        const outcome = await this.call<Final | null>(USER, TASK, { id }, true);
        if (outcome.kind !== 'ok' || outcome.data === null) continue;
        this.finals.set(id, outcome.data);
        if (['COMPLETED', 'FAILED', 'CANCELLED'].includes(outcome.data.state)) pending.delete(id);
      }
      if (pending.size > 0) await sleep(500);
    }
    const stats = await this.call<Record<string, number>>(USER, QUEUE, { name: this.queue }, true);
    if (stats.kind === 'ok') this.queueStats = stats.data;
  }

  check(): Check[] {
    const ids = [...this.tasks.values()];
    const notDone = ids
      .filter((id) => this.finals.get(id)?.state !== 'COMPLETED')
      .map((id) => `${id}: ${this.finals.get(id)?.state ?? 'unknown'} ${this.finals.get(id)?.error ?? ''}`.trim());
    const lines = this.lines();
    const ends = new Set(
      lines.filter((line) => line.event === 'end').map((line) => `${line.id}/${line.attempt}/${line.pid}`),
    );
    const unrecorded = ids.filter((id) => {
      const final = this.finals.get(id);
      if (final?.state !== 'COMPLETED') return false;
      return !final.result || !ends.has(`${id}/${final.result.attempt}/${final.result.pid}`);
    });
    const orphans = [...this.orphans].map(([id, pid]) => {
      const final = this.finals.get(id);
      const rerun = lines.some((line) => line.id === id && line.event === 'end' && line.pid !== pid);
      return { id, ok: final?.state === 'COMPLETED' && rerun && final.result !== null && final.result.pid !== pid };
    });
    const count = this.queueStats?.completed;
    const distinct = new Set(ids).size;
    return [
      none('tasks: every acknowledged task completed', notDone, `${ids.length} tasks`, ids.length > 0),
      none(
        'tasks: each once (one task per key, the queue counts each completion once)',
        this.keyConflicts,
        `${distinct} distinct ids for ${ids.length} keys${this.unanswered.length ? ` and ${this.unanswered.length} never answered` : ''}; queue counts ${count ?? 'unknown'} completed; ${this.counts.resent} enqueues sent again`,
        this.unanswered.length === 0 && distinct === ids.length && count === ids.length,
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
    return {
      enqueued: this.tasks.size,
      resent: this.counts.resent,
      unanswered: this.unanswered.length,
      leftRunningByKill: this.orphans.size,
    };
  }

  private async producer(stop: () => boolean): Promise<void> {
    while (!stop()) {
      await this.enqueue(20 + Math.floor(this.soak.random() * 200), ENQUEUE, stop);
      await this.pause(100, 150);
    }
  }

  private async enqueue(
    ms: number,
    query: string,
    stop: () => boolean,
    key = `soak-${this.soak.runId}-${this.next++}`,
  ): Promise<string | undefined> {
    let sends = 0;
    const outcome = await untilAnswered(() => {
      if (sends++ > 0) this.counts.resent++;
      return this.call<{ id: string }>(USER, query, { queue: this.queue, key, ms }, true);
    }, stop);
    if (outcome === undefined) {
      this.unanswered.push({ key, ms, query });
      return undefined;
    }
    if (outcome.kind !== 'ok') {
      this.keyConflicts.push(`${key}: refused ${outcome.code} ${outcome.message}`);
      return undefined;
    }
    if (this.ids.has(outcome.data.id))
      this.keyConflicts.push(`${key}: answered with another key's task ${outcome.data.id}`);
    this.tasks.set(key, outcome.data.id);
    this.ids.add(outcome.data.id);
    return outcome.data.id;
  }

  private lines(): TaskLine[] {
    if (!fs.existsSync(this.logFile)) return [];
    return fs
      .readFileSync(this.logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as TaskLine);
  }
}
