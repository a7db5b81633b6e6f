// Group chats: validate, then one repository call, then notify the members. Who may do what:
// any signed-in user may create a chat; only members read, send, mark seen, add others or see
// the member list; anyone may join an open chat, nobody may join a closed one uninvited; a sender
// edits and deletes their own messages only; owners (the creator, and whom owners name) remove
// members and set the retention. To a non-member, a chat is indistinguishable from one that does
// not exist (NOT_FOUND).
import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root, ID } from 'type-graphql';
import type { MessagingConfig } from '../config';
import { badInput, notFound } from '../common/errors';
import type {
  ChatDetails,
  ChatMessage as StoredMessage,
  ChatRepository,
  ChatSummary,
  Retention,
  RetentionMode,
  SentMessage,
} from '../redis/chat';
import {
  AddChatMembersArgs,
  Chat,
  ChatDevice,
  ChatIdArgs,
  ChatMemberArgs,
  ChatMessage,
  ChatMessagePage,
  ChatOwnerArgs,
  ChatReadPosition,
  ChatRetention,
  ChatRetentionArgs,
  type ChatRetentionInput,
  CreateChatArgs,
  EditMessageArgs,
  type EntryKindName,
  MarkSeenArgs,
  MessageIdArgs,
  MessagesArgs,
  PendingChat,
  PendingMessagesArgs,
  type RetentionModeName,
  SendMessageArgs,
  TypingArgs,
} from '../schema/chat';
import { callerId, type GraphQLContext } from '../schema/context';
import { intInRange, validId, validName, validText } from '../common/validation';
import type { InboxNotifier } from './inbox';
import { unixSeconds } from '../common/time';

@Resolver(() => Chat)
export class ChatResolver {
  constructor(
    private readonly repository: ChatRepository,
    private readonly settings: MessagingConfig,
    private readonly inbox: InboxNotifier,
  ) {}

  private readonly detailsOf = new WeakMap<Chat, Promise<ChatDetails>>();

  @Authorized()
  @Mutation(() => Chat, {
    description: 'Creates a chat of the caller and `members`, all at seen-id 0, and sends its first message.',
  })
  async createChat(
    @Args() { members, message, open, retention }: CreateChatArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<Chat> {
    const caller = callerId(context);
    const others = this.userIds(members, 'members').filter((user) => user !== caller);
    if (others.length + 1 > this.settings.maxChatMembers) {
      throw badInput(`a chat has at most ${this.settings.maxChatMembers} members, the caller included`, 'members');
    }
    const text = this.text(message);
    const kept = this.retentionOf(retention);
    const { chat } = await this.repository.create(caller, others, text, open, kept);
    this.inbox.chat([caller, ...others], chat.id, chat.latestMessageId);
    return toChat(chat);
  }

  @Authorized()
  @Mutation(() => ChatMessage, { description: 'Sends a message to a chat the caller is a member of.' })
  async sendMessage(
    @Args() { chatId, message, clientMessageId }: SendMessageArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<ChatMessage> {
    const caller = callerId(context);
    const id = validId(chatId, 'chatId');
    const text = this.text(message);
    const clientId =
      clientMessageId === null || clientMessageId === undefined
        ? undefined
        : validName(clientMessageId, 'clientMessageId');
    const sent = await this.repository.send(id, caller, text, clientId, this.inbox.forSendScript(id));
    return this.told(id, sent);
  }

  @Authorized()
  @Mutation(() => [PendingChat], {
    description:
      "Takes the caller's unseen entries from every chat (oldest first) and moves the cursor past them: each entry is returned once per device. The cursor is the caller's seen-id, or with `device` that device's own (the seen-id follows the furthest device). In a SEEN chat, entries every member and device has taken are deleted.",
  })
  async fetchPendingMessages(
    @Args() { limit, device }: PendingMessagesArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<PendingChat[]> {
    return this.pending(context, limit, device, true);
  }

  @Authorized()
  @Query(() => [PendingChat], {
    description:
      "The caller's unseen messages from every chat, without moving anything: acknowledge them with markSeen after showing them.",
  })
  async pendingMessages(
    @Args() { limit, device }: PendingMessagesArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<PendingChat[]> {
    return this.pending(context, limit, device, false);
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description:
      "Moves the caller's seen-id in a chat (or with `device`, that device's cursor, and the seen-id with it) forward to `messageId`; false when it was already there.",
  })
  async markSeen(
    @Args() { chatId, messageId, device }: MarkSeenArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<boolean> {
    const id = validId(chatId, 'chatId');
    intInRange(messageId, 'messageId', 0, MAX_ID);
    return this.repository.markSeen(id, callerId(context), messageId, this.device(device));
  }

  @Authorized()
  @Query(() => ChatMessagePage, {
    description:
      "Scrolls back through a chat's kept entries: the `last` entries before `before` (the newest when left out), oldest first. Ids never change, so paging neither skips nor repeats while entries arrive. Members only, and only from their joining on.",
  })
  async messages(
    @Args() { chatId, before, last }: MessagesArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<ChatMessagePage> {
    const id = validId(chatId, 'chatId');
    const upTo = before === null || before === undefined ? undefined : intInRange(before, 'before', 1, MAX_ID);
    const max = this.settings.maxPage;
    const count = last === null || last === undefined ? max : intInRange(last, 'last', 1, max);
    const page = await this.repository.history(id, callerId(context), upTo, count);
    if (!page) throw notFound('chat not found', 'chatId');
    return {
      chatId: id,
      hasMore: page.hasMore,
      historyStart: page.historyStart,
      messages: page.messages.map(toMessage),
    };
  }

  @Authorized()
  @Mutation(() => ChatMessage, {
    description:
      "Edits one of the caller's own messages: returns the EDIT entry appended to the chat's log; the message takes the new text. Repeating the last edit (the same text again) returns that entry instead of appending another. With `version`, an edit made against an older text is refused (CONFLICT) and a late retry returns the edit it repeats, so it never overwrites a newer one.",
  })
  async editMessage(
    @Args() { chatId, messageId, message, version }: EditMessageArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<ChatMessage> {
    const id = validId(chatId, 'chatId');
    intInRange(messageId, 'messageId', 1, MAX_ID);
    if (version !== undefined && version !== null) intInRange(version, 'version', 1, MAX_ID);
    const text = this.text(message);
    const sent = await this.repository.edit(
      id,
      callerId(context),
      messageId,
      text,
      this.inbox.forSendScript(id),
      version ?? undefined,
    );
    return this.told(id, sent);
  }

  @Authorized()
  @Mutation(() => ChatMessage, {
    description:
      "Deletes one of the caller's own messages: returns the DELETE entry appended to the chat's log. The text of the message and of its edits is gone from the store; deleting again returns the same entry.",
  })
  async deleteMessage(
    @Args() { chatId, messageId }: MessageIdArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<ChatMessage> {
    const id = validId(chatId, 'chatId');
    intInRange(messageId, 'messageId', 1, MAX_ID);
    const sent = await this.repository.delete(id, callerId(context), messageId, this.inbox.forSendScript(id));
    return this.told(id, sent);
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description:
      "Tells the chat's other members (chatChanged) that the caller is typing, for a few seconds, or stopped. False when they were not told: told less than a second ago, or nothing changed.",
  })
  async setTyping(@Args() { chatId, typing }: TypingArgs, @Ctx() context: GraphQLContext): Promise<boolean> {
    return this.repository.typing(validId(chatId, 'chatId'), callerId(context), typing);
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description:
      'An owner of the chat removes a member, who at once receives nothing more from it and can read nothing past this point; false when they were not a member.',
  })
  async removeChatMember(@Args() { chatId, user }: ChatMemberArgs, @Ctx() context: GraphQLContext): Promise<boolean> {
    const id = validId(chatId, 'chatId');
    const member = validName(user, 'user');
    const caller = callerId(context);
    if (member === caller) throw badInput('to leave a chat, use leaveChat', 'user');
    return this.repository.removeMember(id, member, caller, context.principal?.isService === true);
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description: 'An owner of the chat makes a member an owner, or takes it back; false when it already was so.',
  })
  async setChatOwner(@Args() { chatId, user, owner }: ChatOwnerArgs, @Ctx() context: GraphQLContext): Promise<boolean> {
    const id = validId(chatId, 'chatId');
    const member = validName(user, 'user');
    return this.repository.setOwner(id, callerId(context), context.principal?.isService === true, member, owner);
  }

  @Authorized()
  @Mutation(() => ChatRetention, {
    description:
      'An owner of the chat sets how long it keeps entries, and gets the retention now in force. A smaller count applies at once, a shorter age with the next entry; what is gone stays gone.',
  })
  async setChatRetention(
    @Args() { chatId, retention }: ChatRetentionArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<ChatRetention> {
    const id = validId(chatId, 'chatId');
    // What the input leaves out stays as the chat has it (merged in the script, in one step).
    const change = this.retentionChange(retention);
    const set = await this.repository.setRetention(
      id,
      callerId(context),
      context.principal?.isService === true,
      change,
    );
    return toRetention(set.retention);
  }

  @Authorized()
  @Query(() => [ChatDevice], {
    description:
      'The devices the caller fetches chats with, most recent first; forgotten ones while they are remembered.',
  })
  async chatDevices(@Ctx() context: GraphQLContext): Promise<ChatDevice[]> {
    return (await this.repository.deviceList(callerId(context))).map((record) => ({
      id: record.device,
      lastFetchAt: unixSeconds(record.lastFetchAt),
      forgotten: record.forgotten,
    }));
  }

  @Authorized()
  @Mutation(() => Chat, {
    description: 'Joins an open chat, starting at its latest message. Joining a chat the caller is in changes nothing.',
  })
  async joinChat(@Args() { chatId }: ChatIdArgs, @Ctx() context: GraphQLContext): Promise<Chat> {
    return toChat(await this.repository.join(validId(chatId, 'chatId'), callerId(context)));
  }

  @Authorized()
  @Mutation(() => Chat, { description: 'A member adds others; each starts at the latest message.' })
  async addChatMembers(@Args() { chatId, members }: AddChatMembersArgs, @Ctx() context: GraphQLContext): Promise<Chat> {
    const id = validId(chatId, 'chatId');
    const users = this.userIds(members, 'members');
    if (users.length === 0) throw badInput('members must not be empty', 'members');
    const chat = await this.repository.add(id, callerId(context), users);
    // Tells the newcomers about the chat; they have nothing pending in it yet.
    this.inbox.chat(users, id, chat.latestMessageId);
    return toChat(chat);
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description:
      'Leaves a chat; false when the caller was not in it. When the last member leaves, the chat and its messages are deleted.',
  })
  async leaveChat(@Args() { chatId }: ChatIdArgs, @Ctx() context: GraphQLContext): Promise<boolean> {
    return this.repository.leave(validId(chatId, 'chatId'), callerId(context));
  }

  @Authorized()
  @Query(() => [Chat], { description: "The caller's chats, by id." })
  async chats(@Ctx() context: GraphQLContext): Promise<Chat[]> {
    return (await this.repository.summaries(callerId(context))).map(toChat);
  }

  @Authorized()
  @Query(() => Chat, {
    nullable: true,
    description: 'One chat of the caller; null when it does not exist or the caller is not a member.',
  })
  async chat(@Args() { chatId }: ChatIdArgs, @Ctx() context: GraphQLContext): Promise<Chat | null> {
    const summary = await this.repository.summary(validId(chatId, 'chatId'), callerId(context));
    return summary ? toChat(summary) : null;
  }

  @FieldResolver(() => [ID], { description: 'Member ids in byte order.' })
  async members(@Root() chat: Chat): Promise<string[]> {
    // A Chat is only ever returned to one of its members.
    return this.repository.members(chat.id);
  }

  @FieldResolver(() => [ChatReadPosition], {
    description: 'How far each member has read (read receipts), by member id; chatChanged tells when one moves.',
  })
  async readPositions(@Root() chat: Chat): Promise<ChatReadPosition[]> {
    return this.repository.readPositions(chat.id);
  }

  @FieldResolver(() => ChatRetention)
  async retention(@Root() chat: Chat, @Ctx() context: GraphQLContext): Promise<ChatRetention> {
    return toRetention((await this.details(chat, context)).retention);
  }

  @FieldResolver(() => Boolean, {
    description: 'Whether the caller is an owner: may remove members and set the retention.',
  })
  async owner(@Root() chat: Chat, @Ctx() context: GraphQLContext): Promise<boolean> {
    return (await this.details(chat, context)).owner;
  }

  @FieldResolver(() => [ID], { description: 'Members typing now (setTyping), in byte order.' })
  async typing(@Root() chat: Chat, @Ctx() context: GraphQLContext): Promise<string[]> {
    return (await this.details(chat, context)).typing;
  }

  /** Read once per chat object however many of its detail fields are asked for. */
  private details(chat: Chat, context: GraphQLContext): Promise<ChatDetails> {
    let found = this.detailsOf.get(chat);
    if (!found) {
      found = this.repository
        .details(chat.id, callerId(context))
        .then((details) => details ?? { retention: this.settings.retention, owner: false, typing: [] });
      this.detailsOf.set(chat, found);
    }
    return found;
  }

  private async pending(
    context: GraphQLContext,
    limit: number | null | undefined,
    device: string | null | undefined,
    advance: boolean,
  ): Promise<PendingChat[]> {
    const max = this.settings.maxFetch;
    const count = limit === null || limit === undefined ? max : intInRange(limit, 'limit', 1, max);
    const chats = await this.repository.pending(callerId(context), count, advance, this.device(device));
    return chats.map((chat) => ({ ...chat, messages: chat.messages.map(toMessage) }));
  }

  private device(device: string | null | undefined): string | undefined {
    return device === null || device === undefined ? undefined : validName(device, 'device');
  }

  /** The server default for what is left out; BAD_USER_INPUT beyond the server's most. */
  private retentionOf(input: ChatRetentionInput | null | undefined): Retention {
    return { ...this.settings.retention, ...this.retentionChange(input) };
  }

  /** The parts the input gives, checked; BAD_USER_INPUT beyond the server's most. */
  private retentionChange(input: ChatRetentionInput | null | undefined): Partial<Retention> {
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
  private told(chatId: string, sent: SentMessage): ChatMessage {
    if (!sent.told) this.inbox.chat(sent.members, chatId, sent.message.id);
    return toMessage(sent.message);
  }

  private text(message: string): string {
    return validText(message, 'message', this.settings.maxMessageLength);
  }

  /** Valid, NFC-normalised and distinct, in the order given. */
  private userIds(users: string[], argument: string): string[] {
    if (users.length > this.settings.maxChatMembers) {
      throw badInput(`${argument} must hold at most ${this.settings.maxChatMembers} users`, argument);
    }
    return [...new Set(users.map((user) => validName(user, argument)))];
  }
}

function toChat(chat: ChatSummary): Chat {
  return { ...chat, unreadCount: chat.latestMessageId - chat.seenMessageId };
}

const MAX_ID = 2 ** 31 - 1;
const DAY_MS = 86_400_000;

function toRetention(retention: Retention): ChatRetention {
  return {
    mode: retention.mode.toUpperCase() as RetentionModeName,
    keepMessages: retention.keepMessages,
    keepDays: retention.keepMs / DAY_MS,
  };
}

function toMessage(message: StoredMessage): ChatMessage {
  return {
    ...message,
    ts: unixSeconds(message.ts),
    kind: message.kind.toUpperCase() as EntryKindName,
    editedAt: message.editedAt === null ? null : unixSeconds(message.editedAt),
  };
}
