// The phones: every chat member holds a graphql-ws inboxChanged socket, opened again on a live
// process when its own dies. Check: after the last fault every phone hears of new messages again
// (its socket back, the server's Redis subscription restored). docs/development.md#soak.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { sumOf } from '../harness/support';
import { check, Load, sample, type Check, type SoakContext } from './actor';

const SUBSCRIBE = 'subscription { inboxChanged { mailbox chatId latestMessageId } }';
/** Time a socket is given to come back and hear of something after a fault ended. */
const RECOVERY_MS = 5000;

type Subscriber = { user: string; client?: Client; notices: number[]; failures: string[] };

export class SubscriberLoad extends Load {
  readonly name = 'subscribers';
  private subscribers: Subscriber[] = [];
  private lastFaultEnded = 0;
  protected readonly counts = { opened: 0 };

  /** `users`: who holds a socket, known once the chats are set up. */
  constructor(
    soak: SoakContext,
    private readonly users: () => string[],
  ) {
    super(soak);
  }

  override async setup(): Promise<void> {
    this.subscribers = this.users().map((user) => ({ user, notices: [], failures: [] }));
  }

  /** The last fault is over (its process started again) at this moment. */
  faultEnded(): void {
    this.lastFaultEnded = Date.now();
  }

  protected clients() {
    return this.subscribers.map((subscriber) => () => this.hold(subscriber));
  }

  override async drain(): Promise<void> {
    for (const subscriber of this.subscribers) await subscriber.client?.dispose();
  }

  check(): Check[] {
    const since = this.lastFaultEnded + RECOVERY_MS;
    const silent = this.subscribers.filter((s) => !s.notices.some((at) => at > since)).map((s) => s.user);
    const failures = this.subscribers.flatMap((s) => s.failures.map((f) => `${s.user}: ${f}`));
    const { sockets, notices, opened } = this.stats();
    return [
      check(
        'subscriptions: every phone is told of new messages again after the faults',
        this.lastFaultEnded > 0 && silent.length === 0 && failures.length === 0,
        silent.length || failures.length
          ? `${silent.length} heard nothing after ${new Date(since).toISOString()}: ${sample(silent)}; ${sample(failures)}`
          : `${sockets} sockets, ${notices} notices, ${opened - sockets} reopened`,
      ),
    ];
  }

  override stats(): Record<string, number> {
    const notices = sumOf(this.subscribers, (s) => s.notices.length);
    return { sockets: this.subscribers.length, notices, ...super.stats() };
  }

  /** Opens a socket for `subscriber` and holds it until it closes or the load stops. */
  private async hold(subscriber: Subscriber): Promise<void> {
    const origin = this.soak.api.pick();
    if (!origin) return this.pause(200);
    this.counts.opened++;
    await new Promise<void>((resolve) => {
      const watch = setInterval(() => this.stopped() && done(), 200);
      const done = (): void => {
        clearInterval(watch);
        // Also when only the subscription ended: the next step opens a socket of its own.
        void client.dispose();
        resolve();
      };
      const client = createClient({
        url: `${origin.replace(/^http/, 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        lazy: false,
        retryAttempts: 0,
        connectionParams: { authorization: `Bearer ${this.soak.token(subscriber.user)}` },
        on: { closed: done },
        onNonLazyError: done,
      });
      subscriber.client = client;
      client.subscribe(
        { query: SUBSCRIBE },
        {
          next: (reply) => {
            if (reply.errors) subscriber.failures.push(JSON.stringify(reply.errors).slice(0, 200));
            else subscriber.notices.push(Date.now());
          },
          // A socket that closed under it (its process was killed) ends it with an error: it opens again.
          error: done,
          complete: done,
        },
      );
    });
    if (!this.stopped()) await this.pause(100);
  }
}
