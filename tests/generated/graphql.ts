/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** The `SafeInt` scalar type represents non-fractional signed whole numeric values that are considered safe as defined by the ECMAScript specification. */
  SafeInt: { input: number; output: number; }
};

/** A group chat as the caller sees it. */
export type Chat = {
  __typename?: 'Chat';
  id: Scalars['ID']['output'];
  /** Id of the newest message; ids count up from 1 without gaps. */
  latestMessageId: Scalars['Int']['output'];
  memberCount: Scalars['Int']['output'];
  /** Member ids in byte order. */
  members: Array<Scalars['ID']['output']>;
  /** Whether anyone may join; otherwise members add others. */
  open: Scalars['Boolean']['output'];
  /** Id of the last message the caller has seen. */
  seenMessageId: Scalars['Int']['output'];
  /** latestMessageId - seenMessageId. */
  unreadCount: Scalars['Int']['output'];
};

/** A message in a group chat; ids count up from 1 per chat, without gaps. */
export type ChatMessage = {
  __typename?: 'ChatMessage';
  chatId: Scalars['ID']['output'];
  /** Strictly increasing: per chat without gaps, or per mailbox. */
  id: Scalars['Int']['output'];
  message: Scalars['String']['output'];
  sender: Scalars['ID']['output'];
  /** Unix seconds (millisecond precision) from the Redis server's clock. */
  ts: Scalars['Float']['output'];
};

/** The count of one time slice. */
export type CounterSample = {
  __typename?: 'CounterSample';
  /** Sum of the counts added during the slice. */
  count: Scalars['SafeInt']['output'];
  /** Start of the slice, unix seconds. */
  time: Scalars['SafeInt']['output'];
};

/** Tells a subscriber that a counter changed; read it with `counter` for the values. */
export type CounterUpdate = {
  __typename?: 'CounterUpdate';
  name: Scalars['String']['output'];
  /** When the update counted, unix seconds. */
  time: Scalars['Float']['output'];
};

/** A message in a single-recipient mailbox; ids count up per mailbox. */
export type DirectMessage = {
  __typename?: 'DirectMessage';
  /** Strictly increasing: per chat without gaps, or per mailbox. */
  id: Scalars['Int']['output'];
  message: Scalars['String']['output'];
  sender: Scalars['ID']['output'];
  /** Unix seconds (millisecond precision) from the Redis server's clock. */
  ts: Scalars['Float']['output'];
};

/** Something new is waiting for the subscriber: either in a chat (chatId, latestMessageId) or in their mailbox (mailbox, waiting). Pull it with fetchPendingMessages or fetchDirectMessages. */
export type InboxNotification = {
  __typename?: 'InboxNotification';
  chatId?: Maybe<Scalars['ID']['output']>;
  /** Pending messages of the chat run up to this id. */
  latestMessageId?: Maybe<Scalars['Int']['output']>;
  /** True for the mailbox, false for a chat. */
  mailbox: Scalars['Boolean']['output'];
  /** Messages waiting in the mailbox. */
  waiting?: Maybe<Scalars['Int']['output']>;
};

/** A counter that has samples, with the precisions that hold them. */
export type KnownCounter = {
  __typename?: 'KnownCounter';
  name: Scalars['String']['output'];
  /** Slice lengths in seconds, ascending. */
  precisions: Array<Scalars['Int']['output']>;
};

/** Who holds a lock or a semaphore slot; never its token. */
export type LeaseHolder = {
  __typename?: 'LeaseHolder';
  /** Unix seconds (millisecond precision) by the Redis server's clock, the only clock that decides. */
  expiresAt: Scalars['Float']['output'];
  fencingToken: Scalars['SafeInt']['output'];
  /** The service that acquired it (the `sub` of its token). */
  owner: Scalars['String']['output'];
  /** Milliseconds left, by the server's clock when this was read. */
  timeLeftMs: Scalars['Int']['output'];
};

/** A lock or semaphore slot was freed, or a queued caller gave up its turn: try to acquire now. */
export type LeaseReleased = {
  __typename?: 'LeaseReleased';
  name: Scalars['String']['output'];
  /** Unix seconds (millisecond precision) by the Redis server's clock, the only clock that decides. */
  releasedAt: Scalars['Float']['output'];
};

/** A held lock. Keep `token` secret: it is what releases and refreshes the lock. */
export type Lock = {
  __typename?: 'Lock';
  /** When the lock lapses unless refreshed. Unix seconds (millisecond precision) by the Redis server's clock, the only clock that decides. */
  expiresAt: Scalars['Float']['output'];
  /** Grows with every grant of this name. Pass it to the resource you protect and have it refuse any token lower than one it has seen: that refuses a holder that stalled past its timeout. */
  fencingToken: Scalars['SafeInt']['output'];
  name: Scalars['String']['output'];
  /** 128 random bits, hex. */
  token: Scalars['String']['output'];
};

export type LockState = {
  __typename?: 'LockState';
  /** null when the lock is free. */
  holder?: Maybe<LeaseHolder>;
  /** The fencing token of the last grant; null if never granted. */
  lastFencingToken?: Maybe<Scalars['SafeInt']['output']>;
  name: Scalars['String']['output'];
  /** Callers waiting in acquireLock. */
  waiting: Scalars['Int']['output'];
};

/** How a mailbox is doing: a backlog means its owner has not been reading. */
export type Mailbox = {
  __typename?: 'Mailbox';
  /** Id of the newest message ever sent to this mailbox. */
  latestMessageId: Scalars['Int']['output'];
  /** When the oldest waiting message was sent. Unix seconds (millisecond precision) from the Redis server's clock. */
  oldestTs?: Maybe<Scalars['Float']['output']>;
  user: Scalars['ID']['output'];
  /** Messages waiting to be fetched. */
  waiting: Scalars['Int']['output'];
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Removes the caller's waiting messages with ids up to `upToId`; returns how many. */
  ackDirectMessages: Scalars['Int']['output'];
  /** Takes the lock, waiting up to acquireTimeoutMs in turn; null when it stayed taken. Service callers only. */
  acquireLock?: Maybe<Lock>;
  /** Takes a slot if fewer than `limit` are held and nobody asked earlier; null otherwise (after up to waitMs in turn). Service callers only. */
  acquireSemaphore?: Maybe<SemaphoreLease>;
  /** A member adds others; each starts at the latest message. */
  addChatMembers: Chat;
  /** Puts `contact` first in the caller's recent contacts, removing an older copy; the oldest beyond CONTACTS_MAX (100) drop off. */
  addRecentContact: Scalars['Boolean']['output'];
  /** Creates a chat of the caller and `members`, all at seen-id 0, and sends its first message. */
  createChat: Chat;
  /** Takes up to `limit` of the oldest messages off the caller's mailbox; each is returned once. */
  fetchDirectMessages: Array<DirectMessage>;
  /** Takes the caller's unseen messages from every chat (oldest first) and moves their seen-ids past them: each message is returned once. Messages every member has seen are deleted. */
  fetchPendingMessages: Array<PendingChat>;
  /** Joins an open chat, starting at its latest message. Joining a chat the caller is in changes nothing. */
  joinChat: Chat;
  /** Adds the user (the caller by default) to the guild; false when already a member. CONFLICT when the guild (GUILD_MAX_MEMBERS) or the user (GUILD_MAX_PER_USER) is full. */
  joinGuild: Scalars['Boolean']['output'];
  /** Leaves a chat; false when the caller was not in it. When the last member leaves, the chat and its messages are deleted. */
  leaveChat: Scalars['Boolean']['output'];
  /** Removes the user (the caller by default) from the guild; false when not a member. */
  leaveGuild: Scalars['Boolean']['output'];
  /** Moves the caller's seen-id in a chat forward to `messageId`; false when it was already there. */
  markSeen: Scalars['Boolean']['output'];
  /** Extends the lock from now; null when it was lost (lapsed or wrong token): stop using it. */
  refreshLock?: Maybe<Lock>;
  /** Extends the slot from now by its timeoutMs; null when it already lapsed (the holder lost it and must stop). */
  refreshSemaphore?: Maybe<SemaphoreLease>;
  /** Frees the lock; false (and nothing changed) for a wrong token or a lock that had already lapsed. */
  releaseLock: Scalars['Boolean']['output'];
  /** Frees the slot; false (and nothing changed) for an unknown id or a slot that had already lapsed. */
  releaseSemaphore: Scalars['Boolean']['output'];
  /** Takes `contact` off the caller's recent contacts; false when it was not there. */
  removeRecentContact: Scalars['Boolean']['output'];
  /** Appends a message to the recipient's mailbox. A full mailbox (MAILBOX_MAX_MESSAGES waiting) refuses it with CONFLICT. */
  sendDirectMessage: DirectMessage;
  /** Sends a message to a chat the caller is a member of. */
  sendMessage: ChatMessage;
  /** Counts at every configured precision, atomically. Service callers only. */
  updateCounter: Scalars['Boolean']['output'];
};


export type MutationAckDirectMessagesArgs = {
  upToId: Scalars['Int']['input'];
};


export type MutationAcquireLockArgs = {
  acquireTimeoutMs?: Scalars['Int']['input'];
  lockTimeoutMs?: Scalars['Int']['input'];
  name: Scalars['String']['input'];
};


export type MutationAcquireSemaphoreArgs = {
  limit: Scalars['Int']['input'];
  name: Scalars['String']['input'];
  timeoutMs?: Scalars['Int']['input'];
  waitMs?: Scalars['Int']['input'];
};


export type MutationAddChatMembersArgs = {
  chatId: Scalars['ID']['input'];
  members: Array<Scalars['ID']['input']>;
};


export type MutationAddRecentContactArgs = {
  contact: Scalars['String']['input'];
};


export type MutationCreateChatArgs = {
  members: Array<Scalars['ID']['input']>;
  message: Scalars['String']['input'];
  open?: Scalars['Boolean']['input'];
};


export type MutationFetchDirectMessagesArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
};


export type MutationFetchPendingMessagesArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
};


export type MutationJoinChatArgs = {
  chatId: Scalars['ID']['input'];
};


export type MutationJoinGuildArgs = {
  guild: Scalars['String']['input'];
  user?: InputMaybe<Scalars['String']['input']>;
};


export type MutationLeaveChatArgs = {
  chatId: Scalars['ID']['input'];
};


export type MutationLeaveGuildArgs = {
  guild: Scalars['String']['input'];
  user?: InputMaybe<Scalars['String']['input']>;
};


export type MutationMarkSeenArgs = {
  chatId: Scalars['ID']['input'];
  messageId: Scalars['Int']['input'];
};


export type MutationRefreshLockArgs = {
  lockTimeoutMs?: InputMaybe<Scalars['Int']['input']>;
  name: Scalars['String']['input'];
  token: Scalars['String']['input'];
};


export type MutationRefreshSemaphoreArgs = {
  id: Scalars['String']['input'];
  name: Scalars['String']['input'];
};


export type MutationReleaseLockArgs = {
  name: Scalars['String']['input'];
  token: Scalars['String']['input'];
};


export type MutationReleaseSemaphoreArgs = {
  id: Scalars['String']['input'];
  name: Scalars['String']['input'];
};


export type MutationRemoveRecentContactArgs = {
  contact: Scalars['String']['input'];
};


export type MutationSendDirectMessageArgs = {
  message: Scalars['String']['input'];
  to: Scalars['ID']['input'];
};


export type MutationSendMessageArgs = {
  chatId: Scalars['ID']['input'];
  clientMessageId?: InputMaybe<Scalars['ID']['input']>;
  message: Scalars['String']['input'];
};


export type MutationUpdateCounterArgs = {
  at?: InputMaybe<Scalars['Float']['input']>;
  count?: Scalars['Int']['input'];
  name: Scalars['String']['input'];
};

/** Messages of one chat after the caller's seen-id, oldest first. */
export type PendingChat = {
  __typename?: 'PendingChat';
  chatId: Scalars['ID']['output'];
  messages: Array<ChatMessage>;
  /** Messages still pending after these; fetch again while it is above 0. */
  remaining: Scalars['Int']['output'];
};

export type Query = {
  __typename?: 'Query';
  /** One chat of the caller; null when it does not exist or the caller is not a member. */
  chat?: Maybe<Chat>;
  /** The caller's chats, by id. */
  chats: Array<Chat>;
  /** Samples of one counter at one precision, oldest first. */
  counter: Array<CounterSample>;
  /** Counters that have samples, by name (byte order), a page at a time. */
  counters: Array<KnownCounter>;
  /** The oldest `limit` messages of the caller's mailbox, left in place: remove them with ackDirectMessages after showing them. */
  directMessages: Array<DirectMessage>;
  /** Members whose name starts with `prefix`, ignoring case, in name order (case-folded), as they wrote their names. Members of the guild and service callers only. */
  guildMembers: Array<Scalars['String']['output']>;
  /** Who holds the lock and how many wait for it. Service callers only. */
  lock: LockState;
  /** How many messages wait in a mailbox (the caller's by default) and since when. */
  mailbox: Mailbox;
  /** The caller's unseen messages from every chat, without moving anything: acknowledge them with markSeen after showing them. */
  pendingMessages: Array<PendingChat>;
  /** The caller's recent contacts whose name starts with `prefix`, most recent first. */
  recentContacts: Array<Scalars['String']['output']>;
  /** Holders with time left, waiters and the limit last used. Service callers only. */
  semaphore: SemaphoreState;
};


export type QueryChatArgs = {
  chatId: Scalars['ID']['input'];
};


export type QueryCounterArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
  name: Scalars['String']['input'];
  precision: Scalars['Int']['input'];
};


export type QueryCountersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
};


export type QueryDirectMessagesArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryGuildMembersArgs = {
  guild: Scalars['String']['input'];
  limit?: Scalars['Int']['input'];
  prefix: Scalars['String']['input'];
};


export type QueryLockArgs = {
  name: Scalars['String']['input'];
};


export type QueryMailboxArgs = {
  user?: InputMaybe<Scalars['ID']['input']>;
};


export type QueryPendingMessagesArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryRecentContactsArgs = {
  limit?: Scalars['Int']['input'];
  prefix?: Scalars['String']['input'];
};


export type QuerySemaphoreArgs = {
  name: Scalars['String']['input'];
};

/** A held slot of a counting semaphore. Keep `id` secret: it is what releases and refreshes the slot. */
export type SemaphoreLease = {
  __typename?: 'SemaphoreLease';
  /** When the slot lapses unless refreshed. Unix seconds (millisecond precision) by the Redis server's clock, the only clock that decides. */
  expiresAt: Scalars['Float']['output'];
  /** Grows with every grant of this name. Pass it to the resource you protect and have it refuse any token lower than one it has seen: that refuses a holder that stalled past its timeout. */
  fencingToken: Scalars['SafeInt']['output'];
  /** 128 random bits, hex. */
  id: Scalars['String']['output'];
  name: Scalars['String']['output'];
};

export type SemaphoreState = {
  __typename?: 'SemaphoreState';
  /** Holders with time left, soonest to lapse first. */
  holders: Array<LeaseHolder>;
  /** The fencing token of the last grant; null if never granted. */
  lastFencingToken?: Maybe<Scalars['SafeInt']['output']>;
  /** The limit of the last acquire; null if nobody ever asked. */
  limit?: Maybe<Scalars['Int']['output']>;
  name: Scalars['String']['output'];
  /** Callers waiting in acquireSemaphore. */
  waiting: Scalars['Int']['output'];
};

export type Subscription = {
  __typename?: 'Subscription';
  /** Tells that a counter was updated; read it with `counter`. */
  counterUpdated: CounterUpdate;
  /** Tells the caller that something new is waiting for them; pull it. Notifications may be coalesced or dropped under load; the pull is the source of truth. */
  inboxChanged: InboxNotification;
  /** Tells that the lock was freed (or a waiter ahead gave up its turn); try acquireLock then. Service callers only. */
  lockReleased: LeaseReleased;
  /** Tells that a slot was freed (or a waiter ahead gave up its turn); try acquireSemaphore then. Service callers only. */
  semaphoreReleased: LeaseReleased;
};


export type SubscriptionCounterUpdatedArgs = {
  name: Scalars['String']['input'];
};


export type SubscriptionLockReleasedArgs = {
  name: Scalars['String']['input'];
};


export type SubscriptionSemaphoreReleasedArgs = {
  name: Scalars['String']['input'];
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

export type ChatFieldsFragment = { id: string, open: boolean, memberCount: number, latestMessageId: number, seenMessageId: number, unreadCount: number };

export type MessageFieldsFragment = { id: number, chatId: string, sender: string, message: string, ts: number };

export type CreateChatMutationVariables = Exact<{
  members: Array<string | number> | string | number;
  message: string;
  open?: boolean | null | undefined;
}>;


export type CreateChatMutation = { createChat: { members: Array<string>, id: string, open: boolean, memberCount: number, latestMessageId: number, seenMessageId: number, unreadCount: number } };

export type SendMessageMutationVariables = Exact<{
  chatId: string | number;
  message: string;
  clientMessageId?: string | number | null | undefined;
}>;


export type SendMessageMutation = { sendMessage: { id: number, chatId: string, sender: string, message: string, ts: number } };

export type FetchPendingMessagesMutationVariables = Exact<{
  limit?: number | null | undefined;
}>;


export type FetchPendingMessagesMutation = { fetchPendingMessages: Array<{ chatId: string, remaining: number, messages: Array<{ id: number, chatId: string, sender: string, message: string, ts: number }> }> };

export type PendingMessagesQueryVariables = Exact<{
  limit?: number | null | undefined;
}>;


export type PendingMessagesQuery = { pendingMessages: Array<{ chatId: string, remaining: number, messages: Array<{ id: number, chatId: string, sender: string, message: string, ts: number }> }> };

export type MarkSeenMutationVariables = Exact<{
  chatId: string | number;
  messageId: number;
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


export type MailboxQuery = { mailbox: { user: string, waiting: number, oldestTs: number | null, latestMessageId: number } };

export const ChatFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"memberCount"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<ChatFieldsFragment, unknown>;
export const MessageFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}}]}}]} as unknown as DocumentNode<MessageFieldsFragment, unknown>;
export const HolderFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Holder"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LeaseHolder"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"owner"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"timeLeftMs"}}]}}]} as unknown as DocumentNode<HolderFragment, unknown>;
export const DirectMessageFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DirectMessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DirectMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}}]}}]} as unknown as DocumentNode<DirectMessageFieldsFragment, unknown>;
export const AddRecentContactDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddRecentContact"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"contact"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addRecentContact"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"contact"},"value":{"kind":"Variable","name":{"kind":"Name","value":"contact"}}}]}]}}]} as unknown as DocumentNode<AddRecentContactMutation, AddRecentContactMutationVariables>;
export const RemoveRecentContactDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveRecentContact"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"contact"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeRecentContact"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"contact"},"value":{"kind":"Variable","name":{"kind":"Name","value":"contact"}}}]}]}}]} as unknown as DocumentNode<RemoveRecentContactMutation, RemoveRecentContactMutationVariables>;
export const RecentContactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RecentContacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recentContacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"prefix"},"value":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}]}]}}]} as unknown as DocumentNode<RecentContactsQuery, RecentContactsQueryVariables>;
export const JoinGuildDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"JoinGuild"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"guild"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"user"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"joinGuild"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"guild"},"value":{"kind":"Variable","name":{"kind":"Name","value":"guild"}}},{"kind":"Argument","name":{"kind":"Name","value":"user"},"value":{"kind":"Variable","name":{"kind":"Name","value":"user"}}}]}]}}]} as unknown as DocumentNode<JoinGuildMutation, JoinGuildMutationVariables>;
export const LeaveGuildDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LeaveGuild"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"guild"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"user"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leaveGuild"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"guild"},"value":{"kind":"Variable","name":{"kind":"Name","value":"guild"}}},{"kind":"Argument","name":{"kind":"Name","value":"user"},"value":{"kind":"Variable","name":{"kind":"Name","value":"user"}}}]}]}}]} as unknown as DocumentNode<LeaveGuildMutation, LeaveGuildMutationVariables>;
export const GuildMembersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GuildMembers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"guild"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"guildMembers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"guild"},"value":{"kind":"Variable","name":{"kind":"Name","value":"guild"}}},{"kind":"Argument","name":{"kind":"Name","value":"prefix"},"value":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}]}]}}]} as unknown as DocumentNode<GuildMembersQuery, GuildMembersQueryVariables>;
export const CreateChatDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateChat"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"members"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"message"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"open"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createChat"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"members"},"value":{"kind":"Variable","name":{"kind":"Name","value":"members"}}},{"kind":"Argument","name":{"kind":"Name","value":"message"},"value":{"kind":"Variable","name":{"kind":"Name","value":"message"}}},{"kind":"Argument","name":{"kind":"Name","value":"open"},"value":{"kind":"Variable","name":{"kind":"Name","value":"open"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChatFields"}},{"kind":"Field","name":{"kind":"Name","value":"members"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"memberCount"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<CreateChatMutation, CreateChatMutationVariables>;
export const SendMessageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SendMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"message"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"clientMessageId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sendMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"message"},"value":{"kind":"Variable","name":{"kind":"Name","value":"message"}}},{"kind":"Argument","name":{"kind":"Name","value":"clientMessageId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"clientMessageId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MessageFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}}]}}]} as unknown as DocumentNode<SendMessageMutation, SendMessageMutationVariables>;
export const FetchPendingMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"FetchPendingMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fetchPendingMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}},{"kind":"Field","name":{"kind":"Name","value":"messages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MessageFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}}]}}]} as unknown as DocumentNode<FetchPendingMessagesMutation, FetchPendingMessagesMutationVariables>;
export const PendingMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PendingMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pendingMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}},{"kind":"Field","name":{"kind":"Name","value":"messages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MessageFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChatMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}}]}}]} as unknown as DocumentNode<PendingMessagesQuery, PendingMessagesQueryVariables>;
export const MarkSeenDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"MarkSeen"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"markSeen"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"messageId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}}}]}]}}]} as unknown as DocumentNode<MarkSeenMutation, MarkSeenMutationVariables>;
export const JoinChatDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"JoinChat"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"joinChat"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChatFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"memberCount"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<JoinChatMutation, JoinChatMutationVariables>;
export const AddChatMembersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddChatMembers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"members"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addChatMembers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}},{"kind":"Argument","name":{"kind":"Name","value":"members"},"value":{"kind":"Variable","name":{"kind":"Name","value":"members"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChatFields"}},{"kind":"Field","name":{"kind":"Name","value":"members"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"memberCount"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<AddChatMembersMutation, AddChatMembersMutationVariables>;
export const LeaveChatDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LeaveChat"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leaveChat"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}}]}]}}]} as unknown as DocumentNode<LeaveChatMutation, LeaveChatMutationVariables>;
export const ChatsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Chats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChatFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"memberCount"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<ChatsQuery, ChatsQueryVariables>;
export const ChatDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Chat"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chat"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChatFields"}},{"kind":"Field","name":{"kind":"Name","value":"members"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChatFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Chat"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"memberCount"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"seenMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"unreadCount"}}]}}]} as unknown as DocumentNode<ChatQuery, ChatQueryVariables>;
export const InboxChangedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"InboxChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inboxChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chatId"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"mailbox"}},{"kind":"Field","name":{"kind":"Name","value":"waiting"}}]}}]}}]} as unknown as DocumentNode<InboxChangedSubscription, InboxChangedSubscriptionVariables>;
export const UpdateCounterDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateCounter"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"count"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"at"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateCounter"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"count"},"value":{"kind":"Variable","name":{"kind":"Name","value":"count"}}},{"kind":"Argument","name":{"kind":"Name","value":"at"},"value":{"kind":"Variable","name":{"kind":"Name","value":"at"}}}]}]}}]} as unknown as DocumentNode<UpdateCounterMutation, UpdateCounterMutationVariables>;
export const CounterDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Counter"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"precision"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"counter"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"precision"},"value":{"kind":"Variable","name":{"kind":"Name","value":"precision"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"time"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}}]} as unknown as DocumentNode<CounterQuery, CounterQueryVariables>;
export const CountersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Counters"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"counters"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"precisions"}}]}}]}}]} as unknown as DocumentNode<CountersQuery, CountersQueryVariables>;
export const CounterUpdatedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"CounterUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"counterUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"time"}}]}}]}}]} as unknown as DocumentNode<CounterUpdatedSubscription, CounterUpdatedSubscriptionVariables>;
export const AcquireLockDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AcquireLock"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"acquireTimeoutMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"lockTimeoutMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"acquireLock"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"acquireTimeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"acquireTimeoutMs"}}},{"kind":"Argument","name":{"kind":"Name","value":"lockTimeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"lockTimeoutMs"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<AcquireLockMutation, AcquireLockMutationVariables>;
export const ReleaseLockDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReleaseLock"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"token"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"releaseLock"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"token"},"value":{"kind":"Variable","name":{"kind":"Name","value":"token"}}}]}]}}]} as unknown as DocumentNode<ReleaseLockMutation, ReleaseLockMutationVariables>;
export const RefreshLockDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RefreshLock"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"token"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"lockTimeoutMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"refreshLock"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"token"},"value":{"kind":"Variable","name":{"kind":"Name","value":"token"}}},{"kind":"Argument","name":{"kind":"Name","value":"lockTimeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"lockTimeoutMs"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<RefreshLockMutation, RefreshLockMutationVariables>;
export const LockStateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LockState"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lock"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"holder"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Holder"}}]}},{"kind":"Field","name":{"kind":"Name","value":"waiting"}},{"kind":"Field","name":{"kind":"Name","value":"lastFencingToken"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Holder"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LeaseHolder"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"owner"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"timeLeftMs"}}]}}]} as unknown as DocumentNode<LockStateQuery, LockStateQueryVariables>;
export const LockReleasedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LockReleased"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lockReleased"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"releasedAt"}}]}}]}}]} as unknown as DocumentNode<LockReleasedSubscription, LockReleasedSubscriptionVariables>;
export const AcquireSemaphoreDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AcquireSemaphore"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"waitMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"acquireSemaphore"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}},{"kind":"Argument","name":{"kind":"Name","value":"timeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}}},{"kind":"Argument","name":{"kind":"Name","value":"waitMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"waitMs"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<AcquireSemaphoreMutation, AcquireSemaphoreMutationVariables>;
export const RefreshSemaphoreDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RefreshSemaphore"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"refreshSemaphore"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<RefreshSemaphoreMutation, RefreshSemaphoreMutationVariables>;
export const ReleaseSemaphoreDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReleaseSemaphore"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"releaseSemaphore"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<ReleaseSemaphoreMutation, ReleaseSemaphoreMutationVariables>;
export const SemaphoreStateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SemaphoreState"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"semaphore"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"holders"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"Holder"}}]}},{"kind":"Field","name":{"kind":"Name","value":"waiting"}},{"kind":"Field","name":{"kind":"Name","value":"lastFencingToken"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"Holder"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LeaseHolder"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fencingToken"}},{"kind":"Field","name":{"kind":"Name","value":"owner"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"timeLeftMs"}}]}}]} as unknown as DocumentNode<SemaphoreStateQuery, SemaphoreStateQueryVariables>;
export const SemaphoreReleasedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"SemaphoreReleased"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"semaphoreReleased"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"releasedAt"}}]}}]}}]} as unknown as DocumentNode<SemaphoreReleasedSubscription, SemaphoreReleasedSubscriptionVariables>;
export const SendDirectMessageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SendDirectMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"message"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sendDirectMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"message"},"value":{"kind":"Variable","name":{"kind":"Name","value":"message"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DirectMessageFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DirectMessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DirectMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}}]}}]} as unknown as DocumentNode<SendDirectMessageMutation, SendDirectMessageMutationVariables>;
export const FetchDirectMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"FetchDirectMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fetchDirectMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DirectMessageFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DirectMessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DirectMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}}]}}]} as unknown as DocumentNode<FetchDirectMessagesMutation, FetchDirectMessagesMutationVariables>;
export const DirectMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DirectMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"directMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DirectMessageFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DirectMessageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DirectMessage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sender"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"ts"}}]}}]} as unknown as DocumentNode<DirectMessagesQuery, DirectMessagesQueryVariables>;
export const AckDirectMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AckDirectMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"upToId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ackDirectMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"upToId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"upToId"}}}]}]}}]} as unknown as DocumentNode<AckDirectMessagesMutation, AckDirectMessagesMutationVariables>;
export const MailboxDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Mailbox"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"user"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"mailbox"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"user"},"value":{"kind":"Variable","name":{"kind":"Name","value":"user"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"user"}},{"kind":"Field","name":{"kind":"Name","value":"waiting"}},{"kind":"Field","name":{"kind":"Name","value":"oldestTs"}},{"kind":"Field","name":{"kind":"Name","value":"latestMessageId"}}]}}]}}]} as unknown as DocumentNode<MailboxQuery, MailboxQueryVariables>;