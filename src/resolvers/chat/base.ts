// Group chats: validate, then one repository call, then notify the members. Who may do what:
// any signed-in user may create a chat; only members read, send, mark seen, add others or see
// the member list; anyone may join an open chat, nobody may join a closed one uninvited; a sender
// edits and deletes their own messages only; owners (the creator, and whom owners name) remove
// members and set the retention. To a non-member, a chat is indistinguishable from one that does
// not exist (NOT_FOUND).
//
// ChatResolver is one class (one instance, one constructor) built by inheritance, one concern per
// module: this base holds what they share, messages.ts the log, members.ts membership, and
// resolver.ts the reads and Chat's fields. type-graphql serves the operations of a @Resolver
// class's superclasses as its own, so the schema and the one instance the composition root makes
// (and the benchmark) are as before.
import type { MessagingConfig } from '../../config';
import { badInput } from '../../common/errors';
import type { ChatRepository, ChatSummary, Retention, RetentionMode, SentMessage } from '../../redis/chat';
import { Chat, ChatMessage, ChatRetention, type ChatRetentionInput, type RetentionModeName } from '../../schema/chat';
import { intInRange, validName, validText } from '../../common/validation';
import type { InboxNotifier } from '../inbox';
import { toMessage } from '../message';

export const MAX_ID = 2 ** 31 - 1;
const DAY_MS = 86_400_000;

/** What every part of ChatResolver uses: its parts, and the checks and conversions they share. */
export abstract class ChatResolverBase {
  constructor(
    protected readonly repository: ChatRepository,
    protected readonly settings: MessagingConfig,
    protected readonly inbox: InboxNotifier,
  ) {}

  protected device(device: string | null | undefined): string | undefined {
    return device === null || device === undefined ? undefined : validName(device, 'device');
  }

  /** The server default for what is left out; BAD_USER_INPUT beyond the server's most. */
  protected retentionOf(input: ChatRetentionInput | null | undefined): Retention {
    return { ...this.settings.retention, ...this.retentionChange(input) };
  }

  /** The parts the input gives, checked; BAD_USER_INPUT beyond the server's most. */
  protected retentionChange(input: ChatRetentionInput | null | undefined): Partial<Retention> {
    const change: Partial<Retention> = {};
    if (input?.mode) change.mode = input.mode.toLowerCase() as RetentionMode;
    if (input?.keepMessages !== null && input?.keepMessages !== undefined) {
      change.keepMessages = intInRange(input.keepMessages, 'retention.keepMessages', 1, this.settings.maxKeepMessages);
    }
    if (input?.keepDays !== null && input?.keepDays !== undefined) {
      change.keepMs = intInRange(input.keepDays, 'retention.keepDays', 1, this.settings.maxKeepDays) * DAY_MS;
    }
    return change;
  }

  /** After an append: the members are told (unless the script did), and the entry returned. */
  protected told(chatId: string, sent: SentMessage): ChatMessage {
    if (!sent.told) this.inbox.chat(sent.members, chatId, sent.message.id);
    return toMessage(sent.message);
  }

  protected text(message: string): string {
    return validText(message, 'message', this.settings.maxMessageLength);
  }

  /** Valid, NFC-normalised and distinct, in the order given. */
  protected userIds(users: string[], argument: string): string[] {
    if (users.length > this.settings.maxChatMembers) {
      throw badInput(`${argument} must hold at most ${this.settings.maxChatMembers} users`, argument);
    }
    return [...new Set(users.map((user) => validName(user, argument)))];
  }
}

export function toChat(chat: ChatSummary): Chat {
  return { ...chat, unreadCount: chat.latestMessageId - chat.seenMessageId };
}

export function toRetention(retention: Retention): ChatRetention {
  return {
    mode: retention.mode.toUpperCase() as RetentionModeName,
    keepMessages: retention.keepMessages,
    keepDays: retention.keepMs / DAY_MS,
  };
}
