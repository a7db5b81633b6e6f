// Repeating tasks through the real server: creating, listing with the next run, replacing and
// removing schedules; bad input and limits with their codes and arguments; who may use them;
// and schedules run by two processes at once (an API process with TASK_WORKER=on and a worker
// process), each tick enqueued and run once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  QueueStatsDocument,
  RemoveTaskScheduleDocument,
  TaskDocument,
  TaskSchedulesDocument,
  UpsertTaskScheduleDocument,
  type UpsertTaskScheduleMutationVariables,
} from '../../src/generated/client/graphql';
import { serverForThisFile } from '../support/fixture';
import { codes, eventually, post } from '../support/graphql';
import { cleanUpProcesses, ensureBuilt, startAndWait, startWorker, type ServerProcess } from '../support/process';
import { TEST_SECRET, type TestServer } from '../support/server';
import { snapshotRedis } from '../support/snapshot';
import { runsIn } from '../support/task-runs';

const HANDLERS = path.join(__dirname, '..', 'support', 'task-handlers.cjs');
const MAX_ARGS_BYTES = 1024;
const TASK_ENV = { TASK_MAX_ARGS_BYTES: String(MAX_ARGS_BYTES), TASK_MAX_SCHEDULES: '3' };

const fixture = serverForThisFile(TASK_ENV);
let api: TestServer;

beforeAll(() => {
  api = fixture.api;
});

const upsert = (variables: UpsertTaskScheduleMutationVariables) =>
  post(api.url, UpsertTaskScheduleDocument, variables, api.tokens.service);
const upserted = async (variables: UpsertTaskScheduleMutationVariables) => {
  const result = await upsert(variables);
  expect(result.errors).toBeUndefined();
  return result.data!.upsertTaskSchedule;
};
const listed = async (queue: string, url = api.url) => {
  const result = await post(url, TaskSchedulesDocument, { queue }, api.tokens.service);
  expect(result.errors).toBeUndefined();
  return result.data!.taskSchedules;
};
const remove = (queue: string, name: string) =>
  post(api.url, RemoveTaskScheduleDocument, { queue, name }, api.tokens.service);

/** The Redis server's clock in unix ms. */
async function serverNow(): Promise<number> {
  const [seconds, micros] = await api.redis.client.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

describe('schedules', () => {
  it('creates an every-N schedule whose next run is the next multiple of N, and lists it', async () => {
    const before = await serverNow();
    const schedule = await upserted({
      queue: 'reports',
      name: 'tidy',
      task: 'tidy',
      args: { older: 30, tags: ['a', 'é'] },
      priority: 'LOW',
      everySeconds: 10,
    });
    const after = await serverNow();
    expect(schedule).toEqual({
      queue: 'reports',
      name: 'tidy',
      task: 'tidy',
      args: { older: 30, tags: ['a', 'é'] },
      priority: 'LOW',
      everySeconds: 10,
      cron: null,
      timezone: null,
      nextRunAt: schedule.nextRunAt,
      lastRunAt: null,
      lastTaskId: null,
      missedRuns: 0,
    });
    // Unix seconds: a multiple of 10 s, after the call began and at most 10 s after it ended.
    const nextMs = Math.round(schedule.nextRunAt * 1000);
    expect(nextMs % 10_000).toBe(0);
    expect(nextMs).toBeGreaterThan(before);
    expect(nextMs).toBeLessThanOrEqual(after + 10_000);
    expect(await listed('reports')).toEqual([schedule]);
    expect(await listed('elsewhere')).toEqual([]);
  });

  it('creates a cron schedule read in its time zone, with the default priority, and lists schedules by name', async () => {
    const every = await upserted({ queue: 'reports', name: 'zz-every', task: 'tidy', everySeconds: 60 });
    const cron = await upserted({
      queue: 'reports',
      name: 'morning',
      task: 'mail',
      cron: '0 9 * * *',
      timezone: 'Asia/Kolkata',
    });
    const now = await serverNow();
    // 09:00 in Kolkata (UTC+05:30 all year) is 03:30 UTC.
    const day = 86_400_000;
    const today = Math.floor(now / day) * day + 3.5 * 3_600_000;
    const expected = today > now ? today : today + day;
    expect(cron).toMatchObject({ priority: 'NORMAL', cron: '0 9 * * *', timezone: 'Asia/Kolkata', everySeconds: null });
    expect([expected, expected - day]).toContain(Math.round(cron.nextRunAt * 1000));
    expect((await listed('reports')).map((one) => one.name)).toEqual(['morning', 'zz-every']);
    expect(every.nextRunAt % 60).toBe(0);
  });

  it('replaces a schedule, computing its next run anew, and removes it', async () => {
    const first = await upserted({ queue: 'reports', name: 'beat', task: 'a', everySeconds: 5 });
    const replaced = await upserted({
      queue: 'reports',
      name: 'beat',
      task: 'b',
      args: [1, 2],
      priority: 'HIGH',
      cron: '*/10 * * * * *',
    });
    expect(replaced).toMatchObject({ task: 'b', args: [1, 2], priority: 'HIGH', everySeconds: null });
    expect(Math.round(replaced.nextRunAt * 1000) % 10_000).toBe(0);
    expect(first.task).toBe('a');
    expect(await listed('reports')).toEqual([replaced]);

    const removed = await remove('reports', 'beat');
    expect(removed.errors).toBeUndefined();
    expect(removed.data!.removeTaskSchedule).toBe(true);
    expect((await remove('reports', 'beat')).data!.removeTaskSchedule).toBe(false);
    expect(await listed('reports')).toEqual([]);
    // Nothing of it is left behind.
    expect((await api.redis.client.keys('*')).filter((key) => key.includes('schedule'))).toEqual([]);
  });
});

describe('refusals', () => {
  const deep = JSON.parse('['.repeat(33) + ']'.repeat(33)) as unknown;
  it.each([
    ['an empty queue', { queue: '', name: 'n', task: 't', everySeconds: 1 }, 'queue'],
    ['a queue with a brace', { queue: 'a{b', name: 'n', task: 't', everySeconds: 1 }, 'queue'],
    ['a schedule name with a colon', { queue: 'q', name: 'a:b', task: 't', everySeconds: 1 }, 'name'],
    ['a schedule name of 129 characters', { queue: 'q', name: 'n'.repeat(129), task: 't', everySeconds: 1 }, 'name'],
    ['a task name with a space', { queue: 'q', name: 'n', task: 'a b', everySeconds: 1 }, 'task'],
    ['neither everySeconds nor cron', { queue: 'q', name: 'n', task: 't' }, 'everySeconds'],
    ['both everySeconds and cron', { queue: 'q', name: 'n', task: 't', everySeconds: 5, cron: '* * * * *' }, 'cron'],
    ['everySeconds 0', { queue: 'q', name: 'n', task: 't', everySeconds: 0 }, 'everySeconds'],
    ['everySeconds over a year', { queue: 'q', name: 'n', task: 't', everySeconds: 366 * 86_400 + 1 }, 'everySeconds'],
    [
      'a timezone with everySeconds',
      { queue: 'q', name: 'n', task: 't', everySeconds: 5, timezone: 'UTC' },
      'timezone',
    ],
    ['a cron of words', { queue: 'q', name: 'n', task: 't', cron: 'every day' }, 'cron'],
    ['a cron with a minute of 61', { queue: 'q', name: 'n', task: 't', cron: '61 * * * *' }, 'cron'],
    ['a cron of 7 fields', { queue: 'q', name: 'n', task: 't', cron: '* * * * * * *' }, 'cron'],
    ['a cron on the 30th of February', { queue: 'q', name: 'n', task: 't', cron: '0 0 30 2 *' }, 'cron'],
    ['an empty cron', { queue: 'q', name: 'n', task: 't', cron: '  ' }, 'cron'],
    ['a cron of 129 characters', { queue: 'q', name: 'n', task: 't', cron: `0 0 * * ${'1,'.repeat(62)}1` }, 'cron'],
    [
      'an unknown timezone',
      { queue: 'q', name: 'n', task: 't', cron: '0 9 * * *', timezone: 'Mars/Olympus' },
      'timezone',
    ],
    [
      'args over TASK_MAX_ARGS_BYTES',
      { queue: 'q', name: 'n', task: 't', everySeconds: 1, args: 'é'.repeat(512) },
      'args',
    ],
    ['args nested 33 deep', { queue: 'q', name: 'n', task: 't', everySeconds: 1, args: deep }, 'args'],
  ] as [string, UpsertTaskScheduleMutationVariables, string][])(
    'upsertTaskSchedule with %s is BAD_USER_INPUT naming the argument, and changes nothing',
    async (_case, variables, argument) => {
      await upserted({ queue: 'q', name: 'existing', task: 't', everySeconds: 60 });
      const before = await snapshotRedis(api.redis.client);
      const result = await upsert(variables);
      expect(codes(result)).toEqual(['BAD_USER_INPUT']);
      expect(result.errors![0].extensions!.argument).toBe(argument);
      expect(result.data).toBeNull();
      expect(await snapshotRedis(api.redis.client)).toEqual(before);
    },
  );

  it('holds at most TASK_MAX_SCHEDULES per queue: one more is CONFLICT, replacing one is not', async () => {
    for (const name of ['a', 'b', 'c']) await upserted({ queue: 'q', name, task: 't', everySeconds: 60 });
    const before = await snapshotRedis(api.redis.client);
    const refused = await upsert({ queue: 'q', name: 'd', task: 't', everySeconds: 60 });
    expect(codes(refused)).toEqual(['CONFLICT']);
    expect(refused.errors![0].extensions!.argument).toBe('name');
    expect(refused.errors![0].message).toBe('the queue holds its limit of 3 schedules');
    expect(await snapshotRedis(api.redis.client)).toEqual(before);
    expect((await upserted({ queue: 'q', name: 'c', task: 'u', everySeconds: 30 })).task).toBe('u');
    expect((await upserted({ queue: 'other', name: 'd', task: 't', everySeconds: 60 })).name).toBe('d');
    expect((await listed('q')).map((one) => [one.name, one.task])).toEqual([
      ['a', 't'],
      ['b', 't'],
      ['c', 'u'],
    ]);
  });

  it('refuses removeTaskSchedule and taskSchedules with a bad queue or name', async () => {
    const badName = await remove('q', 'a b');
    expect(codes(badName)).toEqual(['BAD_USER_INPUT']);
    expect(badName.errors![0].extensions!.argument).toBe('name');
    const badQueue = await post(api.url, TaskSchedulesDocument, { queue: 'a:b' }, api.tokens.service);
    expect(codes(badQueue)).toEqual(['BAD_USER_INPUT']);
    expect(badQueue.errors![0].extensions!.argument).toBe('queue');
  });

  it('lets only service callers use schedules: users are FORBIDDEN, the anonymous UNAUTHENTICATED', async () => {
    await upserted({ queue: 'q', name: 'kept', task: 't', everySeconds: 60 });
    const before = await snapshotRedis(api.redis.client);
    for (const [token, code] of [
      [api.tokens.user, 'FORBIDDEN'],
      [undefined, 'UNAUTHENTICATED'],
    ] as const) {
      const variables = { queue: 'q', name: 'kept', task: 'x', everySeconds: 1 };
      expect(codes(await post(api.url, UpsertTaskScheduleDocument, variables, token))).toEqual([code]);
      expect(codes(await post(api.url, RemoveTaskScheduleDocument, { queue: 'q', name: 'kept' }, token))).toEqual([
        code,
      ]);
      expect(codes(await post(api.url, TaskSchedulesDocument, { queue: 'q' }, token))).toEqual([code]);
    }
    expect(await snapshotRedis(api.redis.client)).toEqual(before);
  });
});

// An API process with TASK_WORKER=on and a worker process, both working the queue "worked" on
// this file's Redis: both run a scheduler for it, and each tick must give one task, run once.
describe('repeating tasks across two instances: each tick once', () => {
  let apiProcess: ServerProcess;
  let workerProcess: ServerProcess;
  let url: string;
  let scratch: string;

  beforeAll(async () => {
    ensureBuilt();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-task-schedules-'));
    const env = {
      ...TASK_ENV,
      ...api.redis.env,
      JWT_SECRET: TEST_SECRET,
      COUNTER_CLEANUP: 'off',
      LOCATION_WORKER: 'off',
      WORKER_QUEUES: 'worked',
      TASK_HANDLERS: HANDLERS,
    };
    const started = await startAndWait({ ...env, DATA_DIR: scratch, TASK_WORKER: 'on' });
    apiProcess = started.server;
    url = started.url;
    await apiProcess.waitFor((line) => line.msg === 'task workers started');
    workerProcess = await startWorker(env);
  }, 60_000);

  afterAll(async () => {
    for (const proc of [apiProcess, workerProcess]) {
      if (proc && proc.proc.exitCode === null) {
        proc.proc.kill('SIGTERM');
        expect(await proc.exited).toBe(0);
      }
    }
    cleanUpProcesses();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('enqueues an every-second schedule once a second, without duplicates or gaps, each task run once', async () => {
    const log = path.join(scratch, 'runs.jsonl');
    await upserted({ queue: 'worked', name: 'beat', task: 'work', args: { ms: 1, log }, everySeconds: 1 });
    const completed = async () =>
      (await post(url, QueueStatsDocument, { name: 'worked' }, api.tokens.service)).data!.queue.completed;
    await eventually(async () => (await completed()) >= 5, 20_000, 50);
    // No more ticks from here on: what was enqueued is then fixed.
    expect((await remove('worked', 'beat')).data!.removeTaskSchedule).toBe(true);
    await eventually(
      async () => {
        const stats = (await post(url, QueueStatsDocument, { name: 'worked' }, api.tokens.service)).data!.queue;
        return stats.active + stats.waitingNormal === 0;
      },
      10_000,
      50,
    );

    const count = await completed();
    const tasks = [];
    for (let number = 1; number <= count; number++) {
      const result = await post(url, TaskDocument, { id: `worked:${number}` }, api.tokens.service);
      tasks.push(result.data!.task!);
    }
    const ticks = tasks.map((task) => Math.round(task.runAt * 1000));
    expect(ticks[0] % 1000).toBe(0);
    expect(ticks).toEqual(tasks.map((_, i) => ticks[0] + i * 1000));
    for (const task of tasks) {
      expect(task).toMatchObject({ name: 'work', state: 'COMPLETED', attempts: 1, args: { ms: 1, log } });
      expect(task.createdAt).toBeGreaterThanOrEqual(task.runAt);
    }
    // Each task ran once, in one of the two processes.
    const starts = runsIn(log).filter((run) => run.event === 'start');
    expect(starts.map((run) => run.id).sort()).toEqual(tasks.map((task) => task.id).sort());
    const pids = new Set([apiProcess.proc.pid, workerProcess.proc.pid]);
    expect(starts.every((run) => pids.has(run.pid))).toBe(true);
  }, 40_000);
});
