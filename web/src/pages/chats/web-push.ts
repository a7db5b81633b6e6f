// This browser's Web Push subscription: permission, the app's service worker (/app/sw.js, scope
// /app/) and the push service's subscription, with errors a person can act on. The API learns
// of the subscription separately (setPushTarget, notifications.tsx).

const WORKER_URL = '/app/sw.js';
const SCOPE = '/app/';
/** A push service that has not answered by then will not: say so rather than wait on. */
const ANSWER_MS = 20_000;

/** Service workers, the Push API and notifications, all three (only on https or loopback). */
export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The subscription this browser holds for the app, if any. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(SCOPE);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** What setPushTarget takes (WebPushSubscriptionInput): the push resource and its keys. */
export interface SubscriptionFields {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export function fieldsOf(subscription: PushSubscription): SubscriptionFields {
  const { endpoint, keys } = subscription.toJSON();
  if (endpoint === undefined || keys?.p256dh === undefined || keys.auth === undefined)
    throw new Error('The browser gave a subscription without its keys');
  return { endpoint, p256dh: keys.p256dh, auth: keys.auth };
}

/**
 * Asks for permission, registers the service worker and subscribes with the server's VAPID key
 * (`userVisibleOnly`: every push shows a notification, as browsers require).
 */
export async function subscribe(applicationServerKey: string): Promise<PushSubscription> {
  const permission = await Notification.requestPermission();
  if (permission === 'denied')
    throw new Error(
      "Notifications are blocked for this site: allow them in the browser's site settings, then try again.",
    );
  if (permission !== 'granted') throw new Error('Notifications were not allowed: nothing changed.');
  await navigator.serviceWorker.register(WORKER_URL, { scope: SCOPE });
  const registration = await answered(navigator.serviceWorker.ready, 'The service worker did not start');
  // Chromium refuses at once (AbortError) where it offers no push service: a private window, a
  // build without one; a browser whose user blocked notifications meanwhile, with NotAllowedError.
  const subscribing = registration.pushManager
    .subscribe({ userVisibleOnly: true, applicationServerKey })
    .catch((error: unknown) => {
      throw new Error(
        `The browser's push service refused to subscribe this browser (${describe(error)}). ` +
          'A private window, or a browser without a push service, cannot be notified.',
      );
    });
  return answered(subscribing, "The browser's push service did not answer");
}

/** Ends this browser's subscription; the push service then refuses pushes to it. */
export async function unsubscribe(): Promise<void> {
  await (await currentSubscription())?.unsubscribe();
}

function answered<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ANSWER_MS / 1000} s`)), ANSWER_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function describe(error: unknown): string {
  if (error instanceof DOMException) return `${error.name}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
