// Push targets and messages: the shapes the target registry, the providers and the push tasks
// share. A leaf module: it imports nothing of the project's.

export type PushKind = 'webpush' | 'apns' | 'fcm';

/** Where one device is reached when it has no socket open: one target per device. */
export type PushTarget =
  | {
      kind: 'webpush';
      /** The push service's URL for this subscription (RFC 8030 push resource). */
      endpoint: string;
      /** The subscription's keys, base64url: the client's P-256 public key and its auth secret (RFC 8291). */
      keys: { p256dh: string; auth: string };
    }
  | {
      kind: 'apns';
      /** The device token, hex. */
      token: string;
      /** Which APNs the token belongs to: development builds get sandbox tokens. */
      environment: 'production' | 'sandbox';
    }
  | {
      kind: 'fcm';
      /** The FCM registration token. */
      token: string;
    };

/**
 * What one push says: ids and counts only, never text or a sender, so nothing a person wrote
 * passes through Apple's or Google's servers. The app wakes and pulls.
 */
export interface PushMessage {
  /** The chat that has something new; undefined for the mailbox. */
  chatId?: string;
  /** True for the mailbox (direct messages). */
  mailbox: boolean;
  /** The latest entry id the push is about (a chat entry id, or a mailbox message id). */
  upTo: number;
  /** Entries after what the person has seen (chat), or messages waiting (mailbox). */
  unread: number;
  /**
   * Only the count changed (read on another device): APNs and FCM update silently, nothing is
   * shown. Never sent to Web Push, where every push must show a notification.
   */
  badgeOnly: boolean;
  /** The pushes of one chat (or the mailbox) replace each other: Topic, apns-collapse-id, collapse_key. */
  collapseKey: string;
  /** Seconds the provider may hold the push for an unreachable device; 0: now or never. */
  ttlSeconds: number;
}

/**
 * How one attempt went. `gone`: the provider says the target no longer exists (404/410, APNs
 * Unregistered, FCM UNREGISTERED): it is removed. `retry`: try again later (timeouts, 429, 5xx),
 * after `retryAfterMs` when the provider said. `rejected`: this push can never be delivered as
 * made (a 400 for a bad payload, a bad credential): dropped, logged.
 */
export type PushResult =
  | { outcome: 'sent' }
  | { outcome: 'gone'; reason: string }
  | { outcome: 'retry'; reason: string; retryAfterMs?: number }
  | { outcome: 'rejected'; reason: string };

/** One provider's client. `send` never throws: every failure is a PushResult. */
export interface PushSender {
  readonly kind: PushKind;
  send(target: PushTarget, message: PushMessage, signal?: AbortSignal): Promise<PushResult>;
  close(): Promise<void>;
}
