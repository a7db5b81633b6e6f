// The chat as one member sees it: chat-status.lua's reply, and chat-join's, which ends with it.
import type { RedisClient } from '../client/connection';
import { runScript } from '../client/scripts';
import { keysOf } from './script-keys';
import type { ChatSummary } from './types';

/** {seen-id or -1 for a non-member, latest id, member count, 1 when open} */
type StatusReply = [number, number, number, number];
/** chat-join's: the status and the chat's membership generation. */
export type JoinReply = [...StatusReply, number];

export function toSummary(chatId: string, [seen, latest, memberCount, open]: StatusReply): ChatSummary | undefined {
  if (seen < 0) return undefined;
  return { id: chatId, open: open === 1, memberCount, latestMessageId: latest, seenMessageId: seen };
}

/** The chat as `user` sees it, or undefined when it does not exist or they are not a member. */
export async function summaryOf(redis: RedisClient, chatId: string, user: string): Promise<ChatSummary | undefined> {
  return toSummary(
    chatId,
    (await runScript(redis, 'chat-status', keysOf(chatId, 'members', 'meta'), [user])) as StatusReply,
  );
}
