// Repeating tasks (BullMQ's job schedulers): a schedule per name in a queue enqueues a task every
// N seconds or at the times of a cron expression. Schedules live in the queue's slot, beside its
// tasks: definitions in a hash, next runs in a zset. Whichever scheduler sees a tick first
// enqueues its task and moves the schedule on in one script (task-schedule-tick), so however
// many processes run schedulers each tick gives one task. The times of ticks are computed here,
// from the previous tick, never from the clock: the ticks of a schedule do not drift.
import { createHash } from 'node:crypto';
import { CronExpressionParser } from 'cron-parser';
import type { RedisClient } from './client/connection';
import { repliesOf } from './client/replies';
import { runScript } from './client/scripts';
import { conflict } from '../common/errors';
import { queueKeys, taskId, TASK_PRIORITIES, type TaskPriority } from './keys';

/** What a schedule enqueues, and when: `everySeconds`, or `cron` with an optional `timezone`. */
export interface ScheduleDefinition {
  /** The name of the tasks it enqueues (which handler runs them). */
  task: string;
  priority: TaskPriority;
  /** JSON text passed to each task, or undefined for none. */
  args?: string;
  everySeconds?: number;
  cron?: string;
  /** IANA time zone the cron expression is read in; UTC when unset. */
  timezone?: string;
}

/** A schedule as stored, with its runs; times are unix ms by the Redis server's clock. */
export interface TaskScheduleRecord {
  queue: string;
  name: string;
  definition: ScheduleDefinition;
  /** The next tick: the scheduler enqueues a task once it has come. */
  nextRunAt: number;
  /** When it last enqueued a task. */
  lastRunAt?: number;
  /** The id of the last task it enqueued (which may since have been forgotten). */
  lastTaskId?: string;
  /** Ticks that gave no task: the queue was full, or they passed while no scheduler ran. */
  missedRuns: number;
}

export interface TaskScheduleSettings {
  /** Most schedules one queue may hold. */
  maxSchedules: number;
  /** Runs of each task before it is FAILED (as for enqueueTask). */
  maxAttempts: number;
  /** Most tasks one queue may hold: a tick that finds it full is skipped. */
  maxTasksPerQueue: number;
}

/** A due schedule as the scheduler saw it: the tick it expects and the definition it read. */
export interface DueSchedule {
  name: string;
  tick: number;
  definition: ScheduleDefinition;
  /** The definition's JSON as stored: the tick script checks it is unchanged. */
  json: string;
}

export type TickResult =
  { status: 'ENQUEUED'; taskId: string; now: number } | { status: 'FULL' | 'EARLY' | 'STALE'; now: number };

/** Ticks folded into one run are counted one by one up to this many per missed window (cron). */
const MAX_COUNTED_MISSES = 1000;

interface StoredRuns {
  /** The last tick enqueued or skipped (unix ms): a replacement never moves the schedule back to it. */
  lastTick?: number;
  lastRunAt?: number;
  lastTask?: number;
  missed: number;
}

/** Stored with its fields in one order, so that the same definition is always the same text. */
function encodeDefinition(definition: ScheduleDefinition): string {
  const { task, priority, args, everySeconds, cron, timezone } = definition;
  return JSON.stringify({ task, priority, args, everySeconds, cron, timezone });
}

/** `H` in a cron expression picks a value from this seed, the same in every process. */
const seedOf = (queue: string, name: string): string => `${queue}/${name}`;

function cronAfter(definition: ScheduleDefinition, seed: string, from: number) {
  return CronExpressionParser.parse(definition.cron!, {
    currentDate: from,
    tz: definition.timezone ?? 'UTC',
    hashSeed: seed,
  });
}

/** The first tick strictly after `from`. Every-N ticks fall on multiples of N seconds since 1970. */
function tickAfter(definition: ScheduleDefinition, queue: string, name: string, from: number): number {
  if (definition.everySeconds !== undefined) {
    const period = definition.everySeconds * 1000;
    return Math.floor(from / period) * period + period;
  }
  return cronAfter(definition, seedOf(queue, name), from).next().getTime();
}

/**
 * The tick after `tick`, or, when that has already passed by `now` (no scheduler ran for a
 * while), the first tick after `now`, with the count of ticks passed over: a missed window gives
 * one task, not a burst.
 */
export function followingTick(
  definition: ScheduleDefinition,
  queue: string,
  name: string,
  tick: number,
  now: number,
): { next: number; skipped: number } {
  if (definition.everySeconds !== undefined) {
    const period = definition.everySeconds * 1000;
    const steps = tick + period > now ? 1 : Math.floor((now - tick) / period) + 1;
    return { next: tick + steps * period, skipped: steps - 1 };
  }
  const ticks = cronAfter(definition, seedOf(queue, name), tick);
  let next = ticks.next().getTime();
  let skipped = 0;
  while (next <= now && skipped < MAX_COUNTED_MISSES) {
    next = ticks.next().getTime();
    skipped++;
  }
  if (next <= now) next = tickAfter(definition, queue, name, now);
  return { next, skipped };
}

/** Why a cron expression (and time zone) cannot be used, or undefined when it can. */
export function cronProblem(cron: string, timezone: string | undefined): string | undefined {
  try {
    CronExpressionParser.parse(cron, { currentDate: Date.now(), tz: timezone ?? 'UTC', hashSeed: 'check' }).next();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

function decodeRuns(json: string | null | undefined): StoredRuns {
  return json ? (JSON.parse(json) as StoredRuns) : { missed: 0 };
}

export class TaskScheduleRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly settings: TaskScheduleSettings,
  ) {}

  /**
   * Creates or replaces a schedule. Its next run: the one it has when the timing is unchanged,
   * else the definition's first tick from now (task-schedule-set.lua).
   */
  async set(
    queue: string,
    name: string,
    definition: ScheduleDefinition,
  ): Promise<{ schedule: TaskScheduleRecord; created: boolean }> {
    const keys = queueKeys(queue);
    // The first tick needs the cron parser, so it is computed here, from the server's clock.
    const [seconds, micros] = await this.redis.time();
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    let from = now;
    // A scheduler may take a tick between the clock read and the script: the script then says
    // which, and the first run is computed again after it. Each retry follows a tick enqueued
    // meanwhile, so a few suffice.
    for (let attempt = 1; ; attempt++) {
      const reply = (await runScript(
        this.redis,
        'task-schedule-set',
        [keys.schedules, keys.scheduleNext, keys.scheduleRuns],
        [name, encodeDefinition(definition), tickAfter(definition, queue, name, from), this.settings.maxSchedules],
      )) as [number, string | number, number?];
      if (reply[0] !== -1) {
        const [created, runs, nextRunAt] = reply as [number, string, number];
        return {
          schedule: this.record(queue, name, definition, Number(nextRunAt), decodeRuns(runs)),
          created: created === 1,
        };
      }
      if (attempt >= 5) throw conflict('the schedule is being run right now; try again', 'name');
      from = Math.max(from, Number(reply[1]));
    }
  }

  /** False when there was no such schedule. */
  async remove(queue: string, name: string): Promise<boolean> {
    const keys = queueKeys(queue);
    const removed = await runScript(
      this.redis,
      'task-schedule-remove',
      [keys.schedules, keys.scheduleNext, keys.scheduleRuns],
      [name],
    );
    return Number(removed) === 1;
  }

  /** The queue's schedules by name (at most TASK_MAX_SCHEDULES). */
  async list(queue: string): Promise<TaskScheduleRecord[]> {
    const keys = queueKeys(queue);
    const [definitions, next, runs] = (await repliesOf(
      this.redis
        .multi()
        .hgetall(keys.schedules)
        .zrange(keys.scheduleNext, 0, -1, 'WITHSCORES')
        .hgetall(keys.scheduleRuns)
        .exec(),
    )) as [Record<string, string>, string[], Record<string, string>];
    const nextRuns = new Map<string, number>();
    for (let i = 0; i < next.length; i += 2) nextRuns.set(next[i], Number(next[i + 1]));
    return Object.keys(definitions)
      .sort()
      .map((name) =>
        this.record(
          queue,
          name,
          JSON.parse(definitions[name]) as ScheduleDefinition,
          nextRuns.get(name) ?? 0,
          decodeRuns(runs[name]),
        ),
      );
  }

  // --- for the scheduler ----------------------------------------------------------------------

  /** The schedules due now (up to `batch`), and when the earliest later one is (-1: none). */
  async due(queue: string, batch: number): Promise<{ now: number; nextAt: number; due: DueSchedule[] }> {
    const keys = queueKeys(queue);
    const [now, nextAt, ...rest] = (await runScript(
      this.redis,
      'task-schedule-due',
      [keys.schedules, keys.scheduleNext],
      [batch],
    )) as [number, number, ...(string | number)[]];
    const due: DueSchedule[] = [];
    for (let i = 0; i < rest.length; i += 3) {
      const json = String(rest[i + 2]);
      due.push({
        name: String(rest[i]),
        tick: Number(rest[i + 1]),
        definition: JSON.parse(json) as ScheduleDefinition,
        json,
      });
    }
    return { now, nextAt, due };
  }

  /** Enqueues the task of `schedule`'s tick and moves it to `next`, unless another scheduler did. */
  async tick(queue: string, schedule: DueSchedule, next: number, skipped: number): Promise<TickResult> {
    const keys = queueKeys(queue);
    const ready = keys.lists[TASK_PRIORITIES.indexOf(schedule.definition.priority) * 2 + 1];
    const [status, number, now] = (await runScript(
      this.redis,
      'task-schedule-tick',
      [keys.schedules, keys.scheduleNext, keys.scheduleRuns, keys.seq, keys.meta, keys.args, ready, keys.workerWake],
      [
        schedule.name,
        schedule.tick,
        next,
        sha1(schedule.json),
        skipped,
        this.settings.maxAttempts,
        this.settings.maxTasksPerQueue,
      ],
    )) as [TickResult['status'], number, number];
    return status === 'ENQUEUED' ? { status, taskId: taskId(queue, number), now } : { status, now };
  }

  private record(
    queue: string,
    name: string,
    definition: ScheduleDefinition,
    nextRunAt: number,
    runs: StoredRuns,
  ): TaskScheduleRecord {
    return {
      queue,
      name,
      definition,
      nextRunAt,
      lastRunAt: runs.lastRunAt,
      lastTaskId: runs.lastTask === undefined ? undefined : taskId(queue, runs.lastTask),
      missedRuns: runs.missed,
    };
  }
}
