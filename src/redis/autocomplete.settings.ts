// Settings of autocomplete: recent contacts (contacts.ts) and guild prefix search (guild.ts).
import { int, type SettingDomain, type SettingsReader } from '../common/settings';

// Limits start at 10, the default `limit` of recentContacts and guildMembers, so it stays valid.
const SETTINGS = {
  CONTACTS_MAX: int({
    default: 100,
    min: 10,
    max: 1000,
    description: "Entries kept in a user's recent-contacts list (the book's 100).",
  }),
  GUILD_SEARCH_MAX_LIMIT: int({
    default: 50,
    min: 10,
    max: 1000,
    description: 'Largest `limit` of a `guildMembers` prefix search.',
  }),
  GUILD_MAX_MEMBERS: int({
    default: 10_000_000,
    min: 1,
    max: 1_000_000_000,
    description: 'Most members of one guild; further joins get `CONFLICT`.',
  }),
  GUILD_MAX_PER_USER: int({
    default: 1000,
    min: 1,
    max: 100_000,
    description: 'Most guilds one user belongs to; further joins get `CONFLICT`.',
  }),
} as const;

export const AUTOCOMPLETE_SETTINGS: SettingDomain = {
  title: 'Autocomplete',
  summary: 'Recent contacts and guild member search.',
  settings: SETTINGS,
};

export interface AutocompleteConfig {
  /** Entries kept in a user's recent-contacts list (the book's 100). */
  maxContacts: number;
  /** Largest `limit` of a guild prefix search. */
  maxGuildSearch: number;
  /** Most members one guild may have. */
  maxGuildMembers: number;
  /** Most guilds one user may belong to. */
  maxGuildsPerUser: number;
}

export function readAutocomplete(reader: SettingsReader): AutocompleteConfig {
  const values = reader.read(SETTINGS);
  return {
    maxContacts: values.CONTACTS_MAX,
    maxGuildSearch: values.GUILD_SEARCH_MAX_LIMIT,
    maxGuildMembers: values.GUILD_MAX_MEMBERS,
    maxGuildsPerUser: values.GUILD_MAX_PER_USER,
  };
}
