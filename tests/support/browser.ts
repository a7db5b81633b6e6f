// The web app in a real browser: Debian's chromium (CHROMIUM_PATH for another), driven by
// playwright-core, against the built API process (dist/main.js serving dist/web at /app) on a
// test Redis. Each page's console errors and failed requests are collected, so a test can
// assert that there were none (a CSP violation shows up there).
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { cleanUpProcesses, ensureBuilt, startAndWait, tempDir, type Started } from './process';
import { startTestRedis, type TestRedis } from './redis';

const ROOT = path.resolve(__dirname, '..', '..');
const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');

export interface WebFixture {
  base: string;
  api: Started;
  redis: TestRedis;
  browser: Browser;
  /** A new browser context (its own storage: another person, or another device) at /app/, not signed in. */
  open(page?: string): Promise<SignedIn>;
  /** A new browser context signed in as `user` by the development sign-in. */
  signIn(user: string, options?: { service?: boolean; page?: string }): Promise<SignedIn>;
  stop(): Promise<void>;
}

export interface SignedIn {
  context: BrowserContext;
  page: Page;
  /** Console errors, uncaught exceptions and failed requests seen so far. */
  problems: string[];
  /** Every WebSocket frame the page sent so far, as text (graphql-ws messages). */
  sentFrames: string[];
}

function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((candidate) => candidate !== undefined && fs.existsSync(candidate));
  if (found === undefined)
    throw new Error('No Chromium: `npm test` installs it (scripts/setup-tests.sh), or set CHROMIUM_PATH');
  return found;
}

/** The API process with a development secret (so /app/dev-token works) and a browser. */
export async function startWeb(env: Record<string, string> = {}): Promise<WebFixture> {
  ensureBuilt();
  const redis = await startTestRedis();
  let api: Started | undefined;
  let browser: Browser | undefined;
  try {
    api = await startAndWait({
      ...redis.env,
      DATA_DIR: tempDir(),
      NODE_ENV: 'development',
      RATE_LIMIT_USER_PER_MINUTE: '1000000',
      RATE_LIMIT_IP_PER_MINUTE: '1000000',
      COUNTER_CLEANUP: 'off',
      ...env,
    });
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: ['--disable-gpu', '--disable-background-networking'],
    });
  } catch (error) {
    await browser?.close();
    cleanUpProcesses();
    await redis.stop();
    throw error;
  }
  const base = new URL(api.url).origin;
  const openBrowser = browser;
  const open = async (at?: string): Promise<SignedIn> => {
    const context = await openBrowser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    const problems = watch(page, base);
    const sentFrames: string[] = [];
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) =>
        sentFrames.push(typeof payload === 'string' ? payload : payload.toString()),
      ),
    );
    await page.goto(`${base}/app/${at ? `#/${at}` : ''}`);
    return { context, page, problems, sentFrames };
  };

  return {
    base,
    api,
    redis,
    browser: openBrowser,
    open,
    async signIn(user, options = {}) {
      const opened = await open(options.page);
      const { page } = opened;
      await page.getByLabel('User name').fill(user);
      if (options.service) await page.getByLabel(/operator/).check();
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByTestId('signed-in-as').getByText(user).waitFor();
      await page.getByTestId('link-state').getByText('live').waitFor();
      return opened;
    },
    async stop() {
      await openBrowser.close();
      cleanUpProcesses();
      await redis.stop();
    },
  };
}

/** Problems of the app's own pages (an identity provider's pages are not the app's). */
function watch(page: Page, base: string): string[] {
  const problems: string[] = [];
  const ours = (): boolean => page.url().startsWith(base);
  // A request in flight when a test takes the network away fails, and Chromium says so on the
  // console too: the test's doing, not the app's (what the app does next is what tests check).
  const OFFLINE = 'net::ERR_INTERNET_DISCONNECTED';
  page.on('console', (message) => {
    if (message.type() === 'error' && ours() && !message.text().includes(OFFLINE))
      problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A socket closed on purpose (going offline, signing out) is not a problem of the app, nor
    // a request it cancelled itself (Apollo aborts a query whose page was left; a reload).
    const failure = request.failure()?.errorText;
    if (!ours() || request.url().startsWith('ws') || failure === 'net::ERR_ABORTED' || failure === OFFLINE) return;
    problems.push(`request failed: ${request.url()}`);
  });
  return problems;
}

/** Writes docs/screenshots/<name>.png (the docs show them). */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

/** Reads `read` until it gives `expected` (or time is up) and returns what it read last. */
export async function settle<T>(read: () => Promise<T>, expected: T, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (JSON.stringify(value) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}
