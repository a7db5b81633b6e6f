// The devices the signed-in user fetches chats with (chatDevices): this browser is one, with the
// id it keeps in localStorage; a phone or another browser is another, each with its own cursors.
import { useEffect } from 'react';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { AppChatDevicesDocument, AppPendingMessagesDocument } from '../../ops';
import { useReconnect } from '../../context';
import { ErrorLine } from '../../errors';
import { clock } from './format';
import { useLatest } from './hooks';

export function Devices({ device }: { device: string }) {
  const client = useApolloClient();
  const devices = useQuery(AppChatDevicesDocument);
  const refetch = useLatest(() => void devices.refetch());
  useEffect(() => {
    // The server knows a device from its first fetch: one read-only look (nothing moves) makes
    // this browser known before any chat is opened.
    client
      .query({ query: AppPendingMessagesDocument, variables: { device, limit: 1 }, fetchPolicy: 'no-cache' })
      .then(() => refetch.current())
      .catch(() => undefined);
  }, [client, device, refetch]);
  useReconnect(() => refetch.current());

  return (
    <section className="panel devices" aria-label="Devices">
      <h3>Devices</h3>
      <ul>
        {(devices.data?.chatDevices ?? []).map((known) => (
          <li key={known.id}>
            <code>{known.id}</code>
            {known.id === device ? ' (this browser)' : ''}{' '}
            <span className="muted">{known.forgotten ? 'forgotten' : `seen ${clock(known.lastFetchAt)}`}</span>
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => refetch.current()}>
        Refresh
      </button>
      <ErrorLine error={devices.error} />
    </section>
  );
}
