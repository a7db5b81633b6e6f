/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Which APNs a token belongs to: SANDBOX for development builds, PRODUCTION otherwise. */
export type ApnsEnvironment =
  | 'PRODUCTION'
  | 'SANDBOX';

/** An APNs device token. */
export type ApnsTokenInput = {
  environment?: ApnsEnvironment;
  /** The device token, hex: 64 to 200 digits. */
  token: string;
};

/** ENTRY: a new entry (messageId); READ: a member read up to messageId; TYPING: a member started or stopped typing; JOINED, LEFT: a member joined, or left or was removed. */
export type ChatChangeKind =
  | 'ENTRY'
  | 'JOINED'
  | 'LEFT'
  | 'READ'
  | 'TYPING';

/** An entry of a chat's log: a MESSAGE, or an EDIT or DELETE of one (named by `target`). */
export type ChatEntryKind =
  | 'DELETE'
  | 'EDIT'
  | 'MESSAGE';

/** A retention. What is left out is, for createChat, the server default (CHAT_RETENTION_MODE, ...); for setChatRetention, what the chat has. */
export type ChatRetentionInput = {
  /** 1 to CHAT_MAX_KEEP_DAYS. */
  keepDays?: number | null | undefined;
  /** 1 to CHAT_MAX_KEEP_MESSAGES. */
  keepMessages?: number | null | undefined;
  mode?: ChatRetentionMode | null | undefined;
};

/** HISTORY keeps the newest entries up to the chat's count and age; SEEN also deletes an entry once every member and device has taken it (the book's way). */
export type ChatRetentionMode =
  | 'HISTORY'
  | 'SEEN';

/** Per step, over its slices of the chosen precision, a slice without a sample counting as 0: SUM of the counts; AVG = SUM / slices per step (step / precision); MIN and MAX of the slices; COUNT of the slices that hold a sample. */
export type CounterAggregation =
  | 'AVG'
  | 'COUNT'
  | 'MAX'
  | 'MIN'
  | 'SUM';

/** Steps without any sample: ZERO answers them with the value 0, NONE leaves them out. */
export type CounterFill =
  | 'NONE'
  | 'ZERO';

/** An FCM registration token. */
export type FcmTokenInput = {
  /** 1 to 4096 characters of A-Z a-z 0-9 _ : -. */
  token: string;
};

/** LISTED (put up for sale, at price); SOLD (bought, for price); DELISTED (taken back by its seller; price is what it was listed at); REPRICED (now at price); CATCH_UP (notices may have been missed: pull `market`; itemId and sellerId empty, price 0). */
export type MarketChange =
  | 'CATCH_UP'
  | 'DELISTED'
  | 'LISTED'
  | 'REPRICED'
  | 'SOLD';

/** PURCHASED; ITEM_GONE (not listed by that seller any more: sold or never listed); PRICE_CHANGED (listed at another price, see listedPrice); INSUFFICIENT_FUNDS. Only PURCHASED changed anything. */
export type PurchaseOutcome =
  | 'INSUFFICIENT_FUNDS'
  | 'ITEM_GONE'
  | 'PRICE_CHANGED'
  | 'PURCHASED';

/** WEB_PUSH: a browser subscription (RFC 8030, VAPID); APNS: an Apple device token; FCM: a Firebase registration token. */
export type PushKind =
  | 'APNS'
  | 'FCM'
  | 'WEB_PUSH';

/** EXPONENTIAL: the wait before a retry doubles with each run; FIXED: it stays the same. */
export type TaskBackoff =
  | 'EXPONENTIAL'
  | 'FIXED';

/** One task of enqueueTasks; the fields mean what they mean in enqueueTask. */
export type TaskInput = {
  args?: unknown;
  backoff?: TaskBackoff | null | undefined;
  /** First wait before a retry, 0 to TASK_MAX_BACKOFF_MS; the queue's TASK_BACKOFF_MS when left out. */
  backoffMs?: number | null | undefined;
  delayMs?: number;
  idempotencyKey?: string | null | undefined;
  /** Runs before it is FAILED, 1 to 100; the queue's TASK_MAX_ATTEMPTS when left out. */
  maxAttempts?: number | null | undefined;
  /** Task name, which picks the handler: 1 to 128 characters: Unicode letters, digits, marks, emoji and _ - . / @ (compared after NFC normalisation). */
  name: string;
  priority?: TaskPriority;
  /** Longest run in ms, 100 to 86400000; the workers' TASK_RUN_TIMEOUT_MS when left out. */
  timeoutMs?: number | null | undefined;
};

/** WAITING tasks in the order workers take them (OLDEST_FIRST: the next one first), DELAYED by when they are due, ACTIVE by when their lease ends, finished ones by when they finished. */
export type TaskOrder =
  | 'NEWEST_FIRST'
  | 'OLDEST_FIRST';

/** Workers take HIGH before NORMAL before LOW. */
export type TaskPriority =
  | 'HIGH'
  | 'LOW'
  | 'NORMAL';

/** DELAYED (waiting for its time, or for a retry), WAITING, ACTIVE (a worker runs it), then COMPLETED, FAILED or CANCELLED. */
export type TaskState =
  | 'ACTIVE'
  | 'CANCELLED'
  | 'COMPLETED'
  | 'DELAYED'
  | 'FAILED'
  | 'WAITING';

/** A Web Push subscription: the fields of PushSubscription.toJSON(). */
export type WebPushSubscriptionInput = {
  /** keys.auth: the 16-byte authentication secret, base64url or base64. */
  auth: string;
  /** The push service's URL for the subscription: https, on a public address (PUSH_ALLOW_PRIVATE_ENDPOINTS), on PUSH_ENDPOINT_HOSTS when set. */
  endpoint: string;
  /** keys.p256dh: the browser's P-256 public key, uncompressed (65 bytes), base64url or base64. */
  p256dh: string;
};

export type AddRecentContactMutationVariables = Exact<{
  contact: string;
}>;


export type AddRecentContactMutation = { addRecentContact: boolean };

export type RemoveRecentContactMutationVariables = Exact<{
  contact: string;
}>;


export type RemoveRecentContactMutation = { removeRecentContact: boolean };

export type RecentContactsQueryVariables = Exact<{
  prefix?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type RecentContactsQuery = { recentContacts: Array<string> };

export type JoinGuildMutationVariables = Exact<{
  guild: string;
  user?: string | null | undefined;
}>;


export type JoinGuildMutation = { joinGuild: boolean };

export type LeaveGuildMutationVariables = Exact<{
  guild: string;
  user?: string | null | undefined;
}>;


export type LeaveGuildMutation = { leaveGuild: boolean };

export type GuildMembersQueryVariables = Exact<{
  guild: string;
  prefix: string;
  limit?: number | null | undefined;
}>;


export type GuildMembersQuery = { guildMembers: Array<string> };

export type GuildMemberPageQueryVariables = Exact<{
  guild: string;
  prefix?: string | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type GuildMemberPageQuery = { guildMemberPage: { guild: string, members: Array<string>, hasMore: boolean, memberCount: number } };

export type MyGuildsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  user?: string | null | undefined;
}>;


export type MyGuildsQuery = { myGuilds: { hasMore: boolean, guilds: Array<{ name: string, memberCount: number }> } };

export type ChatFieldsFragment = { id: string, open: boolean, memberCount: number, latestMessageId: number, seenMessageId: number, unreadCount: number };

export type MessageFieldsFragment = { id: number, chatId: string, sender: string, message: string, ts: number, kind: ChatEntryKind, target: number | null, editedAt: number | null, deleted: boolean };

export type CreateChatMutationVariables = Exact<{
  members: Array<string | number> | string | number;
  message: string;
  open?: boolean | null | undefined;
  retention?: ChatRetentionInput | null | undefined;
}>;


export type CreateChatMutation = { createChat: { members: Array<string>, id: string, open: boolean, memberCount: number, latestMessageId: number, seenMessageId: number, unreadCount: number } };

export type SendMessageMutationVariables = Exact<{
  chatId: string | number;
  message: string;
  clientMessageId?: string | number | null | undefined;
}>;


export type SendMessageMutation = { sendMessage: { id: number, chatId: string, sender: string, message: string, ts: number, kind: ChatEntryKind, target: number | null, editedAt: number | null, deleted: boolean } };

export type FetchPendingMessagesMutationVariables = Exact<{
  limit?: number | null | undefined;
  device?: string | number | null | undefined;
}>;


export type FetchPendingMessagesMutation = { fetchPendingMessages: Array<{ chatId: string, remaining: number, historyStart: number, deviceForgotten: boolean, messages: Array<{ id: number, chatId: string, sender: string, message: string, ts: number, kind: ChatEntryKind, target: number | null, editedAt: number | null, deleted: boolean }> }> };

export type PendingMessagesQueryVariables = Exact<{
  limit?: number | null | undefined;
  device?: string | number | null | undefined;
}>;


export type PendingMessagesQuery = { pendingMessages: Array<{ chatId: string, remaining: number, historyStart: number, deviceForgotten: boolean, messages: Array<{ id: number, chatId: string, sender: string, message: string, ts: number, kind: ChatEntryKind, target: number | null, editedAt: number | null, deleted: boolean }> }> };

export type MarkSeenMutationVariables = Exact<{
  chatId: string | number;
  messageId: number;
  device?: string | number | null | undefined;
}>;


export type MarkSeenMutation = { markSeen: boolean };

export type JoinChatMutationVariables = Exact<{
  chatId: string | number;
}>;


export type JoinChatMutation = { joinChat: { id: string, open: boolean, memberCount: number, latestMessageId: number, seenMessageId: number, unreadCount: number } };

export type AddChatMembersMutationVariables = Exact<{
  chatId: string | number;
  members: Array<string | number> | string | number;
}>;


export type AddChatMembersMutation = { addChatMembers: { members: Array<string>, id: string, open: boolean, memberCount: number, latestMessageId: number, seenMessageId: number, unreadCount: number } };

export type LeaveChatMutationVariables = Exact<{
  chatId: string | number;
}>;


export type LeaveChatMutation = { leaveChat: boolean };

export type ChatsQueryVariables = Exact<{ [key: string]: never; }>;


export type ChatsQuery = { chats: Array<{ id: string, open: boolean, memberCount: number, latestMessageId: number, seenMessageId: number, unreadCount: number }> };

export type ChatQueryVariables = Exact<{
  chatId: string | number;
}>;


export type ChatQuery = { chat: { members: Array<string>, id: string, open: boolean, memberCount: number, latestMessageId: number, seenMessageId: number, unreadCount: number } | null };

export type InboxChangedSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type InboxChangedSubscription = { inboxChanged: { chatId: string | null, latestMessageId: number | null, mailbox: boolean, waiting: number | null } };

export type MessagesQueryVariables = Exact<{
  chatId: string | number;
  before?: number | null | undefined;
  last?: number | null | undefined;
}>;


export type MessagesQuery = { messages: { chatId: string, hasMore: boolean, historyStart: number, messages: Array<{ id: number, chatId: string, sender: string, message: string, ts: number, kind: ChatEntryKind, target: number | null, editedAt: number | null, deleted: boolean }> } };

export type EditMessageMutationVariables = Exact<{
  chatId: string | number;
  messageId: number;
  message: string;
  version?: number | null | undefined;
}>;


export type EditMessageMutation = { editMessage: { version: number, id: number, chatId: string, sender: string, message: string, ts: number, kind: ChatEntryKind, target: number | null, editedAt: number | null, deleted: boolean } };

export type MessageVersionsQueryVariables = Exact<{
  chatId: string | number;
}>;


export type MessageVersionsQuery = { messages: { messages: Array<{ id: number, message: string, version: number }> } };

export type DeleteMessageMutationVariables = Exact<{
  chatId: string | number;
  messageId: number;
}>;


export type DeleteMessageMutation = { deleteMessage: { id: number, chatId: string, sender: string, message: string, ts: number, kind: ChatEntryKind, target: number | null, editedAt: number | null, deleted: boolean } };

export type SetTypingMutationVariables = Exact<{
  chatId: string | number;
  typing?: boolean | null | undefined;
}>;


export type SetTypingMutation = { setTyping: boolean };

export type RemoveChatMemberMutationVariables = Exact<{
  chatId: string | number;
  user: string | number;
}>;


export type RemoveChatMemberMutation = { removeChatMember: boolean };

export type SetChatOwnerMutationVariables = Exact<{
  chatId: string | number;
  user: string | number;
  owner: boolean;
}>;


export type SetChatOwnerMutation = { setChatOwner: boolean };

export type SetChatRetentionMutationVariables = Exact<{
  chatId: string | number;
  retention: ChatRetentionInput;
}>;


export type SetChatRetentionMutation = { setChatRetention: { mode: ChatRetentionMode, keepMessages: number, keepDays: number } };

export type ChatDetailsQueryVariables = Exact<{
  chatId: string | number;
}>;


export type ChatDetailsQuery = { chat: { owner: boolean, typing: Array<string>, id: string, open: boolean, memberCount: number, latestMessageId: number, seenMessageId: number, unreadCount: number, retention: { mode: ChatRetentionMode, keepMessages: number, keepDays: number }, readPositions: Array<{ user: string, messageId: number }> } | null };

export type ChatDevicesQueryVariables = Exact<{ [key: string]: never; }>;


export type ChatDevicesQuery = { chatDevices: Array<{ id: string, lastFetchAt: number, forgotten: boolean }> };

export type ChatChangedSubscriptionVariables = Exact<{
  chatId: string | number;
}>;


export type ChatChangedSubscription = { chatChanged: { chatId: string, change: ChatChangeKind, user: string | null, messageId: number | null } };

export type SetTypingTwiceMutationVariables = Exact<{
  chatId: string | number;
}>;


export type SetTypingTwiceMutation = { first: boolean, second: boolean };

export type UpdateCounterMutationVariables = Exact<{
  name: string;
  count?: number | null | undefined;
  at?: number | null | undefined;
}>;


export type UpdateCounterMutation = { updateCounter: boolean };

export type CounterQueryVariables = Exact<{
  name: string;
  precision: number;
  limit?: number | null | undefined;
}>;


export type CounterQuery = { counter: Array<{ time: number, count: number }> };

export type CountersQueryVariables = Exact<{
  after?: string | null | undefined;
  first?: number | null | undefined;
}>;


export type CountersQuery = { counters: Array<{ name: string, precisions: Array<number> }> };

export type CounterUpdatedSubscriptionVariables = Exact<{
  name: string;
}>;


export type CounterUpdatedSubscription = { counterUpdated: { name: string, time: number } };

export type CounterSeriesQueryVariables = Exact<{
  name: string;
  from: number;
  to?: number | null | undefined;
  step: number;
  aggregation?: CounterAggregation | null | undefined;
  fill?: CounterFill | null | undefined;
}>;


export type CounterSeriesQuery = { counterSeries: { name: string, precision: number, step: number, aggregation: CounterAggregation, start: number, end: number, retainedFrom: number, points: Array<{ time: number, value: number }> } };

export type CounterSeriesManyQueryVariables = Exact<{
  names?: Array<string> | string | null | undefined;
  prefix?: string | null | undefined;
  after?: string | null | undefined;
  first?: number | null | undefined;
  from: number;
  to?: number | null | undefined;
  step: number;
  aggregation?: CounterAggregation | null | undefined;
  fill?: CounterFill | null | undefined;
}>;


export type CounterSeriesManyQuery = { counterSeriesMany: Array<{ name: string, precision: number, start: number, end: number, points: Array<{ time: number, value: number }> }> };

export type DeleteCounterMutationVariables = Exact<{
  name: string;
}>;


export type DeleteCounterMutation = { deleteCounter: boolean };

export type HolderFragment = { fencingToken: number, owner: string, expiresAt: number, timeLeftMs: number };

export type AcquireLockMutationVariables = Exact<{
  name: string;
  acquireTimeoutMs?: number | null | undefined;
  lockTimeoutMs?: number | null | undefined;
}>;


export type AcquireLockMutation = { acquireLock: { name: string, token: string, fencingToken: number, expiresAt: number } | null };

export type ReleaseLockMutationVariables = Exact<{
  name: string;
  token: string;
}>;


export type ReleaseLockMutation = { releaseLock: boolean };

export type RefreshLockMutationVariables = Exact<{
  name: string;
  token: string;
  lockTimeoutMs?: number | null | undefined;
}>;


export type RefreshLockMutation = { refreshLock: { name: string, token: string, fencingToken: number, expiresAt: number } | null };

export type LockStateQueryVariables = Exact<{
  name: string;
}>;


export type LockStateQuery = { lock: { name: string, waiting: number, lastFencingToken: number | null, holder: { fencingToken: number, owner: string, expiresAt: number, timeLeftMs: number } | null } };

export type LockReleasedSubscriptionVariables = Exact<{
  name: string;
}>;


export type LockReleasedSubscription = { lockReleased: { name: string, releasedAt: number } };

export type AcquireSemaphoreMutationVariables = Exact<{
  name: string;
  limit: number;
  timeoutMs?: number | null | undefined;
  waitMs?: number | null | undefined;
}>;


export type AcquireSemaphoreMutation = { acquireSemaphore: { name: string, id: string, fencingToken: number, expiresAt: number } | null };

export type RefreshSemaphoreMutationVariables = Exact<{
  name: string;
  id: string;
}>;


export type RefreshSemaphoreMutation = { refreshSemaphore: { name: string, id: string, fencingToken: number, expiresAt: number } | null };

export type ReleaseSemaphoreMutationVariables = Exact<{
  name: string;
  id: string;
}>;


export type ReleaseSemaphoreMutation = { releaseSemaphore: boolean };

export type SemaphoreStateQueryVariables = Exact<{
  name: string;
}>;


export type SemaphoreStateQuery = { semaphore: { name: string, limit: number | null, waiting: number, lastFencingToken: number | null, holders: Array<{ fencingToken: number, owner: string, expiresAt: number, timeLeftMs: number }> } };

export type SemaphoreReleasedSubscriptionVariables = Exact<{
  name: string;
}>;


export type SemaphoreReleasedSubscription = { semaphoreReleased: { name: string, releasedAt: number } };

export type IpLocationQueryVariables = Exact<{
  ip: string;
}>;


export type IpLocationQuery = { ipLocation: { country: string, region: string, city: string } | null };

export type CreateLocationDatasetMutationVariables = Exact<{
  name: string;
}>;


export type CreateLocationDatasetMutation = { createLocationDataset: boolean };

export type LocationDatasetsQueryVariables = Exact<{ [key: string]: never; }>;


export type LocationDatasetsQuery = { locationDatasets: Array<string> };

export type AppendLocationLinesMutationVariables = Exact<{
  dataset: string;
  upload: string;
  fromLine: number;
  lines: Array<string> | string;
  complete: boolean;
}>;


export type AppendLocationLinesMutation = { appendLocationLines: { lines: number, stored: boolean, complete: boolean } };

export type LocationUploadQueryVariables = Exact<{
  dataset: string;
  upload: string;
}>;


export type LocationUploadQuery = { locationUpload: { id: string, lines: number, bytes: number, chunks: number, doneChunks: number, doneLines: number, refused: number, complete: boolean, done: boolean, created: number, refusedSamples: Array<{ line: number, reason: string, text: string }> } | null };

export type LocationDaysQueryVariables = Exact<{
  dataset: string;
  from?: string | null | undefined;
  to?: string | null | undefined;
}>;


export type LocationDaysQuery = { locationDays: Array<string> };

export type LocationTotalsQueryVariables = Exact<{
  dataset: string;
  from: string;
  to?: string | null | undefined;
}>;


export type LocationTotalsQuery = { locationTotals: { days: number, visits: number, unknownVisits: number } };

export type TopCountriesQueryVariables = Exact<{
  dataset: string;
  from: string;
  to?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type TopCountriesQuery = { topCountries: Array<{ name: string, visits: number }> };

export type TopRegionsQueryVariables = Exact<{
  dataset: string;
  country: string;
  from: string;
  to?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type TopRegionsQuery = { topRegions: Array<{ name: string, visits: number }> };

export type TopCitiesQueryVariables = Exact<{
  dataset: string;
  country: string;
  region: string;
  from: string;
  to?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type TopCitiesQuery = { topCities: Array<{ name: string, visits: number }> };

export type PlaceVisitsQueryVariables = Exact<{
  dataset: string;
  country: string;
  region?: string | null | undefined;
  city?: string | null | undefined;
  from: string;
  to?: string | null | undefined;
}>;


export type PlaceVisitsQuery = { placeVisits: Array<{ day: string, visits: number }> };

export type ForgetLocationDaysMutationVariables = Exact<{
  dataset: string;
  before: string;
}>;


export type ForgetLocationDaysMutation = { forgetLocationDays: Array<string> };

export type LocationUploadChangedSubscriptionVariables = Exact<{
  dataset: string;
  upload: string;
}>;


export type LocationUploadChangedSubscription = { locationUploadChanged: { dataset: string, upload: string, lines: number, doneLines: number, complete: boolean } };

export type LocationTotalsChangedSubscriptionVariables = Exact<{
  dataset: string;
}>;


export type LocationTotalsChangedSubscription = { locationTotalsChanged: { dataset: string, day: string } };

export type DirectMessageFieldsFragment = { id: number, sender: string, message: string, ts: number };

export type SendDirectMessageMutationVariables = Exact<{
  to: string | number;
  message: string;
}>;


export type SendDirectMessageMutation = { sendDirectMessage: { id: number, sender: string, message: string, ts: number } };

export type FetchDirectMessagesMutationVariables = Exact<{
  limit?: number | null | undefined;
}>;


export type FetchDirectMessagesMutation = { fetchDirectMessages: Array<{ id: number, sender: string, message: string, ts: number }> };

export type DirectMessagesQueryVariables = Exact<{
  limit?: number | null | undefined;
}>;


export type DirectMessagesQuery = { directMessages: Array<{ id: number, sender: string, message: string, ts: number }> };

export type AckDirectMessagesMutationVariables = Exact<{
  upToId: number;
}>;


export type AckDirectMessagesMutation = { ackDirectMessages: number };

export type MailboxQueryVariables = Exact<{
  user?: string | number | null | undefined;
}>;


export type MailboxQuery = { mailbox: { user: string, waiting: number, oldestTs: number | null, latestMessageId: number | null } };

export type GrantItemMutationVariables = Exact<{
  userId: string | number;
  itemId: string | number;
}>;


export type GrantItemMutation = { grantItem: boolean };

export type GrantFundsMutationVariables = Exact<{
  userId: string | number;
  amount: number;
}>;


export type GrantFundsMutation = { grantFunds: number };

export type ListItemMutationVariables = Exact<{
  itemId: string | number;
  price: number;
}>;


export type ListItemMutation = { listItem: boolean };

export type PurchaseItemMutationVariables = Exact<{
  itemId: string | number;
  sellerId: string | number;
  price: number;
}>;


export type PurchaseItemMutation = { purchaseItem: { outcome: PurchaseOutcome, itemId: string, sellerId: string, listedPrice: number | null, funds: number } };

export type MarketQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type MarketQuery = { market: Array<{ itemId: string, sellerId: string, price: number, cursor: string }> };

export type InventoryQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | number | null | undefined;
}>;


export type InventoryQuery = { inventory: Array<string> };

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { me: { userId: string, funds: number, items: number } };

export type DelistItemMutationVariables = Exact<{
  itemId: string | number;
}>;


export type DelistItemMutation = { delistItem: boolean };

export type RepriceItemMutationVariables = Exact<{
  itemId: string | number;
  price: number;
}>;


export type RepriceItemMutation = { repriceItem: boolean };

export type PurchaseItemSaleMutationVariables = Exact<{
  itemId: string | number;
  sellerId: string | number;
  price: number;
}>;


export type PurchaseItemSaleMutation = { purchaseItem: { outcome: PurchaseOutcome, saleId: number | null } };

export type MySalesQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: number | null | undefined;
}>;


export type MySalesQuery = { mySales: Array<{ saleId: number, itemId: string, buyerId: string, price: number, soldAt: number }> };

export type MarketChangedSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type MarketChangedSubscription = { marketChanged: { kind: MarketChange, itemId: string, sellerId: string, price: number } };

export type SellerInboxSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type SellerInboxSubscription = { inboxChanged: { saleId: number | null, mailbox: boolean, chatId: string | null } };

export type PushTargetFieldsFragment = { device: string, kind: PushKind, registeredAt: number, endpointHost: string | null, tokenEnd: string | null };

export type SetPushTargetMutationVariables = Exact<{
  device: string;
  webPush?: WebPushSubscriptionInput | null | undefined;
  apns?: ApnsTokenInput | null | undefined;
  fcm?: FcmTokenInput | null | undefined;
}>;


export type SetPushTargetMutation = { setPushTarget: { device: string, kind: PushKind, registeredAt: number, endpointHost: string | null, tokenEnd: string | null } };

export type RemovePushTargetMutationVariables = Exact<{
  device: string;
}>;


export type RemovePushTargetMutation = { removePushTarget: boolean };

export type PushTargetsQueryVariables = Exact<{ [key: string]: never; }>;


export type PushTargetsQuery = { pushTargets: Array<{ device: string, kind: PushKind, registeredAt: number, endpointHost: string | null, tokenEnd: string | null }> };

export type PushProvidersQueryVariables = Exact<{ [key: string]: never; }>;


export type PushProvidersQuery = { pushProviders: { kinds: Array<PushKind>, webPushPublicKey: string | null } };

export type ScheduleRowCacheMutationVariables = Exact<{
  rowId: string | number;
  delaySeconds: number;
}>;


export type ScheduleRowCacheMutation = { scheduleRowCache: boolean };

export type CachedRowQueryVariables = Exact<{
  rowId: string | number;
}>;


export type CachedRowQuery = { cachedRow: unknown };

export type CachedRowsQueryVariables = Exact<{
  rowIds: Array<string | number> | string | number;
}>;


export type CachedRowsQuery = { cachedRows: Array<unknown> };

export type RowCacheScheduleQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | number | null | undefined;
}>;


export type RowCacheScheduleQuery = { rowCacheSchedule: Array<{ rowId: string, delaySeconds: number, nextRefreshAt: number, lastRefreshedAt: number | null }> };

export type RowCacheUpdatedSubscriptionVariables = Exact<{
  rowId: string | number;
}>;


export type RowCacheUpdatedSubscription = { rowCacheUpdated: { rowId: string, changedAt: number, cached: boolean } };

export type TaskScheduleFieldsFragment = { queue: string, name: string, task: string, args: unknown, priority: TaskPriority, everySeconds: number | null, cron: string | null, timezone: string | null, nextRunAt: number, lastRunAt: number | null, lastTaskId: string | null, missedRuns: number };

export type UpsertTaskScheduleMutationVariables = Exact<{
  queue: string;
  name: string;
  task: string;
  args?: unknown;
  priority?: TaskPriority | null | undefined;
  everySeconds?: number | null | undefined;
  cron?: string | null | undefined;
  timezone?: string | null | undefined;
}>;


export type UpsertTaskScheduleMutation = { upsertTaskSchedule: { queue: string, name: string, task: string, args: unknown, priority: TaskPriority, everySeconds: number | null, cron: string | null, timezone: string | null, nextRunAt: number, lastRunAt: number | null, lastTaskId: string | null, missedRuns: number } };

export type TaskSchedulesQueryVariables = Exact<{
  queue: string;
}>;


export type TaskSchedulesQuery = { taskSchedules: Array<{ queue: string, name: string, task: string, args: unknown, priority: TaskPriority, everySeconds: number | null, cron: string | null, timezone: string | null, nextRunAt: number, lastRunAt: number | null, lastTaskId: string | null, missedRuns: number }> };

export type RemoveTaskScheduleMutationVariables = Exact<{
  queue: string;
  name: string;
}>;


export type RemoveTaskScheduleMutation = { removeTaskSchedule: boolean };

export type TaskFieldsFragment = { id: string, queue: string, name: string, args: unknown, priority: TaskPriority, state: TaskState, runAt: number, attempts: number, maxAttempts: number, result: unknown, error: string | null, createdAt: number, startedAt: number | null, finishedAt: number | null, progress: unknown, backoffMs: number | null, backoff: TaskBackoff, timeoutMs: number | null, retries: number };

export type EnqueueTaskMutationVariables = Exact<{
  queue: string;
  name: string;
  args?: unknown;
  priority?: TaskPriority | null | undefined;
  delayMs?: number | null | undefined;
  idempotencyKey?: string | null | undefined;
  maxAttempts?: number | null | undefined;
  backoffMs?: number | null | undefined;
  backoff?: TaskBackoff | null | undefined;
  timeoutMs?: number | null | undefined;
}>;


export type EnqueueTaskMutation = { enqueueTask: { id: string, queue: string, name: string, args: unknown, priority: TaskPriority, state: TaskState, runAt: number, attempts: number, maxAttempts: number, result: unknown, error: string | null, createdAt: number, startedAt: number | null, finishedAt: number | null, progress: unknown, backoffMs: number | null, backoff: TaskBackoff, timeoutMs: number | null, retries: number } };

export type TaskQueryVariables = Exact<{
  id: string | number;
}>;


export type TaskQuery = { task: { id: string, queue: string, name: string, args: unknown, priority: TaskPriority, state: TaskState, runAt: number, attempts: number, maxAttempts: number, result: unknown, error: string | null, createdAt: number, startedAt: number | null, finishedAt: number | null, progress: unknown, backoffMs: number | null, backoff: TaskBackoff, timeoutMs: number | null, retries: number } | null };

export type QueueStatsQueryVariables = Exact<{
  name: string;
}>;


export type QueueStatsQuery = { queue: { name: string, waitingHigh: number, waitingNormal: number, waitingLow: number, delayed: number, active: number, completed: number, failed: number, cancelled: number } };

export type CancelTaskMutationVariables = Exact<{
  id: string | number;
}>;


export type CancelTaskMutation = { cancelTask: boolean };

export type RescheduleTaskMutationVariables = Exact<{
  id: string | number;
  delayMs: number;
}>;


export type RescheduleTaskMutation = { rescheduleTask: { id: string, queue: string, name: string, args: unknown, priority: TaskPriority, state: TaskState, runAt: number, attempts: number, maxAttempts: number, result: unknown, error: string | null, createdAt: number, startedAt: number | null, finishedAt: number | null, progress: unknown, backoffMs: number | null, backoff: TaskBackoff, timeoutMs: number | null, retries: number } | null };

export type TaskChangedSubscriptionVariables = Exact<{
  id: string | number;
}>;


export type TaskChangedSubscription = { taskChanged: { id: string, state: TaskState, progress: unknown } };

export type EnqueueTasksMutationVariables = Exact<{
  queue: string;
  tasks: Array<TaskInput> | TaskInput;
}>;


export type EnqueueTasksMutation = { enqueueTasks: Array<{ id: string, queue: string, name: string, args: unknown, priority: TaskPriority, state: TaskState, runAt: number, attempts: number, maxAttempts: number, result: unknown, error: string | null, createdAt: number, startedAt: number | null, finishedAt: number | null, progress: unknown, backoffMs: number | null, backoff: TaskBackoff, timeoutMs: number | null, retries: number }> };

export type TasksQueryVariables = Exact<{
  queue: string;
  state: TaskState;
  order?: TaskOrder | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type TasksQuery = { tasks: { hasMore: boolean, cursor: string | null, tasks: Array<{ id: string, queue: string, name: string, args: unknown, priority: TaskPriority, state: TaskState, runAt: number, attempts: number, maxAttempts: number, result: unknown, error: string | null, createdAt: number, startedAt: number | null, finishedAt: number | null, progress: unknown, backoffMs: number | null, backoff: TaskBackoff, timeoutMs: number | null, retries: number }> } };

export type RetryTaskMutationVariables = Exact<{
  id: string | number;
}>;


export type RetryTaskMutation = { retryTask: { id: string, queue: string, name: string, args: unknown, priority: TaskPriority, state: TaskState, runAt: number, attempts: number, maxAttempts: number, result: unknown, error: string | null, createdAt: number, startedAt: number | null, finishedAt: number | null, progress: unknown, backoffMs: number | null, backoff: TaskBackoff, timeoutMs: number | null, retries: number } | null };

export type RemoveTaskMutationVariables = Exact<{
  id: string | number;
}>;


export type RemoveTaskMutation = { removeTask: boolean };

export type PauseQueueMutationVariables = Exact<{
  name: string;
}>;


export type PauseQueueMutation = { pauseQueue: { name: string, paused: boolean, waitingNormal: number, active: number } };

export type ResumeQueueMutationVariables = Exact<{
  name: string;
}>;


export type ResumeQueueMutation = { resumeQueue: { name: string, paused: boolean, waitingNormal: number, active: number } };

export type QueueStateQueryVariables = Exact<{
  name: string;
}>;


export type QueueStateQuery = { queue: { name: string, paused: boolean, waitingHigh: number, waitingNormal: number, waitingLow: number, delayed: number, active: number, completed: number, failed: number, cancelled: number } };

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { viewer: { userId: string, service: boolean, roles: Array<string>, expiresAt: number | null, issuer: string | null } };

export const ChatFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"memberCount"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<ChatFieldsFragment, unknown>;
export const MessageFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"editedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]} as unknown as DocumentNode<MessageFieldsFragment, unknown>;
export const HolderFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Holder"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LeaseHolder"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"owner"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"timeLeftMs"}}]}}]} as unknown as DocumentNode<HolderFragment, unknown>;
export const DirectMessageFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DirectMessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DirectMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}}]}}]} as unknown as DocumentNode<DirectMessageFieldsFragment, unknown>;
export const PushTargetFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PushTargetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PushTarget"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"device"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"registeredAt"}},{"kind":"Field","name":{"kind":"Name","value":"endpointHost"}},{"kind":"Field","name":{"kind":"Name","value":"tokenEnd"}}]}}]} as unknown as DocumentNode<PushTargetFieldsFragment, unknown>;
export const TaskScheduleFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TaskScheduleFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TaskSchedule"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queue"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"task"}},{"kind":"Field","name":{"kind":"Name","value":"args"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"everySeconds"}},{"kind":"Field","name":{"kind":"Name","value":"cron"}},{"kind":"Field","name":{"kind":"Name","value":"timezone"}},{"kind":"Field","name":{"kind":"Name","value":"nextRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastTaskId"}},{"kind":"Field","name":{"kind":"Name","value":"missedRuns"}}]}}]} as unknown as DocumentNode<TaskScheduleFieldsFragment, unknown>;
export const TaskFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TaskFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Task"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"queue"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"args"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"runAt"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"maxAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"backoffMs"}},{"kind":"Field","name":{"kind":"Name","value":"backoff"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"retries"}}]}}]} as unknown as DocumentNode<TaskFieldsFragment, unknown>;
export const AddRecentContactDocument = {"__meta__":{"hash":"sha256:a9d2155d31f7fc3e8a04f11ec84341431c2d7f40e0e225816f0458693dc6b6f2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddRecentContact"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"contact"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addRecentContact"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"contact"},"value":{"kind":"Variable","name":{"kind":"Name","value":"contact"}}}]}]}}]} as unknown as DocumentNode<AddRecentContactMutation, AddRecentContactMutationVariables>;
export const RemoveRecentContactDocument = {"__meta__":{"hash":"sha256:fb316c495f527aebe03084d3b4eb979e2988f252120d93fa9d3f7c1fc8b9d537"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveRecentContact"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"contact"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeRecentContact"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"contact"},"value":{"kind":"Variable","name":{"kind":"Name","value":"contact"}}}]}]}}]} as unknown as DocumentNode<RemoveRecentContactMutation, RemoveRecentContactMutationVariables>;
export const RecentContactsDocument = {"__meta__":{"hash":"sha256:73149d3c15ff4affe34f4a57fe1cdb6e0251f914a84568501d1cc81f4e7621e8"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RecentContacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recentContacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"prefix"},"value":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}]}]}}]} as unknown as DocumentNode<RecentContactsQuery, RecentContactsQueryVariables>;
export const JoinGuildDocument = {"__meta__":{"hash":"sha256:83877fa212cbeea08b1619a5f114e5a1b2bc11dcacddc2979ad0a60575a1436c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"JoinGuild"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"guild"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"user"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"joinGuild"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"guild"},"value":{"kind":"Variable","name":{"kind":"Name","value":"guild"}}},{"kind":"Argument","name":{"kind":"Name","value":"user"},"value":{"kind":"Variable","name":{"kind":"Name","value":"user"}}}]}]}}]} as unknown as DocumentNode<JoinGuildMutation, JoinGuildMutationVariables>;
export const LeaveGuildDocument = {"__meta__":{"hash":"sha256:245b6546e20e625c3feccb4da95d88982d928308d270abbc4ba4dce30954703a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LeaveGuild"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"guild"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"user"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leaveGuild"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"guild"},"value":{"kind":"Variable","name":{"kind":"Name","value":"guild"}}},{"kind":"Argument","name":{"kind":"Name","value":"user"},"value":{"kind":"Variable","name":{"kind":"Name","value":"user"}}}]}]}}]} as unknown as DocumentNode<LeaveGuildMutation, LeaveGuildMutationVariables>;
export const GuildMembersDocument = {"__meta__":{"hash":"sha256:35973b6604357d9fa9cd5c14479ffdd22b788b0ee87b6cfa4caae27f74a9b5f9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GuildMembers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"guild"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"guildMembers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"guild"},"value":{"kind":"Variable","name":{"kind":"Name","value":"guild"}}},{"kind":"Argument","name":{"kind":"Name","value":"prefix"},"value":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}]}]}}]} as unknown as DocumentNode<GuildMembersQuery, GuildMembersQueryVariables>;
export const GuildMemberPageDocument = {"__meta__":{"hash":"sha256:0f0d7151f9a4f35bbd3a895dea64f73d94bf9976b332b063e150d035cf867a9c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GuildMemberPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"guild"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"guildMemberPage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"guild"},"value":{"kind":"Variable","name":{"kind":"Name","value":"guild"}}},{"kind":"Argument","name":{"kind":"Name","value":"prefix"},"value":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"guild"}},{"kind":"Field","name":{"kind":"Name","value":"members"}},{"kind":"Field","name":{"kind":"Name","value":"hasMore"}},{"kind":"Field","name":{"kind":"Name","value":"memberCount"}}]}}]}}]} as unknown as DocumentNode<GuildMemberPageQuery, GuildMemberPageQueryVariables>;
export const MyGuildsDocument = {"__meta__":{"hash":"sha256:82f8e8618e70df59d9816fbb5eb62286a3f4dc40016773f0676d28cf814af11a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MyGuilds"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"user"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"myGuilds"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"user"},"value":{"kind":"Variable","name":{"kind":"Name","value":"user"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"guilds"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"memberCount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"hasMore"}}]}}]}}]} as unknown as DocumentNode<MyGuildsQuery, MyGuildsQueryVariables>;
export const CreateChatDocument = {"__meta__":{"hash":"sha256:766c82d6654a13b7194fc9b90d9bd85743b4fc6ad56382e7f7f5e9fa23b3e39a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateChat"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"members"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"message"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"open"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"retention"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ChatRetentionInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createChat"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"members"},"value":{"kind":"Variable","name":{"kind":"Name","value":"members"}}},{"kind":"Argument","name":{"kind":"Name","value":"message"},"value":{"kind":"Variable","name":{"kind":"Name","value":"message"}}},{"kind":"Argument","name":{"kind":"Name","value":"open"},"value":{"kind":"Variable","name":{"kind":"Name","value":"open"}}},{"kind":"Argument","name":{"kind":"Name","value":"retention"},"value":{"kind":"Variable","name":{"kind":"Name","value":"retention"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChatFields"}},{"kind":"Field","name":{"kind":"Name","value":"members"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"memberCount"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<CreateChatMutation, CreateChatMutationVariables>;
export const SendMessageDocument = {"__meta__":{"hash":"sha256:af4a8d1058fcb84bff13357b418cbf4082321f3b486984aa6b3c18e799a6a6de"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SendMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"message"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"clientMessageId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sendMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"message"},"value":{"kind":"Variable","name":{"kind":"Name","value":"message"}}},{"kind":"Argument","name":{"kind":"Name","value":"clientMessageId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"clientMessageId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MessageFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"editedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]} as unknown as DocumentNode<SendMessageMutation, SendMessageMutationVariables>;
export const FetchPendingMessagesDocument = {"__meta__":{"hash":"sha256:fafb283d5491d37ce189342ee4eac15e827995eb90b9cf397945281dddc226ca"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"FetchPendingMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"device"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fetchPendingMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}},{"kind":"Argument","name":{"kind":"Name","value":"device"},"value":{"kind":"Variable","name":{"kind":"Name","value":"device"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}},{"kind":"Field","name":{"kind":"Name","value":"historyStart"}},{"kind":"Field","name":{"kind":"Name","value":"deviceForgotten"}},{"kind":"Field","name":{"kind":"Name","value":"messages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MessageFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"editedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]} as unknown as DocumentNode<FetchPendingMessagesMutation, FetchPendingMessagesMutationVariables>;
export const PendingMessagesDocument = {"__meta__":{"hash":"sha256:b2017dbaa721d3a068f3e3a0151c0f8e8db1da653c61216129680d5cfe91591d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PendingMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"device"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pendingMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}},{"kind":"Argument","name":{"kind":"Name","value":"device"},"value":{"kind":"Variable","name":{"kind":"Name","value":"device"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}},{"kind":"Field","name":{"kind":"Name","value":"historyStart"}},{"kind":"Field","name":{"kind":"Name","value":"deviceForgotten"}},{"kind":"Field","name":{"kind":"Name","value":"messages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MessageFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"editedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]} as unknown as DocumentNode<PendingMessagesQuery, PendingMessagesQueryVariables>;
export const MarkSeenDocument = {"__meta__":{"hash":"sha256:8b1d7ab44b0dabca75fa3182181dfc6b82d08e89eef71719bccea788eff30c7f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"MarkSeen"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"device"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"markSeen"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"messageId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}}},{"kind":"Argument","name":{"kind":"Name","value":"device"},"value":{"kind":"Variable","name":{"kind":"Name","value":"device"}}}]}]}}]} as unknown as DocumentNode<MarkSeenMutation, MarkSeenMutationVariables>;
export const JoinChatDocument = {"__meta__":{"hash":"sha256:470575ef68b249fd82f1bd7576c6c5cbd8a69fe5af7c4485e0337bb92cc62776"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"JoinChat"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"joinChat"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChatFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"memberCount"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<JoinChatMutation, JoinChatMutationVariables>;
export const AddChatMembersDocument = {"__meta__":{"hash":"sha256:bc42251d890be1711c413a303329cffb15df92da51d3fa5f35a81f066f7b0ef3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddChatMembers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"members"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addChatMembers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"members"},"value":{"kind":"Variable","name":{"kind":"Name","value":"members"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChatFields"}},{"kind":"Field","name":{"kind":"Name","value":"members"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"memberCount"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<AddChatMembersMutation, AddChatMembersMutationVariables>;
export const LeaveChatDocument = {"__meta__":{"hash":"sha256:cbf667173c7b6147bbb56a71a0cef4b1297634605802389702e896b309d5c7e4"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LeaveChat"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leaveChat"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}}]}]}}]} as unknown as DocumentNode<LeaveChatMutation, LeaveChatMutationVariables>;
export const ChatsDocument = {"__meta__":{"hash":"sha256:6cf911d9d886f93423e91421d3e49e8931b2052cbc2d1d0651e248709f97133c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Chats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChatFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"memberCount"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<ChatsQuery, ChatsQueryVariables>;
export const ChatDocument = {"__meta__":{"hash":"sha256:d6719ddb680802abee8982dd5496f06c8befbae7989e30c3c54df3f8764e6b3d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Chat"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chat"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChatFields"}},{"kind":"Field","name":{"kind":"Name","value":"members"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"memberCount"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<ChatQuery, ChatQueryVariables>;
export const InboxChangedDocument = {"__meta__":{"hash":"sha256:cfaffd5674462221db12a3f41e21f802995cd1bb68738e0c78ecd1cc26222578"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"InboxChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inboxChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"mailbox"}},{"kind":"Field","name":{"kind":"Name","value":"waiting"}}]}}]}}]} as unknown as DocumentNode<InboxChangedSubscription, InboxChangedSubscriptionVariables>;
export const MessagesDocument = {"__meta__":{"hash":"sha256:c523269216e595dc6b68ca30ceebd2f2a69c674d8bb95412f31ac7ab19014c93"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Messages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"hasMore"}},{"kind":"Field","name":{"kind":"Name","value":"historyStart"}},{"kind":"Field","name":{"kind":"Name","value":"messages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MessageFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"editedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]} as unknown as DocumentNode<MessagesQuery, MessagesQueryVariables>;
export const EditMessageDocument = {"__meta__":{"hash":"sha256:59a6d3282ac5e0aa881a377579b67e448f4ca33a78db79afa38ca961ff6e932a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"EditMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"message"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"version"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"editMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"messageId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}}},{"kind":"Argument","name":{"kind":"Name","value":"message"},"value":{"kind":"Variable","name":{"kind":"Name","value":"message"}}},{"kind":"Argument","name":{"kind":"Name","value":"version"},"value":{"kind":"Variable","name":{"kind":"Name","value":"version"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MessageFields"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"editedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]} as unknown as DocumentNode<EditMessageMutation, EditMessageMutationVariables>;
export const MessageVersionsDocument = {"__meta__":{"hash":"sha256:587df937c21300b0559a4b770cbbb5a79b39ef754ddf9e192a6d2bbd70c6cfdc"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MessageVersions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]}}]}}]} as unknown as DocumentNode<MessageVersionsQuery, MessageVersionsQueryVariables>;
export const DeleteMessageDocument = {"__meta__":{"hash":"sha256:6972e542382d9b62c0e508b1a6b8903aa16420e7a6f1231eac6ae594c6cd4448"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"messageId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MessageFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"editedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]} as unknown as DocumentNode<DeleteMessageMutation, DeleteMessageMutationVariables>;
export const SetTypingDocument = {"__meta__":{"hash":"sha256:da23558455bbb612c507281beabb4161f11f448f605067e1311c0a8037b04bbe"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetTyping"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"typing"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setTyping"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"typing"},"value":{"kind":"Variable","name":{"kind":"Name","value":"typing"}}}]}]}}]} as unknown as DocumentNode<SetTypingMutation, SetTypingMutationVariables>;
export const RemoveChatMemberDocument = {"__meta__":{"hash":"sha256:f9b9a1faf466c8b2fab66f8974c3b81a81964b17463465ff25de083edb85933a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveChatMember"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"user"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeChatMember"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"user"},"value":{"kind":"Variable","name":{"kind":"Name","value":"user"}}}]}]}}]} as unknown as DocumentNode<RemoveChatMemberMutation, RemoveChatMemberMutationVariables>;
export const SetChatOwnerDocument = {"__meta__":{"hash":"sha256:f2f627cceda31e83eaf78cd2293de88456d7214117650295fadfc01941d05269"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetChatOwner"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"user"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"owner"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setChatOwner"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"user"},"value":{"kind":"Variable","name":{"kind":"Name","value":"user"}}},{"kind":"Argument","name":{"kind":"Name","value":"owner"},"value":{"kind":"Variable","name":{"kind":"Name","value":"owner"}}}]}]}}]} as unknown as DocumentNode<SetChatOwnerMutation, SetChatOwnerMutationVariables>;
export const SetChatRetentionDocument = {"__meta__":{"hash":"sha256:932204db4ed4f830c6bb59d113dc662e0d75b76d4fc7e1c3341823877492de99"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetChatRetention"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"retention"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ChatRetentionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setChatRetention"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"retention"},"value":{"kind":"Variable","name":{"kind":"Name","value":"retention"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"keepMessages"}},{"kind":"Field","name":{"kind":"Name","value":"keepDays"}}]}}]}}]} as unknown as DocumentNode<SetChatRetentionMutation, SetChatRetentionMutationVariables>;
export const ChatDetailsDocument = {"__meta__":{"hash":"sha256:c0ea712719f20c5efeb6e1ca01621cbb9c96c0b0b7a99c9b760149f0fb578bd1"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ChatDetails"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chat"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChatFields"}},{"kind":"Field","name":{"kind":"Name","value":"owner"}},{"kind":"Field","name":{"kind":"Name","value":"typing"}},{"kind":"Field","name":{"kind":"Name","value":"retention"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"keepMessages"}},{"kind":"Field","name":{"kind":"Name","value":"keepDays"}}]}},{"kind":"Field","name":{"kind":"Name","value":"readPositions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"user"}},{"kind":"Field","name":{"kind":"Name","value":"messageId"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"memberCount"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<ChatDetailsQuery, ChatDetailsQueryVariables>;
export const ChatDevicesDocument = {"__meta__":{"hash":"sha256:14af491ddcca34fc69bc90449082c4fcb48ae8bcc6092f0caf73fa4dbf7319e7"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ChatDevices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chatDevices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"lastFetchAt"}},{"kind":"Field","name":{"kind":"Name","value":"forgotten"}}]}}]}}]} as unknown as DocumentNode<ChatDevicesQuery, ChatDevicesQueryVariables>;
export const ChatChangedDocument = {"__meta__":{"hash":"sha256:0a7e5b2c2249fad78c26f9ed1343734a8c79599556305ab4aeb8055fcd2521e9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ChatChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chatChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"user"}},{"kind":"Field","name":{"kind":"Name","value":"messageId"}}]}}]}}]} as unknown as DocumentNode<ChatChangedSubscription, ChatChangedSubscriptionVariables>;
export const SetTypingTwiceDocument = {"__meta__":{"hash":"sha256:8657986e929fd1355fb9bfdfd212fd62954feefae5e156ffa573d016ce0a8ff2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetTypingTwice"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"first"},"name":{"kind":"Name","value":"setTyping"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}}]},{"kind":"Field","alias":{"kind":"Name","value":"second"},"name":{"kind":"Name","value":"setTyping"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}}]}]}}]} as unknown as DocumentNode<SetTypingTwiceMutation, SetTypingTwiceMutationVariables>;
export const UpdateCounterDocument = {"__meta__":{"hash":"sha256:b47ba792b1163576bdd3fee4a55ab2d7283f93cd8a3514690d1638b43b7793e0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateCounter"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"count"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"at"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateCounter"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"count"},"value":{"kind":"Variable","name":{"kind":"Name","value":"count"}}},{"kind":"Argument","name":{"kind":"Name","value":"at"},"value":{"kind":"Variable","name":{"kind":"Name","value":"at"}}}]}]}}]} as unknown as DocumentNode<UpdateCounterMutation, UpdateCounterMutationVariables>;
export const CounterDocument = {"__meta__":{"hash":"sha256:07a043cebc7d10f54a6da3676be784350b285ddda0fa41e2ce4999486dec8fa9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Counter"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"precision"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"counter"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"precision"},"value":{"kind":"Variable","name":{"kind":"Name","value":"precision"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"time"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}}]} as unknown as DocumentNode<CounterQuery, CounterQueryVariables>;
export const CountersDocument = {"__meta__":{"hash":"sha256:c95eadb9fb9de17e6da7d4db09a151f577e513346285463cf4233fd7d5e1cc08"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Counters"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"counters"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"precisions"}}]}}]}}]} as unknown as DocumentNode<CountersQuery, CountersQueryVariables>;
export const CounterUpdatedDocument = {"__meta__":{"hash":"sha256:4af526ad04c90d02ef0bec402a0ab14aad0fcc23c839e62287364c266923243e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"CounterUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"counterUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"time"}}]}}]}}]} as unknown as DocumentNode<CounterUpdatedSubscription, CounterUpdatedSubscriptionVariables>;
export const CounterSeriesDocument = {"__meta__":{"hash":"sha256:3d6f7ef93c3f0b8e157f872a78c0b62a12e34807197a720112219bd3a3f920a9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CounterSeries"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"step"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"aggregation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CounterAggregation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"fill"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CounterFill"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"counterSeries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"step"},"value":{"kind":"Variable","name":{"kind":"Name","value":"step"}}},{"kind":"Argument","name":{"kind":"Name","value":"aggregation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"aggregation"}}},{"kind":"Argument","name":{"kind":"Name","value":"fill"},"value":{"kind":"Variable","name":{"kind":"Name","value":"fill"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"precision"}},{"kind":"Field","name":{"kind":"Name","value":"step"}},{"kind":"Field","name":{"kind":"Name","value":"aggregation"}},{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"end"}},{"kind":"Field","name":{"kind":"Name","value":"retainedFrom"}},{"kind":"Field","name":{"kind":"Name","value":"points"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"time"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}}]} as unknown as DocumentNode<CounterSeriesQuery, CounterSeriesQueryVariables>;
export const CounterSeriesManyDocument = {"__meta__":{"hash":"sha256:442f75a92e9d81d5b025f46ff7aca000a903fac0fb1f6a948a64f551126e42c8"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CounterSeriesMany"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"names"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"step"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"aggregation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CounterAggregation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"fill"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CounterFill"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"counterSeriesMany"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"names"},"value":{"kind":"Variable","name":{"kind":"Name","value":"names"}}},{"kind":"Argument","name":{"kind":"Name","value":"prefix"},"value":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"step"},"value":{"kind":"Variable","name":{"kind":"Name","value":"step"}}},{"kind":"Argument","name":{"kind":"Name","value":"aggregation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"aggregation"}}},{"kind":"Argument","name":{"kind":"Name","value":"fill"},"value":{"kind":"Variable","name":{"kind":"Name","value":"fill"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"precision"}},{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"end"}},{"kind":"Field","name":{"kind":"Name","value":"points"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"time"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}}]} as unknown as DocumentNode<CounterSeriesManyQuery, CounterSeriesManyQueryVariables>;
export const DeleteCounterDocument = {"__meta__":{"hash":"sha256:7b45c614c1d5c135776d255ebeacf6c4b8a6022373aa41c4990a05bcd7d48396"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteCounter"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteCounter"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}]}]}}]} as unknown as DocumentNode<DeleteCounterMutation, DeleteCounterMutationVariables>;
export const AcquireLockDocument = {"__meta__":{"hash":"sha256:4b78c91842569617f60203ca70c745d147042806bf1337360405197f37a4bc12"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AcquireLock"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"acquireTimeoutMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"lockTimeoutMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"acquireLock"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"acquireTimeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"acquireTimeoutMs"}}},{"kind":"Argument","name":{"kind":"Name","value":"lockTimeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"lockTimeoutMs"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<AcquireLockMutation, AcquireLockMutationVariables>;
export const ReleaseLockDocument = {"__meta__":{"hash":"sha256:4536e6bbc596aa5c9dbed4b28ebb715e9d8015de78b14c03661951a7970f27fe"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReleaseLock"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"token"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"releaseLock"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"token"},"value":{"kind":"Variable","name":{"kind":"Name","value":"token"}}}]}]}}]} as unknown as DocumentNode<ReleaseLockMutation, ReleaseLockMutationVariables>;
export const RefreshLockDocument = {"__meta__":{"hash":"sha256:84c21a18599bd48313dce790d79dcf7ef0ddfad5dc14b4d41375b385a05af5ab"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RefreshLock"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"token"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"lockTimeoutMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"refreshLock"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"token"},"value":{"kind":"Variable","name":{"kind":"Name","value":"token"}}},{"kind":"Argument","name":{"kind":"Name","value":"lockTimeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"lockTimeoutMs"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<RefreshLockMutation, RefreshLockMutationVariables>;
export const LockStateDocument = {"__meta__":{"hash":"sha256:74d01b1542967d70e3b0cc96db481f43ccfc77e5420e0b2918949b4bd47e1f9f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LockState"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lock"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"holder"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Holder"}}]}},{"kind":"Field","name":{"kind":"Name","value":"waiting"}},{"kind":"Field","name":{"kind":"Name","value":"lastFencingToken"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Holder"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LeaseHolder"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"owner"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"timeLeftMs"}}]}}]} as unknown as DocumentNode<LockStateQuery, LockStateQueryVariables>;
export const LockReleasedDocument = {"__meta__":{"hash":"sha256:75ab645c89981b3b69776717e269eb69a647f835a1745bbfc67d241831651342"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LockReleased"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lockReleased"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"releasedAt"}}]}}]}}]} as unknown as DocumentNode<LockReleasedSubscription, LockReleasedSubscriptionVariables>;
export const AcquireSemaphoreDocument = {"__meta__":{"hash":"sha256:40e7731aaae77d7693e868a8f99ffe6442ceb1add86b6a7a230dcf8737a80359"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AcquireSemaphore"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"waitMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"acquireSemaphore"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}},{"kind":"Argument","name":{"kind":"Name","value":"timeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}}},{"kind":"Argument","name":{"kind":"Name","value":"waitMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"waitMs"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<AcquireSemaphoreMutation, AcquireSemaphoreMutationVariables>;
export const RefreshSemaphoreDocument = {"__meta__":{"hash":"sha256:81744dc22033298c3cec8c62c4523fc1e80fc1af88f0cde8ecac622e5702a70e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RefreshSemaphore"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"refreshSemaphore"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<RefreshSemaphoreMutation, RefreshSemaphoreMutationVariables>;
export const ReleaseSemaphoreDocument = {"__meta__":{"hash":"sha256:e63f2678bcc9484829c40dbaf1d7e999d1ab1fcfebb5376202fb38be7081399f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReleaseSemaphore"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"releaseSemaphore"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<ReleaseSemaphoreMutation, ReleaseSemaphoreMutationVariables>;
export const SemaphoreStateDocument = {"__meta__":{"hash":"sha256:266c2cf5b333ac644f3a0b3f4dd511c0f02a149f476bf1249a70057c76ecab84"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SemaphoreState"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"semaphore"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"holders"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Holder"}}]}},{"kind":"Field","name":{"kind":"Name","value":"waiting"}},{"kind":"Field","name":{"kind":"Name","value":"lastFencingToken"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Holder"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LeaseHolder"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"owner"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"timeLeftMs"}}]}}]} as unknown as DocumentNode<SemaphoreStateQuery, SemaphoreStateQueryVariables>;
export const SemaphoreReleasedDocument = {"__meta__":{"hash":"sha256:7d48891af78b3a6fa7a2e1f34c9a70239e6bc85fe5e9572006ff2d3f7981e646"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"SemaphoreReleased"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"semaphoreReleased"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"releasedAt"}}]}}]}}]} as unknown as DocumentNode<SemaphoreReleasedSubscription, SemaphoreReleasedSubscriptionVariables>;
export const IpLocationDocument = {"__meta__":{"hash":"sha256:ade6679c9f7549eecda7e5d552fab1153f6d94eed74d93d93da05df315365d54"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"IpLocation"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ip"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ipLocation"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"ip"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ip"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"country"}},{"kind":"Field","name":{"kind":"Name","value":"region"}},{"kind":"Field","name":{"kind":"Name","value":"city"}}]}}]}}]} as unknown as DocumentNode<IpLocationQuery, IpLocationQueryVariables>;
export const CreateLocationDatasetDocument = {"__meta__":{"hash":"sha256:a2180f9977cd62289a61241525420dc3f8a9a46deb21f5ef6f3742ce15080229"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateLocationDataset"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createLocationDataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}]}]}}]} as unknown as DocumentNode<CreateLocationDatasetMutation, CreateLocationDatasetMutationVariables>;
export const LocationDatasetsDocument = {"__meta__":{"hash":"sha256:60057073137ac112052b2b75b9d518c44bfef4b7b7d2e79cc9e9774a8b81d8d8"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LocationDatasets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"locationDatasets"}}]}}]} as unknown as DocumentNode<LocationDatasetsQuery, LocationDatasetsQueryVariables>;
export const AppendLocationLinesDocument = {"__meta__":{"hash":"sha256:b007a3b91839d3480ac4666cb32ce03b2a735731ba4155e4c158d7b62279fd99"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppendLocationLines"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"upload"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"fromLine"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SafeInt"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"lines"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"complete"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"appendLocationLines"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}},{"kind":"Argument","name":{"kind":"Name","value":"upload"},"value":{"kind":"Variable","name":{"kind":"Name","value":"upload"}}},{"kind":"Argument","name":{"kind":"Name","value":"fromLine"},"value":{"kind":"Variable","name":{"kind":"Name","value":"fromLine"}}},{"kind":"Argument","name":{"kind":"Name","value":"lines"},"value":{"kind":"Variable","name":{"kind":"Name","value":"lines"}}},{"kind":"Argument","name":{"kind":"Name","value":"complete"},"value":{"kind":"Variable","name":{"kind":"Name","value":"complete"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lines"}},{"kind":"Field","name":{"kind":"Name","value":"stored"}},{"kind":"Field","name":{"kind":"Name","value":"complete"}}]}}]}}]} as unknown as DocumentNode<AppendLocationLinesMutation, AppendLocationLinesMutationVariables>;
export const LocationUploadDocument = {"__meta__":{"hash":"sha256:5a3360b96ea1a28e2d28a91af2eae48d2e9b114607d6e313337c2ec4b86a5fc2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LocationUpload"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"upload"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"locationUpload"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}},{"kind":"Argument","name":{"kind":"Name","value":"upload"},"value":{"kind":"Variable","name":{"kind":"Name","value":"upload"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"lines"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","name":{"kind":"Name","value":"chunks"}},{"kind":"Field","name":{"kind":"Name","value":"doneChunks"}},{"kind":"Field","name":{"kind":"Name","value":"doneLines"}},{"kind":"Field","name":{"kind":"Name","value":"refused"}},{"kind":"Field","name":{"kind":"Name","value":"complete"}},{"kind":"Field","name":{"kind":"Name","value":"done"}},{"kind":"Field","name":{"kind":"Name","value":"created"}},{"kind":"Field","name":{"kind":"Name","value":"refusedSamples"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"line"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}}]}}]}}]} as unknown as DocumentNode<LocationUploadQuery, LocationUploadQueryVariables>;
export const LocationDaysDocument = {"__meta__":{"hash":"sha256:299d3cc826b2954fd20b2b11960cb1d15a16e6600a2856389b5d181073f2268e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LocationDays"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"locationDays"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}}]}]}}]} as unknown as DocumentNode<LocationDaysQuery, LocationDaysQueryVariables>;
export const LocationTotalsDocument = {"__meta__":{"hash":"sha256:60f9aef16b77ddd3b669404049e0b5b6ce4ee69e0fe262fc95cd0aa21abb4e11"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LocationTotals"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"locationTotals"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"days"}},{"kind":"Field","name":{"kind":"Name","value":"visits"}},{"kind":"Field","name":{"kind":"Name","value":"unknownVisits"}}]}}]}}]} as unknown as DocumentNode<LocationTotalsQuery, LocationTotalsQueryVariables>;
export const TopCountriesDocument = {"__meta__":{"hash":"sha256:87674f997c7d966a571d59187621fba3ceb4cffe82c3fade104b2bf67c058b0a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TopCountries"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"topCountries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"visits"}}]}}]}}]} as unknown as DocumentNode<TopCountriesQuery, TopCountriesQueryVariables>;
export const TopRegionsDocument = {"__meta__":{"hash":"sha256:210158f73070f636a2830341a139fe13bfa54b148c1b91667606e6e76126c2a8"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TopRegions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"country"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"topRegions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}},{"kind":"Argument","name":{"kind":"Name","value":"country"},"value":{"kind":"Variable","name":{"kind":"Name","value":"country"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"visits"}}]}}]}}]} as unknown as DocumentNode<TopRegionsQuery, TopRegionsQueryVariables>;
export const TopCitiesDocument = {"__meta__":{"hash":"sha256:f04293d6c91883b533a116f7832dafacd6565f462b40336674267b06932345ea"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TopCities"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"country"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"region"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"topCities"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}},{"kind":"Argument","name":{"kind":"Name","value":"country"},"value":{"kind":"Variable","name":{"kind":"Name","value":"country"}}},{"kind":"Argument","name":{"kind":"Name","value":"region"},"value":{"kind":"Variable","name":{"kind":"Name","value":"region"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"visits"}}]}}]}}]} as unknown as DocumentNode<TopCitiesQuery, TopCitiesQueryVariables>;
export const PlaceVisitsDocument = {"__meta__":{"hash":"sha256:d718f2a6407e4dfd3aa4b06fe266810eac0cd48380cfe50b2023bf44f1d7e093"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PlaceVisits"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"country"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"region"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"city"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"placeVisits"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}},{"kind":"Argument","name":{"kind":"Name","value":"country"},"value":{"kind":"Variable","name":{"kind":"Name","value":"country"}}},{"kind":"Argument","name":{"kind":"Name","value":"region"},"value":{"kind":"Variable","name":{"kind":"Name","value":"region"}}},{"kind":"Argument","name":{"kind":"Name","value":"city"},"value":{"kind":"Variable","name":{"kind":"Name","value":"city"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"day"}},{"kind":"Field","name":{"kind":"Name","value":"visits"}}]}}]}}]} as unknown as DocumentNode<PlaceVisitsQuery, PlaceVisitsQueryVariables>;
export const ForgetLocationDaysDocument = {"__meta__":{"hash":"sha256:269c8625fb2f3b172369e1f42fe5566ed99701432b4f90478511d376194445a5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ForgetLocationDays"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"forgetLocationDays"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}]}]}}]} as unknown as DocumentNode<ForgetLocationDaysMutation, ForgetLocationDaysMutationVariables>;
export const LocationUploadChangedDocument = {"__meta__":{"hash":"sha256:3894413c6c663eed971ae87fdc7eabecc6167dd62d9c23631febd52f890e30f0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LocationUploadChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"upload"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"locationUploadChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}},{"kind":"Argument","name":{"kind":"Name","value":"upload"},"value":{"kind":"Variable","name":{"kind":"Name","value":"upload"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataset"}},{"kind":"Field","name":{"kind":"Name","value":"upload"}},{"kind":"Field","name":{"kind":"Name","value":"lines"}},{"kind":"Field","name":{"kind":"Name","value":"doneLines"}},{"kind":"Field","name":{"kind":"Name","value":"complete"}}]}}]}}]} as unknown as DocumentNode<LocationUploadChangedSubscription, LocationUploadChangedSubscriptionVariables>;
export const LocationTotalsChangedDocument = {"__meta__":{"hash":"sha256:3f4c91e8816e7cbfc0d74a73f8be958a28f2ef7f824a1a1e44ae55af680fbac2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LocationTotalsChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"locationTotalsChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataset"}},{"kind":"Field","name":{"kind":"Name","value":"day"}}]}}]}}]} as unknown as DocumentNode<LocationTotalsChangedSubscription, LocationTotalsChangedSubscriptionVariables>;
export const SendDirectMessageDocument = {"__meta__":{"hash":"sha256:a03dabd5e116f79ec2a0f3c6e229be8eae21ee444eb8bdfbb784a640425bdd94"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SendDirectMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"message"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sendDirectMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"message"},"value":{"kind":"Variable","name":{"kind":"Name","value":"message"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DirectMessageFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DirectMessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DirectMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}}]}}]} as unknown as DocumentNode<SendDirectMessageMutation, SendDirectMessageMutationVariables>;
export const FetchDirectMessagesDocument = {"__meta__":{"hash":"sha256:01f7fb099ab324a828e7942f07208851dc87bc1aa01af4ae780f6b8ce7929f4a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"FetchDirectMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fetchDirectMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DirectMessageFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DirectMessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DirectMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}}]}}]} as unknown as DocumentNode<FetchDirectMessagesMutation, FetchDirectMessagesMutationVariables>;
export const DirectMessagesDocument = {"__meta__":{"hash":"sha256:f627015992fd34e7fdfe3ed72ec6f10a5f8e14623605a1d6ebef5fbe38bc8f44"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DirectMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"directMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DirectMessageFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DirectMessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DirectMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}}]}}]} as unknown as DocumentNode<DirectMessagesQuery, DirectMessagesQueryVariables>;
export const AckDirectMessagesDocument = {"__meta__":{"hash":"sha256:053112b4ffcb0a303905e8a3b0d462016bae1979c32cd4fae712ba2c28094bb1"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AckDirectMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"upToId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ackDirectMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"upToId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"upToId"}}}]}]}}]} as unknown as DocumentNode<AckDirectMessagesMutation, AckDirectMessagesMutationVariables>;
export const MailboxDocument = {"__meta__":{"hash":"sha256:a208c60440e568c0ba1868b5dee11c9835c4b97ab42279cde66df5ff730a285d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Mailbox"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"user"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"mailbox"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"user"},"value":{"kind":"Variable","name":{"kind":"Name","value":"user"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"user"}},{"kind":"Field","name":{"kind":"Name","value":"waiting"}},{"kind":"Field","name":{"kind":"Name","value":"oldestTs"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}}]}}]}}]} as unknown as DocumentNode<MailboxQuery, MailboxQueryVariables>;
export const GrantItemDocument = {"__meta__":{"hash":"sha256:2631c442ebda864aa6cc767a1a820837cab8f9fee4047828a393fc8d5e98ee5b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"GrantItem"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"userId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"grantItem"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"userId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"userId"}}},{"kind":"Argument","name":{"kind":"Name","value":"itemId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}}}]}]}}]} as unknown as DocumentNode<GrantItemMutation, GrantItemMutationVariables>;
export const GrantFundsDocument = {"__meta__":{"hash":"sha256:1d449688cc47ebae1a6c136db29a68d7d40b00b8e1c9c486ce298e7aae78d5c4"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"GrantFunds"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"userId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"amount"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"grantFunds"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"userId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"userId"}}},{"kind":"Argument","name":{"kind":"Name","value":"amount"},"value":{"kind":"Variable","name":{"kind":"Name","value":"amount"}}}]}]}}]} as unknown as DocumentNode<GrantFundsMutation, GrantFundsMutationVariables>;
export const ListItemDocument = {"__meta__":{"hash":"sha256:4d6ce380d2143025b949c89c0b17ce37272cc5fe798d49929cb4d17cd657d440"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ListItem"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"price"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"listItem"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"itemId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}}},{"kind":"Argument","name":{"kind":"Name","value":"price"},"value":{"kind":"Variable","name":{"kind":"Name","value":"price"}}}]}]}}]} as unknown as DocumentNode<ListItemMutation, ListItemMutationVariables>;
export const PurchaseItemDocument = {"__meta__":{"hash":"sha256:8612b3dfc7c3e4d05653ad2cd0f58bd53971d8b5d43b8d3dd97bf6eb42a84f26"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PurchaseItem"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sellerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"price"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"purchaseItem"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"itemId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}}},{"kind":"Argument","name":{"kind":"Name","value":"sellerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sellerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"price"},"value":{"kind":"Variable","name":{"kind":"Name","value":"price"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"sellerId"}},{"kind":"Field","name":{"kind":"Name","value":"listedPrice"}},{"kind":"Field","name":{"kind":"Name","value":"funds"}}]}}]}}]} as unknown as DocumentNode<PurchaseItemMutation, PurchaseItemMutationVariables>;
export const MarketDocument = {"__meta__":{"hash":"sha256:0e762b2e497f9f53e84c0fb986813cac9ffa33ba6a9fc7f5d82cb0d25533f46d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Market"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"market"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"sellerId"}},{"kind":"Field","name":{"kind":"Name","value":"price"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}}]}}]}}]} as unknown as DocumentNode<MarketQuery, MarketQueryVariables>;
export const InventoryDocument = {"__meta__":{"hash":"sha256:7d5345d6cac46475a09e06b0cf02eae669e7dd0ae6ea67775f3823ffb675b7cd"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Inventory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inventory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}]}]}}]} as unknown as DocumentNode<InventoryQuery, InventoryQueryVariables>;
export const MeDocument = {"__meta__":{"hash":"sha256:bb1a548f0395d4a78071b2a2241964b8df033248242e361e790e4f72433f503f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"funds"}},{"kind":"Field","name":{"kind":"Name","value":"items"}}]}}]}}]} as unknown as DocumentNode<MeQuery, MeQueryVariables>;
export const DelistItemDocument = {"__meta__":{"hash":"sha256:0ed81548ab1d0ea7c2c35106790182b04675e2e457db21e1ace707d366482c5e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DelistItem"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"delistItem"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"itemId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}}}]}]}}]} as unknown as DocumentNode<DelistItemMutation, DelistItemMutationVariables>;
export const RepriceItemDocument = {"__meta__":{"hash":"sha256:3f325118d0948442abb747ef07a94b632c256bb2a27ef04771c8a9445ab691fd"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RepriceItem"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"price"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"repriceItem"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"itemId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}}},{"kind":"Argument","name":{"kind":"Name","value":"price"},"value":{"kind":"Variable","name":{"kind":"Name","value":"price"}}}]}]}}]} as unknown as DocumentNode<RepriceItemMutation, RepriceItemMutationVariables>;
export const PurchaseItemSaleDocument = {"__meta__":{"hash":"sha256:2c5ebb9823a24a9e7e85f6b6841db8756ea7906991435b998d8126e3191a5722"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PurchaseItemSale"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sellerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"price"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"purchaseItem"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"itemId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}}},{"kind":"Argument","name":{"kind":"Name","value":"sellerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sellerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"price"},"value":{"kind":"Variable","name":{"kind":"Name","value":"price"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"saleId"}}]}}]}}]} as unknown as DocumentNode<PurchaseItemSaleMutation, PurchaseItemSaleMutationVariables>;
export const MySalesDocument = {"__meta__":{"hash":"sha256:10ff64ffe682a896b652c3ca43c314a5af69e7cb29adaa9b3896ca0a29c1a803"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MySales"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SafeInt"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"mySales"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"saleId"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"buyerId"}},{"kind":"Field","name":{"kind":"Name","value":"price"}},{"kind":"Field","name":{"kind":"Name","value":"soldAt"}}]}}]}}]} as unknown as DocumentNode<MySalesQuery, MySalesQueryVariables>;
export const MarketChangedDocument = {"__meta__":{"hash":"sha256:d10ca1889d85363dbf40d7c2fd6060e61aa457d9e984b8b61540052c3f326705"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"MarketChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"marketChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"sellerId"}},{"kind":"Field","name":{"kind":"Name","value":"price"}}]}}]}}]} as unknown as DocumentNode<MarketChangedSubscription, MarketChangedSubscriptionVariables>;
export const SellerInboxDocument = {"__meta__":{"hash":"sha256:a946d9fa3d4e24310f3c5a437d8f8bd1b2b936abcdcdc9d1d9d6930f075626a5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"SellerInbox"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inboxChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sales"},"value":{"kind":"BooleanValue","value":true}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"saleId"}},{"kind":"Field","name":{"kind":"Name","value":"mailbox"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}}]}}]}}]} as unknown as DocumentNode<SellerInboxSubscription, SellerInboxSubscriptionVariables>;
export const SetPushTargetDocument = {"__meta__":{"hash":"sha256:b08668007bcf03d768742722f906344b26f8c04ba3b1bc5df55312c348db8d61"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetPushTarget"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"device"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"webPush"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"WebPushSubscriptionInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"apns"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ApnsTokenInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"fcm"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"FcmTokenInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setPushTarget"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"device"},"value":{"kind":"Variable","name":{"kind":"Name","value":"device"}}},{"kind":"Argument","name":{"kind":"Name","value":"webPush"},"value":{"kind":"Variable","name":{"kind":"Name","value":"webPush"}}},{"kind":"Argument","name":{"kind":"Name","value":"apns"},"value":{"kind":"Variable","name":{"kind":"Name","value":"apns"}}},{"kind":"Argument","name":{"kind":"Name","value":"fcm"},"value":{"kind":"Variable","name":{"kind":"Name","value":"fcm"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PushTargetFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PushTargetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PushTarget"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"device"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"registeredAt"}},{"kind":"Field","name":{"kind":"Name","value":"endpointHost"}},{"kind":"Field","name":{"kind":"Name","value":"tokenEnd"}}]}}]} as unknown as DocumentNode<SetPushTargetMutation, SetPushTargetMutationVariables>;
export const RemovePushTargetDocument = {"__meta__":{"hash":"sha256:444d0391a0c5bc4f8b04ba66b1de532ad2fba5b3b87dac1d9be1b2f5ad795285"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemovePushTarget"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"device"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removePushTarget"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"device"},"value":{"kind":"Variable","name":{"kind":"Name","value":"device"}}}]}]}}]} as unknown as DocumentNode<RemovePushTargetMutation, RemovePushTargetMutationVariables>;
export const PushTargetsDocument = {"__meta__":{"hash":"sha256:22a723ebe63d0164a4ba43ac52e5d1240db0f1ed345a24f032220e7076c977cc"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PushTargets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pushTargets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PushTargetFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PushTargetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PushTarget"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"device"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"registeredAt"}},{"kind":"Field","name":{"kind":"Name","value":"endpointHost"}},{"kind":"Field","name":{"kind":"Name","value":"tokenEnd"}}]}}]} as unknown as DocumentNode<PushTargetsQuery, PushTargetsQueryVariables>;
export const PushProvidersDocument = {"__meta__":{"hash":"sha256:5f75f2f3e06328e164f86442bb352b44e4265dba1a083e68a43259d266a74b70"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PushProviders"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pushProviders"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kinds"}},{"kind":"Field","name":{"kind":"Name","value":"webPushPublicKey"}}]}}]}}]} as unknown as DocumentNode<PushProvidersQuery, PushProvidersQueryVariables>;
export const ScheduleRowCacheDocument = {"__meta__":{"hash":"sha256:c8d4a56c241c4b68d3f1997580d7bd154bec099e12e62717e472eba301bf80b3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ScheduleRowCache"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"rowId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"delaySeconds"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scheduleRowCache"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"rowId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"rowId"}}},{"kind":"Argument","name":{"kind":"Name","value":"delaySeconds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"delaySeconds"}}}]}]}}]} as unknown as DocumentNode<ScheduleRowCacheMutation, ScheduleRowCacheMutationVariables>;
export const CachedRowDocument = {"__meta__":{"hash":"sha256:8f85ba6131eb2cadae721c10a80aeab1d05627f65e61030e1abb471e750dd445"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CachedRow"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"rowId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cachedRow"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"rowId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"rowId"}}}]}]}}]} as unknown as DocumentNode<CachedRowQuery, CachedRowQueryVariables>;
export const CachedRowsDocument = {"__meta__":{"hash":"sha256:b6585e01c2b4215dc8b2f9b6cd649cf8d7fa950d19ba4a496231f81b8e28ee6f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CachedRows"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"rowIds"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cachedRows"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"rowIds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"rowIds"}}}]}]}}]} as unknown as DocumentNode<CachedRowsQuery, CachedRowsQueryVariables>;
export const RowCacheScheduleDocument = {"__meta__":{"hash":"sha256:95bb804de6efff4c903841885a1eddd1de3d2e4e07e190f40b5fe0f001e6d396"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RowCacheSchedule"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rowCacheSchedule"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rowId"}},{"kind":"Field","name":{"kind":"Name","value":"delaySeconds"}},{"kind":"Field","name":{"kind":"Name","value":"nextRefreshAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastRefreshedAt"}}]}}]}}]} as unknown as DocumentNode<RowCacheScheduleQuery, RowCacheScheduleQueryVariables>;
export const RowCacheUpdatedDocument = {"__meta__":{"hash":"sha256:d355e326007f3e5ad74ebfa7d13758f38667c201753ccde85619d57e4b8a043a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"RowCacheUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"rowId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rowCacheUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"rowId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"rowId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rowId"}},{"kind":"Field","name":{"kind":"Name","value":"changedAt"}},{"kind":"Field","name":{"kind":"Name","value":"cached"}}]}}]}}]} as unknown as DocumentNode<RowCacheUpdatedSubscription, RowCacheUpdatedSubscriptionVariables>;
export const UpsertTaskScheduleDocument = {"__meta__":{"hash":"sha256:6c9c162bb4f85aa0ad705546dd0e39e785eacf21217b0660cd83c1d45b2b6851"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpsertTaskSchedule"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"queue"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"task"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"args"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"JSON"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"priority"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TaskPriority"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"everySeconds"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"cron"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timezone"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"upsertTaskSchedule"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"queue"},"value":{"kind":"Variable","name":{"kind":"Name","value":"queue"}}},{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"task"},"value":{"kind":"Variable","name":{"kind":"Name","value":"task"}}},{"kind":"Argument","name":{"kind":"Name","value":"args"},"value":{"kind":"Variable","name":{"kind":"Name","value":"args"}}},{"kind":"Argument","name":{"kind":"Name","value":"priority"},"value":{"kind":"Variable","name":{"kind":"Name","value":"priority"}}},{"kind":"Argument","name":{"kind":"Name","value":"everySeconds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"everySeconds"}}},{"kind":"Argument","name":{"kind":"Name","value":"cron"},"value":{"kind":"Variable","name":{"kind":"Name","value":"cron"}}},{"kind":"Argument","name":{"kind":"Name","value":"timezone"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timezone"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TaskScheduleFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TaskScheduleFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TaskSchedule"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queue"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"task"}},{"kind":"Field","name":{"kind":"Name","value":"args"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"everySeconds"}},{"kind":"Field","name":{"kind":"Name","value":"cron"}},{"kind":"Field","name":{"kind":"Name","value":"timezone"}},{"kind":"Field","name":{"kind":"Name","value":"nextRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastTaskId"}},{"kind":"Field","name":{"kind":"Name","value":"missedRuns"}}]}}]} as unknown as DocumentNode<UpsertTaskScheduleMutation, UpsertTaskScheduleMutationVariables>;
export const TaskSchedulesDocument = {"__meta__":{"hash":"sha256:399ea89417eefa6a32c0ef20cd6f53bd4a9cd102c7d98ca2045fed180dbdef30"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TaskSchedules"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"queue"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"taskSchedules"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"queue"},"value":{"kind":"Variable","name":{"kind":"Name","value":"queue"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TaskScheduleFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TaskScheduleFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TaskSchedule"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queue"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"task"}},{"kind":"Field","name":{"kind":"Name","value":"args"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"everySeconds"}},{"kind":"Field","name":{"kind":"Name","value":"cron"}},{"kind":"Field","name":{"kind":"Name","value":"timezone"}},{"kind":"Field","name":{"kind":"Name","value":"nextRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastTaskId"}},{"kind":"Field","name":{"kind":"Name","value":"missedRuns"}}]}}]} as unknown as DocumentNode<TaskSchedulesQuery, TaskSchedulesQueryVariables>;
export const RemoveTaskScheduleDocument = {"__meta__":{"hash":"sha256:e456ee4ca56762b5b67d080912718cb9df8fbffabb6a162aa7ef729749c07d49"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveTaskSchedule"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"queue"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeTaskSchedule"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"queue"},"value":{"kind":"Variable","name":{"kind":"Name","value":"queue"}}},{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}]}]}}]} as unknown as DocumentNode<RemoveTaskScheduleMutation, RemoveTaskScheduleMutationVariables>;
export const EnqueueTaskDocument = {"__meta__":{"hash":"sha256:f9adcf24868cb2340a4dd8e3518b457d639718729b6fa13a80113e25ee80dbb0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"EnqueueTask"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"queue"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"args"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"JSON"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"priority"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TaskPriority"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"delayMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"maxAttempts"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"backoffMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"backoff"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TaskBackoff"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enqueueTask"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"queue"},"value":{"kind":"Variable","name":{"kind":"Name","value":"queue"}}},{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"args"},"value":{"kind":"Variable","name":{"kind":"Name","value":"args"}}},{"kind":"Argument","name":{"kind":"Name","value":"priority"},"value":{"kind":"Variable","name":{"kind":"Name","value":"priority"}}},{"kind":"Argument","name":{"kind":"Name","value":"delayMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"delayMs"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}},{"kind":"Argument","name":{"kind":"Name","value":"maxAttempts"},"value":{"kind":"Variable","name":{"kind":"Name","value":"maxAttempts"}}},{"kind":"Argument","name":{"kind":"Name","value":"backoffMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"backoffMs"}}},{"kind":"Argument","name":{"kind":"Name","value":"backoff"},"value":{"kind":"Variable","name":{"kind":"Name","value":"backoff"}}},{"kind":"Argument","name":{"kind":"Name","value":"timeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TaskFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TaskFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Task"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"queue"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"args"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"runAt"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"maxAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"backoffMs"}},{"kind":"Field","name":{"kind":"Name","value":"backoff"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"retries"}}]}}]} as unknown as DocumentNode<EnqueueTaskMutation, EnqueueTaskMutationVariables>;
export const TaskDocument = {"__meta__":{"hash":"sha256:7684bae9d93c72502888e334fae7b308cd69bc583716b8f64a12c7c366e02d76"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Task"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"task"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TaskFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TaskFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Task"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"queue"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"args"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"runAt"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"maxAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"backoffMs"}},{"kind":"Field","name":{"kind":"Name","value":"backoff"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"retries"}}]}}]} as unknown as DocumentNode<TaskQuery, TaskQueryVariables>;
export const QueueStatsDocument = {"__meta__":{"hash":"sha256:b8331a73adcaecc93bae5c17ba83820744702a848473a5504e30228b3df6f8d7"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"QueueStats"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"waitingHigh"}},{"kind":"Field","name":{"kind":"Name","value":"waitingNormal"}},{"kind":"Field","name":{"kind":"Name","value":"waitingLow"}},{"kind":"Field","name":{"kind":"Name","value":"delayed"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"completed"}},{"kind":"Field","name":{"kind":"Name","value":"failed"}},{"kind":"Field","name":{"kind":"Name","value":"cancelled"}}]}}]}}]} as unknown as DocumentNode<QueueStatsQuery, QueueStatsQueryVariables>;
export const CancelTaskDocument = {"__meta__":{"hash":"sha256:d1187bf4f59f24bfe19ac319519809b0a6725d6455747146c618532fe7fd04d2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CancelTask"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cancelTask"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<CancelTaskMutation, CancelTaskMutationVariables>;
export const RescheduleTaskDocument = {"__meta__":{"hash":"sha256:a7a04d0afb3253e4f749fe742b7c893cd5d2695d8c052f1bc39adb7a63d68cdf"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RescheduleTask"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"delayMs"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rescheduleTask"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"delayMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"delayMs"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TaskFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TaskFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Task"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"queue"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"args"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"runAt"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"maxAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"backoffMs"}},{"kind":"Field","name":{"kind":"Name","value":"backoff"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"retries"}}]}}]} as unknown as DocumentNode<RescheduleTaskMutation, RescheduleTaskMutationVariables>;
export const TaskChangedDocument = {"__meta__":{"hash":"sha256:2f945a36470e6eaba28eb9697fe4af693e341b4a9be7cb83c9a50d50b37abe97"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"TaskChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"taskChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}}]}}]}}]} as unknown as DocumentNode<TaskChangedSubscription, TaskChangedSubscriptionVariables>;
export const EnqueueTasksDocument = {"__meta__":{"hash":"sha256:bc88df0e46cfc98d25a8e8c09715b1e03dd12a49f47644643dd9aadd16459aae"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"EnqueueTasks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"queue"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tasks"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TaskInput"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enqueueTasks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"queue"},"value":{"kind":"Variable","name":{"kind":"Name","value":"queue"}}},{"kind":"Argument","name":{"kind":"Name","value":"tasks"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tasks"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TaskFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TaskFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Task"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"queue"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"args"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"runAt"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"maxAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"backoffMs"}},{"kind":"Field","name":{"kind":"Name","value":"backoff"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"retries"}}]}}]} as unknown as DocumentNode<EnqueueTasksMutation, EnqueueTasksMutationVariables>;
export const TasksDocument = {"__meta__":{"hash":"sha256:5ad3b3c6e6ad9d633577b7b2a09de588441b50c75cbf2383b01a8a2a2f16312b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Tasks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"queue"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"state"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TaskState"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"order"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TaskOrder"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tasks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"queue"},"value":{"kind":"Variable","name":{"kind":"Name","value":"queue"}}},{"kind":"Argument","name":{"kind":"Name","value":"state"},"value":{"kind":"Variable","name":{"kind":"Name","value":"state"}}},{"kind":"Argument","name":{"kind":"Name","value":"order"},"value":{"kind":"Variable","name":{"kind":"Name","value":"order"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tasks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TaskFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"hasMore"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TaskFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Task"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"queue"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"args"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"runAt"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"maxAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"backoffMs"}},{"kind":"Field","name":{"kind":"Name","value":"backoff"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"retries"}}]}}]} as unknown as DocumentNode<TasksQuery, TasksQueryVariables>;
export const RetryTaskDocument = {"__meta__":{"hash":"sha256:0ed179581fb4b7f69d6653c04edc791b983ba55bef52b9020d06bbd0726d36ad"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RetryTask"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryTask"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TaskFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TaskFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Task"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"queue"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"args"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"runAt"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"maxAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"backoffMs"}},{"kind":"Field","name":{"kind":"Name","value":"backoff"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"retries"}}]}}]} as unknown as DocumentNode<RetryTaskMutation, RetryTaskMutationVariables>;
export const RemoveTaskDocument = {"__meta__":{"hash":"sha256:2440a010c35a9974e6636c20b5739002ec03459a7875cd2c111bbe0ce8dd7859"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveTask"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeTask"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<RemoveTaskMutation, RemoveTaskMutationVariables>;
export const PauseQueueDocument = {"__meta__":{"hash":"sha256:945cfa9e85ff8885ac638ce54fbf5c17b4749f08629c4f4cdb1d5d296cd41d89"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PauseQueue"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pauseQueue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"paused"}},{"kind":"Field","name":{"kind":"Name","value":"waitingNormal"}},{"kind":"Field","name":{"kind":"Name","value":"active"}}]}}]}}]} as unknown as DocumentNode<PauseQueueMutation, PauseQueueMutationVariables>;
export const ResumeQueueDocument = {"__meta__":{"hash":"sha256:7f6cd62a1102c133c10d9e79bde6e40e3e73918c6181801c91add7be40538f6d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ResumeQueue"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resumeQueue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"paused"}},{"kind":"Field","name":{"kind":"Name","value":"waitingNormal"}},{"kind":"Field","name":{"kind":"Name","value":"active"}}]}}]}}]} as unknown as DocumentNode<ResumeQueueMutation, ResumeQueueMutationVariables>;
export const QueueStateDocument = {"__meta__":{"hash":"sha256:868af92c4774536f85e142c42d34514a87e5cad75ef8d7e881c37f58dee53969"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"QueueState"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"paused"}},{"kind":"Field","name":{"kind":"Name","value":"waitingHigh"}},{"kind":"Field","name":{"kind":"Name","value":"waitingNormal"}},{"kind":"Field","name":{"kind":"Name","value":"waitingLow"}},{"kind":"Field","name":{"kind":"Name","value":"delayed"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"completed"}},{"kind":"Field","name":{"kind":"Name","value":"failed"}},{"kind":"Field","name":{"kind":"Name","value":"cancelled"}}]}}]}}]} as unknown as DocumentNode<QueueStateQuery, QueueStateQueryVariables>;
export const ViewerDocument = {"__meta__":{"hash":"sha256:1e6535924ec2adf545e70bff3fadc11c2379b44758a6df0de4b6f23130396612"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"service"}},{"kind":"Field","name":{"kind":"Name","value":"roles"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"issuer"}}]}}]}}]} as unknown as DocumentNode<ViewerQuery, ViewerQueryVariables>;