// The locations page in a real browser: a dataset seeded through the API (log lines counted by
// the aggregator inside the API process), its top countries for a day in order with their
// counts, regions and cities by clicking, and new lines for the day shown without a reload.
import type { Locator, Page } from 'playwright-core';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { screenshot, startWeb, type WebFixture } from '../support/browser';
import { eventually, post } from '../support/graphql';
import {
  AppendLocationLinesDocument,
  CreateLocationDatasetDocument,
  LocationUploadDocument,
} from '../../src/generated/client/graphql';
import { locationKeys } from '../../src/redis/keys';

let web: WebFixture;
let service: string;
beforeAll(async () => {
  web = await startWeb();
  const response = await fetch(`${web.base}/app/dev-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'geo-ops', service: true }),
  });
  service = ((await response.json()) as { token: string }).token;
}, 60_000);
afterAll(async () => web?.stop());

async function call<R, V>(document: TypedDocumentNode<R, V>, variables: V): Promise<R> {
  const result = await post(web.api.url, document, variables, service);
  expect(result.errors).toBeUndefined();
  return result.data!;
}

/** Sends the lines as one upload and waits until the aggregator has counted every one. */
async function send(dataset: string, upload: string, lines: string[]): Promise<void> {
  await call(AppendLocationLinesDocument, { dataset, upload, fromLine: 0, lines, complete: true });
  await eventually(
    async () => (await call(LocationUploadDocument, { dataset, upload })).locationUpload?.done === true,
    20_000,
    50,
  );
}

const visit = (ip: string, day: string, times: number): string[] =>
  Array.from({ length: times }, (_, i) => `${ip} ${day} 12:00:${String(i).padStart(2, '0')} level-${i}`);

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

/** A table's places as [name, visits]; countries by their code (the name after it is the browser's). */
const places = async (table: Locator, codeOnly = false): Promise<[string, string][]> =>
  Promise.all(
    (await table.getByTestId('place').all()).map(async (row) => {
      const [, name, visits] = (await row.locator('td').allTextContents()).map((t) => t.trim());
      return [codeOnly ? name.slice(0, 2) : name, visits] as [string, string];
    }),
  );
const table = (page: Page, name: string): Locator => page.getByRole('table', { name, exact: true });

describe('locations page', () => {
  it('shows the top countries of a day in order with their counts, drills into regions and cities, and follows new lines live', async () => {
    await call(CreateLocationDatasetDocument, { name: 'arcade' });
    await send('arcade', 'day-10', [
      ...visit('5.5.5.5', '2011-10-10', 3), // DE, Hesse, Frankfurt am Main
      ...visit('8.8.8.8', '2011-10-10', 4), // US, California
      ...visit('81.2.69.142', '2011-10-10', 2), // GB, England, London
      ...visit('78.46.0.1', '2011-10-10', 2), // DE, Bavaria
      ...visit('130.88.0.1', '2011-10-10', 1), // GB, England, Manchester
      ...visit('46.4.0.1', '2011-10-10', 1), // DE, Saxony
      ...visit('193.0.0.1', '2011-10-10', 1), // NL
      ...visit('203.0.113.1', '2011-10-10', 1), // in no known place
    ]);
    await send('arcade', 'day-11', visit('1.1.1.1', '2011-10-11', 2)); // AU

    const { page, problems, context } = await web.signIn('gina', { page: 'locations' });
    // The latest day first.
    await soon(() => page.getByLabel('Day').inputValue(), '2011-10-11');
    await soon(() => places(table(page, 'Top countries'), true), [['AU', '2']]);

    await page.getByLabel('Day').selectOption('2011-10-10');
    await soon(
      () => places(table(page, 'Top countries'), true),
      [
        ['DE', '6'],
        ['US', '4'],
        ['GB', '3'],
        ['NL', '1'],
      ],
    );
    await soon(
      () => page.getByTestId('location-totals').textContent(),
      '15 visits on 2011-10-10 · 1 from addresses in no known place',
    );

    await page.getByRole('button', { name: /^Regions of DE\b/ }).click();
    await soon(
      () => places(table(page, 'Regions of DE')),
      [
        ['Hesse', '3'],
        ['Bavaria', '2'],
        ['Saxony', '1'],
      ],
    );
    await page.getByRole('button', { name: 'Cities of Hesse' }).click();
    await soon(() => places(table(page, 'Cities of Hesse')), [['Frankfurt am Main', '3']]);

    // More lines for the day: the page pulls when the aggregator announces them.
    await eventually(async () => (await web.redis.subscribers(locationKeys('arcade').totalsChanged)) >= 1, 5000, 20);
    await send('arcade', 'day-10-late', visit('46.4.0.1', '2011-10-10', 4)); // DE, Saxony
    await soon(
      () => places(table(page, 'Top countries'), true),
      [
        ['DE', '10'],
        ['US', '4'],
        ['GB', '3'],
        ['NL', '1'],
      ],
    );
    await soon(
      () => places(table(page, 'Regions of DE')),
      [
        ['Saxony', '5'],
        ['Hesse', '3'],
        ['Bavaria', '2'],
      ],
    );
    await soon(
      () => page.getByTestId('location-totals').textContent(),
      '19 visits on 2011-10-10 · 1 from addresses in no known place',
    );
    await screenshot(page, 'locations');

    expect(problems).toEqual([]);
    await context.close();
  });
});
