// Sending to a chat: a message, or an edit or deletion of one, appended to the log by chat-send.lua,
// which also remembers clientMessageIds (so a retry does not send twice) and may tell the members.
import type { RedisClient } from '../client/connection';
import { runScript } from '../client/scripts';
import { chatChannel } from '../keys';
import { parseMessage } from './log';
import { keysOf } from './script-keys';
import type { ChatSettings, EntryKind, ScriptNotice, SentMessage } from './types';

export class ChatSends {
  constructor(
    private readonly redis: RedisClient,
    private readonly settings: ChatSettings,
  ) {}

  /** Stores a message with the chat's next id; members only. With `notice`, the script tells the members. */
  async send(
    chatId: string,
    sender: string,
    text: string,
    clientMessageId?: string,
    notice?: ScriptNotice,
  ): Promise<SentMessage> {
    return this.append(chatId, sender, 'message', text, 0, clientMessageId, notice);
  }

  /**
   * Appends an edit of the sender's own message; the message itself takes the new text. With
   * `version` (ChatMessage.version as the editor saw it), an edit made against an older text is
   * refused, or returns the edit it is a late retry of (chat-send.lua).
   */
  async edit(
    chatId: string,
    sender: string,
    messageId: number,
    text: string,
    notice?: ScriptNotice,
    version?: number,
  ): Promise<SentMessage> {
    return this.append(chatId, sender, 'edit', text, messageId, undefined, notice, version);
  }

  /** Appends a deletion of the sender's own message; its text and its edits' texts are gone. */
  async delete(chatId: string, sender: string, messageId: number, notice?: ScriptNotice): Promise<SentMessage> {
    return this.append(chatId, sender, 'delete', '', messageId, undefined, notice);
  }

  private async append(
    chatId: string,
    sender: string,
    kind: EntryKind,
    text: string,
    target: number,
    clientMessageId: string | undefined,
    notice: ScriptNotice | undefined,
    version?: number,
  ): Promise<SentMessage> {
    const { retention } = this.settings;
    const [stored, json, ...members] = (await runScript(
      this.redis,
      'chat-send',
      keysOf(chatId, 'members', 'messages', 'meta', 'sent', 'sentExpiry', 'joined', 'cursors', 'active'),
      [
        sender,
        text,
        clientMessageId ?? '',
        this.settings.dedupeSeconds * 1000,
        notice?.channelPrefix ?? '',
        notice?.before ?? '',
        notice?.after ?? '',
        kind,
        target,
        retention.keepMessages,
        retention.keepMs,
        this.settings.deviceTtlSeconds * 1000,
        chatChannel(chatId),
        chatId,
        version ?? '',
      ],
    )) as [number, string, ...string[]];
    return { message: parseMessage(chatId, json), stored: stored === 1, members, told: notice !== undefined };
  }
}
