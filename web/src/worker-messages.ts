// What the service worker (web/sw/sw.ts) tells the app's windows. Types only: the worker is its
// own script, typed against the worker's globals, and shares nothing else with the app.

/** A push's payload as the API sends it: ids and counts, never text or a sender. */
export interface PushPayload {
  /** The chat with something new; absent for the mailbox (direct messages). */
  chatId?: string;
  mailbox: boolean;
  /** The newest entry (or mailbox message) id the push is about. */
  upTo: number;
  unread: number;
}

export type WorkerMessage =
  /** A push came: pull as on a subscription notice. `push` is null when its payload was unreadable. */
  | { type: 'pushed'; push: PushPayload | null }
  /** A notification was clicked: show that chat (null: the chat list). */
  | { type: 'open'; chatId: string | null };
