// GraphQL types of group chats.
import { ArgsType, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { NAME_RULE } from '../common/validation';

export const TS = "Unix seconds (millisecond precision) from the Redis server's clock.";

@ObjectType({ description: 'A group chat as the caller sees it.' })
export class Chat {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'Whether anyone may join; otherwise members add others.' })
  open!: boolean;

  @Field(() => Int)
  memberCount!: number;

  @Field(() => Int, { description: 'Id of the newest message; ids count up from 1 without gaps.' })
  latestMessageId!: number;

  @Field(() => Int, { description: 'Id of the last message the caller has seen.' })
  seenMessageId!: number;

  @Field(() => Int, { description: 'latestMessageId - seenMessageId.' })
  unreadCount!: number;
}

/** What chat messages and direct messages share; not a type of its own in the schema. */
@ObjectType()
export abstract class MessageFields {
  @Field(() => Int, { description: 'Strictly increasing: per chat without gaps, or per mailbox.' })
  id!: number;

  @Field(() => ID)
  sender!: string;

  @Field()
  message!: string;

  @Field(() => Float, { description: TS })
  ts!: number;
}

@ObjectType({ description: 'A message in a group chat; ids count up from 1 per chat, without gaps.' })
export class ChatMessage extends MessageFields {
  @Field(() => ID)
  chatId!: string;
}

@ObjectType({ description: "Messages of one chat after the caller's seen-id, oldest first." })
export class PendingChat {
  @Field(() => ID)
  chatId!: string;

  @Field(() => [ChatMessage])
  messages!: ChatMessage[];

  @Field(() => Int, { description: 'Messages still pending after these; fetch again while it is above 0.' })
  remaining!: number;
}

export const USER = `A user id: ${NAME_RULE}.`;

@ArgsType()
export class CreateChatArgs {
  @Field(() => [ID], {
    description: `The other members (the caller is always one). ${USER} At most CHAT_MAX_MEMBERS in all.`,
  })
  members!: string[];

  @Field({
    description: 'The first message, 1 to MESSAGE_MAX_LENGTH characters; no control characters but tab and newline.',
  })
  message!: string;

  @Field({ defaultValue: false, description: 'Whether anyone who knows the id may join.' })
  open!: boolean;
}

@ArgsType()
export class SendMessageArgs {
  @Field(() => ID)
  chatId!: string;

  @Field({ description: '1 to MESSAGE_MAX_LENGTH characters; no control characters but tab and newline.' })
  message!: string;

  @Field(() => ID, {
    nullable: true,
    description: `Chosen by the client, ${NAME_RULE}. A retry with the same id returns the first message instead of sending again (remembered for CHAT_DEDUPE_SECONDS).`,
  })
  clientMessageId?: string | null;
}

@ArgsType()
export class PendingMessagesArgs {
  @Field(() => Int, {
    nullable: true,
    description: 'Most messages over all chats, 1 to MESSAGE_MAX_FETCH (the default).',
  })
  limit?: number | null;
}

@ArgsType()
export class ChatIdArgs {
  @Field(() => ID)
  chatId!: string;
}

@ArgsType()
export class MarkSeenArgs {
  @Field(() => ID)
  chatId!: string;

  @Field(() => Int, { description: 'The last message the caller has shown; the seen-id never moves back.' })
  messageId!: number;
}

@ArgsType()
export class AddChatMembersArgs {
  @Field(() => ID)
  chatId!: string;

  @Field(() => [ID], { description: USER })
  members!: string[];
}
