// Recent contacts: each user keeps and reads only their own list.
import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AutocompleteConfig } from '../config';
import { badInput } from '../common/errors';
import type { ContactsRepository } from '../redis/contacts';
import { ContactArgs, RecentContactsArgs } from '../schema/autocomplete';
import { callerId, type GraphQLContext } from '../schema/context';
import { intInRange, validName, validPrefix } from '../common/validation';

@Resolver()
export class ContactsResolver {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly settings: AutocompleteConfig,
  ) {}

  @Authorized()
  @Mutation(() => Boolean, {
    description:
      "Puts `contact` first in the caller's recent contacts, removing an older copy; the oldest beyond CONTACTS_MAX (100) drop off.",
  })
  async addRecentContact(@Args() { contact }: ContactArgs, @Ctx() context: GraphQLContext): Promise<boolean> {
    const caller = callerId(context);
    const name = validName(contact, 'contact');
    if (name === caller) throw badInput('contact must be someone other than the caller', 'contact');
    await this.contacts.add(caller, name);
    return true;
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description: "Takes `contact` off the caller's recent contacts; false when it was not there.",
  })
  async removeRecentContact(@Args() { contact }: ContactArgs, @Ctx() context: GraphQLContext): Promise<boolean> {
    return this.contacts.remove(callerId(context), validName(contact, 'contact'));
  }

  @Authorized()
  @Query(() => [String], {
    description: "The caller's recent contacts whose name starts with `prefix`, most recent first.",
  })
  async recentContacts(
    @Args() { prefix, limit }: RecentContactsArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<string[]> {
    const wanted = validPrefix(prefix, 'prefix');
    return this.contacts.find(callerId(context), wanted, intInRange(limit, 'limit', 1, this.settings.maxContacts));
  }
}
