// The push queue's tasks. `push-decide` runs once a chat's (or a mailbox's) burst has settled:
// it finds the devices owed a push and makes a `push-send` task for each. `push-send` claims its
// push, checks before every attempt that it is still wanted, and sends it; a provider's failure
// fails the run, so the queue retries it with backoff. `push-read` makes the badge-only updates
// after a person read a chat on one of their devices.
import type { Logger } from '../common/logger';
import type { PushConfig } from '../push/settings';
import type { PushSenders } from '../push/providers';
import type { PushKind, PushMessage, PushResult, PushTarget } from '../push/types';
import type { PushDecisions, StoredTarget } from '../redis/push/decisions';
import type { TaskRepository } from '../redis/task';
import { chatKeys, PUSH_QUEUE, userKeys } from '../redis/keys';
import type { TaskHandlers } from './task-handlers';

/** What a decision (or the API, for a reading) asks of the push queue. */
type DecideArgs = { chatId: string } | { mailboxOf: string };
interface ReadArgs {
  user: string;
  chatId: string;
  /** The device that read, which needs no update; '' when not said. */
  device: string;
}
interface SendArgs {
  user: string;
  device: string;
  /** The chat; undefined for the mailbox. */
  chatId?: string;
  upTo: number;
  unread: number;
  badgeOnly?: boolean;
  /** When the push was decided (unix ms): a push older than PUSH_MAX_AGE_SECONDS is dropped. */
  at: number;
}

/** The targets' registry, as far as deliveries change it. */
export interface TargetRemover {
  /** Removes the device's target if it is still `target` (a newer registration stays). */
  removeIfSame(user: string, device: string, target: PushTarget): Promise<boolean>;
}

interface Deps {
  decisions: PushDecisions;
  targets: TargetRemover;
  tasks: TaskRepository;
  senders: PushSenders;
  config: PushConfig;
  logger: Logger;
}

/** Devices looked up at once while deciding: bounds the commands in flight for a large chat. */
const SLICE = 200;
const MAX_SEND_ATTEMPTS = 100;

/** What a push-send run ended with (its task result). */
type Outcome =
  | { sent: PushKind }
  | { dropped: 'expired' | 'no-target' | 'online' | 'had-it' | 'superseded' | 'no-provider' }
  | { gone: string }
  | { rejected: string };

class RetryLater extends Error {}

export function pushHandlers(deps: Deps): TaskHandlers {
  const { decisions, tasks, senders, config, logger } = deps;
  const kinds = Object.keys(senders) as PushKind[];
  const badgeKinds = kinds.filter((kind) => kind !== 'webpush');

  const enqueueSends = async (sends: SendArgs[]): Promise<void> => {
    if (sends.length === 0) return;
    await tasks.enqueueMany(
      PUSH_QUEUE,
      sends.map((send) => ({
        name: 'push-send',
        args: JSON.stringify(send),
        priority: 'HIGH' as const,
        delayMs: 0,
        idempotencyKey: undefined,
        maxAttempts: MAX_SEND_ATTEMPTS,
        backoffMs: config.retryMs,
        // A run is one provider request and two small scripts.
        timeoutMs: config.timeoutMs + 10_000,
      })),
    );
  };

  const decideChat = async (chatId: string): Promise<{ last: number; pushes: number }> => {
    // An entry sent from here on makes a decision of its own, whatever the clocks of the nodes.
    await decisions.settle(chatKeys.pushDue(chatId));
    const state = await decisions.chatState(chatId);
    const at = Date.now();
    // Whoever wrote the latest entry has just been here.
    const users = [...state.members]
      .filter(([user, seen]) => seen < state.last && user !== state.lastSender)
      .map(([user]) => user);
    let pushes = 0;
    for (let i = 0; i < users.length; i += SLICE) {
      const found = await Promise.all(
        users.slice(i, i + SLICE).map(async (user) => {
          const candidates = await decisions.candidates(user, kinds);
          return candidates.map(({ device }) => ({ user, device }));
        }),
      );
      const owed = await decisions.chatOwed(chatId, state.last, found.flat(), 'check');
      await enqueueSends(
        owed.map(({ user, device, unread }) => ({ user, device, chatId, upTo: state.last, unread, at })),
      );
      pushes += owed.length;
    }
    return { last: state.last, pushes };
  };

  const decideMailbox = async (user: string): Promise<{ last: number; pushes: number }> => {
    await decisions.settle(userKeys.mailboxPushDue(user));
    const { latest, waiting, owed } = await decisions.mailboxOwed(user);
    const at = Date.now();
    const usable = owed.filter(({ target }) => kinds.includes(target.kind));
    await enqueueSends(usable.map(({ device }) => ({ user, device, upTo: latest, unread: waiting, at })));
    return { last: latest, pushes: usable.length };
  };

  /**
   * Checks and claims (on every attempt, as `holder`: a duplicate task, or this one retried after
   * a run that failed before its claim, cannot send beside the holder), and says what the push
   * is; an Outcome when none is due.
   */
  const prepare = async (
    args: SendArgs,
    holder: string,
  ): Promise<Outcome | { target: StoredTarget; unread: number }> => {
    if (Date.now() - args.at > config.maxAgeSeconds * 1000) return { dropped: 'expired' };
    const check = await decisions.sendCheck(args.user, args.device);
    if (!check.target) return { dropped: 'no-target' };
    if (check.online && !args.badgeOnly) return { dropped: 'online' };
    // Nothing to claim for a badge: the reading that made it took the device's mark.
    if (args.badgeOnly) return { target: check.target, unread: args.unread };
    if (args.chatId !== undefined) {
      const [claim] = await decisions.chatOwed(args.chatId, args.upTo, [args], 'claim', holder);
      return claim ? { target: check.target, unread: claim.unread } : { dropped: 'had-it' };
    }
    if (check.waiting === 0 || check.oldestWaiting > args.upTo) return { dropped: 'had-it' };
    if (check.mailboxPushed > args.upTo) return { dropped: 'superseded' };
    const { owed } = await decisions.mailboxOwed(args.user, { device: args.device, upTo: args.upTo, holder });
    return owed.length === 0 ? { dropped: 'had-it' } : { target: check.target, unread: check.waiting };
  };

  const outcomeOf = async (args: SendArgs, target: StoredTarget, result: PushResult): Promise<Outcome> => {
    switch (result.outcome) {
      case 'sent':
        return { sent: target.kind };
      case 'gone':
        await deps.targets.removeIfSame(args.user, args.device, target);
        logger.info(
          { user: args.user, device: args.device, kind: target.kind, reason: result.reason },
          'push target gone: removed',
        );
        return { gone: result.reason };
      case 'rejected':
        logger.warn(
          { user: args.user, device: args.device, kind: target.kind, reason: result.reason },
          'push rejected',
        );
        return { rejected: result.reason };
      case 'retry':
        throw new RetryLater(`${target.kind}: ${result.reason}`);
    }
  };

  return {
    'push-decide': async (raw) => {
      const args = raw as DecideArgs;
      return 'chatId' in args ? decideChat(args.chatId) : decideMailbox(args.mailboxOf);
    },

    'push-read': async (raw) => {
      const { user, chatId, device } = raw as ReadArgs;
      if (badgeKinds.length === 0) return { updates: 0 };
      const devices = (await decisions.candidates(user, badgeKinds))
        .map((one) => one.device)
        .filter((one) => one !== device);
      const { last, due } = await decisions.chatRead(chatId, user, devices);
      const at = Date.now();
      await enqueueSends(
        due.map((one) => ({ user, device: one.device, chatId, upTo: last, unread: one.unread, badgeOnly: true, at })),
      );
      return { updates: due.length };
    },

    'push-send': async (raw, context): Promise<Outcome> => {
      const args = raw as SendArgs;
      const prepared = await prepare(args, context.id);
      if (!('target' in prepared)) return prepared;
      const { target, unread } = prepared;
      const sender = senders[target.kind];
      if (!sender || (args.badgeOnly && target.kind === 'webpush')) return { dropped: 'no-provider' };
      const ageSeconds = Math.floor((Date.now() - args.at) / 1000);
      const message: PushMessage = {
        chatId: args.chatId,
        mailbox: args.chatId === undefined,
        upTo: args.upTo,
        unread,
        badgeOnly: args.badgeOnly === true,
        collapseKey: args.chatId === undefined ? 'mailbox' : `chat:${args.chatId}`,
        ttlSeconds: Math.max(0, config.maxAgeSeconds - ageSeconds),
      };
      return outcomeOf(args, target, await sender.send(target, message, context.signal));
    },
  };
}
