// Closing connections and stopping workers leaves nothing behind that keeps the process alive:
// a timer left by a second disconnect kept jest workers running past their end ("A worker
// process has failed to exit gracefully").
import pino from 'pino';
import { closeRedis } from '../../src/redis/client/connection';
import { TaskRepository } from '../../src/redis/task';
import { TaskPoller } from '../../src/workers/task-poller';
import { TaskWorker } from '../../src/workers/task-worker';
import { eventually } from '../support/graphql';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';

let redis: TestRedis;
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis.stop();
});

/** The process's pending timers (jest's timeout of the running test among them). */
const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

/** A new client, ready. */
async function ready() {
  const client = redis.newClient();
  if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
  return client;
}

it('closes a connection with QUIT and no timer left pending', async () => {
  const before = timers();
  const client = await ready();
  await closeRedis(client);
  await eventually(async () => client.status === 'end', 10_000, 10);
  expect(timers()).toBe(before);
});

it('leaves no timer pending when a task worker and a poller are stopped twice', async () => {
  const control = scriptClient(redis);
  const repository = new TaskRepository(control, {
    maxAttempts: 3,
    backoffMs: 100,
    maxBackoffMs: 1000,
    history: 100,
    maxTasksPerQueue: 100,
  });
  await control.ping();
  const blocking = [await ready(), await ready()];
  const before = timers();
  const worker = new TaskWorker({
    queue: 'closing',
    repository,
    blocking: blocking[0],
    handlers: {},
    concurrency: 1,
    leaseMs: 5000,
    runTimeoutMs: 5000,
    maxResultBytes: 100,
    logger,
    idleWaitMs: 500,
  });
  const poller = new TaskPoller({ queue: 'closing', repository, blocking: blocking[1], control, logger });
  worker.start();
  poller.start();
  await worker.stop(1000);
  await poller.stop();
  await eventually(async () => blocking.every((client) => client.status === 'end'), 10_000, 10);
  // No timer added; one that was pending when counting began (a client's own) may have ended since,
  // which on a loaded machine made an equality fail once.
  expect(timers()).toBeLessThanOrEqual(before);
  // Stopped again (as a test's cleanup does after the test stopped them): nothing is armed.
  await worker.stop(1000);
  await poller.stop();
  expect(timers()).toBeLessThanOrEqual(before);
});
