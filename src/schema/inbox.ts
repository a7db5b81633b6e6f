// The GraphQL type of inboxChanged: what a user is told when something new waits for them.
import { GraphQLSafeInt } from 'graphql-scalars';
import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { CATCH_UP_FIELD } from './topics';

@ObjectType({
  description:
    'Something new is waiting for the subscriber: in a chat (chatId, latestMessageId), in their mailbox (mailbox, waiting), or a sale of theirs in the market (saleId). Pull it with fetchPendingMessages, fetchDirectMessages or mySales.',
})
export class InboxNotification {
  @Field(() => ID, { nullable: true })
  chatId?: string | null;

  @Field(() => Int, { nullable: true, description: 'Pending messages of the chat run up to this id.' })
  latestMessageId?: number | null;

  @Field({ description: 'True for the mailbox, false for a chat or a sale.' })
  mailbox!: boolean;

  @Field(() => Int, { nullable: true, description: 'Messages waiting in the mailbox.' })
  waiting?: number | null;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description: 'A sale of one of your listings: mySales lists it (and any before it).',
  })
  saleId?: number | null;

  @Field({ description: CATCH_UP_FIELD })
  catchUp!: boolean;
}

@ArgsType()
export class InboxChangedArgs {
  @Field({
    defaultValue: false,
    description: 'Also tell of sales of your listings (saleId). Off by default, for clients from before sale notices.',
  })
  sales!: boolean;
}
