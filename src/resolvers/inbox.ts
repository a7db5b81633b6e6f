// Notify, then pull: after a message is stored, each recipient's inbox topic is told where and up
// to which id, never what. Topics go through Redis pub/sub, so the subscriber may be connected
// to any instance; a subscriber that missed notifications pulls everything on its next fetch.
import { Authorized, Ctx, Resolver, Root, Subscription, type PubSub } from 'type-graphql';
import { callerId, type GraphQLContext } from '../schema/context';
import { InboxNotification } from '../schema/inbox';
import { TOPICS, type InboxNotice } from '../schema/topics';

export class InboxNotifier {
  constructor(private readonly pubSub: PubSub) {}

  /** After every send, a retry included: the first attempt may have stored the message and died. */
  chat(members: string[], chatId: string, latestMessageId: number): void {
    const notice: InboxNotice = { chatId, latestMessageId, mailbox: false, waiting: null };
    for (const member of members) this.pubSub.publish(TOPICS.inboxChanged.name, member, notice);
  }

  mailbox(user: string, waiting: number): void {
    const notice: InboxNotice = { chatId: null, latestMessageId: null, mailbox: true, waiting };
    this.pubSub.publish(TOPICS.inboxChanged.name, user, notice);
  }
}

@Resolver()
export class InboxResolver {
  @Authorized()
  @Subscription(() => InboxNotification, {
    description:
      'Tells the caller that something new is waiting for them; pull it. Notifications may be coalesced or dropped under load; the pull is the source of truth.',
    topics: TOPICS.inboxChanged.name,
    topicId: ({ context }) => callerId(context as GraphQLContext),
  })
  inboxChanged(@Root() notice: InboxNotice, @Ctx() _context: GraphQLContext): InboxNotification {
    return notice;
  }
}
