// The task queue dashboard in a real browser, on an API process that runs workers of its own
// (TASK_WORKER=on with the test handlers): a task that failed for good shows FAILED with its
// error, is retried from the page and completes; a delayed task is cancelled and removed; the
// queue is paused and resumed; and a user without the service role is told to sign in as one.
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import {
  EnqueueTaskDocument,
  QueueStateDocument,
  TaskDocument,
  type EnqueueTaskMutationVariables,
} from '../../src/generated/client/graphql';
import { screenshot, startWeb, type WebFixture } from '../support/browser';
import { eventually, post } from '../support/graphql';

const HANDLERS = path.join(__dirname, '..', 'support', 'task-handlers.cjs');
const QUEUE = 'emails';

let web: WebFixture;
let service: string;
beforeAll(async () => {
  web = await startWeb({ TASK_WORKER: 'on', WORKER_QUEUES: QUEUE, TASK_HANDLERS: HANDLERS, TASK_BACKOFF_MS: '0' });
  await web.api.server.waitFor((line) => line.msg === 'task workers started');
  const response = await fetch(`${web.base}/app/dev-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'ops-bot', service: true }),
  });
  service = ((await response.json()) as { token: string }).token;
}, 60_000);
afterAll(async () => web?.stop());

async function enqueue(variables: Omit<EnqueueTaskMutationVariables, 'queue'>): Promise<string> {
  const result = await post(`${web.base}/graphql`, EnqueueTaskDocument, { queue: QUEUE, ...variables }, service);
  expect(result.errors).toBeUndefined();
  return result.data!.enqueueTask.id;
}

async function stateOf(id: string): Promise<string | undefined> {
  return (await post(`${web.base}/graphql`, TaskDocument, { id }, service)).data?.task?.state;
}

async function queueOf() {
  return (await post(`${web.base}/graphql`, QueueStateDocument, { name: QUEUE }, service)).data!.queue;
}

/** Waits until the element's whole text is `text`; says what it showed instead when it never is. */
async function shows(locator: Locator, text: string, timeout = 10_000): Promise<void> {
  const exact = new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  try {
    await locator.filter({ hasText: exact }).waitFor({ timeout });
  } catch {
    throw new Error(`expected "${text}", the page shows "${await locator.textContent({ timeout: 1000 })}"`);
  }
}

const counts = (page: Page) => ({
  waiting: page.getByTestId('count-waiting'),
  delayed: page.getByTestId('count-delayed'),
  active: page.getByTestId('count-active'),
  completed: page.getByTestId('count-completed'),
  failed: page.getByTestId('count-failed'),
  cancelled: page.getByTestId('count-cancelled'),
});

describe('task queue dashboard', () => {
  it('shows a failed task with its error, retries it from the page, and the task runs again and completes', async () => {
    const done = await enqueue({ name: 'echo', args: { hello: 'world' } });
    // Fails its only run; on a retry (a second run) it completes.
    const flaky = await enqueue({ name: 'flaky', args: { failAttempts: 1 }, maxAttempts: 1 });
    // Fails both its runs, for good.
    const broken = await enqueue({ name: 'fail', maxAttempts: 2, backoffMs: 0 });
    const later = await enqueue({ name: 'work', delayMs: 60_000 });
    const settled = async (id: string, state: string) => (await stateOf(id)) === state;
    await eventually(
      async () =>
        (await settled(flaky, 'FAILED')) && (await settled(broken, 'FAILED')) && (await settled(done, 'COMPLETED')),
      20_000,
    );

    const { page, problems, context } = await web.signIn('olivia', { service: true, page: 'tasks' });
    await page.getByLabel('Queue', { exact: true }).fill(QUEUE);
    await page.getByRole('button', { name: 'Open' }).click();
    const count = counts(page);
    await shows(count.failed, '2');
    await shows(count.completed, '1');
    await shows(count.delayed, '1');
    await shows(count.waiting, '0');
    await shows(count.active, '0');
    await shows(page.getByTestId('queue-paused'), 'running');

    await page.getByRole('tab', { name: 'Failed' }).click();
    const row = page.getByTestId(`task ${flaky}`);
    await shows(row.getByTestId('state'), 'FAILED');
    await shows(row.getByTestId('error'), 'flaky on attempt 1');
    await shows(row.getByTestId('attempts'), '1 / 1');
    const other = page.getByTestId(`task ${broken}`);
    await shows(other.getByTestId('error'), 'boom on attempt 2');
    await shows(other.getByTestId('attempts'), '2 / 2');
    await screenshot(page, 'tasks');

    await row.getByRole('button', { name: 'Retry' }).click();
    // The failed task leaves the FAILED list; its second run completes (the worker took it).
    await row.waitFor({ state: 'detached' });
    await shows(count.completed, '2');
    await shows(count.waiting, '0');
    expect(await page.getByRole('tabpanel').getByRole('row').count()).toBe(2); // the header and the other task
    // Failed is a total since the queue began, as the API counts it: the first run's failure stays.
    await shows(count.failed, '2');
    await page.getByRole('tab', { name: 'Completed' }).click();
    const rerun = page.getByTestId(`task ${flaky}`);
    await shows(rerun.getByTestId('state'), 'COMPLETED');
    await shows(rerun.getByTestId('attempts'), '2 / 2 (1 retried)');
    await shows(rerun.getByTestId('error'), ''); // the completed run cleared the first run's error
    expect(await stateOf(flaky)).toBe('COMPLETED');

    // A delayed task is cancelled, then removed.
    await page.getByRole('tab', { name: 'Delayed' }).click();
    await page.getByTestId(`task ${later}`).getByRole('button', { name: 'Cancel' }).click();
    await shows(count.cancelled, '1');
    await shows(count.delayed, '0');
    await page.getByRole('tab', { name: 'Cancelled' }).click();
    await page.getByTestId(`task ${later}`).getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No cancelled tasks on this page.').waitFor();
    expect(await stateOf(later)).toBeUndefined();

    // Pause and resume the queue.
    await page.getByRole('button', { name: 'Pause' }).click();
    await shows(page.getByTestId('queue-paused'), 'paused');
    expect((await queueOf()).paused).toBe(true);
    await page.getByRole('button', { name: 'Resume' }).click();
    await shows(page.getByTestId('queue-paused'), 'running');
    expect((await queueOf()).paused).toBe(false);

    // The queue is remembered: after a reload the dashboard opens on it again.
    await page.reload();
    await shows(page.getByRole('group', { name: 'Recent queues' }).getByRole('button'), QUEUE);
    await shows(count.completed, '2');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('tells a user without the service role to sign in as operator, not FORBIDDEN', async () => {
    const { page, problems, context } = await web.signIn('carol', { page: 'tasks' });
    await page.getByText('sign in as operator (service role)').waitFor();
    expect(await page.getByRole('tab').count()).toBe(0);
    expect(await page.getByLabel('Queue', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
