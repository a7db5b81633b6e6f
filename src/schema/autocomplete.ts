// GraphQL arguments of recent-contact and guild autocomplete.
import { ArgsType, Field, Int } from 'type-graphql';
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
