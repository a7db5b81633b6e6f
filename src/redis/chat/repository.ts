// Group chats (book section 6.5.2). A chat's keys hold its members with their seen-ids, its
// messages and its latest id; every change to a chat is one script on the chat's slot. A user's
// chat index, on the user's slot, only says which chats to look at (user-index.ts).
//
// The one repository resolvers and tests hold; each concern is a module of this folder, and this
// class hands every call to the one that does it.
import type { RedisClient } from '../client/connection';
import type { PushTargets } from '../push/targets';
import { ChatCursors } from './cursors';
import { ChatDevices } from './devices';
import { ChatLog } from './log';
import { ChatMembership } from './membership';
import { ChatRetentionStore } from './retention';
import { ChatSends } from './send';
import { ChatTyping } from './typing';
import type { ChatSettings } from './types';
import { ChatIndex } from './user-index';

export class ChatRepository {
  private readonly devices: ChatDevices;
  private readonly membership: ChatMembership;
  private readonly sends: ChatSends;
  private readonly log: ChatLog;
  private readonly cursors: ChatCursors;
  private readonly retention: ChatRetentionStore;
  private readonly typists: ChatTyping;

  /** With `pushTargets`, a device pushed out of a user's list loses its push target too. */
  constructor(redis: RedisClient, settings: ChatSettings, pushTargets?: Pick<PushTargets, 'removeDevices'>) {
    this.devices = new ChatDevices(redis, settings.deviceTtlSeconds * 1000, settings.maxDevices);
    const index = new ChatIndex(redis, settings.maxChatsPerUser);
    this.membership = new ChatMembership(redis, settings, this.devices, index);
    this.sends = new ChatSends(redis, settings);
    this.log = new ChatLog(redis, settings);
    this.cursors = new ChatCursors(redis, settings, this.devices, index, pushTargets);
    this.retention = new ChatRetentionStore(redis, settings);
    this.typists = new ChatTyping(redis);
  }

  // Membership and owners (membership.ts).

  /** Creates a chat of `sender` and `others` (distinct, without the sender) and sends its first message. */
  create(...args: Parameters<ChatMembership['create']>): ReturnType<ChatMembership['create']> {
    return this.membership.create(...args);
  }

  /** The caller joins an open chat (or one they are in already, keeping their seen-id). */
  join(...args: Parameters<ChatMembership['join']>): ReturnType<ChatMembership['join']> {
    return this.membership.join(...args);
  }

  /** A member adds others; each starts at the chat's latest message. */
  add(...args: Parameters<ChatMembership['add']>): ReturnType<ChatMembership['add']> {
    return this.membership.add(...args);
  }

  /** False when the user was not a member. The last member out deletes the chat. */
  leave(...args: Parameters<ChatMembership['leave']>): ReturnType<ChatMembership['leave']> {
    return this.membership.leave(...args);
  }

  /** An owner (or the service when `anyChat`) removes `user`; '' for a remover: the user leaves. */
  removeMember(...args: Parameters<ChatMembership['removeMember']>): ReturnType<ChatMembership['removeMember']> {
    return this.membership.removeMember(...args);
  }

  /** An owner (or the service) makes a member an owner or takes it back; false when it already was so. */
  setOwner(...args: Parameters<ChatMembership['setOwner']>): ReturnType<ChatMembership['setOwner']> {
    return this.membership.setOwner(...args);
  }

  /** The user's chats, by id; entries of chats the user has left are dropped from the index. */
  summaries(...args: Parameters<ChatMembership['summaries']>): ReturnType<ChatMembership['summaries']> {
    return this.membership.summaries(...args);
  }

  /** The chat as `user` sees it, or undefined when it does not exist or they are not a member. */
  summary(...args: Parameters<ChatMembership['summary']>): ReturnType<ChatMembership['summary']> {
    return this.membership.summary(...args);
  }

  /** Member names in byte order. Callers check membership first. */
  members(...args: Parameters<ChatMembership['members']>): ReturnType<ChatMembership['members']> {
    return this.membership.members(...args);
  }

  // The log and sends (send.ts, log.ts).

  /** Stores a message with the chat's next id; members only. With `notice`, the script tells the members. */
  send(...args: Parameters<ChatSends['send']>): ReturnType<ChatSends['send']> {
    return this.sends.send(...args);
  }

  /** Appends an edit of the sender's own message; with `version`, one against an older text is refused. */
  edit(...args: Parameters<ChatSends['edit']>): ReturnType<ChatSends['edit']> {
    return this.sends.edit(...args);
  }

  /** Appends a deletion of the sender's own message; its text and its edits' texts are gone. */
  delete(...args: Parameters<ChatSends['delete']>): ReturnType<ChatSends['delete']> {
    return this.sends.delete(...args);
  }

  /** One page of the entries kept before `before`, oldest first; undefined for a non-member. */
  history(...args: Parameters<ChatLog['history']>): ReturnType<ChatLog['history']> {
    return this.log.history(...args);
  }

  // Cursors and devices (cursors.ts, devices.ts).

  /** Every chat of `user` with entries after their cursor (or `device`'s), shared fairly. */
  pending(...args: Parameters<ChatCursors['pending']>): ReturnType<ChatCursors['pending']> {
    return this.cursors.pending(...args);
  }

  /** Moves the member's seen-id, or `device`'s cursor and the seen-id with it, forward. */
  markSeen(...args: Parameters<ChatCursors['markSeen']>): ReturnType<ChatCursors['markSeen']> {
    return this.cursors.markSeen(...args);
  }

  /** Where each member has read up to (their seen-id), by name. Callers check membership first. */
  readPositions(...args: Parameters<ChatCursors['readPositions']>): ReturnType<ChatCursors['readPositions']> {
    return this.cursors.readPositions(...args);
  }

  /** The user's devices, most recent first; see ChatDevices. */
  deviceList(...args: Parameters<ChatDevices['list']>): ReturnType<ChatDevices['list']> {
    return this.devices.list(...args);
  }

  // Retention, details and typing (retention.ts, typing.ts).

  /** Retention, role and who is typing, as `user` may see them; undefined for a non-member. */
  details(...args: Parameters<ChatRetentionStore['details']>): ReturnType<ChatRetentionStore['details']> {
    return this.retention.details(...args);
  }

  /** An owner (or the service) changes the chat's retention; what `change` leaves out stays. */
  setRetention(
    ...args: Parameters<ChatRetentionStore['setRetention']>
  ): ReturnType<ChatRetentionStore['setRetention']> {
    return this.retention.setRetention(...args);
  }

  /** The member starts or stops typing; false when the others were not told. */
  typing(...args: Parameters<ChatTyping['typing']>): ReturnType<ChatTyping['typing']> {
    return this.typists.typing(...args);
  }
}
