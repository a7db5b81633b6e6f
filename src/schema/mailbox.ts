// GraphQL types of direct-message mailboxes.
import { ArgsType, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { MessageFields, TS, USER } from './chat';

@ObjectType({ description: 'A message in a single-recipient mailbox; ids count up per mailbox.' })
export class DirectMessage extends MessageFields {}

@ObjectType({ description: 'How a mailbox is doing: a backlog means its owner has not been reading.' })
export class Mailbox {
  @Field(() => ID)
  user!: string;

  @Field(() => Int, { description: 'Messages waiting to be fetched.' })
  waiting!: number;

  @Field(() => Float, { nullable: true, description: `When the oldest waiting message was sent. ${TS}` })
  oldestTs?: number | null;

  @Field(() => Int, {
    nullable: true,
    description:
      'Id of the newest message ever sent to this mailbox (how many it has received): for its owner and service callers only, null for others.',
  })
  latestMessageId!: number | null;
}

@ArgsType()
export class SendDirectMessageArgs {
  @Field(() => ID, { description: `The recipient. ${USER}` })
  to!: string;

  @Field({ description: '1 to MESSAGE_MAX_LENGTH characters; no control characters but tab and newline.' })
  message!: string;
}

@ArgsType()
export class DirectMessagesArgs {
  @Field(() => Int, {
    nullable: true,
    description: 'Most messages to return, 1 to MESSAGE_MAX_FETCH; 10 when omitted.',
  })
  limit?: number | null;
}

@ArgsType()
export class AckDirectMessagesArgs {
  @Field(() => Int, { description: 'Remove waiting messages with ids up to this one.' })
  upToId!: number;
}

@ArgsType()
export class MailboxArgs {
  @Field(() => ID, { nullable: true, description: `Whose mailbox; the caller's when omitted. ${USER}` })
  user?: string | null;
}
