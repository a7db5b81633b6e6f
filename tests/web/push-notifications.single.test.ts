// The web app hears by push (issue 37). Its service worker is served at /app/sw.js for its scope
// /app/ (revalidated on each check, allowed by the CSP) and session.json names the VAPID key.
// In Chromium: the chats page's opt-in registers the worker and, where the browser offers no push
// service (the test's contexts are off the record, as a private window is), says it refused
// rather than hanging; with a stand-in for the one piece it lacks (PushManager's subscription),
// the opt-in makes the subscription the device's push target, puts it back when the server lost
// it, and "Stop notifications" removes it; pushes delivered through
// the DevTools protocol show one notification per chat and one for the mailbox, ids and counts
// only; an open chats page whose socket lost the notice pulls the new message on the push; a
// click on a notification brings the window to that chat.
import crypto from 'node:crypto';
import path from 'node:path';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { BrowserContext, CDPSession, Page, Worker } from 'playwright-core';
import webpush from 'web-push';
import { PushTargetsDocument, RemovePushTargetDocument } from '../../src/generated/client/graphql';
import { AppCreateChatDocument, AppSendMessageDocument } from '../../src/generated/web/graphql';
import { settle, startWeb, type SignedIn, type WebFixture } from '../support/browser';
import { post } from '../support/graphql';
import { startTestServer } from '../support/server';

const vapid = webpush.generateVAPIDKeys();

let web: WebFixture;
beforeAll(async () => {
  web = await startWeb({
    PUSH_VAPID_PUBLIC_KEY: vapid.publicKey,
    PUSH_VAPID_PRIVATE_KEY: vapid.privateKey,
    PUSH_VAPID_SUBJECT: 'mailto:ops@example.com',
  });
}, 60_000);
afterAll(async () => web?.stop());

const opened: SignedIn[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((signed) => signed.context.close()));
});

/**
 * The page's problems but Chromium's own word on the refused subscription: this browser's
 * contexts are off the record, where it offers no push service, and it says so on the console.
 */
const problemsOf = (signed: SignedIn): string[] =>
  signed.problems.filter((problem) => !problem.includes('does not support the Push API in incognito mode'));

interface Shown {
  title: string;
  body: string;
  tag: string;
  data: unknown;
}

/** The notifications the app's service worker shows, by tag. (Browser code as text: no DOM types here.) */
const notifications = (page: Page): Promise<Shown[]> =>
  page.evaluate<Shown[]>(`navigator.serviceWorker.getRegistration('/app/')
    .then((registration) => (registration ? registration.getNotifications() : []))
    .then((shown) => shown
      .map(({ title, body, tag, data }) => ({ title, body, tag, data }))
      .sort((a, b) => a.tag.localeCompare(b.tag)))`);

const shownMessages = (page: Page): Promise<string[]> => page.getByTestId('message-text').allTextContents();

async function tokenOf(user: string): Promise<string> {
  const response = await fetch(`${web.base}/app/dev-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user }),
  });
  return ((await response.json()) as { token: string }).token;
}

async function api<R, V>(document: TypedDocumentNode<R, V>, variables: V, token: string): Promise<R> {
  const result = await post(`${web.base}/graphql`, document, variables, token);
  if (result.errors || !result.data) throw new Error(`unexpected errors: ${JSON.stringify(result.errors)}`);
  return result.data;
}

/**
 * Signed in with notifications allowed for the app's origin, and the service worker registered
 * by the app itself: its opt-in asks for permission and registers the worker, then the browser
 * refuses to subscribe (Chromium offers no push service off the record), and the page says so.
 */
async function optedIn(signed: SignedIn): Promise<void> {
  const { context, page } = signed;
  await context.grantPermissions(['notifications'], { origin: web.base });
  const panel = page.getByRole('region', { name: 'Notifications' });
  await panel.getByText('only while the app is open').waitFor();
  await panel.getByRole('button', { name: 'Notify me on this device' }).click();
  await panel
    .getByRole('alert')
    .getByText(
      /^The browser's push service refused to subscribe this browser \(\w+Error: .+\)\. A private window, or a browser without a push service, cannot be notified\.$/,
    )
    .waitFor();
  // Nothing half-done: not subscribed, and the button is there to try again.
  await panel.getByRole('button', { name: 'Notify me on this device' }).and(page.locator(':enabled')).waitFor();
  expect(await panel.getByTestId('push-state').textContent()).toContain('only while the app is open');
  const worker = await page.evaluate<{ script: string; scope: string; subscribed: boolean }>(`(async () => {
    const registration = await navigator.serviceWorker.getRegistration('/app/');
    return {
      script: registration.active.scriptURL,
      scope: registration.scope,
      subscribed: (await registration.pushManager.getSubscription()) !== null,
    };
  })()`);
  expect(worker).toEqual({ script: `${web.base}/app/sw.js`, scope: `${web.base}/app/`, subscribed: false });
}

interface Pusher {
  /** Delivers `payload` (JSON, as the API sends it) to the app's service worker, as a push service would. */
  push(payload: unknown): Promise<void>;
  cdp: CDPSession;
}

/**
 * Pushes through the DevTools protocol: the registration's id comes with the ServiceWorker
 * domain's registration events, which it sends for registrations that exist when it is enabled.
 */
async function pusher(signed: SignedIn): Promise<Pusher> {
  const cdp = await signed.context.newCDPSession(signed.page);
  const scope = `${web.base}/app/`;
  const registrationId = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((registration) => registration.scopeURL === scope && !registration.isDeleted);
      if (ours !== undefined) resolve(ours.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  const id = await registrationId;
  return {
    cdp,
    async push(payload) {
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: web.base,
        registrationId: id,
        data: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
    },
  };
}

function appWorker(context: BrowserContext): Worker {
  const worker = context.serviceWorkers().find((candidate) => candidate.url() === `${web.base}/app/sw.js`);
  if (worker === undefined) throw new Error('the app has no service worker running');
  return worker;
}

/**
 * A click on the notification tagged `tag`, as the worker hears it. DevTools cannot click a
 * notification, so the event is made in the worker; a page-made event may not extend its life
 * (waitUntil throws for it), so its waitUntil only hands the promise back to be awaited.
 */
async function click(context: BrowserContext, tag: string): Promise<void> {
  await appWorker(context).evaluate(`(async () => {
    const [notification] = await self.registration.getNotifications({ tag: ${JSON.stringify(tag)} });
    if (notification === undefined) throw new Error('no notification tagged ${tag}');
    const event = new NotificationEvent('notificationclick', { notification });
    let handling = Promise.resolve();
    Object.defineProperty(event, 'waitUntil', { value: (promise) => (handling = promise) });
    self.dispatchEvent(event);
    await handling;
  })()`);
}

describe('the service worker and session.json', () => {
  it('serves /app/sw.js as JavaScript, revalidated on each check, compressed when asked, under a CSP that allows it', async () => {
    const plain = await fetch(`${web.base}/app/sw.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toMatch(/^(text|application)\/javascript; charset=utf-8$/i);
    expect(plain.headers.get('cache-control')).toBe('no-cache');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('service-worker-allowed')).toBeNull(); // its folder is its scope
    const csp = plain.headers.get('content-security-policy')!.split('; ');
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("script-src 'self'");
    const script = await plain.text();
    // One classic script: no import a service worker registered without `type: 'module'` would refuse.
    expect(script).not.toMatch(/^\s*import\b|\bimport\(/m);
    for (const event of ['push', 'notificationclick']) expect(script).toContain(event);

    // The build's brotli copy (it is over 1 KB), under the same headers; unchanged, it is not sent again.
    const brotli = await fetch(`${web.base}/app/sw.js`, { headers: { 'accept-encoding': 'br' } });
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(brotli.headers.get('cache-control')).toBe('no-cache');
    expect(brotli.headers.get('content-type')).toBe(plain.headers.get('content-type'));
    expect(await brotli.text()).toBe(script);
    // (A browser's check sends max-age=0; fetch would send no-cache, which no server answers with 304.)
    const again = await fetch(`${web.base}/app/sw.js`, {
      headers: {
        'accept-encoding': 'identity',
        'if-none-match': plain.headers.get('etag')!,
        'cache-control': 'max-age=0',
      },
    });
    expect(again.status).toBe(304);

    // The app's pages are under the same policy.
    const index = await fetch(`${web.base}/app/`);
    expect(index.headers.get('content-security-policy')).toBe(plain.headers.get('content-security-policy'));
  });

  it('names the VAPID public key in session.json when Web Push is set up, and null when it is not', async () => {
    const withKey = await fetch(`${web.base}/app/session.json`).then((r) => r.json());
    expect(withKey).toEqual({ devSignIn: true, provider: null, push: { webPushPublicKey: vapid.publicKey } });

    const without = await startTestServer(
      { WEB_APP_DIR: path.resolve(__dirname, '..', '..', 'dist', 'web') },
      web.redis,
    );
    try {
      const info = await fetch(`${new URL(without.url).origin}/app/session.json`).then((r) => r.json());
      expect(info).toEqual({ devSignIn: false, provider: null, push: null });
    } finally {
      await without.stop();
    }
  });
});

describe('notifications in Chromium', () => {
  it('offers no opt-in when the server sends no Web Push', async () => {
    // The app's session.json answered as a server without Web Push answers it.
    const signed = await web.open();
    opened.push(signed);
    const { context, page } = signed;
    await context.route(`${web.base}/app/session.json`, async (route) => {
      const answer = await route.fetch();
      await route.fulfill({ response: answer, json: { ...(await answer.json()), push: null } });
    });
    await page.reload();
    await page.getByLabel('User name').fill('nadia');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('region', { name: 'Devices' }).waitFor();
    expect(await page.getByRole('region', { name: 'Notifications' }).count()).toBe(0);
    expect(await page.evaluate<number>('navigator.serviceWorker.getRegistrations().then((all) => all.length)')).toBe(0);
    expect(signed.problems).toEqual([]);
  });

  it('registers the subscription as the device\'s push target, again when the server lost it, and removes it on "Stop notifications"', async () => {
    // Headless Chromium has no push service, so PushManager's subscription is a stand-in here,
    // kept in localStorage across reloads as the browser keeps its own. Everything else is real:
    // permission, the service worker's registration, the API and Redis. Its keys are a real
    // P-256 public key and auth secret, which the API checks.
    const subscription = {
      endpoint: 'https://push.example.net/send/dGVzdC1zdWJzY3JpcHRpb24',
      expirationTime: null,
      keys: {
        p256dh: crypto.createECDH('prime256v1').generateKeys().toString('base64url'),
        auth: crypto.randomBytes(16).toString('base64url'),
      },
    };
    const dora = await web.signIn('dora');
    opened.push(dora);
    const { context, page } = dora;
    await context.addInitScript(`(() => {
      const KEY = 'test.push-subscription';
      const standIn = (json) => ({
        endpoint: json.endpoint,
        toJSON: () => json,
        unsubscribe: async () => (localStorage.removeItem(KEY), true),
      });
      PushManager.prototype.getSubscription = async function () {
        const stored = localStorage.getItem(KEY);
        return stored === null ? null : standIn(JSON.parse(stored));
      };
      PushManager.prototype.subscribe = async function (options) {
        localStorage.setItem('test.subscribed-with', JSON.stringify(options));
        localStorage.setItem(KEY, ${JSON.stringify(JSON.stringify(subscription))});
        return standIn(${JSON.stringify(subscription)});
      };
    })()`);
    await context.grantPermissions(['notifications'], { origin: web.base });
    await page.reload();
    const panel = page.getByRole('region', { name: 'Notifications' });
    const token = await tokenOf('dora');
    const targets = async () => (await api(PushTargetsDocument, {}, token)).pushTargets;
    const device = await page.evaluate<string>("localStorage.getItem('ria.device')");

    await panel.getByRole('button', { name: 'Notify me on this device' }).click();
    await panel.getByRole('button', { name: 'Stop notifications' }).waitFor();
    expect(await panel.getByTestId('push-state').textContent()).toContain('also while the app is closed');
    expect(JSON.parse((await page.evaluate<string>("localStorage.getItem('test.subscribed-with')")) ?? '')).toEqual({
      userVisibleOnly: true,
      applicationServerKey: vapid.publicKey,
    });
    const registered = [{ device, kind: 'WEB_PUSH' as const, endpointHost: 'push.example.net', tokenEnd: null }];
    expect((await targets()).map(({ registeredAt: _at, ...target }) => target)).toEqual(registered);

    // The server lost it (here: removed behind the page's back): the next load puts it back.
    expect((await api(RemovePushTargetDocument, { device }, token)).removePushTarget).toBe(true);
    await page.reload();
    await panel.getByRole('button', { name: 'Stop notifications' }).waitFor();
    const restored = await settle(
      async () => (await targets()).map(({ registeredAt: _at, ...target }) => target),
      registered,
    );
    expect(restored).toEqual(registered);

    await panel.getByRole('button', { name: 'Stop notifications' }).click();
    await panel.getByRole('button', { name: 'Notify me on this device' }).waitFor();
    expect(await targets()).toEqual([]);
    expect(await page.evaluate<string | null>("localStorage.getItem('test.push-subscription')")).toBeNull();
    expect(await panel.getByRole('alert').count()).toBe(0);
    expect(problemsOf(dora)).toEqual([]);
  }, 60_000);

  it('shows one notification per chat and one for the mailbox, replaced by the next push, with counts and no text', async () => {
    const alice = await web.signIn('alice');
    opened.push(alice);
    await optedIn(alice);
    const { push } = await pusher(alice);

    await push({ chatId: '12', mailbox: false, upTo: 57, unread: 3 });
    const first = [
      { title: 'New messages', body: '3 unread', tag: 'chat:12', data: { chatId: '12', mailbox: false, upTo: 57 } },
    ];
    expect(await settle(() => notifications(alice.page), first)).toEqual(first);

    // The chat's next push replaces its notification: one for the tag, with the newer count.
    await push({ chatId: '12', mailbox: false, upTo: 58, unread: 4 });
    const replaced = [
      { title: 'New messages', body: '4 unread', tag: 'chat:12', data: { chatId: '12', mailbox: false, upTo: 58 } },
    ];
    expect(await settle(() => notifications(alice.page), replaced)).toEqual(replaced);

    // The mailbox and another chat have their own.
    await push({ mailbox: true, upTo: 9, unread: 2 });
    await push({ chatId: '7', mailbox: false, upTo: 3, unread: 1 });
    const three = [
      { title: 'New messages', body: '4 unread', tag: 'chat:12', data: { chatId: '12', mailbox: false, upTo: 58 } },
      { title: 'New messages', body: '1 unread', tag: 'chat:7', data: { chatId: '7', mailbox: false, upTo: 3 } },
      {
        title: 'New direct messages',
        body: '2 unread',
        tag: 'mailbox',
        data: { chatId: null, mailbox: true, upTo: 9 },
      },
    ];
    expect(await settle(() => notifications(alice.page), three)).toEqual(three);

    // A push that is not the API's (DevTools' own test push, a chat id no route takes) still shows
    // something, as browsers require, and nothing of what it carried.
    await push('Test push message from DevTools.');
    await push({ chatId: '../sign-in', mailbox: false, upTo: 1, unread: 1 });
    const four = [{ title: 'New messages', body: 'Open the app to read them', tag: 'app', data: null }, ...three];
    expect(await settle(() => notifications(alice.page), four)).toEqual(four);
    expect(problemsOf(alice)).toEqual([]);
  }, 60_000);

  it('makes an open chats page pull on a push, when the notice over its socket was lost', async () => {
    const alice = await web.signIn('alice');
    opened.push(alice);
    const { context, page } = alice;
    // The page's socket goes through the test, which can drop what the server sends on it:
    // subscription notices (graphql-ws `next` messages) are lost while `cut` is set, as they are
    // for a phone whose socket died without either side noticing yet. Queries go over HTTP and
    // are untouched. The page is reloaded so that its socket is opened through the route.
    let cut = false;
    const lost: { id: string; field: string }[] = [];
    const losing: (() => void)[] = [];
    await context.routeWebSocket(/\/graphql$/, (socket) => {
      const server = socket.connectToServer();
      server.onMessage((message) => {
        const parsed = JSON.parse(String(message)) as { type: string; id: string; payload?: { data?: object } };
        if (cut && parsed.type === 'next') {
          lost.push({ id: parsed.id, field: Object.keys(parsed.payload?.data ?? {})[0] ?? '' });
          losing.splice(0).forEach((wake) => wake());
          return;
        }
        socket.send(message);
      });
    });
    await page.reload();
    await page.getByTestId('link-state').getByText('live').waitFor();
    await optedIn(alice);
    const { push } = await pusher(alice);

    const bob = await tokenOf('bob');
    const { createChat } = await api(AppCreateChatDocument, { members: ['alice'], message: 'first' }, bob);
    const chatId = createChat.id;
    // The page's pulls: a notice's pull may be followed by one more up to a second later
    // (throttled-pull.ts), which would take 'second' by itself. The cut starts once the page has
    // made no request for three times that, so only a push can bring 'second'.
    let lastRequest = Date.now();
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/graphql') lastRequest = Date.now();
    });
    await page.locator(`li[data-chat="${chatId}"] a`).click();
    expect(await settle(() => shownMessages(page), ['first'])).toEqual(['first']);
    while (Date.now() - lastRequest < 3000) await new Promise((resolve) => setTimeout(resolve, 200));

    cut = true;
    const sent = await api(AppSendMessageDocument, { chatId, message: 'second' }, bob);
    // Both notices of the entry were sent and lost: the list's and the open chat's.
    const lostBoth = (): boolean =>
      ['inboxChanged', 'chatChanged'].every((field) => lost.some((l) => l.field === field));
    while (!lostBoth()) await new Promise<void>((wake) => losing.push(wake));
    expect(await shownMessages(page)).toEqual(['first']);

    await push({ chatId, mailbox: false, upTo: sent.sendMessage.id, unread: 1 });
    expect(await settle(() => shownMessages(page), ['first', 'second'])).toEqual(['first', 'second']);
    const shown = [
      {
        title: 'New messages',
        body: '1 unread',
        tag: `chat:${chatId}`,
        data: { chatId, mailbox: false, upTo: sent.sendMessage.id },
      },
    ];
    expect(await notifications(page)).toEqual(shown);
    expect(problemsOf(alice)).toEqual([]);
  }, 60_000);

  it("brings the open window to the notification's chat when it is clicked", async () => {
    const carol = await web.signIn('carol');
    opened.push(carol);
    const { context, page } = carol;
    await optedIn(carol);
    const { push } = await pusher(carol);
    const dave = await tokenOf('dave');
    const { createChat } = await api(AppCreateChatDocument, { members: ['carol'], message: 'Ping' }, dave);

    await page.locator('header nav a[href="#/counters"]').click();
    await page.locator('main[data-page="counters"]').waitFor();
    await push({ chatId: createChat.id, mailbox: false, upTo: 1, unread: 1 });
    await settle(() => notifications(page).then((shown) => shown.length), 1);
    await click(context, `chat:${createChat.id}`);
    await page.waitForURL(`${web.base}/app/#/chats/${createChat.id}`);
    expect(await settle(() => shownMessages(page), ['Ping'])).toEqual(['Ping']);
    // The notification said all it had to: it is gone once clicked.
    expect(await settle(() => notifications(page), [])).toEqual([]);

    // The mailbox's has no chat: the chat list.
    await push({ mailbox: true, upTo: 4, unread: 1 });
    await settle(() => notifications(page).then((shown) => shown.length), 1);
    await click(context, 'mailbox');
    await page.waitForURL(`${web.base}/app/#/chats`);
    expect(problemsOf(carol)).toEqual([]);
  }, 60_000);
});
