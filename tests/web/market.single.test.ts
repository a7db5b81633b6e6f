// The market page in a real browser: a seller lists an item from the page, a buyer in another
// browser context sees it appear live and buys it, the seller sees the sale and the money live,
// and a buyer short of funds is told so in words (the purchase's typed outcome).
import type { Locator, Page } from 'playwright-core';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { screenshot, startWeb, type WebFixture } from '../support/browser';
import { eventually, post } from '../support/graphql';
import { GrantFundsDocument, GrantItemDocument, ListItemDocument } from '../../src/generated/client/graphql';
import { inboxChannel, marketKeys } from '../../src/redis/keys';

let web: WebFixture;
beforeAll(async () => {
  web = await startWeb();
}, 60_000);
afterAll(async () => web?.stop());

async function devToken(user: string, service = false): Promise<string> {
  const response = await fetch(`${web.base}/app/dev-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user, service }),
  });
  return ((await response.json()) as { token: string }).token;
}

async function call<R, V>(document: TypedDocumentNode<R, V>, variables: V, token: string): Promise<R> {
  const result = await post(web.api.url, document, variables, token);
  expect(result.errors).toBeUndefined();
  return result.data!;
}

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

const cells = async (rows: Locator, columns: number): Promise<string[][]> =>
  Promise.all(
    (await rows.all()).map(async (row) =>
      (await row.locator('td').allTextContents()).slice(0, columns).map((t) => t.trim()),
    ),
  );
const listings = (page: Page) => cells(page.getByTestId('listing'), 3);
const inventory = (page: Page) =>
  page.getByTestId('inventory-item').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-item')));
const funds = (page: Page) => page.getByTestId('funds').textContent();
const outcome = (page: Page) => page.getByTestId('purchase-outcome');

async function listFromPage(page: Page, item: string, price: number): Promise<void> {
  const form = page.getByRole('form', { name: `Sell ${item}` });
  await form.getByLabel(`Price for ${item}`, { exact: true }).fill(String(price));
  await form.getByRole('button', { name: `List ${item}` }).click();
}

describe('market page', () => {
  it('lists, sells and refuses a purchase short of funds, with every page following live', async () => {
    const service = await devToken('market-ops', true);
    for (const itemId of ['sword', 'shield', 'helmet'])
      await call(GrantItemDocument, { userId: 'sam', itemId }, service);
    await call(GrantItemDocument, { userId: 'bob', itemId: 'lantern' }, service);
    await call(GrantFundsDocument, { userId: 'bob', amount: 100 }, service);
    await call(GrantFundsDocument, { userId: 'pat', amount: 5 }, service);

    // The buyer's page first: the market's notices must reach it before anything is listed.
    const bob = await web.signIn('bob', { page: 'market' });
    await soon(() => funds(bob.page), '100');
    await bob.page.getByText('Nothing is for sale.').waitFor();
    await eventually(async () => (await web.redis.subscribers(marketKeys.changed())) >= 1, 5000, 20);

    const sam = await web.signIn('sam', { page: 'market' });
    await soon(() => inventory(sam.page), ['helmet', 'shield', 'sword']);
    await soon(() => funds(sam.page), '0');
    await eventually(async () => (await web.redis.subscribers(inboxChannel('sam'))) >= 1, 5000, 20);

    await listFromPage(sam.page, 'sword', 40);
    await soon(() => inventory(sam.page), ['helmet', 'shield']);
    await soon(() => sam.page.getByTestId('items-held').textContent(), '2');
    await soon(() => listings(bob.page), [['sword', 'sam', '40']]);

    await bob.page.getByRole('button', { name: 'Buy sword for 40' }).click();
    await outcome(bob.page).getByText('Bought “sword” from sam for 40. Your funds: 60.').waitFor();
    expect(await outcome(bob.page).getAttribute('data-outcome')).toBe('PURCHASED');
    await soon(() => funds(bob.page), '60');
    await soon(() => listings(bob.page), []);
    await soon(() => inventory(bob.page), ['lantern', 'sword']);

    // The seller hears of the sale: in 'my sales' and in their funds, without a click.
    await soon(
      async () => (await cells(sam.page.getByTestId('sale'), 4)).map((row) => row.slice(1)),
      [['sword', 'bob', '40']],
    );
    await soon(() => funds(sam.page), '40');
    await soon(() => listings(sam.page), []);

    // A buyer with 5 is refused a listing of 50, and told why; nothing changes.
    await listFromPage(sam.page, 'shield', 50);
    const pat = await web.signIn('pat', { page: 'market' });
    await soon(() => listings(pat.page), [['shield', 'sam', '50']]);
    await pat.page.getByRole('button', { name: 'Buy shield for 50' }).click();
    await outcome(pat.page)
      .getByText('Not enough funds: “shield” costs 50 and you have 5. Nothing was bought.')
      .waitFor();
    expect(await outcome(pat.page).getAttribute('data-outcome')).toBe('INSUFFICIENT_FUNDS');
    await soon(() => funds(pat.page), '5');
    await soon(() => listings(pat.page), [['shield', 'sam', '50']]);

    // The seller reprices from the page; the buyer sees the new price live and can afford it.
    const own = sam.page.getByRole('form', { name: 'Your listing of shield' });
    await own.getByLabel('New price for shield').fill('4');
    await own.getByRole('button', { name: 'Reprice shield' }).click();
    await soon(() => listings(pat.page), [['shield', 'sam', '4']]);
    await pat.page.getByRole('button', { name: 'Buy shield for 4' }).click();
    await outcome(pat.page).getByText('Bought “shield” from sam for 4. Your funds: 1.').waitFor();
    await soon(
      async () => (await cells(sam.page.getByTestId('sale'), 4)).map((row) => row.slice(1)),
      [
        ['shield', 'pat', '4'],
        ['sword', 'bob', '40'],
      ],
    );
    await soon(() => funds(sam.page), '44');

    // Someone else's listing offers a purchase; one's own offers reprice and delist.
    await call(ListItemDocument, { itemId: 'lantern', price: 25 }, await devToken('bob'));
    await listFromPage(sam.page, 'helmet', 10);
    await soon(
      () => listings(sam.page),
      [
        ['helmet', 'sam (you)', '10'],
        ['lantern', 'bob', '25'],
      ],
    );
    await sam.page.getByRole('button', { name: 'Buy lantern for 25' }).waitFor();
    await screenshot(sam.page, 'market');
    await sam.page.getByRole('button', { name: 'Delist helmet' }).click();
    await soon(() => listings(sam.page), [['lantern', 'bob', '25']]);
    await soon(() => inventory(sam.page), ['helmet']);

    for (const user of [bob, sam, pat]) {
      expect(user.problems).toEqual([]);
      await user.context.close();
    }
  });
});
