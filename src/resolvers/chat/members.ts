// Who is in a chat: creating one, joining, adding, leaving and removing members, owners, and
// the retention owners set.
import { Args, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { badInput } from '../../common/errors';
import {
  AddChatMembersArgs,
  Chat,
  ChatIdArgs,
  ChatMemberArgs,
  ChatOwnerArgs,
  ChatRetention,
  ChatRetentionArgs,
  CreateChatArgs,
} from '../../schema/chat';
import { callerId, type GraphQLContext } from '../../schema/context';
import { validId, validName } from '../../common/validation';
import { toChat, toRetention } from './base';
import { ChatMessagesResolver } from './messages';

@Resolver()
export abstract class ChatMembersResolver extends ChatMessagesResolver {
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
    // Its first message too: a member whose phone sleeps hears of the new chat by push.
    await this.inbox.pushChat(chat.id);
    return toChat(chat);
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
}
