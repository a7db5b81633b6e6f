/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
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

/** Per step, over its slices of the chosen precision, a slice without a sample counting as 0: SUM of the counts; AVG = SUM / slices per step (step / precision); MIN and MAX of the slices; COUNT of the slices that hold a sample. */
export type CounterAggregation =
  | 'AVG'
  | 'COUNT'
  | 'MAX'
  | 'MIN'
  | 'SUM';

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

export type AppChatFieldsFragment = { __typename: 'Chat', id: string, open: boolean, members: Array<string>, latestMessageId: number, seenMessageId: number, unreadCount: number };

export type AppEntryFieldsFragment = { __typename: 'ChatMessage', id: number, chatId: string, sender: string, message: string, ts: number, kind: ChatEntryKind, target: number | null, editedAt: number | null, deleted: boolean };

export type AppChatsQueryVariables = Exact<{ [key: string]: never; }>;


export type AppChatsQuery = { __typename: 'Query', chats: Array<{ __typename: 'Chat', id: string, open: boolean, members: Array<string>, latestMessageId: number, seenMessageId: number, unreadCount: number }> };

export type AppChatPreviewQueryVariables = Exact<{
  chatId: string | number;
  before: number;
}>;


export type AppChatPreviewQuery = { __typename: 'Query', messages: { __typename: 'ChatMessagePage', chatId: string, messages: Array<{ __typename: 'ChatMessage', sender: string, message: string, ts: number, kind: ChatEntryKind, deleted: boolean }> } };

export type AppChatDetailsQueryVariables = Exact<{
  chatId: string | number;
}>;


export type AppChatDetailsQuery = { __typename: 'Query', chat: { __typename: 'Chat', typing: Array<string>, id: string, open: boolean, members: Array<string>, latestMessageId: number, seenMessageId: number, unreadCount: number, readPositions: Array<{ __typename: 'ChatReadPosition', user: string, messageId: number }> } | null };

export type AppMessagesQueryVariables = Exact<{
  chatId: string | number;
  before?: number | null | undefined;
  last?: number | null | undefined;
}>;


export type AppMessagesQuery = { __typename: 'Query', messages: { __typename: 'ChatMessagePage', chatId: string, hasMore: boolean, historyStart: number, messages: Array<{ __typename: 'ChatMessage', id: number, chatId: string, sender: string, message: string, ts: number, kind: ChatEntryKind, target: number | null, editedAt: number | null, deleted: boolean }> } };

export type AppPendingMessagesQueryVariables = Exact<{
  device: string | number;
  limit?: number | null | undefined;
}>;


export type AppPendingMessagesQuery = { __typename: 'Query', pendingMessages: Array<{ __typename: 'PendingChat', chatId: string, remaining: number, historyStart: number, deviceForgotten: boolean, messages: Array<{ __typename: 'ChatMessage', id: number, chatId: string, sender: string, message: string, ts: number, kind: ChatEntryKind, target: number | null, editedAt: number | null, deleted: boolean }> }> };

export type AppChatDevicesQueryVariables = Exact<{ [key: string]: never; }>;


export type AppChatDevicesQuery = { __typename: 'Query', chatDevices: Array<{ __typename: 'ChatDevice', id: string, lastFetchAt: number, forgotten: boolean }> };

export type AppCreateChatMutationVariables = Exact<{
  members: Array<string | number> | string | number;
  message: string;
  open?: boolean | null | undefined;
}>;


export type AppCreateChatMutation = { __typename: 'Mutation', createChat: { __typename: 'Chat', id: string, open: boolean, members: Array<string>, latestMessageId: number, seenMessageId: number, unreadCount: number } };

export type AppSendMessageMutationVariables = Exact<{
  chatId: string | number;
  message: string;
  clientMessageId?: string | number | null | undefined;
}>;


export type AppSendMessageMutation = { __typename: 'Mutation', sendMessage: { __typename: 'ChatMessage', id: number, chatId: string, sender: string, message: string, ts: number, kind: ChatEntryKind, target: number | null, editedAt: number | null, deleted: boolean } };

export type AppEditMessageMutationVariables = Exact<{
  chatId: string | number;
  messageId: number;
  message: string;
}>;


export type AppEditMessageMutation = { __typename: 'Mutation', editMessage: { __typename: 'ChatMessage', id: number, chatId: string, sender: string, message: string, ts: number, kind: ChatEntryKind, target: number | null, editedAt: number | null, deleted: boolean } };

export type AppDeleteMessageMutationVariables = Exact<{
  chatId: string | number;
  messageId: number;
}>;


export type AppDeleteMessageMutation = { __typename: 'Mutation', deleteMessage: { __typename: 'ChatMessage', id: number, chatId: string, sender: string, message: string, ts: number, kind: ChatEntryKind, target: number | null, editedAt: number | null, deleted: boolean } };

export type AppMarkSeenMutationVariables = Exact<{
  chatId: string | number;
  messageId: number;
  device: string | number;
}>;


export type AppMarkSeenMutation = { __typename: 'Mutation', markSeen: boolean };

export type AppSetTypingMutationVariables = Exact<{
  chatId: string | number;
  typing?: boolean | null | undefined;
}>;


export type AppSetTypingMutation = { __typename: 'Mutation', setTyping: boolean };

export type AppInboxChangedSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type AppInboxChangedSubscription = { inboxChanged: { __typename: 'InboxNotification', chatId: string | null, latestMessageId: number | null, mailbox: boolean, catchUp: boolean } };

export type AppChatChangedSubscriptionVariables = Exact<{
  chatId: string | number;
}>;


export type AppChatChangedSubscription = { chatChanged: { __typename: 'ChatChange', chatId: string, change: ChatChangeKind, user: string | null, messageId: number | null, catchUp: boolean } };

export type AppCountersQueryVariables = Exact<{
  after?: string | null | undefined;
  first?: number | null | undefined;
}>;


export type AppCountersQuery = { __typename: 'Query', counters: Array<{ __typename: 'KnownCounter', name: string, precisions: Array<number> }> };

export type AppCounterSeriesQueryVariables = Exact<{
  names?: Array<string> | string | null | undefined;
  prefix?: string | null | undefined;
  first?: number | null | undefined;
  from: number;
  step: number;
  aggregation?: CounterAggregation | null | undefined;
}>;


export type AppCounterSeriesQuery = { __typename: 'Query', counterSeriesMany: Array<{ __typename: 'CounterSeries', name: string, precision: number, step: number, aggregation: CounterAggregation, start: number, end: number, retainedFrom: number, points: Array<{ __typename: 'CounterPoint', time: number, value: number }> }> };

export type AppCounterUpdatedSubscriptionVariables = Exact<{
  name: string;
}>;


export type AppCounterUpdatedSubscription = { counterUpdated: { __typename: 'CounterUpdate', name: string, time: number } };

export type AppUpdateCounterMutationVariables = Exact<{
  name: string;
  count?: number | null | undefined;
}>;


export type AppUpdateCounterMutation = { __typename: 'Mutation', updateCounter: boolean };

export type AppLockQueryVariables = Exact<{
  name: string;
}>;


export type AppLockQuery = { __typename: 'Query', lock: { __typename: 'LockState', name: string, waiting: number, lastFencingToken: number | null, holder: { __typename: 'LeaseHolder', fencingToken: number, owner: string, expiresAt: number, timeLeftMs: number } | null } };

export type AppSemaphoreQueryVariables = Exact<{
  name: string;
}>;


export type AppSemaphoreQuery = { __typename: 'Query', semaphore: { __typename: 'SemaphoreState', name: string, limit: number | null, waiting: number, lastFencingToken: number | null, holders: Array<{ __typename: 'LeaseHolder', fencingToken: number, owner: string, expiresAt: number, timeLeftMs: number }> } };

export type AppAcquireLockMutationVariables = Exact<{
  name: string;
  acquireTimeoutMs: number;
  lockTimeoutMs: number;
}>;


export type AppAcquireLockMutation = { __typename: 'Mutation', acquireLock: { __typename: 'Lock', name: string, token: string, fencingToken: number, expiresAt: number } | null };

export type AppRefreshLockMutationVariables = Exact<{
  name: string;
  token: string;
}>;


export type AppRefreshLockMutation = { __typename: 'Mutation', refreshLock: { __typename: 'Lock', name: string, token: string, fencingToken: number, expiresAt: number } | null };

export type AppReleaseLockMutationVariables = Exact<{
  name: string;
  token: string;
}>;


export type AppReleaseLockMutation = { __typename: 'Mutation', releaseLock: boolean };

export type AppAcquireSemaphoreMutationVariables = Exact<{
  name: string;
  limit: number;
  timeoutMs: number;
  waitMs: number;
}>;


export type AppAcquireSemaphoreMutation = { __typename: 'Mutation', acquireSemaphore: { __typename: 'SemaphoreLease', name: string, id: string, fencingToken: number, expiresAt: number } | null };

export type AppRefreshSemaphoreMutationVariables = Exact<{
  name: string;
  id: string;
}>;


export type AppRefreshSemaphoreMutation = { __typename: 'Mutation', refreshSemaphore: { __typename: 'SemaphoreLease', name: string, id: string, fencingToken: number, expiresAt: number } | null };

export type AppReleaseSemaphoreMutationVariables = Exact<{
  name: string;
  id: string;
}>;


export type AppReleaseSemaphoreMutation = { __typename: 'Mutation', releaseSemaphore: boolean };

export type AppLockReleasedSubscriptionVariables = Exact<{
  name: string;
}>;


export type AppLockReleasedSubscription = { lockReleased: { __typename: 'LeaseReleased', name: string, releasedAt: number } };

export type AppSemaphoreReleasedSubscriptionVariables = Exact<{
  name: string;
}>;


export type AppSemaphoreReleasedSubscription = { semaphoreReleased: { __typename: 'LeaseReleased', name: string, releasedAt: number } };

export type AppLocationDatasetsQueryVariables = Exact<{ [key: string]: never; }>;


export type AppLocationDatasetsQuery = { __typename: 'Query', locationDatasets: Array<string> };

export type AppLocationDaysQueryVariables = Exact<{
  dataset: string;
}>;


export type AppLocationDaysQuery = { __typename: 'Query', locationDays: Array<string> };

export type AppLocationDayQueryVariables = Exact<{
  dataset: string;
  day: string;
  limit: number;
}>;


export type AppLocationDayQuery = { __typename: 'Query', locationTotals: { __typename: 'LocationTotals', days: number, visits: number, unknownVisits: number }, topCountries: Array<{ __typename: 'PlaceVisits', name: string, visits: number }> };

export type AppLocationRegionsQueryVariables = Exact<{
  dataset: string;
  day: string;
  country: string;
  limit: number;
}>;


export type AppLocationRegionsQuery = { __typename: 'Query', topRegions: Array<{ __typename: 'PlaceVisits', name: string, visits: number }> };

export type AppLocationCitiesQueryVariables = Exact<{
  dataset: string;
  day: string;
  country: string;
  region: string;
  limit: number;
}>;


export type AppLocationCitiesQuery = { __typename: 'Query', topCities: Array<{ __typename: 'PlaceVisits', name: string, visits: number }> };

export type AppLocationTotalsChangedSubscriptionVariables = Exact<{
  dataset: string;
}>;


export type AppLocationTotalsChangedSubscription = { locationTotalsChanged: { __typename: 'LocationTotalsChange', dataset: string, day: string } };

export type AppMarketQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type AppMarketQuery = { __typename: 'Query', market: Array<{ __typename: 'Listing', itemId: string, sellerId: string, price: number, cursor: string }> };

export type AppInventoryQueryVariables = Exact<{
  first: number;
  after?: string | number | null | undefined;
}>;


export type AppInventoryQuery = { __typename: 'Query', inventory: Array<string> };

export type AppMySalesQueryVariables = Exact<{
  first: number;
  after?: number | null | undefined;
}>;


export type AppMySalesQuery = { __typename: 'Query', mySales: Array<{ __typename: 'Sale', saleId: number, itemId: string, buyerId: string, price: number, soldAt: number }> };

export type AppListItemMutationVariables = Exact<{
  itemId: string | number;
  price: number;
}>;


export type AppListItemMutation = { __typename: 'Mutation', listItem: boolean };

export type AppDelistItemMutationVariables = Exact<{
  itemId: string | number;
}>;


export type AppDelistItemMutation = { __typename: 'Mutation', delistItem: boolean };

export type AppRepriceItemMutationVariables = Exact<{
  itemId: string | number;
  price: number;
}>;


export type AppRepriceItemMutation = { __typename: 'Mutation', repriceItem: boolean };

export type AppPurchaseItemMutationVariables = Exact<{
  itemId: string | number;
  sellerId: string | number;
  price: number;
}>;


export type AppPurchaseItemMutation = { __typename: 'Mutation', purchaseItem: { __typename: 'PurchaseResult', outcome: PurchaseOutcome, itemId: string, sellerId: string, listedPrice: number | null, funds: number, saleId: number | null } };

export type AppMarketChangedSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type AppMarketChangedSubscription = { marketChanged: { __typename: 'MarketNotification', kind: MarketChange, itemId: string, sellerId: string, price: number } };

export type AppSalesInboxSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type AppSalesInboxSubscription = { inboxChanged: { __typename: 'InboxNotification', saleId: number | null, catchUp: boolean } };

export type AppSetPushTargetMutationVariables = Exact<{
  device: string;
  webPush: WebPushSubscriptionInput;
}>;


export type AppSetPushTargetMutation = { __typename: 'Mutation', setPushTarget: { __typename: 'PushTarget', device: string, kind: PushKind, endpointHost: string | null } };

export type AppRemovePushTargetMutationVariables = Exact<{
  device: string;
}>;


export type AppRemovePushTargetMutation = { __typename: 'Mutation', removePushTarget: boolean };

export type AppPushTargetsQueryVariables = Exact<{ [key: string]: never; }>;


export type AppPushTargetsQuery = { __typename: 'Query', pushTargets: Array<{ __typename: 'PushTarget', device: string, kind: PushKind, endpointHost: string | null }> };

export type AppMeQueryVariables = Exact<{ [key: string]: never; }>;


export type AppMeQuery = { __typename: 'Query', me: { __typename: 'Account', userId: string, funds: number, items: number } };

export type AppViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type AppViewerQuery = { __typename: 'Query', viewer: { __typename: 'Viewer', userId: string, service: boolean } };

export type AppQueueCountsFragment = { __typename: 'QueueStats', name: string, paused: boolean, waitingHigh: number, waitingNormal: number, waitingLow: number, delayed: number, active: number, completed: number, failed: number, cancelled: number };

export type AppTaskRowFragment = { __typename: 'Task', id: string, name: string, state: TaskState, priority: TaskPriority, attempts: number, maxAttempts: number, retries: number, error: string | null, progress: unknown, runAt: number, finishedAt: number | null };

export type AppQueueQueryVariables = Exact<{
  name: string;
}>;


export type AppQueueQuery = { __typename: 'Query', queue: { __typename: 'QueueStats', name: string, paused: boolean, waitingHigh: number, waitingNormal: number, waitingLow: number, delayed: number, active: number, completed: number, failed: number, cancelled: number } };

export type AppTasksQueryVariables = Exact<{
  queue: string;
  state: TaskState;
  order?: TaskOrder | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type AppTasksQuery = { __typename: 'Query', tasks: { __typename: 'TaskPage', hasMore: boolean, cursor: string | null, tasks: Array<{ __typename: 'Task', id: string, name: string, state: TaskState, priority: TaskPriority, attempts: number, maxAttempts: number, retries: number, error: string | null, progress: unknown, runAt: number, finishedAt: number | null }> } };

export type AppPauseQueueMutationVariables = Exact<{
  name: string;
}>;


export type AppPauseQueueMutation = { __typename: 'Mutation', pauseQueue: { __typename: 'QueueStats', name: string, paused: boolean, waitingHigh: number, waitingNormal: number, waitingLow: number, delayed: number, active: number, completed: number, failed: number, cancelled: number } };

export type AppResumeQueueMutationVariables = Exact<{
  name: string;
}>;


export type AppResumeQueueMutation = { __typename: 'Mutation', resumeQueue: { __typename: 'QueueStats', name: string, paused: boolean, waitingHigh: number, waitingNormal: number, waitingLow: number, delayed: number, active: number, completed: number, failed: number, cancelled: number } };

export type AppRetryTaskMutationVariables = Exact<{
  id: string | number;
}>;


export type AppRetryTaskMutation = { __typename: 'Mutation', retryTask: { __typename: 'Task', id: string, name: string, state: TaskState, priority: TaskPriority, attempts: number, maxAttempts: number, retries: number, error: string | null, progress: unknown, runAt: number, finishedAt: number | null } | null };

export type AppCancelTaskMutationVariables = Exact<{
  id: string | number;
}>;


export type AppCancelTaskMutation = { __typename: 'Mutation', cancelTask: boolean };

export type AppRemoveTaskMutationVariables = Exact<{
  id: string | number;
}>;


export type AppRemoveTaskMutation = { __typename: 'Mutation', removeTask: boolean };

export type AppTaskChangedSubscriptionVariables = Exact<{
  id: string | number;
}>;


export type AppTaskChangedSubscription = { taskChanged: { __typename: 'TaskChange', id: string, state: TaskState } };

export const AppChatFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"members"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<AppChatFieldsFragment, unknown>;
export const AppEntryFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppEntryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"editedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]} as unknown as DocumentNode<AppEntryFieldsFragment, unknown>;
export const AppQueueCountsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppQueueCounts"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueStats"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"paused"}},{"kind":"Field","name":{"kind":"Name","value":"waitingHigh"}},{"kind":"Field","name":{"kind":"Name","value":"waitingNormal"}},{"kind":"Field","name":{"kind":"Name","value":"waitingLow"}},{"kind":"Field","name":{"kind":"Name","value":"delayed"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"completed"}},{"kind":"Field","name":{"kind":"Name","value":"failed"}},{"kind":"Field","name":{"kind":"Name","value":"cancelled"}}]}}]} as unknown as DocumentNode<AppQueueCountsFragment, unknown>;
export const AppTaskRowFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppTaskRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Task"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"maxAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"retries"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"runAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}}]}}]} as unknown as DocumentNode<AppTaskRowFragment, unknown>;
export const AppChatsDocument = {"__meta__":{"hash":"sha256:03a79417415971065fe51a2f7b2ebe561ccb0914f4374e0bd8b3360019cffeb4"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppChats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"chats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppChatFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"members"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<AppChatsQuery, AppChatsQueryVariables>;
export const AppChatPreviewDocument = {"__meta__":{"hash":"sha256:87b3c21988700ada3c0445658573e9e942d7da10cea6a4c957c18e9a07ad497b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppChatPreview"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"messages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"messages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]}}]}}]} as unknown as DocumentNode<AppChatPreviewQuery, AppChatPreviewQueryVariables>;
export const AppChatDetailsDocument = {"__meta__":{"hash":"sha256:0dc6cb7f59ff50e5f7f57dd09046098e9a944bad459f52e125d7b661774510c3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppChatDetails"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"chat"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppChatFields"}},{"kind":"Field","name":{"kind":"Name","value":"typing"}},{"kind":"Field","name":{"kind":"Name","value":"readPositions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"user"}},{"kind":"Field","name":{"kind":"Name","value":"messageId"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"members"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<AppChatDetailsQuery, AppChatDetailsQueryVariables>;
export const AppMessagesDocument = {"__meta__":{"hash":"sha256:11f4e5563e358a988a0d7746ac306288cd1d2dacd80cbff39040240a524e2535"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"messages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"hasMore"}},{"kind":"Field","name":{"kind":"Name","value":"historyStart"}},{"kind":"Field","name":{"kind":"Name","value":"messages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppEntryFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppEntryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"editedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]} as unknown as DocumentNode<AppMessagesQuery, AppMessagesQueryVariables>;
export const AppPendingMessagesDocument = {"__meta__":{"hash":"sha256:c00457b71eb4857d32bf15b49da173e08dad75733266e0e0adb7aa217e12d647"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppPendingMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"device"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"pendingMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"device"},"value":{"kind":"Variable","name":{"kind":"Name","value":"device"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}},{"kind":"Field","name":{"kind":"Name","value":"historyStart"}},{"kind":"Field","name":{"kind":"Name","value":"deviceForgotten"}},{"kind":"Field","name":{"kind":"Name","value":"messages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppEntryFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppEntryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"editedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]} as unknown as DocumentNode<AppPendingMessagesQuery, AppPendingMessagesQueryVariables>;
export const AppChatDevicesDocument = {"__meta__":{"hash":"sha256:5e3a8fee9991acf3719bbbdd6fbe801de321a730aab0ba45f22b3dd967df83df"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppChatDevices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"chatDevices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"lastFetchAt"}},{"kind":"Field","name":{"kind":"Name","value":"forgotten"}}]}}]}}]} as unknown as DocumentNode<AppChatDevicesQuery, AppChatDevicesQueryVariables>;
export const AppCreateChatDocument = {"__meta__":{"hash":"sha256:bf4daf973f57b6977f900a69a52437c1c83ba3bcf6d821b3faad6c1a215ae3e2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppCreateChat"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"members"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"message"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"open"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"createChat"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"members"},"value":{"kind":"Variable","name":{"kind":"Name","value":"members"}}},{"kind":"Argument","name":{"kind":"Name","value":"message"},"value":{"kind":"Variable","name":{"kind":"Name","value":"message"}}},{"kind":"Argument","name":{"kind":"Name","value":"open"},"value":{"kind":"Variable","name":{"kind":"Name","value":"open"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppChatFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"members"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<AppCreateChatMutation, AppCreateChatMutationVariables>;
export const AppSendMessageDocument = {"__meta__":{"hash":"sha256:d352ca92cc672ab0a8c1e56ed9a95fbbf76afa5496dd6c515e2f4959ec044a5f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppSendMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"message"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"clientMessageId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"sendMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"message"},"value":{"kind":"Variable","name":{"kind":"Name","value":"message"}}},{"kind":"Argument","name":{"kind":"Name","value":"clientMessageId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"clientMessageId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppEntryFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppEntryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"editedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]} as unknown as DocumentNode<AppSendMessageMutation, AppSendMessageMutationVariables>;
export const AppEditMessageDocument = {"__meta__":{"hash":"sha256:325d4d773f7f6b686c7c86b45f15f89a5f8ae393deb0cf20fa9ea2c84245ad98"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppEditMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"message"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"editMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"messageId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}}},{"kind":"Argument","name":{"kind":"Name","value":"message"},"value":{"kind":"Variable","name":{"kind":"Name","value":"message"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppEntryFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppEntryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"editedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]} as unknown as DocumentNode<AppEditMessageMutation, AppEditMessageMutationVariables>;
export const AppDeleteMessageDocument = {"__meta__":{"hash":"sha256:26aa1722b4076169f8585e7aad8cd919a148a8ed4993cfcc02939c98df26407f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppDeleteMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"deleteMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"messageId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppEntryFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppEntryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"editedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]} as unknown as DocumentNode<AppDeleteMessageMutation, AppDeleteMessageMutationVariables>;
export const AppMarkSeenDocument = {"__meta__":{"hash":"sha256:ba3d9cbf89498d3876cdeddc06542f95e2b9bada1a36646a62766babbeceba73"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppMarkSeen"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"device"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"markSeen"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"messageId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}}},{"kind":"Argument","name":{"kind":"Name","value":"device"},"value":{"kind":"Variable","name":{"kind":"Name","value":"device"}}}]}]}}]} as unknown as DocumentNode<AppMarkSeenMutation, AppMarkSeenMutationVariables>;
export const AppSetTypingDocument = {"__meta__":{"hash":"sha256:acc77b8f703f0cf3a328ab1e3e1be62d32e475cfc9a2037c5ecd0ab6c51a1a6e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppSetTyping"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"typing"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"setTyping"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"typing"},"value":{"kind":"Variable","name":{"kind":"Name","value":"typing"}}}]}]}}]} as unknown as DocumentNode<AppSetTypingMutation, AppSetTypingMutationVariables>;
export const AppInboxChangedDocument = {"__meta__":{"hash":"sha256:5266cce2b3b25a311c20165a9809aaf50bfb8972cc6666cb0e534004a864790d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"AppInboxChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inboxChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"mailbox"}},{"kind":"Field","name":{"kind":"Name","value":"catchUp"}}]}}]}}]} as unknown as DocumentNode<AppInboxChangedSubscription, AppInboxChangedSubscriptionVariables>;
export const AppChatChangedDocument = {"__meta__":{"hash":"sha256:ba9a44052d2b560ccdcbd4ffdbc16c80d8dae4d2a0b2b3d5871ce0debbbe86e4"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"AppChatChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chatChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"user"}},{"kind":"Field","name":{"kind":"Name","value":"messageId"}},{"kind":"Field","name":{"kind":"Name","value":"catchUp"}}]}}]}}]} as unknown as DocumentNode<AppChatChangedSubscription, AppChatChangedSubscriptionVariables>;
export const AppCountersDocument = {"__meta__":{"hash":"sha256:8c6541d812649d0219061b948492731d38274b6fc376a65c924c277942cebc67"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppCounters"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"counters"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"precisions"}}]}}]}}]} as unknown as DocumentNode<AppCountersQuery, AppCountersQueryVariables>;
export const AppCounterSeriesDocument = {"__meta__":{"hash":"sha256:cb80c5b0cc60730ab4d7c1d2dfbb3fa91aabbb9ea76923d7ce878065c71e85f2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppCounterSeries"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"names"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"step"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"aggregation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CounterAggregation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"counterSeriesMany"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"names"},"value":{"kind":"Variable","name":{"kind":"Name","value":"names"}}},{"kind":"Argument","name":{"kind":"Name","value":"prefix"},"value":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"step"},"value":{"kind":"Variable","name":{"kind":"Name","value":"step"}}},{"kind":"Argument","name":{"kind":"Name","value":"aggregation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"aggregation"}}},{"kind":"Argument","name":{"kind":"Name","value":"fill"},"value":{"kind":"EnumValue","value":"ZERO"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"precision"}},{"kind":"Field","name":{"kind":"Name","value":"step"}},{"kind":"Field","name":{"kind":"Name","value":"aggregation"}},{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"end"}},{"kind":"Field","name":{"kind":"Name","value":"retainedFrom"}},{"kind":"Field","name":{"kind":"Name","value":"points"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"time"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}}]} as unknown as DocumentNode<AppCounterSeriesQuery, AppCounterSeriesQueryVariables>;
export const AppCounterUpdatedDocument = {"__meta__":{"hash":"sha256:0596040e92bf3cc7442f8c6edd8ba146f0fde9ad641ca65ca4d37fddd6cd6a66"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"AppCounterUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"counterUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"time"}}]}}]}}]} as unknown as DocumentNode<AppCounterUpdatedSubscription, AppCounterUpdatedSubscriptionVariables>;
export const AppUpdateCounterDocument = {"__meta__":{"hash":"sha256:9f5ca4ce71631a2d29ae0bb0dc78d1dd008a6e460d65f938a82bfe495d5d9552"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppUpdateCounter"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"count"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"updateCounter"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"count"},"value":{"kind":"Variable","name":{"kind":"Name","value":"count"}}}]}]}}]} as unknown as DocumentNode<AppUpdateCounterMutation, AppUpdateCounterMutationVariables>;
export const AppLockDocument = {"__meta__":{"hash":"sha256:f02170c000c07a619c255847ba7cb749449a56f3f157649ff00ff0ed9b0d088a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppLock"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"lock"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"holder"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"owner"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"timeLeftMs"}}]}},{"kind":"Field","name":{"kind":"Name","value":"waiting"}},{"kind":"Field","name":{"kind":"Name","value":"lastFencingToken"}}]}}]}}]} as unknown as DocumentNode<AppLockQuery, AppLockQueryVariables>;
export const AppSemaphoreDocument = {"__meta__":{"hash":"sha256:d6bf232a9ae5af0e720638325998d4b0dab7fcbacc59eae8f4a072c9c9f24324"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppSemaphore"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"semaphore"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"holders"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"owner"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"timeLeftMs"}}]}},{"kind":"Field","name":{"kind":"Name","value":"waiting"}},{"kind":"Field","name":{"kind":"Name","value":"lastFencingToken"}}]}}]}}]} as unknown as DocumentNode<AppSemaphoreQuery, AppSemaphoreQueryVariables>;
export const AppAcquireLockDocument = {"__meta__":{"hash":"sha256:0012891d4d0020fc0e8b4dbd53cff04583b9a086fd92ad048d45ee4c839348bf"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppAcquireLock"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"acquireTimeoutMs"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"lockTimeoutMs"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"acquireLock"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"acquireTimeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"acquireTimeoutMs"}}},{"kind":"Argument","name":{"kind":"Name","value":"lockTimeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"lockTimeoutMs"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<AppAcquireLockMutation, AppAcquireLockMutationVariables>;
export const AppRefreshLockDocument = {"__meta__":{"hash":"sha256:5e13e41c1d28667ad0d5d688176f8549bfa3c9aab8028fd40fffaac4959a4fcb"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppRefreshLock"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"token"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"refreshLock"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"token"},"value":{"kind":"Variable","name":{"kind":"Name","value":"token"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<AppRefreshLockMutation, AppRefreshLockMutationVariables>;
export const AppReleaseLockDocument = {"__meta__":{"hash":"sha256:4b942183380167100f10c5abc3bf9f9f19a26b083d7113a41b004395cedc89a9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppReleaseLock"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"token"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"releaseLock"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"token"},"value":{"kind":"Variable","name":{"kind":"Name","value":"token"}}}]}]}}]} as unknown as DocumentNode<AppReleaseLockMutation, AppReleaseLockMutationVariables>;
export const AppAcquireSemaphoreDocument = {"__meta__":{"hash":"sha256:ff5527aa0059b253dcc4e8528af45d078e7b7be969e969540f65c52caa16daa6"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppAcquireSemaphore"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"waitMs"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"acquireSemaphore"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}},{"kind":"Argument","name":{"kind":"Name","value":"timeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}}},{"kind":"Argument","name":{"kind":"Name","value":"waitMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"waitMs"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<AppAcquireSemaphoreMutation, AppAcquireSemaphoreMutationVariables>;
export const AppRefreshSemaphoreDocument = {"__meta__":{"hash":"sha256:c6853e5c258d4407f2f86a9db2869935496f4d1988fa3f6c891d143019b1466f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppRefreshSemaphore"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"refreshSemaphore"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<AppRefreshSemaphoreMutation, AppRefreshSemaphoreMutationVariables>;
export const AppReleaseSemaphoreDocument = {"__meta__":{"hash":"sha256:5e93bf8751e97f339ee393147b6afb0edf2a997f9cbdaf97b049b6db0ff138fa"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppReleaseSemaphore"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"releaseSemaphore"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<AppReleaseSemaphoreMutation, AppReleaseSemaphoreMutationVariables>;
export const AppLockReleasedDocument = {"__meta__":{"hash":"sha256:65ea2be84b4e456789b19728dee8fb2c65650f66727d9bb457ef40bdb978a14a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"AppLockReleased"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lockReleased"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"releasedAt"}}]}}]}}]} as unknown as DocumentNode<AppLockReleasedSubscription, AppLockReleasedSubscriptionVariables>;
export const AppSemaphoreReleasedDocument = {"__meta__":{"hash":"sha256:83379758da9036796fd904d61ce4ef39f4671173856d53406ebcf9af5492c886"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"AppSemaphoreReleased"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"semaphoreReleased"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"releasedAt"}}]}}]}}]} as unknown as DocumentNode<AppSemaphoreReleasedSubscription, AppSemaphoreReleasedSubscriptionVariables>;
export const AppLocationDatasetsDocument = {"__meta__":{"hash":"sha256:63d18bec6df6698cf8bd4cd713ee675b6610d8b67e54bef665349b356ea2a526"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppLocationDatasets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"locationDatasets"}}]}}]} as unknown as DocumentNode<AppLocationDatasetsQuery, AppLocationDatasetsQueryVariables>;
export const AppLocationDaysDocument = {"__meta__":{"hash":"sha256:c02f1fd13d4f67ea168a6e0e4a972ce467f6c9aa37568e033a8e41d459f8190e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppLocationDays"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"locationDays"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"10000"}}]}]}}]} as unknown as DocumentNode<AppLocationDaysQuery, AppLocationDaysQueryVariables>;
export const AppLocationDayDocument = {"__meta__":{"hash":"sha256:45eb9b068013256f0db6a991c4f335a45190da16927ce3534d455de786aea7fe"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppLocationDay"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"day"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"locationTotals"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"day"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"days"}},{"kind":"Field","name":{"kind":"Name","value":"visits"}},{"kind":"Field","name":{"kind":"Name","value":"unknownVisits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"topCountries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"day"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"visits"}}]}}]}}]} as unknown as DocumentNode<AppLocationDayQuery, AppLocationDayQueryVariables>;
export const AppLocationRegionsDocument = {"__meta__":{"hash":"sha256:e0abe2e7f90de304ae7998aa0da19e15698aaa902a1f1b4b11c29d1cba1752e0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppLocationRegions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"day"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"country"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"topRegions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}},{"kind":"Argument","name":{"kind":"Name","value":"country"},"value":{"kind":"Variable","name":{"kind":"Name","value":"country"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"day"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"visits"}}]}}]}}]} as unknown as DocumentNode<AppLocationRegionsQuery, AppLocationRegionsQueryVariables>;
export const AppLocationCitiesDocument = {"__meta__":{"hash":"sha256:3224091e4d5eed0a47a07ddadfdc3cb4c03c52c4a9e5667f8eb1c32b4205becd"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppLocationCities"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"day"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"country"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"region"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"topCities"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}},{"kind":"Argument","name":{"kind":"Name","value":"country"},"value":{"kind":"Variable","name":{"kind":"Name","value":"country"}}},{"kind":"Argument","name":{"kind":"Name","value":"region"},"value":{"kind":"Variable","name":{"kind":"Name","value":"region"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"day"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"visits"}}]}}]}}]} as unknown as DocumentNode<AppLocationCitiesQuery, AppLocationCitiesQueryVariables>;
export const AppLocationTotalsChangedDocument = {"__meta__":{"hash":"sha256:52cec3d0bac4fda88930534cc1e6a89dbe0aa63c57e3dc06b19456af6c3269ea"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"AppLocationTotalsChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"locationTotalsChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"dataset"}},{"kind":"Field","name":{"kind":"Name","value":"day"}}]}}]}}]} as unknown as DocumentNode<AppLocationTotalsChangedSubscription, AppLocationTotalsChangedSubscriptionVariables>;
export const AppMarketDocument = {"__meta__":{"hash":"sha256:b7bebc468ab29c8f51fdaf554ad22849b62a7f3e92c80d8f529f4c2a72d6a9e0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppMarket"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"market"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"sellerId"}},{"kind":"Field","name":{"kind":"Name","value":"price"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}}]}}]}}]} as unknown as DocumentNode<AppMarketQuery, AppMarketQueryVariables>;
export const AppInventoryDocument = {"__meta__":{"hash":"sha256:1982c5f432c08262848f0bff29f72a9655db6b16a9003cd5f0d8242c9bc75d12"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppInventory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"inventory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}]}]}}]} as unknown as DocumentNode<AppInventoryQuery, AppInventoryQueryVariables>;
export const AppMySalesDocument = {"__meta__":{"hash":"sha256:670819735f71ee116a5b960c41bca50f9f64d88590f11eca03e13940bceb645b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppMySales"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SafeInt"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"mySales"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"saleId"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"buyerId"}},{"kind":"Field","name":{"kind":"Name","value":"price"}},{"kind":"Field","name":{"kind":"Name","value":"soldAt"}}]}}]}}]} as unknown as DocumentNode<AppMySalesQuery, AppMySalesQueryVariables>;
export const AppListItemDocument = {"__meta__":{"hash":"sha256:e7765a1e73eba3da84d31d0d738659ef557000c435babac317952e4ccb2c350d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppListItem"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"price"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"listItem"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"itemId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}}},{"kind":"Argument","name":{"kind":"Name","value":"price"},"value":{"kind":"Variable","name":{"kind":"Name","value":"price"}}}]}]}}]} as unknown as DocumentNode<AppListItemMutation, AppListItemMutationVariables>;
export const AppDelistItemDocument = {"__meta__":{"hash":"sha256:595c25616398145cbf535a1e7623ada672446d26024e3f51e3ea9f6ea156d840"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppDelistItem"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"delistItem"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"itemId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}}}]}]}}]} as unknown as DocumentNode<AppDelistItemMutation, AppDelistItemMutationVariables>;
export const AppRepriceItemDocument = {"__meta__":{"hash":"sha256:21ba379f1347794cf9f3af55d43d3499984ed4c6547a864dbe0b5d8c4a313702"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppRepriceItem"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"price"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"repriceItem"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"itemId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}}},{"kind":"Argument","name":{"kind":"Name","value":"price"},"value":{"kind":"Variable","name":{"kind":"Name","value":"price"}}}]}]}}]} as unknown as DocumentNode<AppRepriceItemMutation, AppRepriceItemMutationVariables>;
export const AppPurchaseItemDocument = {"__meta__":{"hash":"sha256:25823c02c6e66dd316f5e7790ddf98c3e9f0346f75760bd5f87cd8b5b9316370"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppPurchaseItem"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sellerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"price"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"purchaseItem"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"itemId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"itemId"}}},{"kind":"Argument","name":{"kind":"Name","value":"sellerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sellerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"price"},"value":{"kind":"Variable","name":{"kind":"Name","value":"price"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"sellerId"}},{"kind":"Field","name":{"kind":"Name","value":"listedPrice"}},{"kind":"Field","name":{"kind":"Name","value":"funds"}},{"kind":"Field","name":{"kind":"Name","value":"saleId"}}]}}]}}]} as unknown as DocumentNode<AppPurchaseItemMutation, AppPurchaseItemMutationVariables>;
export const AppMarketChangedDocument = {"__meta__":{"hash":"sha256:05f7d741ffed3f5e63756497fa33db732e9e2512fc5e843fcd41284bbae25705"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"AppMarketChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"marketChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"sellerId"}},{"kind":"Field","name":{"kind":"Name","value":"price"}}]}}]}}]} as unknown as DocumentNode<AppMarketChangedSubscription, AppMarketChangedSubscriptionVariables>;
export const AppSalesInboxDocument = {"__meta__":{"hash":"sha256:dc8857d866ec3585578765b88a33b3f37d28076d20d4c3d97f7f63dc65e75580"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"AppSalesInbox"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inboxChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sales"},"value":{"kind":"BooleanValue","value":true}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"saleId"}},{"kind":"Field","name":{"kind":"Name","value":"catchUp"}}]}}]}}]} as unknown as DocumentNode<AppSalesInboxSubscription, AppSalesInboxSubscriptionVariables>;
export const AppSetPushTargetDocument = {"__meta__":{"hash":"sha256:1c215a21b5506cb46ad13f6f8c898453257cd26c5eb266c68cd9a5ffa2cd7fba"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppSetPushTarget"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"device"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"webPush"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"WebPushSubscriptionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"setPushTarget"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"device"},"value":{"kind":"Variable","name":{"kind":"Name","value":"device"}}},{"kind":"Argument","name":{"kind":"Name","value":"webPush"},"value":{"kind":"Variable","name":{"kind":"Name","value":"webPush"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"device"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"endpointHost"}}]}}]}}]} as unknown as DocumentNode<AppSetPushTargetMutation, AppSetPushTargetMutationVariables>;
export const AppRemovePushTargetDocument = {"__meta__":{"hash":"sha256:2c2c294a057486b71ab2385627119b7001acf74fddff73e2df11104cd78adf0d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppRemovePushTarget"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"device"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"removePushTarget"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"device"},"value":{"kind":"Variable","name":{"kind":"Name","value":"device"}}}]}]}}]} as unknown as DocumentNode<AppRemovePushTargetMutation, AppRemovePushTargetMutationVariables>;
export const AppPushTargetsDocument = {"__meta__":{"hash":"sha256:d24ce78ae71607de3e6d78570039a5e0ef3c2039bfdb09f4420e121628620450"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppPushTargets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"pushTargets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"device"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"endpointHost"}}]}}]}}]} as unknown as DocumentNode<AppPushTargetsQuery, AppPushTargetsQueryVariables>;
export const AppMeDocument = {"__meta__":{"hash":"sha256:c955b2b0f2d727399fee09b93a0980c30970ab6b1626efaeea55e1592d2339c6"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppMe"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"funds"}},{"kind":"Field","name":{"kind":"Name","value":"items"}}]}}]}}]} as unknown as DocumentNode<AppMeQuery, AppMeQueryVariables>;
export const AppViewerDocument = {"__meta__":{"hash":"sha256:b14b7a6e4c27ef82ff29e4a725b728e4f1848664ca30ef7271914f85fca783e0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppViewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"service"}}]}}]}}]} as unknown as DocumentNode<AppViewerQuery, AppViewerQueryVariables>;
export const AppQueueDocument = {"__meta__":{"hash":"sha256:934cabed052b82bcfc57a8fbac97c20762eaf626dfd5959025d4123fdd1b5aee"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppQueue"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"queue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppQueueCounts"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppQueueCounts"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueStats"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"paused"}},{"kind":"Field","name":{"kind":"Name","value":"waitingHigh"}},{"kind":"Field","name":{"kind":"Name","value":"waitingNormal"}},{"kind":"Field","name":{"kind":"Name","value":"waitingLow"}},{"kind":"Field","name":{"kind":"Name","value":"delayed"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"completed"}},{"kind":"Field","name":{"kind":"Name","value":"failed"}},{"kind":"Field","name":{"kind":"Name","value":"cancelled"}}]}}]} as unknown as DocumentNode<AppQueueQuery, AppQueueQueryVariables>;
export const AppTasksDocument = {"__meta__":{"hash":"sha256:b19d9c7703b675080912c6f2b3ba43cc9357a8fedf70ef9951a3a41a12d86a6c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppTasks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"queue"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"state"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TaskState"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"order"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TaskOrder"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"tasks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"queue"},"value":{"kind":"Variable","name":{"kind":"Name","value":"queue"}}},{"kind":"Argument","name":{"kind":"Name","value":"state"},"value":{"kind":"Variable","name":{"kind":"Name","value":"state"}}},{"kind":"Argument","name":{"kind":"Name","value":"order"},"value":{"kind":"Variable","name":{"kind":"Name","value":"order"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"tasks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppTaskRow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"hasMore"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppTaskRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Task"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"maxAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"retries"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"runAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}}]}}]} as unknown as DocumentNode<AppTasksQuery, AppTasksQueryVariables>;
export const AppPauseQueueDocument = {"__meta__":{"hash":"sha256:68f3a481023793e7d0e8ebb8ac17a69cd9d04ea1bdd0083eb510475fa55f66ac"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppPauseQueue"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"pauseQueue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppQueueCounts"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppQueueCounts"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueStats"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"paused"}},{"kind":"Field","name":{"kind":"Name","value":"waitingHigh"}},{"kind":"Field","name":{"kind":"Name","value":"waitingNormal"}},{"kind":"Field","name":{"kind":"Name","value":"waitingLow"}},{"kind":"Field","name":{"kind":"Name","value":"delayed"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"completed"}},{"kind":"Field","name":{"kind":"Name","value":"failed"}},{"kind":"Field","name":{"kind":"Name","value":"cancelled"}}]}}]} as unknown as DocumentNode<AppPauseQueueMutation, AppPauseQueueMutationVariables>;
export const AppResumeQueueDocument = {"__meta__":{"hash":"sha256:08a7b503a8fd747bdcf0627a76093ac48933925c5d2b3047a60a0718556c1053"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppResumeQueue"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"resumeQueue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppQueueCounts"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppQueueCounts"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueStats"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"paused"}},{"kind":"Field","name":{"kind":"Name","value":"waitingHigh"}},{"kind":"Field","name":{"kind":"Name","value":"waitingNormal"}},{"kind":"Field","name":{"kind":"Name","value":"waitingLow"}},{"kind":"Field","name":{"kind":"Name","value":"delayed"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"completed"}},{"kind":"Field","name":{"kind":"Name","value":"failed"}},{"kind":"Field","name":{"kind":"Name","value":"cancelled"}}]}}]} as unknown as DocumentNode<AppResumeQueueMutation, AppResumeQueueMutationVariables>;
export const AppRetryTaskDocument = {"__meta__":{"hash":"sha256:1927ab23facf1b6ad0419c0267417509e91f576556139039106779ea208e4de6"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppRetryTask"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"retryTask"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppTaskRow"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppTaskRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Task"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"maxAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"retries"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"runAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}}]}}]} as unknown as DocumentNode<AppRetryTaskMutation, AppRetryTaskMutationVariables>;
export const AppCancelTaskDocument = {"__meta__":{"hash":"sha256:a1a6f6aa165eeba32be84ec43ca0eb1607b26a732da099df667118ca43bbe736"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppCancelTask"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"cancelTask"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<AppCancelTaskMutation, AppCancelTaskMutationVariables>;
export const AppRemoveTaskDocument = {"__meta__":{"hash":"sha256:606105d95153342838ee7b944a656b4ac2877d407bfc7c87ff0f90b2a3ca79be"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppRemoveTask"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"removeTask"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<AppRemoveTaskMutation, AppRemoveTaskMutationVariables>;
export const AppTaskChangedDocument = {"__meta__":{"hash":"sha256:acee03b012e6b4d9dbc63057d2c42971adc6290f7715125af4e9135bc7d2cc87"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"AppTaskChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"taskChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]} as unknown as DocumentNode<AppTaskChangedSubscription, AppTaskChangedSubscriptionVariables>;