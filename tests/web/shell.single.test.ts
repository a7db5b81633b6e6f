// The web app's shell in a real browser: sign-in by user name on a development server, the
// pages it links, and a strict CSP that the app runs under without a single violation.
import { startWeb, type WebFixture } from '../support/browser';

let web: WebFixture;
beforeAll(async () => {
  web = await startWeb();
}, 60_000);
afterAll(async () => web?.stop());

describe('web app shell', () => {
  it('signs in by user name, opens every page and breaks no CSP rule', async () => {
    const { page, problems, context } = await web.signIn('carol');
    const sent: Record<string, unknown>[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/graphql') && request.method() === 'POST') sent.push(request.postDataJSON());
    });
    const me = await page.evaluate<string | null>("sessionStorage.getItem('ria.session')");
    expect(JSON.parse(me ?? 'null')).toMatchObject({ user: 'carol', service: false });
    const titles = await page.locator('header nav a').allTextContents();
    expect(titles).toEqual(['Chats', 'Counters', 'Tasks', 'Locks & semaphores', 'Market', 'Locations']);
    // Pages for operators ask the API nothing of a user; the others ask as they open.
    const asking = new Set(['counters', 'market', 'locations', 'chats']);
    for (const path of ['counters', 'tasks', 'leases', 'market', 'locations', 'chats']) {
      const asked = asking.has(path)
        ? page.waitForRequest((r) => r.url().endsWith('/graphql') && r.method() === 'POST', { timeout: 10_000 })
        : undefined;
      await page.locator(`header nav a[href="#/${path}"]`).click();
      await page.locator(`main[data-page="${path}"]`).waitFor();
      await asked;
      if (!asking.has(path))
        await page
          .getByText(/sign in as operator/i)
          .first()
          .waitFor();
    }
    expect(problems).toEqual([]);
    // Only hashes of registered operations travel, never the text.
    expect(sent.length).toBeGreaterThanOrEqual(4);
    for (const body of sent) {
      expect(body.query).toBeUndefined();
      expect(body.extensions).toMatchObject({
        persistedQuery: { version: 1, sha256Hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      });
    }
    await context.close();
  });

  it('serves the app with a strict Content-Security-Policy and keeps hashed assets for good', async () => {
    const index = await fetch(`${web.base}/app/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(index.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    const asset = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)![1];
    const script = await fetch(`${web.base}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toContain('immutable');
    const bundle = await script.text();
    // No secret in the bundle: the development secret lives in DATA_DIR only.
    expect(bundle).not.toMatch(/dev-jwt-secret|JWT_SECRET|BEGIN [A-Z ]*PRIVATE KEY/);
  });

  it('takes a token handed over in the fragment and removes it from the address bar', async () => {
    const minted = await fetch(`${web.base}/app/dev-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'dave' }),
    }).then((r) => r.json() as Promise<{ token: string }>);
    const context = await web.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${web.base}/app/#token=${minted.token}`);
    await page.getByTestId('signed-in-as').getByText('dave').waitFor();
    expect(page.url()).toBe(`${web.base}/app/`);
    await context.close();
  });
});
