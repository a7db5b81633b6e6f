// Chats: the user's chats with unread counts, newest activity first; the open chat (#/chats/<id>)
// with its messages and send box; a new chat; this user's devices. The page is one device of
// the user (an id kept in this browser's localStorage): it pulls the open chat's pending entries
// for that device and marks seen what it shows, so unread counts (seen-ids) move only when a
// chat is read, here or on another device. Notices (inboxChanged, chatChanged) and the socket
// coming back after a drop only make it pull, and so does a push the service worker hears of
// (web/sw/sw.ts): a page whose socket missed a notice still shows what is new. What the server
// answers is what it shows.
import { useEffect, useMemo, useState } from 'react';
import { useQuery, useSubscription } from '@apollo/client/react';
import { AppChatsDocument, AppInboxChangedDocument } from '../ops';
import { useReconnect, useSession } from '../context';
import { useWorkerMessages } from '../service-worker';
import { ErrorLine } from '../errors';
import { ChatList } from './chats/chat-list';
import { Conversation } from './chats/conversation';
import { deviceId } from './chats/device';
import { Devices } from './chats/devices';
import { NewChat } from './chats/new-chat';
import { Notifications } from './chats/notifications';
import { useSerialPull } from './chats/hooks';
import './chats.css';

export function ChatsPage() {
  const session = useSession();
  const device = useMemo(deviceId, []);
  const openId = useOpenChatId();
  const chats = useQuery(AppChatsDocument);
  const reload = useSerialPull(() => chats.refetch());

  // A new chat or entry somewhere (the mailbox's notices are another page's).
  useSubscription(AppInboxChangedDocument, {
    onData: ({ data }) => {
      if (data.data?.inboxChanged.mailbox === false) reload();
    },
  });
  useReconnect(reload);
  // A push for a chat (mailbox pushes are another page's): the list, and with its newest ids the
  // open chat's log (conversation.tsx), pull as on inboxChanged.
  useWorkerMessages((message) => {
    if (message.type === 'pushed' && message.push?.mailbox !== true) reload();
  });

  const list = chats.data?.chats ?? [];
  const open = list.find((chat) => chat.id === openId);
  return (
    <div className="columns chats-page">
      <aside className="chats-side">
        <section className="panel" aria-label="Chats">
          <h2>Chats</h2>
          <ChatList chats={list} openId={openId} me={session.user} />
          <ErrorLine error={chats.error} />
        </section>
        <NewChat
          onCreated={(chatId) => {
            location.hash = `#/chats/${chatId}`;
            reload();
          }}
        />
        <Devices device={device} />
        <Notifications device={device} />
      </aside>
      {open !== undefined ? (
        <Conversation key={open.id} chat={open} me={session.user} device={device} onListChanged={reload} />
      ) : (
        <section className="panel conversation">
          <p className="muted">
            {openId === null
              ? 'Choose a chat, or start one.'
              : chats.loading
                ? 'Loading…'
                : `Chat ${openId} is not one of yours.`}
          </p>
        </section>
      )}
    </div>
  );
}

/** The chat named by the address (#/chats/<id>), or null. */
function useOpenChatId(): string | null {
  const read = (): string | null => /^#\/chats\/([\w.@-]+)$/.exec(location.hash)?.[1] ?? null;
  const [chatId, setChatId] = useState(read);
  useEffect(() => {
    const changed = (): void => setChatId(read());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return chatId;
}
