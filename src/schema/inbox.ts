// The GraphQL type of inboxChanged: what a user is told when something new waits for them.
import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType({
  description:
    'Something new is waiting for the subscriber: either in a chat (chatId, latestMessageId) or in their mailbox (mailbox, waiting). Pull it with fetchPendingMessages or fetchDirectMessages.',
})
export class InboxNotification {
  @Field(() => ID, { nullable: true })
  chatId?: string | null;

  @Field(() => Int, { nullable: true, description: 'Pending messages of the chat run up to this id.' })
  latestMessageId?: number | null;

  @Field({ description: 'True for the mailbox, false for a chat.' })
  mailbox!: boolean;

  @Field(() => Int, { nullable: true, description: 'Messages waiting in the mailbox.' })
  waiting?: number | null;
}
