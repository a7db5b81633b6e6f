// Wakes callers waiting for a lock or semaphore slot when one is freed, from the PUBLISH that the
// release script makes. It has its own subscriber connection, one SUBSCRIBE per name however many
// wait for it here, and stays subscribed a while after the last waiter so a busy name does not
// cost a SUBSCRIBE per acquire. On a cluster the release script publishes by sharded pub/sub, so
// waiters SSUBSCRIBE. A release published while the connection is down reaches nobody: once it
// is back and subscribed again, every waiter is told to ask again (and waiters also poll).
import { notificationCommands, onSubscriberBack, type RedisClient } from '../client/connection';
import type { Logger } from '../../common/logger';
import { parseReleaseNotice, type ReleaseNotice } from './repository';

/** Called with each release notice, or with undefined when notices may have been missed. */
type Listener = (notice: ReleaseNotice | undefined) => void;

interface Channel {
  listeners: Set<Listener>;
  ready: Promise<void>;
  /** Redis confirmed the SUBSCRIBE. */
  subscribed: boolean;
  idleTimer: NodeJS.Timeout | undefined;
}

export class LeaseSignals {
  private readonly channels = new Map<string, Channel>();
  private readonly commands: ReturnType<typeof notificationCommands>;

  constructor(
    subscriber: RedisClient,
    private readonly logger: Logger,
    private readonly lingerMs = 10_000,
  ) {
    this.commands = notificationCommands(subscriber);
    subscriber.on(this.commands.messageEvent, (channel: string, message: string) => {
      const entry = this.channels.get(channel);
      const notice = entry && parseReleaseNotice(message);
      if (notice) for (const listener of entry.listeners) listener(notice);
    });
    // Notices are lost only while the connection is down; after a refresh that lost nothing
    // (the cluster says it is back after each one) waiters are left alone.
    let lost = false;
    onSubscriberBack(
      subscriber,
      () => {
        lost = true;
      },
      () => {
        if (!lost) return;
        lost = false;
        void this.resume();
      },
    );
  }

  /**
   * After the subscriber connection came back: subscribes again to every name waited for and,
   * once Redis has answered, wakes every waiter to ask once (a release after the confirmation is
   * heard; one before it is found by that asking). A failed SUBSCRIBE leaves its waiters polling.
   */
  private async resume(): Promise<void> {
    const names = [...this.channels.keys()];
    if (names.length === 0) return;
    const answers = await Promise.allSettled(names.map((channel) => this.commands.subscribe(channel)));
    const failed = answers.find((answer): answer is PromiseRejectedResult => answer.status === 'rejected');
    if (failed)
      this.logger.warn({ err: failed.reason }, 'could not resubscribe to lease releases; waiters poll instead');
    let waiters = 0;
    for (const channel of names) {
      const entry = this.channels.get(channel);
      if (!entry) continue;
      waiters += entry.listeners.size;
      for (const listener of entry.listeners) listener(undefined);
    }
    this.logger.info({ names: names.length, waiters }, 'lease release subscriber back: waiters told to ask again');
  }

  /** Whether a listener added now hears every later release at once, with no SUBSCRIBE to wait for. */
  isSubscribed(channel: string): boolean {
    return this.channels.get(channel)?.subscribed === true;
  }

  /**
   * Calls `listener` for each release on `channel` until the returned function is called.
   * Resolves once Redis has confirmed the subscription, so a release after that is heard. If
   * subscribing fails the waiter still works, by polling.
   */
  async listen(channel: string, listener: Listener): Promise<() => void> {
    let entry = this.channels.get(channel);
    if (!entry) {
      const created: Channel = {
        listeners: new Set(),
        ready: Promise.resolve(),
        subscribed: false,
        idleTimer: undefined,
      };
      created.ready = this.commands.subscribe(channel).then(
        () => {
          created.subscribed = true;
        },
        (error: unknown) => {
          if (this.channels.get(channel) === created) this.channels.delete(channel);
          this.logger.warn({ err: error, channel }, 'could not subscribe to lease releases; waiters poll instead');
        },
      );
      this.channels.set(channel, created);
      entry = created;
    }
    clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    entry.listeners.add(listener);
    await entry.ready;

    const subscribed = entry;
    return () => {
      subscribed.listeners.delete(listener);
      if (subscribed.listeners.size > 0 || subscribed.idleTimer) return;
      subscribed.idleTimer = setTimeout(() => {
        if (subscribed.listeners.size > 0 || this.channels.get(channel) !== subscribed) return;
        this.channels.delete(channel);
        this.commands.unsubscribe(channel).catch(() => undefined);
      }, this.lingerMs);
      subscribed.idleTimer.unref();
    };
  }

  close(): void {
    for (const entry of this.channels.values()) clearTimeout(entry.idleTimer);
    this.channels.clear();
  }
}
