// The API's side of push: after an entry lands in a chat or a mailbox, a push decision is made
// due after PUSH_DELAY_MS, once per burst (the first entry of a quiet chat starts the wait, the
// decision takes every entry up to then); after a reading, the badge-only updates. A failure here
// is logged and never fails the send: the entry is stored, and the pull stays the source of truth.
import type { Logger } from '../common/logger';
import { chatKeys, PUSH_QUEUE, userKeys } from '../redis/keys';
import type { PushDecisions } from '../redis/push/decisions';
import type { TaskRepository } from '../redis/task';
import type { PushConfig } from './settings';

const DECIDE_ATTEMPTS = 5;

export class PushScheduler {
  private readonly enabled: boolean;
  private readonly badges: boolean;

  constructor(
    private readonly decisions: PushDecisions,
    private readonly tasks: TaskRepository,
    private readonly config: PushConfig,
    private readonly logger: Logger,
  ) {
    this.badges = config.apns !== undefined || config.fcm !== undefined;
    this.enabled = this.badges || config.webPush !== undefined;
  }

  /** After a new message in a chat (not an edit or deletion: those wake nobody). */
  async chatEntry(chatId: string): Promise<void> {
    if (this.enabled) await this.due(chatKeys.pushDue(chatId), { chatId });
  }

  /** After a direct message to `user`. */
  async mailboxEntry(user: string): Promise<void> {
    if (this.enabled) await this.due(userKeys.mailboxPushDue(user), { mailboxOf: user });
  }

  /** After `user` read a chat (on `device`, when said): the other devices' badges. */
  async chatRead(user: string, chatId: string, device: string | undefined): Promise<void> {
    if (!this.badges) return;
    await this.enqueue('push-read', { user, chatId, device: device ?? '' }, 0);
  }

  private async due(key: string, args: object): Promise<void> {
    try {
      if (!(await this.decisions.due(key, this.config.delayMs))) return;
      // Without its decision the mark would hold off the next entries' for the delay.
      if (!(await this.enqueue('push-decide', args, this.config.delayMs))) await this.decisions.settle(key);
    } catch (error) {
      this.logger.warn({ err: error, ...args }, 'push decision not made');
    }
  }

  /** True when queued; a failure is logged. */
  private async enqueue(name: string, args: object, delayMs: number): Promise<boolean> {
    try {
      await this.tasks.enqueue({
        queue: PUSH_QUEUE,
        name,
        args: JSON.stringify(args),
        priority: 'NORMAL',
        delayMs,
        idempotencyKey: undefined,
        maxAttempts: DECIDE_ATTEMPTS,
        backoffMs: this.config.retryMs,
      });
      return true;
    } catch (error) {
      this.logger.warn({ err: error, name, ...args }, 'push task not queued');
      return false;
    }
  }
}
