// Direct messages to one recipient's mailbox. Who may do what: any signed-in user may send to
// anyone and see how many messages wait in anyone's mailbox (the book's point: a sender can tell
// whether the recipient is keeping up); only the owner reads or removes its messages.
import { Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { MessagingConfig } from '../config';
import type { MailboxRepository } from '../redis/mailbox';
import {
  AckDirectMessagesArgs,
  DirectMessage,
  DirectMessagesArgs,
  Mailbox,
  MailboxArgs,
  SendDirectMessageArgs,
} from '../schema/mailbox';
import { callerId, type GraphQLContext } from '../schema/context';
import { intInRange, validName, validText } from '../common/validation';
import type { InboxNotifier } from './inbox';
import { unixSecondsOrNull } from '../common/time';
import { toMessage } from './message';

const DEFAULT_TAKE = 10;

@Resolver()
export class MailboxResolver {
  constructor(
    private readonly mailboxes: MailboxRepository,
    private readonly settings: MessagingConfig,
    private readonly inbox: InboxNotifier,
  ) {}

  @Authorized()
  @Mutation(() => DirectMessage, {
    description:
      "Appends a message to the recipient's mailbox. A full mailbox (MAILBOX_MAX_MESSAGES waiting) refuses it with CONFLICT.",
  })
  async sendDirectMessage(
    @Args() { to, message }: SendDirectMessageArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<DirectMessage> {
    const recipient = validName(to, 'to');
    const text = validText(message, 'message', this.settings.maxMessageLength);
    const sent = await this.mailboxes.send(recipient, callerId(context), text);
    this.inbox.mailbox(recipient, sent.waiting);
    await this.inbox.pushMailbox(recipient);
    return toMessage(sent.message);
  }

  @Authorized()
  @Mutation(() => [DirectMessage], {
    description: "Takes up to `limit` of the oldest messages off the caller's mailbox; each is returned once.",
  })
  async fetchDirectMessages(
    @Args() { limit }: DirectMessagesArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<DirectMessage[]> {
    return this.take(context, limit, true);
  }

  @Authorized()
  @Query(() => [DirectMessage], {
    description:
      "The oldest `limit` messages of the caller's mailbox, left in place: remove them with ackDirectMessages after showing them.",
  })
  async directMessages(
    @Args() { limit }: DirectMessagesArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<DirectMessage[]> {
    return this.take(context, limit, false);
  }

  @Authorized()
  @Mutation(() => Int, {
    description: "Removes the caller's waiting messages with ids up to `upToId`; returns how many.",
  })
  async ackDirectMessages(@Args() { upToId }: AckDirectMessagesArgs, @Ctx() context: GraphQLContext): Promise<number> {
    intInRange(upToId, 'upToId', 0, 2 ** 31 - 1);
    return this.mailboxes.acknowledge(callerId(context), upToId);
  }

  @Authorized()
  @Query(() => Mailbox, {
    description: "How many messages wait in a mailbox (the caller's by default) and since when.",
  })
  async mailbox(@Args() { user }: MailboxArgs, @Ctx() context: GraphQLContext): Promise<Mailbox> {
    const owner = user === null || user === undefined ? callerId(context) : validName(user, 'user');
    const status = await this.mailboxes.status(owner);
    return {
      user: owner,
      waiting: status.waiting,
      oldestTs: unixSecondsOrNull(status.oldestTs),
      // Everyone may see whether a user has mail waiting; only they learn how much they ever got.
      latestMessageId: owner === callerId(context) || context.principal?.isService ? status.latestMessageId : null,
    };
  }

  private async take(
    context: GraphQLContext,
    limit: number | null | undefined,
    remove: boolean,
  ): Promise<DirectMessage[]> {
    const max = this.settings.maxFetch;
    const count =
      limit === null || limit === undefined ? Math.min(DEFAULT_TAKE, max) : intInRange(limit, 'limit', 1, max);
    const { messages } = await this.mailboxes.take(callerId(context), count, remove);
    return messages.map(toMessage);
  }
}
