// Opt-in to notifications on this device: when the server sends Web Push (session.json names its
// VAPID key) and the browser can receive it, this browser subscribes with its push service and
// the subscription becomes the push target of the chat device this page fetches as. A push says
// only which chat has how many unread entries; the app's service worker shows that and makes open
// pages pull (web/sw/sw.ts).
import { useEffect, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import type { ApolloClient } from '@apollo/client';
import {
  AppPendingMessagesDocument,
  AppPushTargetsDocument,
  AppRemovePushTargetDocument,
  AppSetPushTargetDocument,
} from '../../ops';
import { useServerInfo } from '../../context';
import { errorText } from '../../errors';
import { currentSubscription, fieldsOf, pushSupported, subscribe, unsubscribe } from './web-push';

type State = 'checking' | 'off' | 'on' | 'busy';

export function Notifications({ device }: { device: string }) {
  const key = useServerInfo().push?.webPushPublicKey;
  if (key === undefined || !pushSupported()) return null;
  return <NotificationsPanel device={device} publicKey={key} />;
}

function NotificationsPanel({ device, publicKey }: { device: string; publicKey: string }) {
  const client = useApolloClient();
  const [state, setState] = useState<State>('checking');
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    resume(client, device)
      .then((on) => current && setState(on ? 'on' : 'off'))
      .catch((error: unknown) => {
        if (!current) return;
        setState('off');
        setProblem(errorText(error));
      });
    return () => {
      current = false;
    };
  }, [client, device]);

  const run = (step: () => Promise<State>): void => {
    setState('busy');
    setProblem(null);
    step().then(setState, (error: unknown) => {
      setProblem(errorText(error));
      void currentSubscription().then(
        (subscription) => setState(subscription === null ? 'off' : 'on'),
        () => setState('off'),
      );
    });
  };

  const start = (): void =>
    run(async () => {
      const subscription = await subscribe(publicKey);
      try {
        // The server takes targets only for devices that fetched: the devices panel's first look
        // may still be on its way, so one more (read-only, nothing moves) comes first.
        await client.query({
          query: AppPendingMessagesDocument,
          variables: { device, limit: 1 },
          fetchPolicy: 'no-cache',
        });
        await client.mutate({
          mutation: AppSetPushTargetDocument,
          variables: { device, webPush: fieldsOf(subscription) },
        });
      } catch (error) {
        // A subscription the server does not know would only ever show DevTools' test pushes.
        await subscription.unsubscribe().catch(() => undefined);
        throw error;
      }
      return 'on';
    });

  const stop = (): void =>
    run(async () => {
      // The server first, so that it stops sending. The browser's subscription ends either way:
      // a target the server failed to remove is then one the push service answers 410 for, and
      // the server removes it at the next push.
      const removing = client.mutate({ mutation: AppRemovePushTargetDocument, variables: { device } });
      const removed = await removing.then(
        () => true,
        () => false,
      );
      await unsubscribe();
      if (!removed) await removing; // its error, shown
      return 'off';
    });

  return (
    <section className="panel notifications" aria-label="Notifications">
      <h3>Notifications</h3>
      <p className="muted" data-testid="push-state">
        {state === 'on'
          ? 'This browser is told of new messages, also while the app is closed.'
          : state === 'off'
            ? 'This browser is told of new messages only while the app is open.'
            : 'Checking…'}
      </p>
      {state === 'on' ? (
        <button type="button" onClick={stop}>
          Stop notifications
        </button>
      ) : (
        <button type="button" onClick={start} disabled={state !== 'off'}>
          Notify me on this device
        </button>
      )}
      {problem !== null && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}

/**
 * Whether this browser is subscribed, with permission still granted. The server is told again
 * when its target for this device is missing or elsewhere: the device was forgotten, or the
 * browser moved its subscription (the service worker cannot say so itself: it has no token).
 */
async function resume(client: ApolloClient, device: string): Promise<boolean> {
  const subscription = await currentSubscription();
  if (subscription === null || Notification.permission !== 'granted') return false;
  const webPush = fieldsOf(subscription);
  const { data } = await client.query({ query: AppPushTargetsDocument, fetchPolicy: 'no-cache' });
  const known = data?.pushTargets.find((target) => target.device === device);
  if (known?.kind !== 'WEB_PUSH' || known.endpointHost !== new URL(webPush.endpoint).host)
    await client.mutate({ mutation: AppSetPushTargetDocument, variables: { device, webPush } });
  return true;
}
