// The open chat's log (log.ts) wired to the API through Apollo, and started and stopped with the
// component that shows it. Entries bypass Apollo's cache: their ids count per chat, and the log
// holds them itself.
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useApolloClient } from '@apollo/client/react';
import type { ApolloClient } from '@apollo/client';
import { AppMarkSeenDocument, AppMessagesDocument, AppPendingMessagesDocument } from '../../ops';
import { ChatLog, type LogSource, type LogView } from './log';
import { useLatest } from './hooks';

/** Pending entries per pull over every chat (the server shares them out fairly between chats). */
const PULL_LIMIT = 200;

export function useChatLog(chatId: string, device: string, onSeen: () => void): { log: ChatLog; view: LogView } {
  const client = useApolloClient();
  const seen = useLatest(onSeen);
  const log = useMemo(
    () =>
      new ChatLog(
        sourceFor(client, chatId, device, () => seen.current()),
        chatId,
      ),
    [client, chatId, device, seen],
  );
  useEffect(() => {
    const showing = (): void => log.setShown(document.visibilityState === 'visible');
    showing();
    log.start();
    document.addEventListener('visibilitychange', showing);
    return () => {
      document.removeEventListener('visibilitychange', showing);
      log.stop();
    };
  }, [log]);
  const view = useSyncExternalStore(log.subscribe, log.snapshot);
  return { log, view };
}

function sourceFor(client: ApolloClient, chatId: string, device: string, seen: () => void): LogSource {
  return {
    async page(before, last) {
      const { data } = await client.query({
        query: AppMessagesDocument,
        variables: { chatId, before, last },
        fetchPolicy: 'no-cache',
      });
      return answered(data).messages;
    },
    async pending() {
      const { data } = await client.query({
        query: AppPendingMessagesDocument,
        variables: { device, limit: PULL_LIMIT },
        fetchPolicy: 'no-cache',
      });
      return answered(data).pendingMessages;
    },
    async markSeen(messageId) {
      await client.mutate({ mutation: AppMarkSeenDocument, variables: { chatId, messageId, device } });
      seen();
    },
  };
}

function answered<T>(data: T | undefined): T {
  if (data === undefined) throw new Error('The server answered without data');
  return data;
}
