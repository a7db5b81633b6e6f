// Direct messages (book section 6.5.1): one list per recipient, oldest first, with ids from a
// per-mailbox counter. Every change is one script on the recipient's slot.
import type { RedisClient } from './client/connection';
import { userKeys } from './keys';
import { repliesOf } from './client/replies';
import { runScript } from './client/scripts';

export interface DirectMessage {
  id: number;
  sender: string;
  message: string;
  /** Unix milliseconds, from the Redis server's clock. */
  ts: number;
}

export interface MailboxStatus {
  waiting: number;
  /** Unix milliseconds of the oldest waiting message. */
  oldestTs: number | undefined;
  latestMessageId: number;
}

export class MailboxRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly settings: { maxMailboxMessages: number },
  ) {}

  /** Appends to the recipient's mailbox; returns the message and how many now wait there. */
  async send(to: string, sender: string, text: string): Promise<{ message: DirectMessage; waiting: number }> {
    const [json, waiting] = (await runScript(
      this.redis,
      'mailbox-send',
      [userKeys.mailbox(to), userKeys.mailboxIds(to)],
      [sender, text, this.settings.maxMailboxMessages],
    )) as [string, number];
    return { message: JSON.parse(json) as DirectMessage, waiting };
  }

  /** The oldest `limit` messages, removed from the mailbox when `remove` is set. */
  async take(user: string, limit: number, remove: boolean): Promise<{ messages: DirectMessage[]; remaining: number }> {
    const [remaining, ...found] = (await runScript(
      this.redis,
      'mailbox-take',
      [userKeys.mailbox(user)],
      [limit, remove ? '1' : '0'],
    )) as [number, ...string[]];
    return { messages: found.map((json) => JSON.parse(json) as DirectMessage), remaining };
  }

  /** Removes waiting messages with ids up to `upToId`; returns how many. */
  async acknowledge(user: string, upToId: number): Promise<number> {
    return Number(await runScript(this.redis, 'mailbox-ack', [userKeys.mailbox(user)], [upToId]));
  }

  async status(user: string): Promise<MailboxStatus> {
    const [waiting, oldest, latest] = (await repliesOf(
      this.redis
        .multi()
        .llen(userKeys.mailbox(user))
        .lindex(userKeys.mailbox(user), 0)
        .get(userKeys.mailboxIds(user))
        .exec(),
    )) as [number, string | null, string | null];
    return {
      waiting,
      oldestTs: oldest === null ? undefined : (JSON.parse(oldest) as DirectMessage).ts,
      latestMessageId: Number(latest ?? 0),
    };
  }
}
