// Settings of group chats and mailboxes: message size and pages, members, deduplication,
// retention, devices and mailbox size.
import { int, intSchema, oneOf, type SettingDomain, type SettingsReader } from '../common/settings';
import { CHAT_DEFAULTS, type ChatSettings, type RetentionMode } from './chat';

const DAY_MS = 86_400_000;
const { retention } = CHAT_DEFAULTS;

const SETTINGS = {
  MESSAGE_MAX_LENGTH: int({
    default: 4000,
    min: 1,
    max: 100_000,
    description: 'Longest chat or direct message, in characters (Unicode code points).',
  }),
  CHAT_MAX_MEMBERS: int({ default: 1000, min: 2, max: 100_000, description: 'Most members of one chat.' }),
  CHAT_MAX_PER_USER: int({ default: 1000, min: 1, max: 100_000, description: 'Most chats one user belongs to.' }),
  CHAT_DEDUPE_SECONDS: int({
    default: 86_400,
    min: 1,
    max: 30 * 86_400,
    description: 'How long a `clientMessageId` is remembered.',
  }),
  MESSAGE_MAX_FETCH: int({
    default: 1000,
    min: 1,
    max: 10_000,
    description:
      'Most messages one fetch of pending messages returns, over all chats (the default of `fetchPendingMessages`).',
  }),
  MESSAGE_MAX_PAGE: int({
    default: 100,
    min: 1,
    max: 1000,
    description: "Most entries in one page of a chat's `messages` (its default).",
  }),
  MAILBOX_MAX_MESSAGES: int({
    default: 10_000,
    min: 1,
    max: 10_000_000,
    description: 'Most unread messages in one mailbox; further sends get `CONFLICT`, nothing is dropped.',
  }),
  CHAT_MAX_KEEP_MESSAGES: int({
    default: 100_000,
    min: 1,
    max: 10_000_000,
    description: "The most entries a chat's own retention may keep.",
  }),
  CHAT_MAX_KEEP_DAYS: int({
    default: 3650,
    min: 1,
    max: 36_500,
    description: "The most days a chat's own retention may keep.",
  }),
  // The defaults give way to smaller maxima.
  CHAT_KEEP_MESSAGES: int({
    default: undefined,
    defaultText: `\`${retention.keepMessages}\`, or \`CHAT_MAX_KEEP_MESSAGES\` if smaller`,
    min: 1,
    max: 10_000_000,
    bounds: '1 to `CHAT_MAX_KEEP_MESSAGES`',
    description: 'Entries a chat created without a retention of its own keeps.',
  }),
  CHAT_KEEP_DAYS: int({
    default: undefined,
    defaultText: `\`${retention.keepMs / DAY_MS}\`, or \`CHAT_MAX_KEEP_DAYS\` if smaller`,
    min: 1,
    max: 36_500,
    bounds: '1 to `CHAT_MAX_KEEP_DAYS`',
    description: 'Days a chat created without a retention of its own keeps an entry.',
  }),
  CHAT_RETENTION_MODE: oneOf<RetentionMode, RetentionMode>(['history', 'seen'], {
    default: retention.mode,
    description:
      "Retention of chats created without one: `history` keeps by count and age; `seen` also deletes what every member and device has taken (the book's way).",
  }),
  CHAT_DEVICE_TTL_SECONDS: int({
    default: CHAT_DEFAULTS.deviceTtlSeconds,
    defaultText: `\`${CHAT_DEFAULTS.deviceTtlSeconds}\` (30 days)`,
    min: 1,
    max: 365 * 86_400,
    description: 'A device that has not fetched for this long is forgotten, and its cursors go.',
  }),
  CHAT_MAX_DEVICES: int({
    default: CHAT_DEFAULTS.maxDevices,
    min: 1,
    max: 100,
    description: 'Live devices per user; a new one beyond makes the least recently used one forgotten.',
  }),
} as const;

export const CHAT_SETTINGS: SettingDomain = {
  title: 'Group chats and mailboxes',
  summary: 'Sizes, membership, retention and devices of chats, and the size of mailboxes.',
  settings: SETTINGS,
};

export interface MessagingConfig extends ChatSettings {
  /** The most a chat's own retention may keep. */
  maxKeepMessages: number;
  maxKeepDays: number;
  /** Longest chat or direct message, in Unicode code points. */
  maxMessageLength: number;
  /** Most messages one fetch of pending chat messages returns, over all chats. */
  maxFetch: number;
  /** Most entries one page of a chat's history holds. */
  maxPage: number;
  /** Most messages waiting in one mailbox; a send to a full mailbox is refused, never dropped. */
  maxMailboxMessages: number;
}

export function readMessaging(reader: SettingsReader): MessagingConfig {
  const values = reader.read(SETTINGS, ['CHAT_KEEP_MESSAGES', 'CHAT_KEEP_DAYS']);
  const maxKeepMessages = values.CHAT_MAX_KEEP_MESSAGES;
  const maxKeepDays = values.CHAT_MAX_KEEP_DAYS;
  // Bounded by the maxima just read, not by their largest values.
  const keepMessages =
    reader.one('CHAT_KEEP_MESSAGES', SETTINGS.CHAT_KEEP_MESSAGES, intSchema(1, maxKeepMessages)) ??
    Math.min(retention.keepMessages, maxKeepMessages);
  const keepDays =
    reader.one('CHAT_KEEP_DAYS', SETTINGS.CHAT_KEEP_DAYS, intSchema(1, maxKeepDays)) ??
    Math.min(retention.keepMs / DAY_MS, maxKeepDays);
  return {
    maxMessageLength: values.MESSAGE_MAX_LENGTH,
    maxChatMembers: values.CHAT_MAX_MEMBERS,
    maxChatsPerUser: values.CHAT_MAX_PER_USER,
    dedupeSeconds: values.CHAT_DEDUPE_SECONDS,
    maxFetch: values.MESSAGE_MAX_FETCH,
    maxPage: values.MESSAGE_MAX_PAGE,
    maxMailboxMessages: values.MAILBOX_MAX_MESSAGES,
    retention: { mode: values.CHAT_RETENTION_MODE, keepMessages, keepMs: keepDays * DAY_MS },
    maxKeepMessages,
    maxKeepDays,
    deviceTtlSeconds: values.CHAT_DEVICE_TTL_SECONDS,
    maxDevices: values.CHAT_MAX_DEVICES,
  };
}
