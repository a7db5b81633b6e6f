// Chats' logs: sending, editing and deleting entries, fetching and scrolling back through them,
// marking them seen, and typing.
import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { notFound } from '../../common/errors';
import {
  ChatMessage,
  ChatMessagePage,
  EditMessageArgs,
  MarkSeenArgs,
  MessageIdArgs,
  MessagesArgs,
  PendingChat,
  PendingMessagesArgs,
  SendMessageArgs,
  TypingArgs,
} from '../../schema/chat';
import { callerId, type GraphQLContext } from '../../schema/context';
import { intInRange, validId, validName } from '../../common/validation';
import { toMessage } from '../message';
import { ChatResolverBase, MAX_ID } from './base';

@Resolver()
export abstract class ChatMessagesResolver extends ChatResolverBase {
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
    // A retry too: its first attempt may have stored the message and died before this.
    await this.inbox.pushChat(id);
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
    const caller = callerId(context);
    const named = this.device(device);
    const moved = await this.repository.markSeen(id, caller, messageId, named);
    if (moved) await this.inbox.pushRead(caller, id, named);
    return moved;
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
}
