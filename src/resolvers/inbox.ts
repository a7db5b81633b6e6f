// Notify, then pull: after a message is stored, each recipient's inbox topic is told where and up
// to which id, never what. Topics go through Redis pub/sub, so the subscriber may be connected
// to any instance; a subscriber that missed notifications pulls everything on its next fetch.
import { Args, Authorized, Ctx, Resolver, Root, Subscription, type PubSub } from 'type-graphql';
import type { ScriptNotice } from '../redis/chat';
import type { PushScheduler } from '../push/scheduler';
import { INBOX_CHANNEL_PREFIX } from '../redis/keys';
import { callerId, type GraphQLContext } from '../schema/context';
import { InboxChangedArgs, InboxNotification } from '../schema/inbox';
import type { FilteredId } from '../schema/pubsub';
import { isCatchUp, TOPICS, type CatchUpNotice, type InboxNotice } from '../schema/topics';

/** Stands for the message id in a notice handed to the send script, which knows the id. */
const ID_SLOT = '"latestMessageId":-1';

export class InboxNotifier {
  /**
   * `scriptsMayTell`: on one Redis the send script publishes the notices itself, in the same
   * round trip as the send; on a cluster a script may only publish on its own shard's channels,
   * and members' channels are on others, so this process publishes them.
   */
  constructor(
    private readonly pubSub: PubSub,
    private readonly scriptsMayTell: boolean,
    /** Pushes to devices with no socket open, when a provider is set up. */
    private readonly pushes?: PushScheduler,
  ) {}

  /** What the send script needs to tell a chat's members itself; undefined when it may not. */
  forSendScript(chatId: string): ScriptNotice | undefined {
    if (!this.scriptsMayTell) return undefined;
    const json = JSON.stringify({
      chatId,
      latestMessageId: -1,
      mailbox: false,
      waiting: null,
      saleId: null,
    } satisfies InboxNotice);
    const at = json.indexOf(ID_SLOT) + ID_SLOT.length - 2;
    return { channelPrefix: INBOX_CHANNEL_PREFIX, before: json.slice(0, at), after: json.slice(at + 2) };
  }

  /** After every send, a retry included: the first attempt may have stored the message and died. */
  chat(members: string[], chatId: string, latestMessageId: number): void {
    const notice: InboxNotice = { chatId, latestMessageId, mailbox: false, waiting: null, saleId: null };
    for (const member of members) this.pubSub.publish(TOPICS.inboxChanged.name, member, notice);
  }

  /** After a new message in a chat: a push decision is made due for its sleeping devices. */
  async pushChat(chatId: string): Promise<void> {
    await this.pushes?.chatEntry(chatId);
  }

  async pushMailbox(user: string): Promise<void> {
    await this.pushes?.mailboxEntry(user);
  }

  /** After `user` read a chat: their other devices' pushed counts are brought up to date. */
  async pushRead(user: string, chatId: string, device: string | undefined): Promise<void> {
    await this.pushes?.chatRead(user, chatId, device);
  }

  mailbox(user: string, waiting: number): void {
    const notice: InboxNotice = { chatId: null, latestMessageId: null, mailbox: true, waiting, saleId: null };
    this.pubSub.publish(TOPICS.inboxChanged.name, user, notice);
  }

  /**
   * After a purchase, to its seller. The sale was recorded with the purchase, so a notice lost on
   * the way loses nothing: mySales has it.
   */
  sale(seller: string, saleId: number): void {
    const notice: InboxNotice = { chatId: null, latestMessageId: null, mailbox: false, waiting: null, saleId };
    this.pubSub.publish(TOPICS.inboxChanged.name, seller, notice);
  }
}

/** Every notice but a sale's (a catch-up included). */
const isNoSale = (payload: unknown): boolean =>
  ((payload as Partial<InboxNotice> | null | undefined)?.saleId ?? null) === null;

@Resolver()
export class InboxResolver {
  @Authorized()
  @Subscription(() => InboxNotification, {
    description:
      'Tells the caller that something new is waiting for them; pull it. Notifications may be coalesced or dropped under load; the pull is the source of truth.',
    topics: TOPICS.inboxChanged.name,
    // Sale notices only to subscribers that ask: a client written before them takes every notice
    // with `mailbox: false` for a chat's. Filtered in the PubSub's queue, not with type-graphql's
    // `filter`, which costs every idle subscriber a Repeater more (schema/pubsub.ts FilteredId).
    topicId: ({ context, args }): string | FilteredId => {
      const user = callerId(context as GraphQLContext);
      return (args as InboxChangedArgs).sales ? user : { id: user, accept: isNoSale };
    },
  })
  inboxChanged(
    @Root() notice: InboxNotice | CatchUpNotice,
    @Args() _args: InboxChangedArgs,
    @Ctx() _context: GraphQLContext,
  ): InboxNotification {
    // Shaped as a chat's notice without a chat: a client written before catch-ups reloads its
    // chats on it (`mailbox: false`); one that knows `catchUp` pulls chats, mailbox and sales.
    if (isCatchUp(notice)) {
      return { chatId: null, latestMessageId: null, mailbox: false, waiting: null, saleId: null, catchUp: true };
    }
    return { ...notice, catchUp: false };
  }
}
