// One open chat: its messages (older ones a page at a time), who is typing, who has read up to
// the end, and the send box. chatChanged and the inbox notice only say that something changed;
// the log pulls (use-chat-log.ts), and pulls again whenever the socket is back after a drop.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useQuery, useSubscription } from '@apollo/client/react';
import { AppChatChangedDocument, AppChatDetailsDocument, type AppChatFieldsFragment } from '../../ops';
import { useReconnect } from '../../context';
import { ErrorLine } from '../../errors';
import { Composer } from './composer';
import { chatTitle } from './format';
import { MessageItem } from './message-item';
import { useChatLog } from './use-chat-log';
import { useSerialPull } from './hooks';

/** How long a typing notice lasts on the server (chat typing notices run out after 5 s). */
const TYPING_MS = 5_000;

interface Props {
  chat: AppChatFieldsFragment;
  me: string;
  device: string;
  /** The unread counts or the members changed: the list is to be read again. */
  onListChanged: () => void;
}

export function Conversation({ chat, me, device, onListChanged }: Props) {
  const { log, view } = useChatLog(chat.id, device, onListChanged);
  const details = useQuery(AppChatDetailsDocument, { variables: { chatId: chat.id } });
  const reloadDetails = useSerialPull(() => details.refetch());
  const [typingNotices, setTypingNotices] = useState(0);

  useSubscription(AppChatChangedDocument, {
    variables: { chatId: chat.id },
    onData: ({ data }) => {
      const change = data.data?.chatChanged;
      if (change === undefined) return;
      // Notices may have been missed (the server's Redis subscriber reconnected): pull it all.
      if (change.catchUp) {
        log.pull();
        onListChanged();
        return reloadDetails();
      }
      if (change.change === 'ENTRY') return log.pull(change.messageId ?? undefined);
      // This page's own read position is not shown: only the others' moves matter.
      if (change.change === 'READ' && change.user === me) return;
      if (change.change === 'TYPING') setTypingNotices((count) => count + 1);
      if (change.change === 'JOINED' || change.change === 'LEFT') onListChanged();
      reloadDetails();
    },
  });
  // The list's latest id moves on every inbox notice and every reload of the list.
  useEffect(() => log.pull(chat.latestMessageId), [log, chat.latestMessageId]);
  useReconnect(() => {
    log.pull();
    reloadDetails();
  });

  const typing = useTypingNow(details.data?.chat?.typing, typingNotices).filter((user) => user !== me);
  const lastId = view.messages.at(-1)?.id ?? 0;
  const seenBy = (details.data?.chat?.readPositions ?? [])
    .filter((position) => position.user !== me && lastId > 0 && position.messageId >= lastId)
    .map((position) => position.user);
  const bottom = useStickToBottom(lastId);

  return (
    <section className="panel conversation" aria-label="Conversation">
      <header className="conversation-head">
        <h2>{chatTitle(chat.members, me)}</h2>
        <span className="muted">
          {chat.members.length} members{chat.open ? ' · open' : ''}
        </span>
      </header>
      <div className="messages" ref={bottom}>
        {view.hasMore && (
          <button type="button" className="earlier" onClick={() => log.earlier()}>
            Load earlier
          </button>
        )}
        {!view.loaded && <p className="muted">Loading…</p>}
        <ol aria-label="Messages">
          {view.messages.map((message) => (
            <MessageItem
              key={message.id}
              chatId={chat.id}
              message={message}
              mine={message.sender === me}
              onEntry={(entry) => log.add(entry)}
            />
          ))}
        </ol>
        {seenBy.length > 0 && <p className="receipt muted">Seen by {seenBy.join(', ')}</p>}
      </div>
      <p className="typing muted" aria-live="polite">
        {typing.length > 0 ? `${typing.join(', ')} ${typing.length === 1 ? 'is' : 'are'} typing…` : ''}
      </p>
      <ErrorLine error={view.error ?? details.error} />
      <Composer chatId={chat.id} device={device} onSent={(entry) => log.add(entry)} />
    </section>
  );
}

/** Who the server said is typing, until the last notice would have run out (none says so). */
function useTypingNow(typing: string[] | undefined, notices: number): string[] {
  const [expiredAt, setExpiredAt] = useState(-1);
  useEffect(() => {
    const timer = setTimeout(() => setExpiredAt(notices), TYPING_MS);
    return () => clearTimeout(timer);
  }, [typing, notices]);
  return expiredAt === notices ? [] : (typing ?? []);
}

/** Keeps the newest message in view as messages arrive (scrolling back is left alone otherwise). */
function useStickToBottom(lastId: number) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = box.current;
    if (element !== null) element.scrollTop = element.scrollHeight;
  }, [lastId]);
  return box;
}
