// Notify, then pull: after a message is stored, each recipient's inbox topic is told where and up
// to which id, never what. Topics go through Redis pub/sub, so the subscriber may be connected
// to any instance; a subscriber that missed notifications pulls everything on its next fetch.
import { Authorized, Ctx, Resolver, Root, Subscription, type PubSub } from 'type-graphql';
import { callerId, Topic, type GraphQLContext } from '../schema/context';
import { InboxNotification } from '../schema/chat';

export class InboxNotifier {
  constructor(private readonly pubSub: PubSub) {}

  chat(members: string[], chatId: string, latestMessageId: number): void {
    const notification: InboxNotification = { chatId, latestMessageId, mailbox: false, waiting: null };
    for (const member of members) this.pubSub.publish(Topic.inboxChanged, member, notification);
  }

  mailbox(user: string, waiting: number): void {
    const notification: InboxNotification = { chatId: null, latestMessageId: null, mailbox: true, waiting };
    this.pubSub.publish(Topic.inboxChanged, user, notification);
  }
}

@Resolver()
export class InboxResolver {
  @Authorized()
  @Subscription(() => InboxNotification, {
    description: "Tells the caller that something new is waiting for them; pull it. Notifications may be coalesced or dropped under load; the pull is the source of truth.",
    topics: Topic.inboxChanged,
    topicId: ({ context }) => callerId(context as GraphQLContext),
  })
  inboxChanged(@Root() notification: InboxNotification, @Ctx() _context: GraphQLContext): InboxNotification {
    return notification;
  }
}
