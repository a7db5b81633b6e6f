// The web app's service worker (/app/sw.js, scope /app/), for Web Push only: it caches nothing and
// does not answer fetches. A push says which chat has something new and how many entries are
// unread, never what was written or by whom (the API sends ids and counts only), so a
// notification says no more. The app's open windows are told of each push and pull from the API
// as they do on a subscription notice; a click on a notification brings the app to that chat.
// Built by Vite beside the app as one classic script (web/vite.config.mts); typed by
// web/sw/tsconfig.json against the worker's globals.
import type { PushPayload, WorkerMessage } from '../src/worker-messages';

declare const self: ServiceWorkerGlobalScope;

/** `renotify` is in the Notifications standard and in Chromium, not yet in TypeScript's lib. */
type ShownOptions = NotificationOptions & { renotify?: boolean };

/** The chat ids the API makes (as the app's #/chats/<id> routes take them). */
const CHAT_ID = /^[\w.@-]{1,100}$/;

// Nothing is kept between versions, so a new build's worker takes over at once.
self.addEventListener('install', () => void self.skipWaiting());

self.addEventListener('push', (event) => {
  const push = readPush(event.data);
  // A browser must show something for each push (userVisibleOnly), and the app's windows pull
  // whatever they show: both, for every push, before the worker may stop.
  event.waitUntil(Promise.all([show(push), tellWindows({ type: 'pushed', push })]));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { chatId?: unknown } | null;
  const chatId = typeof data?.chatId === 'string' && CHAT_ID.test(data.chatId) ? data.chatId : null;
  event.waitUntil(openApp(chatId));
});

/** The payload, or null for one that is not what the API sends (DevTools' test push, say). */
function readPush(data: PushMessageData | null): PushPayload | null {
  let value: unknown;
  try {
    value = data?.json();
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { chatId, mailbox, upTo, unread } = value as Record<string, unknown>;
  if (typeof mailbox !== 'boolean' || !Number.isSafeInteger(upTo) || !Number.isSafeInteger(unread)) return null;
  if (mailbox ? chatId !== undefined : typeof chatId !== 'string' || !CHAT_ID.test(chatId)) return null;
  return { ...(mailbox ? {} : { chatId: chatId as string }), mailbox, upTo: upTo as number, unread: unread as number };
}

/**
 * One notification per chat, and one for the mailbox: the tag replaces the one shown before,
 * and renotify makes the newer one heard again rather than swapped in silently.
 */
async function show(push: PushPayload | null): Promise<void> {
  if (push === null) {
    await self.registration.showNotification('New messages', { body: 'Open the app to read them', tag: 'app' });
    return;
  }
  const options: ShownOptions = {
    body: `${push.unread} unread`,
    tag: push.mailbox ? 'mailbox' : `chat:${push.chatId}`,
    renotify: true,
    data: { chatId: push.chatId ?? null, mailbox: push.mailbox, upTo: push.upTo },
  };
  await self.registration.showNotification(push.mailbox ? 'New direct messages' : 'New messages', options);
}

/** The app's windows, whether or not this worker controls them (it is registered on opt-in). */
async function appWindows(): Promise<readonly WindowClient[]> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  return windows.filter((client) => client.url.startsWith(self.registration.scope));
}

async function tellWindows(message: WorkerMessage): Promise<void> {
  for (const client of await appWindows()) client.postMessage(message);
}

/** An open window shows the chat and comes to the front; without one, the app opens at it. */
async function openApp(chatId: string | null): Promise<void> {
  const windows = await appWindows();
  const chosen = windows.find((client) => client.focused) ?? windows[0];
  if (chosen === undefined) {
    const route = chatId === null ? '#/chats' : `#/chats/${encodeURIComponent(chatId)}`;
    await self.clients.openWindow(`${self.registration.scope}${route}`);
    return;
  }
  chosen.postMessage({ type: 'open', chatId } satisfies WorkerMessage);
  // The window shows the chat already; failing to raise it (a browser allows that only right
  // after a click) leaves nothing undone.
  await chosen.focus().catch(() => undefined);
}
