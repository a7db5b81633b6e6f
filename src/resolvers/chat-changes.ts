// The per-chat subscription, for a client that has a chat open: new entries, reads, typing and
// members coming and going, as notices carrying ids, never text; the client pulls what it needs.
// Only members subscribe, and a member who leaves or is removed stops hearing at once: their own
// LEFT notice is the last one their subscription delivers.
import type { GraphQLSchema } from 'graphql';
import { Repeater } from '@graphql-yoga/subscription';
import { Args, Authorized, Resolver, Root, Subscription } from 'type-graphql';
import { notFound } from '../common/errors';
import { validId } from '../common/validation';
import type { ChatRepository } from '../redis/chat';
import { ChatChange, ChatIdArgs, type ChatChangeName } from '../schema/chat';
import { callerId, type GraphQLContext } from '../schema/context';
import type { RedisPubSub } from '../schema/pubsub';
import { TOPICS, type ChatChangeNotice } from '../schema/topics';

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
  chatChanged(@Root() notice: ChatChangeNotice, @Args() _args: ChatIdArgs): ChatChange {
    return {
      chatId: notice.chatId,
      change: notice.change as ChatChangeName,
      user: notice.user,
      messageId: notice.messageId,
    };
  }

  /** The notices of one chat for `context`'s caller, a member (NOT_FOUND otherwise). */
  async changes(chatId: string, context: GraphQLContext): Promise<AsyncIterable<ChatChangeNotice>> {
    const user = callerId(context);
    const id = validId(chatId, 'chatId');
    // Listening before the membership check, in Redis too, so a removal in between is heard, not
    // missed: the source starts on its first next(), and subscribing in Redis takes a round trip.
    const source = this.pubSub.subscribe(TOPICS.chatChanged.name, id) as AsyncIterableIterator<ChatChangeNotice>;
    const first = source.next();
    try {
      await this.pubSub.listening(TOPICS.chatChanged.name, id);
      if (!(await this.repository.summary(id, user))) throw notFound('chat not found', 'chatId');
    } catch (error) {
      await source.return?.();
      throw error;
    }
    // A Repeater, not an async generator: ending the subscription must not wait for a next notice.
    return new Repeater<ChatChangeNotice>(async (push, stop) => {
      void stop.then(() => source.return?.());
      let checkedAt = Date.now();
      for (let step = await first; !step.done; step = await source.next()) {
        // Notices may be dropped under load, the member's own LEFT too: membership is checked
        // again before delivering once the last check is `recheckMs` old.
        if (Date.now() - checkedAt > this.recheckMs) {
          // A store error leaves the notice to go through (ids only) and the check to the next one.
          const member = await this.repository.summary(id, user).then(
            (summary) => summary !== undefined,
            () => undefined,
          );
          if (member === false) break;
          if (member) checkedAt = Date.now();
        }
        await push(step.value);
        if (step.value.change === 'LEFT' && step.value.user === user) break;
      }
      stop();
    });
  }
}
