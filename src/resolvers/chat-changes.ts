// The per-chat subscription, for a client that has a chat open: new entries, reads, typing and
// members coming and going, as notices carrying ids, never text; the client pulls what it needs.
// Only members subscribe, and a member who leaves or is removed stops hearing at once: their own
// LEFT notice is the last one their subscription delivers.
import type { GraphQLSchema } from 'graphql';
import { Repeater, SlidingBuffer } from '@graphql-yoga/subscription';
import { Args, Authorized, Resolver, Root, Subscription } from 'type-graphql';
import { notFound } from '../common/errors';
import { validId } from '../common/validation';
import type { ChatRepository } from '../redis/chat';
import { ChatChange, ChatIdArgs, type ChatChangeName } from '../schema/chat';
import { callerId, type GraphQLContext } from '../schema/context';
import type { RedisPubSub } from '../schema/pubsub';
import { isCatchUp, TOPICS, type CatchUpNotice, type ChatChangeNotice } from '../schema/topics';

/** Notices waiting for a slow client; the oldest go first. */
const NOTICE_BUFFER = 64;

/** How old a membership check may be before a notice is delivered on it. */
const RECHECK_MS = 10_000;

/** Which instance serves a schema: type-graphql's `subscribe` option is static, the repository is not. */
const served = new WeakMap<GraphQLSchema, ChatChangesResolver>();

@Resolver()
export class ChatChangesResolver {
  constructor(
    private readonly repository: ChatRepository,
    private readonly pubSub: RedisPubSub,
    private readonly recheckMs = RECHECK_MS,
  ) {}

  /** Called once the schema is built (app/schema.ts). */
  serve(schema: GraphQLSchema): void {
    served.set(schema, this);
  }

  @Authorized()
  @Subscription(() => ChatChange, {
    description:
      'Tells a member what changes in one chat: new entries, read positions, typing, members joining and leaving; pull with messages, pendingMessages or chat. A member who leaves or is removed gets their own LEFT, and then the subscription ends. Notices may be dropped under load; the pull is the source of truth.',
    subscribe: ({ args, context, info }) => {
      const resolver = served.get(info.schema);
      if (!resolver) throw new Error('ChatChangesResolver.serve was not called for this schema');
      return resolver.changes((args as ChatIdArgs).chatId, context as GraphQLContext);
    },
  })
  chatChanged(@Root() notice: ChatChangeNotice | CatchUpNotice, @Args() { chatId }: ChatIdArgs): ChatChange {
    // An ENTRY without an id: a client written before catch-ups pulls every new entry on it.
    if (isCatchUp(notice)) return { chatId, change: 'ENTRY', user: null, messageId: null, catchUp: true };
    return {
      catchUp: false,
      chatId: notice.chatId,
      change: notice.change as ChatChangeName,
      user: notice.user,
      messageId: notice.messageId,
    };
  }

  /** The notices of one chat for `context`'s caller, a member (NOT_FOUND otherwise). */
  async changes(
    chatId: string,
    context: GraphQLContext,
  ): Promise<AsyncIterableIterator<ChatChangeNotice | CatchUpNotice>> {
    const user = callerId(context);
    const id = validId(chatId, 'chatId');
    // Listening before the membership check, in Redis too, so a removal in between is heard, not
    // missed: the source starts on its first next(), and subscribing in Redis takes a round trip.
    const source = this.pubSub.subscribe(TOPICS.chatChanged.name, id) as AsyncIterableIterator<
      ChatChangeNotice | CatchUpNotice
    >;
    const first = source.next();
    try {
      await this.pubSub.listening(TOPICS.chatChanged.name, id);
      if (!(await this.repository.summary(id, user))) throw notFound('chat not found', 'chatId');
    } catch (error) {
      await source.return?.();
      throw error;
    }
    const checkedAt = Date.now();
    // The source is read as notices arrive, never waiting for a slow client: what waits for the
    // client is this buffer, where the newest notice (the member's own LEFT, last of all) is never
    // the one dropped. A Repeater, not an async generator: ending must not wait for a notice.
    const notices = new Repeater<ChatChangeNotice | CatchUpNotice>(async (push, stop) => {
      void stop.then(() => source.return?.());
      let lastCheck = checkedAt;
      for (let step = await first; !step.done; step = await source.next()) {
        // The member's own LEFT is delivered however old the last check: it is how they learn.
        const notice = step.value;
        const catchUp = isCatchUp(notice);
        if (!catchUp && notice.change === 'LEFT' && notice.user === user) {
          void push(notice);
          break;
        }
        // Notices may be dropped upstream under load, the member's own LEFT too: membership is
        // checked again before passing one on once the last check is `recheckMs` old.
        // A catch-up may stand for a missed LEFT: membership is checked before it, however recent.
        if (catchUp || Date.now() - lastCheck > this.recheckMs) {
          // A store error lets the notice through (ids only) and leaves the check to the next one.
          const member = await this.repository.summary(id, user).then(
            (summary) => summary !== undefined,
            () => undefined,
          );
          if (member === false) break;
          if (member) lastCheck = Date.now();
        }
        void push(notice);
      }
      stop();
    }, new SlidingBuffer(NOTICE_BUFFER));
    // graphql-ws ends a subscription cancelled before its first notice with return() alone, which
    // does not start a Repeater, so its executor could not close the source: this does.
    const stream: AsyncIterableIterator<ChatChangeNotice | CatchUpNotice> = {
      next: () => notices.next(),
      return: async (value?: unknown) => {
        await source.return?.();
        return notices.return(value);
      },
      throw: async (error?: unknown) => {
        await source.return?.();
        return notices.throw(error);
      },
      [Symbol.asyncIterator]: () => stream,
    };
    return stream;
  }
}
