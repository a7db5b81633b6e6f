// The counters page in a real browser: counts sent through the API show as numbers and as a
// uPlot chart of the same values, follow new counts live (counterUpdated, then a pull), catch
// up after the socket was down, and an operator can count from the page.
import net from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { UpdateCounterDocument } from '../../src/generated/client/graphql';
import { screenshot, startWeb, type WebFixture } from '../support/browser';
import { post } from '../support/graphql';

let web: WebFixture;
let service: string;
beforeAll(async () => {
  web = await startWeb();
  service = await tokenFor('counter-bot', true);
}, 60_000);
afterAll(async () => web?.stop());

async function tokenFor(user: string, asService: boolean): Promise<string> {
  const response = await fetch(`${web.base}/app/dev-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user, service: asService }),
  });
  return ((await response.json()) as { token: string }).token;
}

async function count(name: string, by: number, at?: number): Promise<void> {
  const result = await post(`${web.base}/graphql`, UpdateCounterDocument, { name, count: by, at }, service);
  expect(result.errors).toBeUndefined();
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

/** What the test reads of a canvas (the tests compile without the DOM's types). */
interface Canvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } };
}

/** The chart's canvas: its size, and how many of its pixels carry the series' colour (#c8302c). */
function canvasOf(figure: Locator) {
  return figure.locator('canvas').evaluate((element) => {
    const canvas = element as unknown as Canvas;
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let stroked = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
      if (a > 200 && Math.abs(r - 200) < 12 && Math.abs(g - 48) < 12 && Math.abs(b - 44) < 12) stroked++;
    }
    return { width: canvas.width, height: canvas.height, stroked };
  });
}

/**
 * A TCP hop between the browser and the API that the test can cut, as a network drop cuts a
 * phone's connection: `down()` ends every connection through it and refuses new ones, `up()`
 * lets them in again. Chromium's offline emulation leaves an open WebSocket alone.
 */
async function cuttableLink(target: string): Promise<{ base: string; down(): void; up(): void; close(): void }> {
  const { hostname, port } = new URL(target);
  const open = new Set<net.Socket>();
  let refusing = false;
  const server = net.createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = net.connect(Number(port), hostname);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ]) {
      open.add(a);
      a.pipe(b);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        open.delete(a);
        b.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as net.AddressInfo;
  return {
    base: `http://127.0.0.1:${own}`,
    down() {
      refusing = true;
      for (const socket of open) socket.destroy();
    },
    up() {
      refusing = false;
    },
    close() {
      for (const socket of open) socket.destroy();
      server.close();
    },
  };
}

const figureOf = (page: Page, name: string) => page.getByRole('figure', { name });
const numbersOf = (page: Page, name: string) => page.getByTestId(`numbers ${name}`);

describe('counters page', () => {
  it('charts the counts sent with the numbers shown, follows new counts live, and lets an operator count', async () => {
    // Two counts in two different 5-second steps, both in the window: 3, then 5 in the next step.
    const step = Math.floor(Date.now() / 1000 / 5) * 5 - 5;
    await count('page/home', 3, step - 2);
    await count('page/home', 5, step + 1);
    // A second counter, counted in each step of the last two minutes, for a fuller chart.
    for (let i = 1; i <= 24; i++) await count('page/cart', (i % 6) + 1, step - i * 5);

    const { page, problems, context } = await web.signIn('olivia', { service: true, page: 'counters' });
    await page.getByRole('checkbox', { name: 'page/home' }).check();
    await page.getByRole('checkbox', { name: 'page/cart' }).check();

    const home = numbersOf(page, 'page/home');
    await shows(home.getByTestId('total'), '8');
    await shows(home.getByTestId('latest'), '5');
    await shows(home.getByTestId('peak'), '5');
    await shows(numbersOf(page, 'page/cart').getByTestId('total'), '84');
    // The chart holds the same values as the table, and uPlot drew them.
    const chart = figureOf(page, 'page/home').getByTestId('chart');
    expect(await chart.getAttribute('data-sum')).toBe('8');
    // 5 minutes in 5-second steps; the window's first step may be cut in two by the clock.
    expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThanOrEqual(60);
    const drawn = await canvasOf(figureOf(page, 'page/home'));
    expect(drawn.width).toBeGreaterThan(200);
    expect(drawn.height).toBeGreaterThan(100);
    expect(drawn.stroked).toBeGreaterThan(20);
    expect((await canvasOf(figureOf(page, 'page/cart'))).stroked).toBeGreaterThan(20);
    await screenshot(page, 'counters');

    // Live: another client counts; the notice makes the page pull (no reload: the mark stays).
    // The page slides its window every 30 s on its own; the 10 s wait is the notice's.
    await page.evaluate(() => ((globalThis as unknown as { stayed: boolean }).stayed = true));
    await count('page/home', 4);
    await shows(home.getByTestId('total'), '12');
    await shows(home.getByTestId('latest'), '4');
    expect(await chart.getAttribute('data-sum')).toBe('12');

    // An operator counts from the page.
    await page.getByLabel('Counter to count').fill('page/home');
    await page.getByLabel('By', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Count' }).click();
    await shows(home.getByTestId('total'), '14');
    expect(await chart.getAttribute('data-sum')).toBe('14');
    expect(await page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('pulls the series again when the socket is back, catching a count whose notice it missed', async () => {
    await count('page/drop', 1);
    const link = await cuttableLink(web.base);
    const context = await web.browser.newContext({ viewport: { width: 1200, height: 800 } });
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${link.base}/app/#/counters`);
      await page.getByLabel('User name').fill('dora');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await shows(page.getByTestId('link-state'), 'live');
      await page.getByRole('checkbox', { name: 'page/drop' }).check();
      const total = numbersOf(page, 'page/drop').getByTestId('total');
      await shows(total, '1');

      link.down();
      await page.getByTestId('link-state').filter({ hasNotText: 'live' }).waitFor();
      // No socket is subscribed now: this count's notice reaches nobody.
      await count('page/drop', 2);
      link.up();
      await shows(page.getByTestId('link-state'), 'live', 20_000);
      // Well before the page's own 30-second slide: the pull on reconnect brought it.
      await shows(total, '3', 5000);
      expect(await figureOf(page, 'page/drop').getByTestId('chart').getAttribute('data-sum')).toBe('3');
      // Graphql-ws logs nothing of a retried socket; a failed fetch would show here.
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      link.close();
    }
  }, 60_000);

  it('shows the charts by prefix, as bars, to a user without the service role, who cannot count', async () => {
    await count('shop/visits', 7);
    await count('shop/orders', 2);
    const { page, problems, context } = await web.signIn('carol', { page: 'counters' });
    await page.getByRole('radio', { name: /by prefix/ }).check();
    await page.getByLabel('Name prefix').fill('shop/');
    await page.getByRole('button', { name: 'Show' }).click();
    await shows(numbersOf(page, 'shop/visits').getByTestId('total'), '7');
    await shows(numbersOf(page, 'shop/orders').getByTestId('total'), '2');
    // Byte order of names, as the API pages them; page/... counters are left out.
    expect(await page.getByRole('figure').evaluateAll((all) => all.map((f) => f.getAttribute('aria-label')))).toEqual([
      'shop/orders',
      'shop/visits',
    ]);
    await page.getByRole('combobox', { name: /^Chart/ }).selectOption('bars');
    const bars = figureOf(page, 'shop/visits');
    await bars.locator('[data-sum="7"] canvas').waitFor({ timeout: 10_000 });
    expect((await canvasOf(bars)).stroked).toBeGreaterThan(20);
    await expect(page.getByRole('button', { name: 'Count' }).count()).resolves.toBe(0);
    await page.getByText('Operators (service role) can count from here.').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
