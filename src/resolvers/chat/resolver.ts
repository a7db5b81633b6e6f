// The reads of chats: the caller's chats and devices, and the fields of a Chat, whose details
// (retention, owner, typing) are read once per chat however many of them are asked for.
import { Args, Authorized, Ctx, FieldResolver, Query, Resolver, Root, ID } from 'type-graphql';
import type { ChatDetails } from '../../redis/chat';
import { Chat, ChatDevice, ChatIdArgs, ChatReadPosition, ChatRetention } from '../../schema/chat';
import { callerId, type GraphQLContext } from '../../schema/context';
import { validId } from '../../common/validation';
import { unixSeconds } from '../../common/time';
import { toChat, toRetention } from './base';
import { ChatMembersResolver } from './members';

@Resolver(() => Chat)
export class ChatResolver extends ChatMembersResolver {
  private readonly detailsOf = new WeakMap<Chat, Promise<ChatDetails>>();

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
}
