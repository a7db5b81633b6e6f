// GraphQL types of recent-contact and guild autocomplete.
import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { NAME_RULE } from '../common/validation';

const PREFIX =
  'Matched literally against the start of each name, ignoring case (close to Unicode case folding: "STRASSE" finds "Straße"); at most 128 characters, no control or text-direction characters.';

@ArgsType()
export class ContactArgs {
  @Field({ description: `The contact's user id: ${NAME_RULE}.` })
  contact!: string;
}

@ArgsType()
export class RecentContactsArgs {
  @Field({ defaultValue: '', description: `${PREFIX} Empty: every contact.` })
  prefix!: string;

  @Field(() => Int, { defaultValue: 10, description: 'Most contacts returned, 1 to CONTACTS_MAX.' })
  limit!: number;
}

@ArgsType()
export class GuildMembershipArgs {
  @Field({ description: `Guild name: ${NAME_RULE}.` })
  guild!: string;

  @Field(() => String, {
    nullable: true,
    description: 'The user who joins or leaves; the caller by default. Only service callers may name someone else.',
  })
  user?: string | null;
}

@ArgsType()
export class GuildMembersArgs {
  @Field({ description: `Guild name: ${NAME_RULE}.` })
  guild!: string;

  @Field({ description: `${PREFIX} Empty: the first members in name order.` })
  prefix!: string;

  @Field(() => Int, {
    defaultValue: 10,
    description: 'Most members returned, 1 to GUILD_SEARCH_MAX_LIMIT (default 50).',
  })
  limit!: number;
}

@ArgsType()
export class GuildMemberPageArgs {
  @Field({ description: `Guild name: ${NAME_RULE}.` })
  guild!: string;

  @Field({ defaultValue: '', description: `${PREFIX} Empty: every member.` })
  prefix!: string;

  @Field(() => Int, {
    defaultValue: 10,
    description: 'Most members returned, 1 to GUILD_SEARCH_MAX_LIMIT (default 50).',
  })
  first!: number;

  @Field(() => String, {
    nullable: true,
    description: 'Start after this member: the last name of the previous page, as returned.',
  })
  after?: string | null;
}

@ArgsType()
export class MyGuildsArgs {
  @Field(() => Int, { defaultValue: 20, description: 'Most guilds returned, 1 to 100.' })
  first!: number;

  @Field(() => String, {
    nullable: true,
    description: 'Start after this guild: the last name of the previous page. Names are in byte order.',
  })
  after?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "Whose guilds: the caller's by default. Only service callers may name someone else.",
  })
  user?: string | null;
}

@ObjectType({ description: 'A guild, as one of its members sees it.' })
export class Guild {
  @Field()
  name!: string;

  @Field(() => Int, { description: 'How many members it has.' })
  memberCount!: number;
}

@ObjectType({ description: 'One page of the guilds a user belongs to, in byte order of their names.' })
export class GuildPage {
  @Field(() => [Guild])
  guilds!: Guild[];

  @Field({ description: 'More follow: ask again with `after` set to the last name of this page.' })
  hasMore!: boolean;
}

@ObjectType({ description: "One page of a guild's members whose name starts with a prefix, in name order." })
export class GuildMemberPage {
  @Field()
  guild!: string;

  @Field(() => [String], { description: 'Names as their owners wrote them, in order of case-folded name.' })
  members!: string[];

  @Field({ description: 'More follow: ask again with `after` set to the last name of this page.' })
  hasMore!: boolean;

  @Field(() => Int, { description: 'How many members the guild has, whatever the prefix.' })
  memberCount!: number;
}
