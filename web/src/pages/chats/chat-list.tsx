// The signed-in user's chats, newest activity first, each with its last entry and its unread
// count. The API lists chats by id with their latest entry id; the time and text of that entry
// come from one small history query per chat, cached by Apollo per latest id, so a chat is asked
// again only when something new happened in it.
import { useEffect, useRef, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { AppChatPreviewDocument, type AppChatFieldsFragment, type AppChatPreviewQuery } from '../../ops';
import { chatTitle, clock } from './format';

type Chat = AppChatFieldsFragment;
type PreviewEntry = AppChatPreviewQuery['messages']['messages'][number];

interface Preview {
  latest: number;
  entry: PreviewEntry | undefined;
}

export function ChatList({ chats, openId, me }: { chats: Chat[]; openId: string | null; me: string }) {
  const previews = usePreviews(chats);
  // A chat whose first preview is on its way is new here: on top, where its preview will put it.
  const activity = (chat: Chat): number => {
    const preview = previews.get(chat.id);
    return preview === undefined ? Infinity : (preview.entry?.ts ?? 0);
  };
  const sorted = [...chats].sort((a, b) => Math.sign(activity(b) - activity(a)) || Number(b.id) - Number(a.id));
  if (chats.length === 0) return <p className="muted">No chats yet: start one below.</p>;
  return (
    <ul className="chat-list" aria-label="Your chats">
      {sorted.map((chat) => {
        const open = chat.id === openId;
        const entry = previews.get(chat.id)?.entry;
        return (
          <li key={chat.id} data-chat={chat.id}>
            <a href={`#/chats/${chat.id}`} aria-current={open ? 'true' : undefined}>
              <span className="chat-title">{chatTitle(chat.members, me)}</span>
              {/* The open chat's entries are marked seen as they are shown. */}
              {chat.unreadCount > 0 && !open && (
                <span className="badge" data-testid="unread" aria-label={`${chat.unreadCount} unread`}>
                  {chat.unreadCount}
                </span>
              )}
              <span className="chat-preview muted">
                {entry === undefined ? '' : `${entry.sender}: ${previewText(entry)}`}
              </span>
              <span className="chat-time muted">{entry === undefined ? '' : clock(entry.ts)}</span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}

function previewText(entry: PreviewEntry): string {
  if (entry.deleted || entry.kind === 'DELETE') return '(deleted a message)';
  return entry.kind === 'EDIT' ? `(edited) ${entry.message}` : entry.message;
}

function usePreviews(chats: Chat[]): Map<string, Preview> {
  const client = useApolloClient();
  const [previews, setPreviews] = useState(() => new Map<string, Preview>());
  const asked = useRef(new Set<string>());
  useEffect(() => {
    for (const chat of chats) {
      const latest = chat.latestMessageId;
      const key = `${chat.id}:${latest}`;
      if (asked.current.has(key)) continue;
      asked.current.add(key);
      client
        .query({ query: AppChatPreviewDocument, variables: { chatId: chat.id, before: latest + 1 } })
        .then(({ data }) =>
          setPreviews((before) =>
            (before.get(chat.id)?.latest ?? -1) > latest
              ? before
              : new Map(before).set(chat.id, { latest, entry: data?.messages.messages.at(-1) }),
          ),
        )
        // A preview is a nicety: the row shows without one, and the list's next change asks again.
        .catch(() => asked.current.delete(key));
    }
  }, [client, chats]);
  return previews;
}
