// The task worker process's metrics (`npm run worker` with METRICS_PORT): its own listener, the
// queue it works on read at each scrape, its Redis commands timed, and the listener closed when
// it stops. `npm test` builds dist/ before jest runs.
import path from 'node:path';
import Redis from 'ioredis';
import { TaskRepository } from '../../src/redis/task';
import { eventually } from '../support/graphql';
import { cleanUpProcesses, ensureBuilt, startWorker } from '../support/process';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';

const HANDLERS = path.join(__dirname, '..', 'support', 'task-handlers.cjs');

let redis: TestRedis;
let commands: Redis;

beforeAll(ensureBuilt, 120_000);
beforeAll(async () => {
  redis = await startTestRedis();
  commands = scriptClient(redis, { maxRetriesPerRequest: 1 });
});
afterEach(cleanUpProcesses);
afterAll(async () => {
  commands?.disconnect();
  await redis?.stop();
});

/** The value of one sample line (`name{labels}` as the text format writes it), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((one) => one.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

it('serves its metrics on METRICS_PORT: the queue it works on, its Redis commands, Node; and closes them on SIGTERM', async () => {
  const worker = await startWorker({
    ...redis.env,
    WORKER_QUEUES: 'jobs',
    TASK_HANDLERS: HANDLERS,
    METRICS_PORT: '0',
    LOCATION_WORKER: 'off',
  });
  const started = await worker.waitFor((line) => line.msg === 'worker started');
  const url = started.metrics as string;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);

  const tasks = new TaskRepository(commands, {
    maxAttempts: 1,
    backoffMs: 100,
    maxBackoffMs: 1000,
    history: 100,
    maxTasksPerQueue: 1000,
  });
  for (let i = 0; i < 3; i++)
    await tasks.enqueue({
      queue: 'jobs',
      name: 'echo',
      args: undefined,
      priority: 'NORMAL',
      delayMs: 0,
      idempotencyKey: undefined,
    });
  await tasks.enqueue({
    queue: 'jobs',
    name: 'echo',
    args: undefined,
    priority: 'NORMAL',
    delayMs: 60_000,
    idempotencyKey: undefined,
  });
  await eventually(async () => (await tasks.stats('jobs')).completed === 3);

  const text = await (await fetch(url)).text();
  expect(sample(text, 'ria_task_queue_tasks{queue="jobs",state="waiting"}')).toBe(0);
  expect(sample(text, 'ria_task_queue_tasks{queue="jobs",state="delayed"}')).toBe(1);
  expect(sample(text, 'ria_task_queue_lag_seconds{queue="jobs"}')).toBe(0);
  // The worker settled each task and took the next with one script call.
  expect(sample(text, 'ria_redis_command_duration_seconds_count{command="script:task-next"}')).toBeGreaterThanOrEqual(
    3,
  );
  expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);

  worker.proc.kill('SIGTERM');
  expect(await worker.exited).toBe(0);
  await expect(fetch(url)).rejects.toThrow();
});
