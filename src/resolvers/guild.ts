// Guild membership and prefix search. Who may do what: a user joins and leaves for themselves and
// searches only guilds they belong to (FORBIDDEN otherwise, whether or not the guild exists);
// service callers search any guild and join or remove any user.
import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AutocompleteConfig } from '../config';
import { forbidden } from '../common/errors';
import type { GuildRepository } from '../redis/guild';
import { GuildMembersArgs, GuildMembershipArgs } from '../schema/autocomplete';
import { callerId, type GraphQLContext } from '../schema/context';
import { intInRange, validName, validPrefix } from '../common/validation';

@Resolver()
export class GuildResolver {
  constructor(
    private readonly guilds: GuildRepository,
    private readonly settings: AutocompleteConfig,
  ) {}

  @Authorized()
  @Mutation(() => Boolean, {
    description:
      'Adds the user (the caller by default) to the guild; false when already a member. CONFLICT when the guild (GUILD_MAX_MEMBERS) or the user (GUILD_MAX_PER_USER) is full.',
  })
  async joinGuild(@Args() { guild, user }: GuildMembershipArgs, @Ctx() context: GraphQLContext): Promise<boolean> {
    const name = validName(guild, 'guild');
    return this.guilds.join(name, actingUser(user, context));
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description: 'Removes the user (the caller by default) from the guild; false when not a member.',
  })
  async leaveGuild(@Args() { guild, user }: GuildMembershipArgs, @Ctx() context: GraphQLContext): Promise<boolean> {
    const name = validName(guild, 'guild');
    return this.guilds.leave(name, actingUser(user, context));
  }

  @Authorized()
  @Query(() => [String], {
    description:
      'Members whose name starts with `prefix`, ignoring case, in name order (case-folded), as they wrote their names. Members of the guild and service callers only.',
  })
  async guildMembers(
    @Args() { guild, prefix, limit }: GuildMembersArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<string[]> {
    const name = validName(guild, 'guild');
    const wanted = validPrefix(prefix, 'prefix');
    const count = intInRange(limit, 'limit', 1, this.settings.maxGuildSearch);
    const asMember = context.principal?.isService ? undefined : callerId(context);
    return this.guilds.search(name, wanted, count, asMember);
  }
}

/** Whom a join or leave is for: the caller, or anyone when a service caller names them. */
function actingUser(user: string | null | undefined, context: GraphQLContext): string {
  const caller = callerId(context);
  if (user === null || user === undefined) return caller;
  const named = validName(user, 'user');
  if (named !== caller && !context.principal?.isService) {
    throw forbidden('only service callers may add or remove another user');
  }
  return named;
}
