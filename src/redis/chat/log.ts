// A chat's log: its entries as chat-send.lua stores them, and scrolling back through the kept ones.
import type { RedisClient } from '../client/connection';
import { runScript } from '../client/scripts';
import { keysOf } from './script-keys';
import type { ChatMessage, ChatSettings, HistoryPage } from './types';

/** An entry as chat-send.lua stores it; `edits`, `lastEdit` and `deletedBy` are the script's own. */
interface StoredEntry {
  id: number;
  sender: string;
  message: string;
  ts: number;
  kind?: 'edit' | 'delete';
  target?: number;
  editedAt?: number;
  deleted?: boolean;
  lastEdit?: number;
}

/** An entry of `chatId`'s log as a script returned it (JSON). */
export function parseMessage(chatId: string, json: string): ChatMessage {
  const entry = JSON.parse(json) as StoredEntry;
  return {
    id: entry.id,
    chatId,
    sender: entry.sender,
    message: entry.message,
    ts: entry.ts,
    kind: entry.kind ?? 'message',
    target: entry.target ?? null,
    editedAt: entry.editedAt ?? null,
    deleted: entry.deleted === true,
    version: entry.kind === undefined ? (entry.lastEdit ?? entry.id) : entry.id,
  };
}

export class ChatLog {
  constructor(
    private readonly redis: RedisClient,
    private readonly settings: ChatSettings,
  ) {}

  /**
   * One page of the entries kept before `before` (the newest when undefined), at most `last`,
   * oldest first; undefined when the chat does not exist or the user is not a member.
   */
  async history(
    chatId: string,
    user: string,
    before: number | undefined,
    last: number,
  ): Promise<HistoryPage | undefined> {
    const [historyStart, more, ...found] = (await runScript(
      this.redis,
      'chat-history',
      keysOf(chatId, 'members', 'messages', 'meta', 'joined'),
      [user, before ?? '', last, this.settings.retention.keepMs],
    )) as [number, number?, ...string[]];
    if (historyStart < 0) return undefined;
    return {
      messages: found.reverse().map((json) => parseMessage(chatId, json)),
      hasMore: more === 1,
      historyStart,
    };
  }
}
