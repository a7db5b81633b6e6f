// GraphQL types of group chats.
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { NAME_RULE } from '../common/validation';
import { enumOf } from './enums';
import { CATCH_UP_FIELD } from './topics';

const ENTRY_KINDS = ['MESSAGE', 'EDIT', 'DELETE'] as const;
const RETENTION_MODES = ['HISTORY', 'SEEN'] as const;
const CHAT_CHANGES = ['ENTRY', 'READ', 'TYPING', 'JOINED', 'LEFT'] as const;
export type EntryKindName = (typeof ENTRY_KINDS)[number];
export type RetentionModeName = (typeof RETENTION_MODES)[number];
export type ChatChangeName = (typeof CHAT_CHANGES)[number];
const ChatEntryKind = enumOf(ENTRY_KINDS);
const ChatRetentionMode = enumOf(RETENTION_MODES);
const ChatChangeKind = enumOf(CHAT_CHANGES);

registerEnumType(ChatEntryKind, {
  name: 'ChatEntryKind',
  description: "An entry of a chat's log: a MESSAGE, or an EDIT or DELETE of one (named by `target`).",
});
registerEnumType(ChatRetentionMode, {
  name: 'ChatRetentionMode',
  description:
    "HISTORY keeps the newest entries up to the chat's count and age; SEEN also deletes an entry once every member and device has taken it (the book's way).",
});
registerEnumType(ChatChangeKind, {
  name: 'ChatChangeKind',
  description:
    'ENTRY: a new entry (messageId); READ: a member read up to messageId; TYPING: a member started or stopped typing; JOINED, LEFT: a member joined, or left or was removed.',
});

export const TS = "Unix seconds (millisecond precision) from the Redis server's clock.";

@ObjectType({ description: 'A group chat as the caller sees it.' })
export class Chat {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'Whether anyone may join; otherwise members add others.' })
  open!: boolean;

  @Field(() => Int)
  memberCount!: number;

  @Field(() => Int, { description: 'Id of the newest message; ids count up from 1 without gaps.' })
  latestMessageId!: number;

  @Field(() => Int, { description: 'Id of the last message the caller has seen.' })
  seenMessageId!: number;

  @Field(() => Int, { description: 'latestMessageId - seenMessageId (edits and deletions are entries too).' })
  unreadCount!: number;
}

@ObjectType({ description: 'How long a chat keeps its entries: the newest keepMessages, none older than keepDays.' })
export class ChatRetention {
  @Field(() => ChatRetentionMode)
  mode!: RetentionModeName;

  @Field(() => Int)
  keepMessages!: number;

  @Field(() => Float, { description: 'Days; whole for chats that chose one.' })
  keepDays!: number;
}

@InputType({
  description:
    'A retention. What is left out is, for createChat, the server default (CHAT_RETENTION_MODE, ...); for setChatRetention, what the chat has.',
})
export class ChatRetentionInput {
  @Field(() => ChatRetentionMode, { nullable: true })
  mode?: RetentionModeName | null;

  @Field(() => Int, { nullable: true, description: '1 to CHAT_MAX_KEEP_MESSAGES.' })
  keepMessages?: number | null;

  @Field(() => Int, { nullable: true, description: '1 to CHAT_MAX_KEEP_DAYS.' })
  keepDays?: number | null;
}

@ObjectType({ description: 'How far a member has read: their seen-id, which moves with their furthest device.' })
export class ChatReadPosition {
  @Field(() => ID)
  user!: string;

  @Field(() => Int)
  messageId!: number;
}

@ObjectType({ description: 'A device the caller fetches chats with.' })
export class ChatDevice {
  @Field(() => ID)
  id!: string;

  @Field(() => Float, {
    description: `Its last fetch. ${"Unix seconds (millisecond precision) from the Redis server's clock."}`,
  })
  lastFetchAt!: number;

  @Field({
    description: 'Silent for longer than CHAT_DEVICE_TTL_SECONDS: its next fetch starts again at the read position.',
  })
  forgotten!: boolean;
}

/** What chat messages and direct messages share; not a type of its own in the schema. */
@ObjectType()
export abstract class MessageFields {
  @Field(() => Int, { description: 'Strictly increasing: per chat without gaps, or per mailbox.' })
  id!: number;

  @Field(() => ID)
  sender!: string;

  @Field()
  message!: string;

  @Field(() => Float, { description: TS })
  ts!: number;
}

@ObjectType({
  description:
    "An entry of a group chat's log; ids count up from 1 per chat, without gaps. A message, or an edit or deletion of one: a client that applies entries in order has every message as it now is.",
})
export class ChatMessage extends MessageFields {
  @Field(() => ID)
  chatId!: string;

  @Field(() => ChatEntryKind)
  kind!: EntryKindName;

  @Field(() => Int, { nullable: true, description: 'For an EDIT or DELETE: the id of the message it changes.' })
  target!: number | null;

  @Field(() => Float, { nullable: true, description: `A MESSAGE's last edit; null when never. ${TS}` })
  editedAt!: number | null;

  @Field({ description: 'A deleted MESSAGE, or an EDIT of one: its text is gone (message is empty).' })
  deleted!: boolean;

  @Field(() => Int, {
    description:
      "A MESSAGE's version: the id of the entry that gave it its current text (its own id, or its last EDIT's); pass it to editMessage as `version`. An EDIT or DELETE: its own id (an EDIT is the version it makes).",
  })
  version!: number;
}

@ObjectType({ description: "One page of a chat's kept entries, oldest first." })
export class ChatMessagePage {
  @Field(() => ID)
  chatId!: string;

  @Field(() => [ChatMessage])
  messages!: ChatMessage[];

  @Field({ description: 'Older entries are kept: ask again with `before` set to the first id of this page.' })
  hasMore!: boolean;

  @Field(() => Int, { description: 'No entry before this id is kept for the caller (retention, or their joining).' })
  historyStart!: number;
}

@ObjectType({
  description:
    'Something changed in a chat the subscriber has open: ids only, never text; pull with messages, pendingMessages or chat.',
})
export class ChatChange {
  @Field(() => ID)
  chatId!: string;

  @Field(() => ChatChangeKind)
  change!: ChatChangeName;

  @Field(() => ID, { nullable: true, description: 'Who sent, read, typed, joined or left.' })
  user!: string | null;

  @Field(() => Int, { nullable: true, description: 'ENTRY: its id; READ: read up to; JOINED: the latest id then.' })
  messageId!: number | null;

  @Field({ description: CATCH_UP_FIELD })
  catchUp!: boolean;
}

@ObjectType({ description: "Entries of one chat after the caller's cursor (seen-id, or the device's), oldest first." })
export class PendingChat {
  @Field(() => ID)
  chatId!: string;

  @Field(() => [ChatMessage])
  messages!: ChatMessage[];

  @Field(() => Int, { description: 'Entries still pending after these; fetch again while it is above 0.' })
  remaining!: number;

  @Field(() => Int, {
    description:
      'No entry before this id is kept for the caller: a cursor behind it missed entries that retention removed; scroll back with messages().',
  })
  historyStart!: number;

  @Field({
    description:
      'The device had been forgotten (silent longer than CHAT_DEVICE_TTL_SECONDS, or pushed out by newer devices): it starts again at the read position; every chat is listed.',
  })
  deviceForgotten!: boolean;
}

const DEVICE = `The device this is for, chosen by the client: ${NAME_RULE}. Each device has its own cursor in every chat; without one, the caller's read position is the cursor.`;

export const USER = `A user id: ${NAME_RULE}.`;

@ArgsType()
export class CreateChatArgs {
  @Field(() => [ID], {
    description: `The other members (the caller is always one). ${USER} At most CHAT_MAX_MEMBERS in all.`,
  })
  members!: string[];

  @Field({
    description: 'The first message, 1 to MESSAGE_MAX_LENGTH characters; no control characters but tab and newline.',
  })
  message!: string;

  @Field({ defaultValue: false, description: 'Whether anyone who knows the id may join.' })
  open!: boolean;

  @Field(() => ChatRetentionInput, {
    nullable: true,
    description: 'How long entries are kept; the server default when left out.',
  })
  retention?: ChatRetentionInput | null;
}

@ArgsType()
export class SendMessageArgs {
  @Field(() => ID)
  chatId!: string;

  @Field({ description: '1 to MESSAGE_MAX_LENGTH characters; no control characters but tab and newline.' })
  message!: string;

  @Field(() => ID, {
    nullable: true,
    description: `Chosen by the client, ${NAME_RULE}. A retry with the same id returns the first message instead of sending again (remembered for CHAT_DEDUPE_SECONDS).`,
  })
  clientMessageId?: string | null;
}

@ArgsType()
export class PendingMessagesArgs {
  @Field(() => Int, {
    nullable: true,
    description: 'Most messages over all chats, 1 to MESSAGE_MAX_FETCH (the default).',
  })
  limit?: number | null;

  @Field(() => ID, { nullable: true, description: DEVICE })
  device?: string | null;
}

@ArgsType()
export class MessagesArgs {
  @Field(() => ID)
  chatId!: string;

  @Field(() => Int, {
    nullable: true,
    description: 'The page ends before this entry id; the newest page when left out.',
  })
  before?: number | null;

  @Field(() => Int, { nullable: true, description: 'Most entries on the page, 1 to MESSAGE_MAX_PAGE (the default).' })
  last?: number | null;
}

@ArgsType()
export class EditMessageArgs {
  @Field(() => ID)
  chatId!: string;

  @Field(() => Int, { description: "The id of one of the caller's own messages." })
  messageId!: number;

  @Field({ description: 'The new text: 1 to MESSAGE_MAX_LENGTH characters, as for sendMessage.' })
  message!: string;

  @Field(() => Int, {
    nullable: true,
    description:
      "The message's `version` the edit was made against. If it was edited since, the edit is refused (CONFLICT), unless it is a late retry of the edit that followed that version (the same text), which returns that EDIT. Left out: the edit applies to whatever text the message has.",
  })
  version?: number | null;
}

@ArgsType()
export class MessageIdArgs {
  @Field(() => ID)
  chatId!: string;

  @Field(() => Int, { description: "The id of one of the caller's own messages." })
  messageId!: number;
}

@ArgsType()
export class ChatMemberArgs {
  @Field(() => ID)
  chatId!: string;

  @Field(() => ID, { description: USER })
  user!: string;
}

@ArgsType()
export class ChatOwnerArgs extends ChatMemberArgs {
  @Field({ description: 'True to make the member an owner, false to take it back.' })
  owner!: boolean;
}

@ArgsType()
export class ChatRetentionArgs {
  @Field(() => ID)
  chatId!: string;

  @Field(() => ChatRetentionInput)
  retention!: ChatRetentionInput;
}

@ArgsType()
export class TypingArgs {
  @Field(() => ID)
  chatId!: string;

  @Field({ defaultValue: true, description: 'False: stopped typing before the notice ran out.' })
  typing!: boolean;
}

@ArgsType()
export class ChatIdArgs {
  @Field(() => ID)
  chatId!: string;
}

@ArgsType()
export class MarkSeenArgs {
  @Field(() => ID)
  chatId!: string;

  @Field(() => Int, { description: 'The last message the caller has shown; the seen-id never moves back.' })
  messageId!: number;

  @Field(() => ID, { nullable: true, description: DEVICE })
  device?: string | null;
}

@ArgsType()
export class AddChatMembersArgs {
  @Field(() => ID)
  chatId!: string;

  @Field(() => [ID], { description: USER })
  members!: string[];
}
