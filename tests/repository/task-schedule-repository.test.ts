// Repeating tasks against a real redis-server: where schedules put their next runs, the tick
// script raced from two clients (one task per tick), missed windows, a full queue, schedules
// changed under a scheduler, and two scheduler loops on one schedule (each tick once). Tasks are
// read from what Redis recorded, never from what the code under test reports.
import Redis from 'ioredis';
import { queueKeys } from '../../src/redis/keys';
import { runScript } from '../../src/redis/client/scripts';
import { TaskRepository } from '../../src/redis/task';
import {
  TaskScheduleRepository,
  type DueSchedule,
  type ScheduleDefinition,
  type TaskScheduleSettings,
} from '../../src/redis/task-schedule';
import { TaskScheduler } from '../../src/workers/task-scheduler';
import { AppError } from '../../src/common/errors';
import { eventually } from '../support/graphql';
import { captureLogs } from '../support/logs';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';

let redis: TestRedis;
const stoppers: (() => Promise<void>)[] = [];
const SETTINGS: TaskScheduleSettings = { maxSchedules: 5, maxAttempts: 3, maxTasksPerQueue: 100_000 };

const connection = (): Redis => scriptClient(redis);

const repository = (settings: Partial<TaskScheduleSettings> = {}) =>
  new TaskScheduleRepository(connection(), { ...SETTINGS, ...settings });

beforeAll(async () => {
  redis = await startTestRedis();
});

afterEach(async () => {
  await Promise.all(stoppers.splice(0).map((stop) => stop()));
  await redis.client.flushdb();
});

afterAll(async () => {
  await redis.stop();
});

async function serverNow(): Promise<number> {
  const [seconds, micros] = await redis.client.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

interface StoredTask {
  number: number;
  name: string;
  priority: string;
  state: string;
  runAt: number;
  attempts: number;
  maxAttempts: number;
  createdAt: number;
}

/** The queue's task records as Redis holds them, by number. */
async function storedTasks(queue: string): Promise<StoredTask[]> {
  const records = await redis.client.hgetall(queueKeys(queue).meta);
  return Object.entries(records)
    .map(([number, json]) => ({ number: Number(number), ...(JSON.parse(json) as Omit<StoredTask, 'number'>) }))
    .sort((a, b) => a.number - b.number);
}

function startScheduler(schedules: TaskScheduleRepository, queues: string[]): TaskScheduler {
  const scheduler = new TaskScheduler({ queues, repository: schedules, logger: captureLogs('debug').logger });
  scheduler.start();
  stoppers.push(() => scheduler.stop());
  return scheduler;
}

const EVERY_SECOND: ScheduleDefinition = {
  task: 'report',
  priority: 'NORMAL',
  args: '{"kind":"daily"}',
  everySeconds: 1,
};

/** Puts a schedule's next run at `tick` (in the past), as if no scheduler had run since. */
async function setNextRun(queue: string, name: string, tick: number): Promise<void> {
  await redis.client.zadd(queueKeys(queue).scheduleNext, tick, name);
}

async function dueSchedule(schedules: TaskScheduleRepository, queue: string, name: string): Promise<DueSchedule> {
  const look = await schedules.due(queue, 100);
  const found = look.due.find((one) => one.name === name);
  if (!found) throw new Error(`${name} is not due`);
  return found;
}

describe('schedules', () => {
  it('puts an every-N schedule at the next multiple of N, a cron one at its next time, and replaces and removes them', async () => {
    const schedules = repository();
    const before = await serverNow();
    const every = await schedules.set('jobs', 'tidy', { task: 'tidy', priority: 'LOW', everySeconds: 5 });
    const after = await serverNow();
    expect(every.created).toBe(true);
    expect(every.schedule.nextRunAt % 5000).toBe(0);
    expect(every.schedule.nextRunAt).toBeGreaterThan(before);
    expect(every.schedule.nextRunAt).toBeLessThanOrEqual(after + 5000);

    // 09:00 in Kolkata (UTC+05:30, no daylight saving) is 03:30 UTC.
    const cron = await schedules.set('jobs', 'morning', {
      task: 'mail',
      priority: 'HIGH',
      cron: '0 9 * * *',
      timezone: 'Asia/Kolkata',
    });
    const day = 86_400_000;
    const todayAt = Math.floor(after / day) * day + 3.5 * 3_600_000;
    const expected = todayAt > after ? todayAt : todayAt + day;
    // Unless the clock passed 03:30 UTC between the two readings.
    expect([expected, expected - day]).toContain(cron.schedule.nextRunAt);

    expect(await schedules.list('jobs')).toEqual([
      {
        queue: 'jobs',
        name: 'morning',
        definition: { task: 'mail', priority: 'HIGH', cron: '0 9 * * *', timezone: 'Asia/Kolkata' },
        nextRunAt: cron.schedule.nextRunAt,
        lastRunAt: undefined,
        lastTaskId: undefined,
        missedRuns: 0,
      },
      {
        queue: 'jobs',
        name: 'tidy',
        definition: { task: 'tidy', priority: 'LOW', everySeconds: 5 },
        nextRunAt: every.schedule.nextRunAt,
        lastRunAt: undefined,
        lastTaskId: undefined,
        missedRuns: 0,
      },
    ]);

    // Replacing recomputes the next run from the new timing: every hour.
    const replaced = await schedules.set('jobs', 'tidy', { task: 'tidy', priority: 'LOW', everySeconds: 3600 });
    expect(replaced.created).toBe(false);
    expect(replaced.schedule.nextRunAt % 3_600_000).toBe(0);
    expect((await schedules.list('jobs')).find((one) => one.name === 'tidy')!.nextRunAt).toBe(
      replaced.schedule.nextRunAt,
    );

    expect(await schedules.remove('jobs', 'tidy')).toBe(true);
    expect(await schedules.remove('jobs', 'tidy')).toBe(false);
    expect((await schedules.list('jobs')).map((one) => one.name)).toEqual(['morning']);
    expect(await redis.client.zrange(queueKeys('jobs').scheduleNext, 0, -1)).toEqual(['morning']);
    expect(await redis.client.hkeys(queueKeys('jobs').scheduleRuns)).toEqual([]);
  });

  it('gives an H field the same value in every process (seeded by queue and name)', async () => {
    const definition: ScheduleDefinition = { task: 't', priority: 'NORMAL', cron: 'H H * * *' };
    const first = await repository().set('jobs', 'hashed', definition);
    const second = await repository().set('jobs', 'hashed', definition);
    expect(second.schedule.nextRunAt).toBe(first.schedule.nextRunAt);
  });

  it('holds at most TASK_MAX_SCHEDULES per queue, and still replaces one at the limit', async () => {
    const schedules = repository({ maxSchedules: 2 });
    await schedules.set('jobs', 'a', EVERY_SECOND);
    await schedules.set('jobs', 'b', EVERY_SECOND);
    const refused = await schedules.set('jobs', 'c', EVERY_SECOND).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('CONFLICT');
    expect((refused as AppError).message).toBe('the queue holds its limit of 2 schedules');
    expect((await schedules.set('jobs', 'b', { ...EVERY_SECOND, everySeconds: 2 })).created).toBe(false);
    // Another queue has its own limit.
    expect((await schedules.set('other', 'c', EVERY_SECOND)).created).toBe(true);
    expect((await schedules.list('jobs')).map((one) => [one.name, one.definition.everySeconds])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });
});

describe('the tick script', () => {
  it('enqueues exactly one task per tick when two clients race through 200 ticks', async () => {
    const [a, b] = [repository(), repository()];
    await a.set('race', 'beat', EVERY_SECOND);
    const first = Math.floor((await serverNow()) / 1000) * 1000 - 300_000;
    await setNextRun('race', 'beat', first);
    const due = await dueSchedule(a, 'race', 'beat');
    expect(due.tick).toBe(first);
    const ticks = Array.from({ length: 200 }, (_, i) => first + i * 1000);

    // Each client goes through every tick in order, at the same time as the other.
    const wins = await Promise.all(
      [a, b].map(async (client) => {
        const won: number[] = [];
        for (const tick of ticks) {
          const result = await client.tick('race', { ...due, tick }, tick + 1000, 0);
          expect(['ENQUEUED', 'STALE']).toContain(result.status);
          if (result.status === 'ENQUEUED') won.push(tick);
        }
        return won;
      }),
    );
    expect([...wins[0], ...wins[1]].sort((x, y) => x - y)).toEqual(ticks);

    const tasks = await storedTasks('race');
    expect(tasks.map((task) => task.runAt)).toEqual(ticks);
    expect(tasks.map((task) => task.number)).toEqual(ticks.map((_, i) => i + 1));
    for (const task of tasks) {
      expect(task).toEqual({
        number: task.number,
        name: 'report',
        priority: 'NORMAL',
        state: 'WAITING',
        runAt: task.runAt,
        attempts: 0,
        maxAttempts: 3,
        createdAt: task.createdAt,
      });
      expect(task.createdAt).toBeGreaterThanOrEqual(task.runAt);
    }
    const keys = queueKeys('race');
    expect(await redis.client.lrange(keys.lists[3], 0, -1)).toEqual(tasks.map((task) => String(task.number)));
    expect(new Set(Object.values(await redis.client.hgetall(keys.args)))).toEqual(new Set(['{"kind":"daily"}']));
    expect(await redis.client.hlen(keys.args)).toBe(200);
    expect(await redis.client.lrange(keys.workerWake, 0, -1)).toEqual(['1']);

    const [schedule] = await a.list('race');
    expect(schedule).toMatchObject({ nextRunAt: first + 200_000, lastTaskId: 'race:200', missedRuns: 0 });
    expect(schedule.lastRunAt).toBe(tasks[199].createdAt);

    // The tasks are ordinary tasks: a worker takes them in tick order, with their arguments.
    const taken = await new TaskRepository(connection(), {
      maxAttempts: 3,
      backoffMs: 100,
      maxBackoffMs: 1000,
      history: 1000,
      maxTasksPerQueue: 100_000,
    }).take('race', 2, 5000);
    expect(taken.map((task) => [task.id, task.name, task.attempt, task.args])).toEqual([
      ['race:1', 'report', 1, '{"kind":"daily"}'],
      ['race:2', 'report', 1, '{"kind":"daily"}'],
    ]);
  });

  it('enqueues one task when 40 calls for the same tick arrive together from two clients', async () => {
    const [a, b] = [repository(), repository()];
    await a.set('race', 'beat', EVERY_SECOND);
    const tick = Math.floor((await serverNow()) / 1000) * 1000 - 10_000;
    await setNextRun('race', 'beat', tick);
    const due = await dueSchedule(a, 'race', 'beat');
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).tick('race', due, tick + 1000, 0)),
    );
    expect(results.filter((result) => result.status === 'ENQUEUED')).toHaveLength(1);
    expect(results.filter((result) => result.status === 'STALE')).toHaveLength(39);
    expect((await storedTasks('race')).map((task) => task.runAt)).toEqual([tick]);
  });

  it('does not enqueue before the tick, nor from a definition replaced or removed since the look', async () => {
    const schedules = repository();
    // The tick has not come yet (the next full hour).
    const hourly = { ...EVERY_SECOND, everySeconds: 3600 };
    const { schedule } = await schedules.set('jobs', 'hourly', hourly);
    const early = await schedules.tick(
      'jobs',
      { name: 'hourly', tick: schedule.nextRunAt, definition: hourly, json: JSON.stringify(hourly) },
      schedule.nextRunAt + 3_600_000,
      0,
    );
    expect(early.status).toBe('EARLY');
    await schedules.remove('jobs', 'hourly');

    await schedules.set('jobs', 'beat', EVERY_SECOND);

    const tick = Math.floor((await serverNow()) / 1000) * 1000 - 5000;
    await setNextRun('jobs', 'beat', tick);
    const due = await dueSchedule(schedules, 'jobs', 'beat');
    // Replaced with other arguments at the same timing: its next run is recomputed...
    await schedules.set('jobs', 'beat', { ...EVERY_SECOND, args: '{"kind":"weekly"}' });
    await setNextRun('jobs', 'beat', tick);
    // ...and even at the tick the old look expected, the old definition enqueues nothing.
    expect((await schedules.tick('jobs', due, tick + 1000, 0)).status).toBe('STALE');
    const fresh = await dueSchedule(schedules, 'jobs', 'beat');
    expect((await schedules.tick('jobs', fresh, tick + 1000, 0)).status).toBe('ENQUEUED');
    expect(await redis.client.hgetall(queueKeys('jobs').args)).toEqual({ 1: '{"kind":"weekly"}' });

    await setNextRun('jobs', 'beat', tick + 1000);
    const last = await dueSchedule(schedules, 'jobs', 'beat');
    await schedules.remove('jobs', 'beat');
    expect((await schedules.tick('jobs', last, tick + 2000, 0)).status).toBe('STALE');
    expect((await storedTasks('jobs')).map((task) => task.runAt)).toEqual([tick]);
    expect(await redis.client.zcard(queueKeys('jobs').scheduleNext)).toBe(0);
  });

  it('a replacement neither repeats a tick a scheduler took meanwhile nor skips one that is due', async () => {
    const schedules = repository();
    const minutely = { ...EVERY_SECOND, everySeconds: 60 };
    await schedules.set('jobs', 'm', minutely);
    const tick = Math.floor((await serverNow()) / 60_000) * 60_000 - 60_000;
    await setNextRun('jobs', 'm', tick);
    // Due and not yet taken: the same timing keeps the tick, other arguments or not.
    const kept = await schedules.set('jobs', 'm', { ...minutely, args: '{"kind":"weekly"}' });
    expect(kept.schedule.nextRunAt).toBe(tick);
    const due = await dueSchedule(schedules, 'jobs', 'm');
    expect((await schedules.tick('jobs', due, tick + 60_000, 0)).status).toBe('ENQUEUED');
    // Taken: setting it again (as a service does at every start) keeps the following tick.
    const again = await schedules.set('jobs', 'm', minutely);
    expect(again.schedule.nextRunAt).toBe(tick + 60_000);
    expect((await schedules.tick('jobs', due, tick + 60_000, 0)).status).toBe('STALE');
    // New timing computed from a clock read before the tick was taken: refused, naming when.
    const keys = queueKeys('jobs');
    const stale = await runScript(
      connection(),
      'task-schedule-set',
      [keys.schedules, keys.scheduleNext, keys.scheduleRuns],
      ['m', JSON.stringify({ ...minutely, everySeconds: 30 }), tick, 100],
    );
    // The tick was taken when its script ran, after the tick: that time is what a new timing must pass.
    const [refused, taken] = stale as [number, number];
    expect(refused).toBe(-1);
    expect(taken).toBeGreaterThanOrEqual(tick);
    expect(taken).toBeLessThanOrEqual(await serverNow());
    expect((await schedules.list('jobs'))[0].nextRunAt).toBe(tick + 60_000);
    expect((await storedTasks('jobs')).map((task) => task.runAt)).toEqual([tick]);
  });

  it('skips a tick that finds the queue full, counts it missed, and moves on', async () => {
    const schedules = repository({ maxTasksPerQueue: 2 });
    const tasks = new TaskRepository(connection(), {
      maxAttempts: 3,
      backoffMs: 100,
      maxBackoffMs: 1000,
      history: 1,
      maxTasksPerQueue: 2,
    });
    for (const name of ['x', 'y']) {
      await tasks.enqueue({
        queue: 'jobs',
        name,
        args: undefined,
        priority: 'LOW',
        delayMs: 0,
        idempotencyKey: undefined,
      });
    }
    await schedules.set('jobs', 'beat', EVERY_SECOND);
    const tick = Math.floor((await serverNow()) / 1000) * 1000 - 3000;
    await setNextRun('jobs', 'beat', tick);
    const due = await dueSchedule(schedules, 'jobs', 'beat');
    expect((await schedules.tick('jobs', due, tick + 1000, 0)).status).toBe('FULL');
    expect((await storedTasks('jobs')).map((task) => task.name)).toEqual(['x', 'y']);
    expect(await schedules.list('jobs')).toEqual([
      expect.objectContaining({ name: 'beat', nextRunAt: tick + 1000, missedRuns: 1, lastTaskId: undefined }),
    ]);
  });
});

describe('the scheduler', () => {
  it('enqueues one task for a window missed while no scheduler ran, and moves to the next future tick', async () => {
    const schedules = repository();
    await schedules.set('jobs', 'minutely', { ...EVERY_SECOND, everySeconds: 60 });
    const current = Math.floor((await serverNow()) / 60_000) * 60_000;
    // Five runs ago, and none since.
    const missedFrom = current - 4 * 60_000;
    await setNextRun('jobs', 'minutely', missedFrom);
    const scheduler = startScheduler(repository(), ['jobs']);
    await eventually(async () => (await storedTasks('jobs')).length > 0, 10_000, 20);
    await scheduler.stop();

    const tasks = await storedTasks('jobs');
    expect(tasks.map((task) => task.runAt)).toEqual([missedFrom]);
    expect(scheduler.enqueued).toBe(1);
    const [schedule] = await schedules.list('jobs');
    expect(schedule.lastTaskId).toBe('jobs:1');
    // The next run is the first tick after the scheduler looked: current + 60 s (or one later,
    // should the minute have turned meanwhile); the ticks between are counted, not enqueued.
    expect([current + 60_000, current + 120_000]).toContain(schedule.nextRunAt);
    expect(schedule.nextRunAt).toBeGreaterThan(tasks[0].createdAt);
    expect(schedule.missedRuns).toBe((schedule.nextRunAt - missedFrom) / 60_000 - 1);
  });

  it('repeating tasks across two instances: each tick once, every second, without gaps', async () => {
    await repository().set('beats', 'second', EVERY_SECOND);
    const first = startScheduler(repository(), ['other', 'beats']);
    const second = startScheduler(repository(), ['beats']);
    await eventually(async () => (await storedTasks('beats')).length >= 5, 15_000, 20);
    await Promise.all([first.stop(), second.stop()]);

    const tasks = await storedTasks('beats');
    const ticks = tasks.map((task) => task.runAt);
    expect(tasks.length).toBeGreaterThanOrEqual(5);
    expect(ticks[0] % 1000).toBe(0);
    expect(ticks).toEqual(tasks.map((_, i) => ticks[0] + i * 1000));
    for (const task of tasks) expect(task.createdAt).toBeGreaterThanOrEqual(task.runAt);
    expect(first.enqueued + second.enqueued).toBe(tasks.length);
    const [schedule] = await repository().list('beats');
    expect(schedule).toMatchObject({
      lastTaskId: `beats:${tasks.length}`,
      lastRunAt: tasks[tasks.length - 1].createdAt,
      nextRunAt: ticks[ticks.length - 1] + 1000,
      missedRuns: 0,
    });
  }, 30_000);

  it('runs a cron schedule with seconds in two instances, each tick once', async () => {
    await repository().set('beats', 'cron', { task: 'c', priority: 'HIGH', cron: '* * * * * *' });
    const first = startScheduler(repository(), ['beats']);
    const second = startScheduler(repository(), ['beats']);
    await eventually(async () => (await storedTasks('beats')).length >= 3, 15_000, 20);
    await Promise.all([first.stop(), second.stop()]);

    const tasks = await storedTasks('beats');
    const ticks = tasks.map((task) => task.runAt);
    expect(ticks).toEqual(tasks.map((_, i) => ticks[0] + i * 1000));
    expect(ticks[0] % 1000).toBe(0);
    expect(tasks.every((task) => task.priority === 'HIGH' && task.name === 'c')).toBe(true);
    // HIGH priority: the HIGH ready list.
    expect(await redis.client.llen(queueKeys('beats').lists[1])).toBe(tasks.length);
  }, 30_000);

  it('stops while asleep, and a stopped scheduler enqueues nothing more', async () => {
    await repository().set('jobs', 'hourly', { ...EVERY_SECOND, everySeconds: 3600 });
    const scheduler = startScheduler(repository(), ['jobs']);
    // Let it look and fall asleep until the hour (at most its 1 s cap).
    await eventually(async () => (await redis.client.zcard(queueKeys('jobs').scheduleNext)) === 1, 1000, 20);
    await scheduler.stop();
    await setNextRun('jobs', 'hourly', (await serverNow()) - 1000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await storedTasks('jobs')).toEqual([]);
    expect(scheduler.enqueued).toBe(0);
  });
});
