// Group chats: validate, then one repository call, then notify the members. Who may do what:
// any signed-in user may create a chat; only members read, send, mark seen, add others or see
// the member list; anyone may join an open chat, nobody may join a closed one uninvited. To a
// non-member, a chat is indistinguishable from one that does not exist (NOT_FOUND).
import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root, ID } from 'type-graphql';
import type { MessagingConfig } from '../config';
import { badInput } from '../common/errors';
import type { ChatMessage as StoredMessage, ChatRepository, ChatSummary } from '../redis/chat';
import {
  AddChatMembersArgs,
  Chat,
  ChatIdArgs,
  ChatMessage,
  CreateChatArgs,
  MarkSeenArgs,
  PendingChat,
  PendingMessagesArgs,
  SendMessageArgs,
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

  @Authorized()
  @Mutation(() => Chat, {
    description: 'Creates a chat of the caller and `members`, all at seen-id 0, and sends its first message.',
  })
  async createChat(@Args() { members, message, open }: CreateChatArgs, @Ctx() context: GraphQLContext): Promise<Chat> {
    const caller = callerId(context);
    const others = this.userIds(members, 'members').filter((user) => user !== caller);
    if (others.length + 1 > this.settings.maxChatMembers) {
      throw badInput(`a chat has at most ${this.settings.maxChatMembers} members, the caller included`, 'members');
    }
    const text = this.text(message);
    const { chat } = await this.repository.create(caller, others, text, open);
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
    if (!sent.told) this.inbox.chat(sent.members, id, sent.message.id);
    return toMessage(sent.message);
  }

  @Authorized()
  @Mutation(() => [PendingChat], {
    description:
      "Takes the caller's unseen messages from every chat (oldest first) and moves their seen-ids past them: each message is returned once. Messages every member has seen are deleted.",
  })
  async fetchPendingMessages(
    @Args() { limit }: PendingMessagesArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<PendingChat[]> {
    return this.pending(context, limit, true);
  }

  @Authorized()
  @Query(() => [PendingChat], {
    description:
      "The caller's unseen messages from every chat, without moving anything: acknowledge them with markSeen after showing them.",
  })
  async pendingMessages(
    @Args() { limit }: PendingMessagesArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<PendingChat[]> {
    return this.pending(context, limit, false);
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description: "Moves the caller's seen-id in a chat forward to `messageId`; false when it was already there.",
  })
  async markSeen(@Args() { chatId, messageId }: MarkSeenArgs, @Ctx() context: GraphQLContext): Promise<boolean> {
    const id = validId(chatId, 'chatId');
    intInRange(messageId, 'messageId', 0, 2 ** 31 - 1);
    return this.repository.markSeen(id, callerId(context), messageId);
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

  private async pending(
    context: GraphQLContext,
    limit: number | null | undefined,
    advance: boolean,
  ): Promise<PendingChat[]> {
    const max = this.settings.maxFetch;
    const count = limit === null || limit === undefined ? max : intInRange(limit, 'limit', 1, max);
    const chats = await this.repository.pending(callerId(context), count, advance);
    return chats.map((chat) => ({
      chatId: chat.chatId,
      remaining: chat.remaining,
      messages: chat.messages.map(toMessage),
    }));
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

function toMessage(message: StoredMessage): ChatMessage {
  return { ...message, ts: unixSeconds(message.ts) };
}
