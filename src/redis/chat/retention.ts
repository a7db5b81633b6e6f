// How long a chat keeps its entries (chat-manage.lua changes it), and the details a member sees
// with it: whether they are an owner, and who is typing.
import type { RedisClient } from '../client/connection';
import { runScript } from '../client/scripts';
import { compareBytes } from '../order';
import { keysOf } from './script-keys';
import type { ChatDetails, ChatSettings, Retention, RetentionMode } from './types';

export class ChatRetentionStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly settings: ChatSettings,
  ) {}

  /** Retention, role and who is typing, as `user` may see them; undefined for a non-member. */
  async details(chatId: string, user: string): Promise<ChatDetails | undefined> {
    const reply = (await runScript(this.redis, 'chat-details', keysOf(chatId, 'members', 'meta', 'roles', 'typing'), [
      user,
    ])) as (string | null)[];
    if (reply.length === 0) return undefined;
    const [mode, keep, keepMs, role, ...typing] = reply;
    const fallback = this.settings.retention;
    return {
      // Chats from before retention existed delete what everyone has seen, as they always did.
      retention: {
        mode: mode === null ? 'seen' : (mode as RetentionMode),
        keepMessages: keep === null ? fallback.keepMessages : Number(keep),
        keepMs: keepMs === null ? fallback.keepMs : Number(keepMs),
      },
      owner: role === 'owner',
      typing: (typing as string[]).sort(compareBytes),
    };
  }

  /**
   * An owner (or the service, `anyChat`) changes the chat's retention; what `change` leaves out
   * stays as the chat has it. Says whether anything changed, and what is now in force.
   */
  async setRetention(
    chatId: string,
    caller: string,
    anyChat: boolean,
    change: Partial<Retention>,
  ): Promise<{ changed: boolean; retention: Retention }> {
    const fallback = this.settings.retention;
    const [changed, mode, keepMessages, keepMs] = (await runScript(
      this.redis,
      'chat-manage',
      keysOf(chatId, 'members', 'messages', 'meta', 'roles'),
      [
        caller,
        anyChat ? '1' : '0',
        'retention',
        change.mode ?? '',
        change.keepMessages ?? '',
        change.keepMs ?? '',
        fallback.keepMessages,
        fallback.keepMs,
      ],
    )) as [number, RetentionMode, number, number];
    return { changed: changed === 1, retention: { mode, keepMessages, keepMs } };
  }
}
