// The Chats page in a real browser: two people in two browser contexts start a chat and talk;
// unread counts move while one of them is elsewhere and clear when they read; one goes offline
// (the browser's network emulation, and the app drops its socket as a real drop would), misses
// three messages and gets each of them once, in order, when back, as does their second device;
// older messages come a page at a time; edits and deletions show on the other side.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { Page } from 'playwright-core';
import {
  AppChatsDocument,
  AppCreateChatDocument,
  AppMessagesDocument,
  AppSendMessageDocument,
} from '../../src/generated/web/graphql';
import { screenshot, settle, startWeb, type SignedIn, type WebFixture } from '../support/browser';
import { post } from '../support/graphql';

let web: WebFixture;
beforeAll(async () => {
  web = await startWeb();
}, 60_000);
afterAll(async () => web?.stop());

const opened: SignedIn[] = [];
async function signIn(user: string): Promise<SignedIn> {
  const signed = await web.signIn(user);
  opened.push(signed);
  return signed;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((signed) => signed.context.close()));
});

const shown = (page: Page): Promise<string[]> => page.getByTestId('message-text').allTextContents();

/** The chat list's rows as [title, unread badge or ''], top to bottom. */
async function rows(page: Page): Promise<[string, string][]> {
  const items = page.getByRole('list', { name: 'Your chats' }).getByRole('listitem');
  const found: [string, string][] = [];
  for (const item of await items.all()) {
    const title = await item.locator('.chat-title').textContent();
    const badge = item.getByTestId('unread');
    found.push([title ?? '', (await badge.count()) > 0 ? ((await badge.textContent()) ?? '') : '']);
  }
  return found;
}

/** Waits for the chat list to read `expected` ([title, unread badge or ''], top to bottom), then checks it. */
async function expectRows(page: Page, expected: [string, string][]): Promise<void> {
  expect(await settle(() => rows(page), expected)).toEqual(expected);
}

async function startChat(page: Page, members: string, message: string): Promise<string> {
  const form = page.getByRole('form', { name: 'New chat' });
  await form.getByLabel('Members').fill(members);
  await form.getByLabel('First message').fill(message);
  const before = page.url();
  await form.getByRole('button', { name: 'Start chat' }).click();
  await page.waitForURL((url) => url.href !== before && /#\/chats\/\d+$/.test(url.hash));
  return /#\/chats\/(\d+)$/.exec(page.url())![1];
}

async function openChat(page: Page, chatId: string): Promise<void> {
  await page.locator(`li[data-chat="${chatId}"] a`).click();
  await page.locator(`li[data-chat="${chatId}"] a[aria-current="true"]`).waitFor();
  await page.getByRole('region', { name: 'Conversation' }).waitFor();
}

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('form', { name: 'Send a message' });
  await box.getByLabel('Message').fill(text);
  await box.getByRole('button', { name: 'Send' }).click();
  await page.getByTestId('message-text').getByText(text, { exact: true }).waitFor();
}

async function tokenOf(user: string): Promise<string> {
  const response = await fetch(`${web.base}/app/dev-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user }),
  });
  return ((await response.json()) as { token: string }).token;
}

/** Runs an operation as `token` over HTTP and returns its data; any error fails the test. */
async function api<R, V>(document: TypedDocumentNode<R, V>, variables: V, token: string): Promise<R> {
  const result = await post(`${web.base}/graphql`, document, variables, token);
  if (result.errors || !result.data) throw new Error(`unexpected errors: ${JSON.stringify(result.errors)}`);
  return result.data;
}

describe('chats page', () => {
  it('alice starts a chat with bob: both see it, and each sees the other typing and every message in order', async () => {
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    const chatId = await startChat(alice.page, 'bob', 'Hi Bob!');
    expect(await settle(() => shown(alice.page), ['Hi Bob!'])).toEqual(['Hi Bob!']);

    // Bob's list tells him of the new chat without a reload, unread until he opens it.
    await expectRows(bob.page, [['alice', '1']]);
    await openChat(bob.page, chatId);
    expect(await settle(() => shown(bob.page), ['Hi Bob!'])).toEqual(['Hi Bob!']);
    await expectRows(bob.page, [['alice', '']]);

    await send(bob.page, 'Hello Alice, how are you?');
    // Alice types: bob is told; she sends: the notice stops.
    await alice.page.getByRole('form', { name: 'Send a message' }).getByLabel('Message').fill('Fine, thanks.');
    await bob.page.getByText('alice is typing…').waitFor();
    await alice.page.getByRole('button', { name: 'Send' }).click();
    await send(bob.page, 'Glad to hear it.');
    await send(alice.page, 'Shall we meet at noon?');
    await send(bob.page, 'Noon works.');

    const all = [
      'Hi Bob!',
      'Hello Alice, how are you?',
      'Fine, thanks.',
      'Glad to hear it.',
      'Shall we meet at noon?',
      'Noon works.',
    ];
    expect(await settle(() => shown(alice.page), all)).toEqual(all);
    expect(await settle(() => shown(bob.page), all)).toEqual(all);
    const senders = await bob.page.locator('[data-testid="message"] .sender').allTextContents();
    expect(senders).toEqual(['alice', 'bob', 'alice', 'bob', 'alice', 'bob']);
    // The stop was told (or, told less than a second after the last one, ran out on its own).
    expect(await settle(() => bob.page.getByText('is typing').count(), 0)).toBe(0);
    // Each read what the other wrote: the receipts say so.
    await alice.page.getByText('Seen by bob').waitFor();

    // Carol writes to alice meanwhile: a second chat, on top, unread.
    await api(AppCreateChatDocument, { members: ['alice'], message: 'Lunch tomorrow?' }, await tokenOf('carol'));
    await expectRows(alice.page, [
      ['carol', '1'],
      ['bob', ''],
    ]);
    await screenshot(alice.page, 'chats');
    expect(alice.problems).toEqual([]);
    expect(bob.problems).toEqual([]);
  }, 60_000);

  it("counts bob's unread messages while he is on another chat or page, newest activity first, and clears them when he opens the chat", async () => {
    const carol = await signIn('carol');
    const dave = await signIn('dave');
    const first = await startChat(carol.page, 'dave', 'First chat');
    const second = await startChat(carol.page, 'dave erin', 'Second chat');
    await expectRows(dave.page, [
      ['carol, erin', '1'],
      ['carol', '1'],
    ]);
    await openChat(dave.page, second);
    await openChat(carol.page, first);

    // Dave reads the second chat while carol writes in the first one: it counts up and moves to the top.
    await send(carol.page, 'one');
    await expectRows(dave.page, [
      ['carol', '2'],
      ['carol, erin', ''],
    ]);
    await send(carol.page, 'two');
    await expectRows(dave.page, [
      ['carol', '3'],
      ['carol, erin', ''],
    ]);
    await send(carol.page, 'three');
    await expectRows(dave.page, [
      ['carol', '4'],
      ['carol, erin', ''],
    ]);

    // On another page, then back: the count is the server's.
    await dave.page.locator('header nav a[href="#/counters"]').click();
    await dave.page.getByRole('list', { name: 'Your chats' }).waitFor({ state: 'detached' });
    await send(carol.page, 'four');
    await dave.page.locator('header nav a[href="#/chats"]').click();
    await expectRows(dave.page, [
      ['carol', '5'],
      ['carol, erin', ''],
    ]);

    await openChat(dave.page, first);
    const five = ['First chat', 'one', 'two', 'three', 'four'];
    expect(await settle(() => shown(dave.page), five)).toEqual(five);
    // Read: the server's count is 0, so no badge comes back once he looks at the other chat.
    await openChat(dave.page, second);
    await expectRows(dave.page, [
      ['carol', ''],
      ['carol, erin', ''],
    ]);
    const { chats } = await api(AppChatsDocument, {}, await tokenOf('dave'));
    expect(chats.map((chat) => [chat.id, chat.unreadCount])).toEqual([
      [first, 0],
      [second, 0],
    ]);
    expect(carol.problems).toEqual([]);
    expect(dave.problems).toEqual([]);
  }, 60_000);

  it('gives bob the three messages sent while he was offline once he is back, each once and in order, and to his second device', async () => {
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    const bobPhone = await signIn('bob');
    const chatId = await startChat(alice.page, 'bob', 'Before the tunnel');
    await openChat(bob.page, chatId);
    await openChat(bobPhone.page, chatId);
    await send(bob.page, 'Going into a tunnel');
    const before = ['Before the tunnel', 'Going into a tunnel'];
    expect(await settle(() => shown(bobPhone.page), before)).toEqual(before);

    // The network goes: the app notices at once (the browser says it is offline) and drops its
    // socket, which Chromium would otherwise keep open, holding its frames until it is back.
    await bob.context.setOffline(true);
    await bob.page.getByTestId('link-state').getByText('offline').waitFor();

    for (const text of ['one', 'two', 'three']) await send(alice.page, text);
    const after = [...before, 'one', 'two', 'three'];
    expect(await settle(() => shown(bobPhone.page), after)).toEqual(after);
    expect(await shown(bob.page)).toEqual(before);
    await expect(bob.page.getByTestId('link-state').textContent()).resolves.toBe('offline');

    await bob.context.setOffline(false);
    await bob.page.getByTestId('link-state').getByText('live').waitFor();
    expect(await settle(() => shown(bob.page), after)).toEqual(after);
    const ids = await bob.page
      .getByTestId('message')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-id')));
    expect(ids).toEqual(['1', '2', '3', '4', '5']);

    // Each browser context is a device of bob's, with an id of its own; the panel lists both.
    const deviceOf = (signed: SignedIn) => signed.page.evaluate<string | null>("localStorage.getItem('ria.device')");
    const [laptopId, phoneId] = [await deviceOf(bob), await deviceOf(bobPhone)];
    expect(laptopId).toMatch(/^web-[a-z0-9]{16}$/);
    expect(phoneId).toMatch(/^web-[a-z0-9]{16}$/);
    expect(phoneId).not.toBe(laptopId);
    const panel = bob.page.getByRole('region', { name: 'Devices' });
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await panel.getByText(phoneId!).waitFor();
    expect(await panel.getByRole('listitem').filter({ hasText: '(this browser)' }).textContent()).toContain(laptopId);
    expect(alice.problems).toEqual([]);
    expect(bob.problems).toEqual([]);
    expect(bobPhone.problems).toEqual([]);
  }, 60_000);

  it('drops a socket that stops answering (a network loss the browser does not notice) and pulls what was missed once back', async () => {
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    // This browser never says it is offline: only the missing pong to the app's keep-alive ping tells.
    await bob.context.addInitScript(
      "window.addEventListener('offline', (event) => event.stopImmediatePropagation(), { capture: true })",
    );
    await bob.page.reload();
    await bob.page.getByTestId('link-state').getByText('live').waitFor();
    const chatId = await startChat(alice.page, 'bob', 'Still there?');
    await openChat(bob.page, chatId);
    expect(await settle(() => shown(bob.page), ['Still there?'])).toEqual(['Still there?']);

    await bob.context.setOffline(true);
    await send(alice.page, 'Hello?');
    await send(alice.page, 'Anyone?');
    // A ping every 10 s, 5 s for its pong: then the socket is dropped.
    await bob.page.getByTestId('link-state').getByText('offline').waitFor({ timeout: 30_000 });
    expect(await shown(bob.page)).toEqual(['Still there?']);

    await bob.context.setOffline(false);
    await bob.page.getByTestId('link-state').getByText('live').waitFor();
    const all = ['Still there?', 'Hello?', 'Anyone?'];
    expect(await settle(() => shown(bob.page), all)).toEqual(all);
    expect(alice.problems).toEqual([]);
    expect(bob.problems).toEqual([]);
  }, 60_000);

  it('sends a message once when its reply was lost and the same text is sent again', async () => {
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    const chatId = await startChat(alice.page, 'bob', 'Are you there?');
    await openChat(bob.page, chatId);
    // The first send reaches the server, but its reply never reaches the page.
    let lost = false;
    await alice.page.route('**/graphql', async (route) => {
      const body = route.request().postDataJSON() as { operationName?: string } | null;
      if (lost || body?.operationName !== 'AppSendMessage') return route.fallback();
      lost = true;
      await route.fetch();
      await route.abort('connectionreset');
    });
    const box = alice.page.getByRole('form', { name: 'Send a message' });
    await box.getByLabel('Message').fill('Only once, please');
    await box.getByRole('button', { name: 'Send' }).click();
    await box.getByRole('button', { name: 'Send again' }).click();
    expect(await settle(() => box.getByLabel('Message').inputValue(), '')).toBe('');

    const both = ['Are you there?', 'Only once, please'];
    expect(await settle(() => shown(alice.page), both)).toEqual(both);
    expect(await settle(() => shown(bob.page), both)).toEqual(both);
    const { messages } = await api(AppMessagesDocument, { chatId }, await tokenOf('bob'));
    expect(messages.messages.map((entry) => entry.message)).toEqual(both);
    expect(lost).toBe(true);
    // The lost reply (the browser logs it too), and nothing else.
    expect(alice.problems).toEqual([
      `request failed: ${web.base}/graphql`,
      'console: Failed to load resource: net::ERR_CONNECTION_RESET',
    ]);
    expect(bob.problems).toEqual([]);
  }, 60_000);

  it('shows the newest page first and older messages a page at a time; edits and deletions reach the other side', async () => {
    const frank = await tokenOf('frank');
    const { createChat } = await api(AppCreateChatDocument, { members: ['grace'], message: 'm1' }, frank);
    for (let i = 2; i <= 70; i++) await api(AppSendMessageDocument, { chatId: createChat.id, message: `m${i}` }, frank);
    const grace = await signIn('grace');
    await openChat(grace.page, createChat.id);
    const page = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);
    expect(await settle(() => shown(grace.page), page(21, 70))).toEqual(page(21, 70));
    await grace.page.getByRole('button', { name: 'Load earlier' }).click();
    expect(await settle(() => shown(grace.page), page(1, 70))).toEqual(page(1, 70));
    expect(await grace.page.getByRole('button', { name: 'Load earlier' }).count()).toBe(0);

    const frankPage = await signIn('frank');
    await openChat(frankPage.page, createChat.id);
    const last = frankPage.page.locator('[data-testid="message"][data-id="70"]');
    await last.getByRole('button', { name: 'Edit' }).click();
    await last.getByLabel('New text').fill('m70, edited');
    await last.getByRole('button', { name: 'Save' }).click();
    await grace.page.getByTestId('message-text').getByText('m70, edited').waitFor();
    await frankPage.page
      .locator('[data-testid="message"][data-id="69"]')
      .getByRole('button', { name: 'Delete' })
      .click();
    const expected = [...page(1, 68), 'Message deleted', 'm70, edited'];
    expect(await settle(() => shown(grace.page), expected)).toEqual(expected);
    // Grace cannot edit frank's messages: no buttons on them.
    expect(await grace.page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(grace.problems).toEqual([]);
    expect(frankPage.problems).toEqual([]);
  }, 90_000);
});
