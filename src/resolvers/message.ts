// A stored message as the API shows it, for chat entries and direct messages alike: times become
// unix seconds (common/time.ts) and a chat entry's kind the enum's name.
import { unixSeconds } from '../common/time';
import type { ChatMessage as StoredChatMessage } from '../redis/chat';
import type { DirectMessage as StoredDirectMessage } from '../redis/mailbox';
import type { ChatMessage, EntryKindName } from '../schema/chat';
import type { DirectMessage } from '../schema/mailbox';

/** What a stored message is shown as: a chat entry as a ChatMessage, a direct message as a DirectMessage. */
type Shown<M> = M extends StoredChatMessage ? ChatMessage : DirectMessage;

export function toMessage<M extends StoredChatMessage | StoredDirectMessage>(message: M): Shown<M> {
  const stored: StoredChatMessage | StoredDirectMessage = message;
  const ts = unixSeconds(stored.ts);
  // Only chat entries have a kind: a direct message is the fields both share.
  const shown: ChatMessage | DirectMessage =
    'kind' in stored
      ? {
          ...stored,
          ts,
          kind: stored.kind.toUpperCase() as EntryKindName,
          editedAt: stored.editedAt === null ? null : unixSeconds(stored.editedAt),
        }
      : { ...stored, ts };
  return shown as Shown<M>;
}
