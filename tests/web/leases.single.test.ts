// The locks & semaphores page in a real browser: an operator takes semaphore slots and a lock
// from the page, a refused acquire says so, and a release from another browser context reaches
// the first page live (by the release notice, not only by its periodic pull).
import type { Locator, Page } from 'playwright-core';
import { screenshot, startWeb, type WebFixture } from '../support/browser';
import { eventually } from '../support/graphql';
import { leaseKeys, type LeaseKind } from '../../src/redis/keys';

let web: WebFixture;
beforeAll(async () => {
  web = await startWeb();
}, 60_000);
afterAll(async () => web?.stop());

/** Polls until `read` gives `expected`, then asserts it (so a failure shows the last value). */
async function soon<T>(read: () => Promise<T>, expected: T): Promise<void> {
  let last: T | undefined;
  await eventually(
    async () => {
      last = await read();
      return JSON.stringify(last) === JSON.stringify(expected);
    },
    10_000,
    50,
  ).catch(() => undefined);
  expect(last).toEqual(expected);
}

const cells = async (rows: Locator): Promise<string[][]> =>
  Promise.all((await rows.all()).map(async (row) => (await row.locator('td').allTextContents()).map((t) => t.trim())));

/** The payloads of the WebSocket frames the page receives from now on (the page is reloaded). */
async function recordFrames(page: Page): Promise<string[]> {
  // Reloading while the page's chunk loads would abort that request (a problem, as the fixture counts).
  await page.getByRole('heading', { name: 'Locks & semaphores' }).waitFor();
  const frames: string[] = [];
  page.on('websocket', (socket) => socket.on('framereceived', (frame) => frames.push(String(frame.payload))));
  await page.reload();
  await page.getByTestId('link-state').getByText('live').waitFor();
  return frames;
}

async function lookUp(page: Page, kind: LeaseKind, name: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Look up' });
  await form.getByLabel('Kind').selectOption(kind);
  await form.getByLabel('Name').fill(name);
  await form.getByRole('button', { name: 'Look up' }).click();
  await page.getByTestId('lease-summary').waitFor();
  // The release notice must reach this page: wait until the server listens for it.
  await eventually(async () => (await web.redis.subscribers(leaseKeys(kind, name).released)) >= 1, 5000, 20);
}

const holderRows = (page: Page): Locator => page.getByTestId('holder');
const outcome = (page: Page): Locator => page.getByTestId('lease-outcome');

describe('locks & semaphores page', () => {
  it('takes two slots of a semaphore with limit 2, refuses a third, and shows a release from elsewhere live', async () => {
    const anna = await web.signIn('ops-anna', { service: true, page: 'leases' });
    const frames = await recordFrames(anna.page);
    await lookUp(anna.page, 'semaphore', 'reports');
    await anna.page.getByText('Nobody holds it.').waitFor();

    const acquire = anna.page.getByRole('form', { name: 'Acquire a slot' });
    await acquire.getByLabel('Limit').fill('2');
    for (const token of [1, 2]) {
      await acquire.getByRole('button', { name: 'Acquire slot' }).click();
      await outcome(anna.page).getByText(`Acquired: fencing token ${token},`).waitFor();
    }
    await soon(
      async () => (await cells(holderRows(anna.page))).map((row) => row.slice(0, 2)),
      [
        ['1', 'ops-anna'],
        ['2', 'ops-anna'],
      ],
    );
    // This tab holds both, so it shows their slot ids (128 bits, hex) and can release them.
    const ids = await holderRows(anna.page).locator('code').allTextContents();
    expect(ids).toHaveLength(2);
    ids.forEach((id) => expect(id).toMatch(/^[0-9a-f]{32}$/));
    expect(new Set(ids).size).toBe(2);

    await acquire.getByRole('button', { name: 'Acquire slot' }).click();
    await outcome(anna.page).getByText('Not acquired: all 2 slots are held').waitFor();
    await soon(
      () => anna.page.getByTestId('lease-summary').textContent(),
      '2 of 2 slots held · 0 waiting · last fencing token 2',
    );
    await screenshot(anna.page, 'leases');

    // Another operator, in another browser context, releases slot 1 by its id.
    const ben = await web.signIn('ops-ben', { service: true, page: 'leases' });
    const release = ben.page.getByRole('form', { name: 'Release by token or id' });
    await release.getByLabel('Kind').selectOption('semaphore');
    await release.getByLabel('Name of the lease').fill('reports');
    await release.getByLabel('Token or slot id').fill(ids[0]);
    await release.getByRole('button', { name: 'Release' }).click();
    await ben.page.getByTestId('release-outcome').getByText('Released the slot of “reports”.').waitFor();

    await soon(async () => (await cells(holderRows(anna.page))).map((row) => row[0]), ['2']);
    await anna.page.getByTestId('holders-note').getByText('Slot with fencing token 1 is no longer held').waitFor();
    expect(frames.some((frame) => frame.includes('"semaphoreReleased"'))).toBe(true);

    // The same id again frees nothing, and says so.
    await release.getByLabel('Token or slot id').fill(ids[0]);
    await release.getByRole('button', { name: 'Release' }).click();
    await ben.page.getByTestId('release-outcome').getByText('Nothing released').waitFor();

    // Anna releases her other slot from her own list.
    await anna.page.getByRole('button', { name: 'Release 2' }).click();
    await anna.page.getByTestId('holders-note').getByText('Released slot with fencing token 2.').waitFor();
    await anna.page.getByText('Nobody holds it.').waitFor();

    expect(anna.problems).toEqual([]);
    expect(ben.problems).toEqual([]);
    await anna.context.close();
    await ben.context.close();
  });

  it('gives a lock to one operator, refuses it to another, and shows the other page the release live', async () => {
    const anna = await web.signIn('ops-anna', { service: true, page: 'leases' });
    const ben = await web.signIn('ops-ben', { service: true, page: 'leases' });
    await lookUp(anna.page, 'lock', 'nightly');
    await lookUp(ben.page, 'lock', 'nightly');

    await anna.page.getByRole('button', { name: 'Acquire lock' }).click();
    await outcome(anna.page).getByText('Acquired: fencing token 1,').waitFor();
    await soon(async () => (await cells(holderRows(anna.page))).map((row) => row.slice(0, 2)), [['1', 'ops-anna']]);

    await ben.page.getByRole('button', { name: 'Acquire lock' }).click();
    await outcome(ben.page).getByText('Not acquired: the lock is held.').waitFor();
    await soon(
      async () => (await cells(holderRows(ben.page))).map((row) => [row[0], row[1], row[4]]),
      [['1', 'ops-anna', 'elsewhere']],
    );

    await anna.page.getByRole('button', { name: 'Release 1' }).click();
    await ben.page.getByText('Nobody holds it.').waitFor();
    await soon(() => ben.page.getByTestId('lease-summary').textContent(), 'Free · 0 waiting · last fencing token 1');

    expect(anna.problems).toEqual([]);
    expect(ben.problems).toEqual([]);
    await anna.context.close();
    await ben.context.close();
  });

  it('tells a user without the service role to sign in as operator, without calling the API', async () => {
    const carol = await web.signIn('carol', { page: 'leases' });
    await carol.page.getByRole('heading', { name: 'Locks & semaphores' }).waitFor();
    const asked: string[] = [];
    carol.page.on('request', (request) => {
      if (request.url().endsWith('/graphql')) asked.push(request.postData() ?? '');
    });
    await carol.page.reload();
    await carol.page.getByRole('note').getByText('sign in as operator (service role)').waitFor();
    expect(asked).toEqual([]);
    expect(await carol.page.getByRole('form', { name: 'Look up' }).count()).toBe(0);
    expect(carol.problems).toEqual([]);
    await carol.context.close();
  });
});
