// The web app signing in through a real OpenID provider (oidc-provider, on loopback) in Chromium:
// its login and consent pages, back to the app with a code (PKCE), the user id as the API maps
// it, a chat with someone signed in by the development sign-in, the access token renewed by the
// refresh token before it expires, and sign-out at the provider.
import type { Page } from 'playwright-core';
import { settle, startWeb, type SignedIn, type WebFixture } from '../support/browser';
import { API_AUDIENCE, signingKey, startProvider, type TestProvider } from '../support/oidc';

/** Renewal starts a minute before expiry (web/src/provider.ts): 5 s after sign-in here. */
const ACCESS_TOKEN_TTL = 65;

let provider: TestProvider;
let web: WebFixture;
beforeAll(async () => {
  provider = await startProvider({ keys: [await signingKey('ES256')], accessTokenTtl: ACCESS_TOKEN_TTL });
  web = await startWeb({
    OIDC_PROVIDERS: JSON.stringify([{ issuer: provider.issuer, audience: API_AUDIENCE, userPrefix: 'sso.' }]),
    // The socket opened with the first token is closed when it expires, not 30 s later.
    OIDC_CLOCK_TOLERANCE_S: '0',
    OIDC_WEB_APP: JSON.stringify({
      issuer: provider.issuer,
      clientId: 'web-app',
      scope: 'openid api',
      params: { resource: API_AUDIENCE },
    }),
  });
}, 60_000);
afterAll(async () => {
  await web?.stop();
  await provider?.stop();
});

const opened: SignedIn[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((signed) => signed.context.close()));
});

const stored = (page: Page): Promise<Record<string, string>> =>
  page.evaluate<Record<string, string>>('Object.fromEntries(Object.entries(sessionStorage))');
const tokenIn = async (page: Page): Promise<string | undefined> =>
  (JSON.parse((await stored(page))['ria.session'] ?? 'null') as { token?: string } | null)?.token;

/** From the app's sign-in page through the provider's login and consent pages, back signed in. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.getByRole('button', { name: 'Sign in with your account' }).click();
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.origin === web.base);
  await page.getByTestId('link-state').getByText('live').waitFor();
}

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('form', { name: 'Send a message' });
  await box.getByLabel('Message').fill(text);
  await box.getByRole('button', { name: 'Send' }).click();
  await page.getByTestId('message-text').getByText(text, { exact: true }).waitFor();
}

const shown = (page: Page): Promise<string[]> => page.getByTestId('message-text').allTextContents();

describe('web app sign-in through an OpenID provider', () => {
  it('offers the provider beside the development sign-in, and lets the app reach it under its CSP', async () => {
    const session = (await (await fetch(`${web.base}/app/session.json`)).json()) as Record<string, unknown>;
    expect(session).toEqual({
      devSignIn: true,
      provider: {
        issuer: provider.issuer,
        clientId: 'web-app',
        scope: 'openid api',
        params: { resource: API_AUDIENCE },
      },
      push: null,
    });
    const csp = (await fetch(`${web.base}/app/`)).headers.get('content-security-policy') ?? '';
    expect(csp.split('; ')).toContain(`connect-src 'self' ${provider.issuer}`);
    expect(csp).toContain("form-action 'self'");
  });

  it('signs in at the provider, chats, renews the token before it expires, and signs out there', async () => {
    const alice = await web.open();
    opened.push(alice);
    const bob = await web.signIn('bob');
    opened.push(bob);

    await signInAtProvider(alice.page, 'alice');
    // The API's reading of the token (viewer): the provider's subject after this provider's prefix.
    await alice.page.getByTestId('signed-in-as').getByText('sso.alice', { exact: true }).waitFor();
    expect(new URL(alice.page.url()).search).toBe(''); // the code and state are gone from the address
    const first = await tokenIn(alice.page);
    expect(first).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    const claims = JSON.parse(Buffer.from(first!.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ iss: provider.issuer, aud: API_AUDIENCE, sub: 'alice' });

    // A chat with bob, who signed in by user name on the same server.
    const form = alice.page.getByRole('form', { name: 'New chat' });
    await form.getByLabel('Members').fill('bob');
    await form.getByLabel('First message').fill('Hi Bob, from my company account');
    await form.getByRole('button', { name: 'Start chat' }).click();
    await alice.page.waitForURL((url) => /#\/chats\/\d+$/.test(url.hash));
    const chatId = /#\/chats\/(\d+)$/.exec(alice.page.url())![1];
    await bob.page.locator(`li[data-chat="${chatId}"] a`).click();
    expect(await settle(() => shown(bob.page), ['Hi Bob, from my company account'])).toEqual([
      'Hi Bob, from my company account',
    ]);
    expect(await bob.page.locator('li[data-chat] .chat-title').allTextContents()).toEqual(['sso.alice']);
    await send(bob.page, 'Hello Alice');
    expect(await settle(() => shown(alice.page), ['Hi Bob, from my company account', 'Hello Alice'])).toEqual([
      'Hi Bob, from my company account',
      'Hello Alice',
    ]);

    // A minute before expiry, the refresh token buys a new access token, used from then on.
    const renewed = await settle(async () => (await tokenIn(alice.page)) !== first, true, 45_000);
    expect(renewed).toBe(true);
    const second = (await tokenIn(alice.page))!;
    const expiryOf = (token: string): number =>
      (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { exp: number }).exp;
    const later = JSON.parse(Buffer.from(second.split('.')[1], 'base64url').toString()) as { exp: number; sub: string };
    expect(later.sub).toBe('alice');
    expect(later.exp).toBeGreaterThan(claims.exp as number);
    const asked: string[] = [];
    alice.page.on('request', (request) => {
      if (request.url() === `${web.base}/graphql`) asked.push(request.headers().authorization ?? '');
    });
    await send(alice.page, 'Still here after the renewal');
    // Every request carries the renewed token or a newer one (renewals go on every few seconds here).
    expect(asked.length).toBeGreaterThan(0);
    for (const authorization of asked) {
      expect(authorization).toMatch(/^Bearer /);
      expect(authorization).not.toBe(`Bearer ${first}`);
      expect(expiryOf(authorization.slice(7))).toBeGreaterThanOrEqual(later.exp);
    }
    expect(await settle(() => shown(bob.page), [...(await shown(alice.page))])).toEqual([
      'Hi Bob, from my company account',
      'Hello Alice',
      'Still here after the renewal',
    ]);

    // The socket opened with the first token is closed when it expires (4403); the app opens it
    // again with the renewed one, and pulls what was sent meanwhile.
    const linkState = alice.page.getByTestId('link-state');
    await linkState.getByText(/offline|connecting/).waitFor({ timeout: (ACCESS_TOKEN_TTL + 30) * 1000 });
    await send(bob.page, 'Sent while your socket was closed');
    await linkState.getByText('live').waitFor();
    const everything = [
      'Hi Bob, from my company account',
      'Hello Alice',
      'Still here after the renewal',
      'Sent while your socket was closed',
    ];
    expect(await settle(() => shown(alice.page), everything)).toEqual(everything);
    const inits = alice.sentFrames
      .map((frame) => JSON.parse(frame) as { type: string; payload?: { authorization?: string } })
      .filter((message) => message.type === 'connection_init');
    expect(inits.length).toBeGreaterThanOrEqual(2);
    expect(inits[0].payload?.authorization).toBe(`Bearer ${first}`);
    expect(inits.at(-1)!.payload?.authorization).not.toBe(`Bearer ${first}`);

    // Signing out ends the provider's session too: the next sign-in asks for the login again.
    await alice.page.getByRole('button', { name: 'Sign out' }).click();
    await alice.page.waitForURL((url) => url.origin === provider.issuer);
    await alice.page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await alice.page.waitForURL((url) => url.origin === web.base);
    await alice.page.getByRole('button', { name: 'Sign in with your account' }).waitFor();
    expect(new URL(alice.page.url()).search).toBe('');
    expect(
      Object.keys(await stored(alice.page)).filter((key) => key === 'ria.session' || key.startsWith('oidc.')),
    ).toEqual([]);
    await alice.page.getByRole('button', { name: 'Sign in with your account' }).click();
    await alice.page.locator('input[name="login"]').waitFor();
    expect(alice.problems).toEqual([]);
    expect(bob.problems).toEqual([]);
  }, 240_000);

  it('sends each refresh token once, however slow the provider answers', async () => {
    const dora = await web.open();
    opened.push(dora);
    await signInAtProvider(dora.page, 'dora');
    const first = await tokenIn(dora.page);
    const before = await provider.stats();
    // Slower than oidc-client-ts's one-second re-arming in the last minute: a second trade of the
    // same refresh token would be taken for theft, and the grant revoked.
    await provider.slowTokens(2500);
    try {
      await settle(async () => (await provider.stats()).refreshed - before.refreshed >= 2, true, 45_000);
    } finally {
      await provider.slowTokens(0);
    }
    const after = await provider.stats();
    expect(after.refreshed - before.refreshed).toBeGreaterThanOrEqual(2);
    expect(after.grantErrors - before.grantErrors).toBe(0);
    expect(after.revoked - before.revoked).toBe(0);
    expect(await tokenIn(dora.page)).not.toBe(first);
    await dora.page.getByTestId('signed-in-as').getByText('sso.dora', { exact: true }).waitFor();
    expect(dora.problems).toEqual([]);
  }, 90_000);

  it('says why when the provider refuses the sign-in, and stays on the sign-in page', async () => {
    const carol = await web.open();
    opened.push(carol);
    await carol.page.getByRole('button', { name: 'Sign in with your account' }).click();
    await carol.page.waitForURL((url) => url.origin === provider.issuer);
    // The person turns the sign-in down at the provider: back with ?error=access_denied.
    await carol.page.getByRole('link', { name: '[ Cancel ]' }).click();
    await carol.page.waitForURL((url) => url.origin === web.base);
    await carol.page
      .getByRole('alert')
      .getByText(/^Sign-in did not complete: End-User aborted interaction/)
      .waitFor();
    expect(new URL(carol.page.url()).search).toBe('');
    expect(await carol.page.getByRole('button', { name: 'Sign in with your account' }).isEnabled()).toBe(true);
    expect(carol.problems).toEqual([]);
  }, 60_000);
});
