// Guild membership and prefix search. Who may do what: a user joins and leaves for themselves,
// lists their own guilds and searches only guilds they belong to (FORBIDDEN otherwise, whether or
// not the guild exists); service callers search any guild, list anyone's guilds and join or
// remove any user.
import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AutocompleteConfig } from '../config';
import { forbidden } from '../common/errors';
import type { GuildRepository } from '../redis/guild';
import {
  GuildMemberPage,
  GuildMemberPageArgs,
  GuildMembersArgs,
  GuildMembershipArgs,
  GuildPage,
  MyGuildsArgs,
} from '../schema/autocomplete';
import { callerId, type GraphQLContext } from '../schema/context';
import { intInRange, validName, validPrefix } from '../common/validation';

/** Most guilds on one page of `myGuilds`: each is checked against its guild, one call apiece. */
const MAX_GUILDS_PAGE = 100;

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

  @Authorized()
  @Query(() => GuildMemberPage, {
    description:
      'One page of `guildMembers`, with the member count: members after `after` whose name starts with `prefix`, ignoring case, in name order (case-folded). Members of the guild and service callers only.',
  })
  async guildMemberPage(
    @Args() { guild, prefix, first, after }: GuildMemberPageArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<GuildMemberPage> {
    const name = validName(guild, 'guild');
    const wanted = validPrefix(prefix, 'prefix');
    const count = intInRange(first, 'first', 1, this.settings.maxGuildSearch);
    const from = after === null || after === undefined ? undefined : validName(after, 'after');
    const asMember = context.principal?.isService ? undefined : callerId(context);
    return { guild: name, ...(await this.guilds.members(name, wanted, count, from, asMember)) };
  }

  @Authorized()
  @Query(() => GuildPage, {
    description:
      'The guilds the user (the caller by default) belongs to, in byte order of their names, with member counts. Only service callers may name someone else.',
  })
  async myGuilds(@Args() { first, after, user }: MyGuildsArgs, @Ctx() context: GraphQLContext): Promise<GuildPage> {
    const count = intInRange(first, 'first', 1, MAX_GUILDS_PAGE);
    const from = after === null || after === undefined ? undefined : validName(after, 'after');
    return this.guilds.guildsOf(actingUser(user, context, "list another user's guilds"), count, from);
  }
}

/** Whom a join, leave or list is for: the caller, or anyone when a service caller names them. */
function actingUser(
  user: string | null | undefined,
  context: GraphQLContext,
  action = 'add or remove another user',
): string {
  const caller = callerId(context);
  if (user === null || user === undefined) return caller;
  const named = validName(user, 'user');
  if (named !== caller && !context.principal?.isService) {
    throw forbidden(`only service callers may ${action}`);
  }
  return named;
}
