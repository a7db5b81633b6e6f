// What the chat repository takes and gives: the shapes of entries, chats and pages, and the
// settings with their defaults. A leaf, so every part of the folder (and config.ts) can import it.

/** An entry of a chat's log: a message, or an edit or deletion of one (which names it in `target`). */
export type EntryKind = 'message' | 'edit' | 'delete';

export interface ChatMessage {
  id: number;
  chatId: string;
  sender: string;
  /** The text: for a message, as last edited; '' once deleted. */
  message: string;
  /** Unix milliseconds, from the Redis server's clock. */
  ts: number;
  kind: EntryKind;
  /** The message an edit or deletion changes; null for a message. */
  target: number | null;
  /** When a message was last edited (unix ms); null when never. */
  editedAt: number | null;
  /** A deleted message, or an edit of one: the text is gone. */
  deleted: boolean;
  /** A message's version: the id of the entry that gave it its text (its own, or its last edit's); an edit's or deletion's own id. */
  version: number;
}

export type RetentionMode = 'history' | 'seen';

/** How long a chat keeps its entries: the newest `keepMessages`, none older than `keepMs`. */
export interface Retention {
  /** 'seen' also deletes entries once every member and device has taken them (the book's way). */
  mode: RetentionMode;
  keepMessages: number;
  keepMs: number;
}

export interface ChatDetails {
  retention: Retention;
  owner: boolean;
  /** Members typing now, in byte order. */
  typing: string[];
}

export interface HistoryPage {
  /** Oldest first. */
  messages: ChatMessage[];
  /** Whether older entries are kept. */
  hasMore: boolean;
  /** No entry before this id is kept for the caller. */
  historyStart: number;
}

export interface ReadPosition {
  user: string;
  messageId: number;
}

export interface ChatSummary {
  id: string;
  open: boolean;
  memberCount: number;
  latestMessageId: number;
  /** The caller's seen-id. */
  seenMessageId: number;
}

export interface PendingChat {
  chatId: string;
  messages: ChatMessage[];
  /** Entries still pending after these. */
  remaining: number;
  /** No entry before this id is kept for the reader. */
  historyStart: number;
  /** The device had been forgotten: its cursor started again at its user's seen-id. */
  deviceForgotten: boolean;
}

export interface SentMessage {
  message: ChatMessage;
  /** False when this was a retry of an earlier send with the same clientMessageId. */
  stored: boolean;
  members: string[];
  /** Whether the script told the members (it was given a ScriptNotice). */
  told: boolean;
}

/** How the send script tells each member: the notice is `before + message id + after`. */
export interface ScriptNotice {
  channelPrefix: string;
  before: string;
  after: string;
}

export interface ChatSettings {
  /** Most members one chat may have. */
  maxChatMembers: number;
  /** Most chats one user may belong to (bounds the work of one fetch). */
  maxChatsPerUser: number;
  /** How long a sender's clientMessageId is remembered, so a retry does not send twice. */
  dedupeSeconds: number;
  /** The retention of chats created without one, and of chats from before retention existed. */
  retention: Retention;
  /** A device that has not fetched for this long is forgotten, and its cursors go. */
  deviceTtlSeconds: number;
  /** Most live devices per user; a new one beyond makes the least recent forgotten. */
  maxDevices: number;
}

/**
 * What a chat app would pick: the newest 10,000 entries of the last 90 days; a device silent for
 * 30 days is forgotten; 10 live devices per user. config.ts reads each from the environment.
 */
export const CHAT_DEFAULTS: Pick<ChatSettings, 'retention' | 'deviceTtlSeconds' | 'maxDevices'> = {
  retention: { mode: 'history', keepMessages: 10_000, keepMs: 90 * 86_400_000 },
  deviceTtlSeconds: 30 * 86_400,
  maxDevices: 10,
};
