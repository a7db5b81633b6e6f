// The app's notices as the server recognises registered documents: over graphql-ws it subscribes
// by the hash of each registered subscription, so a server with TRUSTED_DOCUMENTS=require runs
// them and /metrics names them; a subscription the server refuses shows in the header as not live.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import webManifest from '../../src/generated/web/persisted-documents.json';
import { settle, startWeb, type SignedIn, type WebFixture } from '../support/browser';

const chatTitles = (page: Page): Promise<string[]> =>
  page.getByRole('list', { name: 'Your chats' }).locator('.chat-title').allTextContents();

async function startChat(page: Page, members: string, message: string): Promise<void> {
  const form = page.getByRole('form', { name: 'New chat' });
  await form.getByLabel('Members').fill(members);
  await form.getByLabel('First message').fill(message);
  await form.getByRole('button', { name: 'Start chat' }).click();
  await page.waitForURL((url) => /#\/chats\/\d+$/.test(url.hash));
}

interface SubscribeFrame {
  type: 'subscribe';
  id: string;
  payload: { query: string; operationName?: string; extensions?: { persistedQuery?: { sha256Hash?: string } } };
}

const subscribes = (signed: SignedIn): SubscribeFrame[] =>
  signed.sentFrames
    .map((text) => JSON.parse(text) as { type: string })
    .filter((message): message is SubscribeFrame => message.type === 'subscribe');

/** The manifest's text of each registered subscription, by hash. */
const registered = new Map(Object.entries(webManifest).map(([key, text]) => [key.replace(/^sha256:/, ''), text]));

describe('live updates with TRUSTED_DOCUMENTS=require', () => {
  let web: WebFixture;
  const opened: SignedIn[] = [];
  beforeAll(async () => {
    web = await startWeb({ TRUSTED_DOCUMENTS: 'require' });
  }, 60_000);
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((signed) => signed.context.close()));
  });
  afterAll(async () => web?.stop());

  it("shows bob alice's new chat without a reload, subscribing by the registered hash", async () => {
    const alice = await web.signIn('alice');
    const bob = await web.signIn('bob');
    opened.push(alice, bob);
    await startChat(alice.page, 'bob', 'Hi Bob!');
    expect(await settle(() => chatTitles(bob.page), ['alice'])).toEqual(['alice']);
    expect(await bob.page.getByTestId('link-state').textContent()).toBe('live');

    const sent = subscribes(bob);
    expect(sent.map((frame) => frame.payload.operationName)).toEqual(['AppInboxChanged']);
    for (const { payload } of sent) {
      // The hash alone: the text Apollo would print is not the manifest's.
      expect(payload.query).toBe('');
      const text = registered.get(payload.extensions?.persistedQuery?.sha256Hash ?? '');
      expect(text).toMatch(new RegExp(`^subscription ${payload.operationName}\\b`));
    }
    expect(bob.problems).toEqual([]);
  }, 60_000);
});

describe('a subscription the server refuses', () => {
  let web: WebFixture;
  let dir: string;
  beforeAll(async () => {
    // The app's manifest without AppInboxChanged: the chats page's pulls run, its notices are refused.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-web-manifest-'));
    const file = path.join(dir, 'manifest.json');
    const kept = Object.entries(webManifest).filter(([, text]) => !text.startsWith('subscription AppInboxChanged'));
    expect(kept.length).toBe(Object.keys(webManifest).length - 1);
    fs.writeFileSync(file, JSON.stringify(Object.fromEntries(kept)));
    web = await startWeb({ TRUSTED_DOCUMENTS: 'require', TRUSTED_DOCUMENTS_FILE: file });
  }, 60_000);
  afterAll(async () => {
    await web?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows the header as not live while the page it is on gets no notices', async () => {
    // The tasks page subscribes to nothing for a user: the socket alone makes it live.
    const carol = await web.signIn('carol', { page: 'tasks' });
    try {
      await carol.page.locator('header nav a[href="#/chats"]').click();
      await carol.page.getByText('No chats yet').waitFor();
      const state = carol.page.getByTestId('link-state');
      await state.getByText('refused').waitFor({ timeout: 15_000 });
      expect(await state.getAttribute('title')).toContain('AppInboxChanged');
      expect(subscribes(carol).map((frame) => frame.payload.operationName)).toEqual(['AppInboxChanged']);
    } finally {
      await carol.context.close();
    }
  }, 60_000);

  it('shows the header live again once the page holding the refused subscription is left', async () => {
    const dave = await web.signIn('dave', { page: 'tasks' });
    try {
      const state = dave.page.getByTestId('link-state');
      await state.getByText('live', { exact: true }).waitFor({ timeout: 15_000 });
      await dave.page.locator('header nav a[href="#/chats"]').click();
      await dave.page.getByText('No chats yet').waitFor();
      await state.getByText('refused').waitFor({ timeout: 15_000 });

      // Back on a page that subscribes to nothing: no notice is missing, so nothing is refused.
      await dave.page.locator('header nav a[href="#/tasks"]').click();
      await dave.page.waitForURL((url) => url.hash === '#/tasks');
      await state.getByText('live', { exact: true }).waitFor({ timeout: 15_000 });
      expect((await state.getAttribute('title')) ?? '').not.toContain('AppInboxChanged');

      // Coming back refuses again: the refusal belongs to the page that holds it.
      await dave.page.locator('header nav a[href="#/chats"]').click();
      await state.getByText('refused').waitFor({ timeout: 15_000 });
      expect(subscribes(dave).map((frame) => frame.payload.operationName)).toEqual([
        'AppInboxChanged',
        'AppInboxChanged',
      ]);
      expect(dave.problems).toEqual([]);
    } finally {
      await dave.context.close();
    }
  }, 60_000);
});

describe('/metrics in the default mode', () => {
  let web: WebFixture;
  beforeAll(async () => {
    web = await startWeb();
  }, 60_000);
  afterAll(async () => web?.stop());

  /** ria_ws_operations_total's samples, as `operation code` -> value. */
  async function wsOperations(token: string): Promise<Map<string, number>> {
    const text = await fetch(`${web.base}/metrics`, { headers: { authorization: `Bearer ${token}` } }).then((r) =>
      r.text(),
    );
    const samples = new Map<string, number>();
    for (const match of text.matchAll(/^ria_ws_operations_total\{operation="([^"]*)",code="([^"]*)"\} (\S+)$/gm))
      samples.set(`${match[1]} ${match[2]}`, Number(match[3]));
    return samples;
  }

  it("labels the app's subscriptions by their registered operation name", async () => {
    const minted = await fetch(`${web.base}/app/dev-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'ops', service: true }),
    }).then((r) => r.json() as Promise<{ token: string }>);
    const dave = await web.signIn('dave');
    await dave.page.getByText('No chats yet').waitFor();
    // An operation is counted once it ends: closing the app's page ends its subscription.
    await dave.context.close();
    const deadline = Date.now() + 15_000;
    let samples = await wsOperations(minted.token);
    while (!samples.has('AppInboxChanged ok') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      samples = await wsOperations(minted.token);
    }
    expect(Object.fromEntries(samples)).toEqual({ 'AppInboxChanged ok': 1 });
  }, 60_000);
});
