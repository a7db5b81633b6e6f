// The phone side of the subscribers benchmark: a lean hand-written graphql-ws client that
// subscribes to inboxChanged and on each notification pulls with fetchPendingMessages over the
// same socket (why not graphql-ws's createClient: docs/performance.md, the subscribers method).
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { benchTokens } from './harness';
import type { Deliveries } from './subscribers-load';

export type PulledMessage = { chatId: string; id: number; sender: string };

/** The authorization header (or connection_init field) of a user the product accepts. */
export const bearer = (user: string): string => `Bearer ${benchTokens.sign(user, [], 3600)}`;

const SUBSCRIBE = 'subscription Inbox { inboxChanged { chatId latestMessageId mailbox } }';
const PULL = 'mutation Pull { fetchPendingMessages { chatId remaining messages { id sender } } }';

interface PullReply {
  data?: { fetchPendingMessages: { chatId: string; remaining: number; messages: { id: number; sender: string }[] }[] };
  errors?: unknown[];
}

/**
 * One member's device, graphql-transport-ws by hand (one JSON parse per frame, no timers): each notification
 * leads to a pull, those during a pull to one more after it (coalesced, as the API allows).
 */
export class Subscriber {
  /** Id of the last message pulled from the member's chat (the first is seen at the start): the next must be one more. */
  lastPulledId = 1;
  notifications = 0;
  /** Notifications naming a chat the member is not in. */
  misrouted = 0;
  pulls = 0;
  closedWith: number | undefined;
  /** True while a pull is on its way. */
  busy = false;
  private again = false;
  private closing = false;
  private socket?: WebSocket;
  private operations = 0;
  private readonly pending = new Map<string, { resolve(reply: PullReply): void; reject(error: Error): void }>();
  private readonly replies = new Map<string, PullReply>();

  constructor(
    readonly user: string,
    readonly chatId: string,
    private readonly url: string,
    private readonly sink: Deliveries,
  ) {}

  /** Opens the socket and starts the subscription; resolves at connection_ack. */
  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url, 'graphql-transport-ws', { perMessageDeflate: false });
      this.socket = socket;
      const send = (message: object): void => socket.send(JSON.stringify(message));
      socket.on('open', () => send({ type: 'connection_init', payload: { authorization: bearer(this.user) } }));
      socket.on('error', reject);
      socket.on('close', (code) => {
        reject(new Error(`socket closed (${code}) before connection_ack`));
        for (const pull of this.pending.values()) pull.reject(new Error(`socket closed (${code}) during a pull`));
        this.pending.clear();
        this.closedWith = code;
      });
      socket.on('message', (data) => {
        const { type, id = '', payload } = JSON.parse(String(data)) as { type: string; id?: string; payload?: unknown };
        const pull = this.pending.get(id);
        if (type === 'connection_ack') {
          send({ id: 's', type: 'subscribe', payload: { query: SUBSCRIBE } });
          resolve();
        } else if (type === 'ping') socket.send('{"type":"pong"}');
        else if (type === 'next' && id === 's') {
          const reply = payload as { data?: { inboxChanged: { chatId: string | null } }; errors?: unknown[] };
          if (reply.errors?.length || !reply.data)
            this.fail(new Error(`inboxChanged failed: ${JSON.stringify(reply.errors)}`));
          else this.notified(reply.data.inboxChanged.chatId);
        } else if (type === 'next') this.replies.set(id, payload as PullReply);
        else if (type === 'complete' || type === 'error') {
          const ended = type === 'error' ? `refused: ${JSON.stringify(payload)}` : 'completed by the server';
          if (id === 's') this.fail(new Error(`inboxChanged was ${ended}`));
          const reply = this.replies.get(id);
          this.pending.delete(id);
          this.replies.delete(id);
          if (type === 'error') pull?.reject(new Error(`a pull was ${ended}`));
          else if (reply) pull?.resolve(reply);
          else pull?.reject(new Error('a pull completed without a result'));
        }
      });
    });
  }

  /** Pulls now, as an app does when it opens (resolves once nothing is pending or a pull was already on its way). */
  async catchUp(): Promise<void> {
    if (!this.busy) await this.pullUntilEmpty();
  }

  /** Closes the socket; a pull it cuts short is not a failure. */
  close(): void {
    this.closing = true;
    this.socket?.terminate();
  }

  private fail(error: unknown): void {
    if (!this.closing) this.sink.error(`${this.user}: ${(error as Error).message}`);
  }

  private notified(chatId: string | null): void {
    this.notifications++;
    if (chatId !== this.chatId) this.misrouted++;
    if (this.busy) this.again = true;
    else void this.pullUntilEmpty();
  }

  private pull(): Promise<PullReply> {
    const id = `p${++this.operations}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket!.send(JSON.stringify({ id, type: 'subscribe', payload: { query: PULL } }));
    });
  }

  private async pullUntilEmpty(): Promise<void> {
    this.busy = true;
    try {
      do {
        this.again = false;
        const asked = performance.now();
        const reply = await this.pull();
        const at = performance.now();
        if (reply.errors?.length || !reply.data)
          throw new Error(`fetchPendingMessages failed: ${JSON.stringify(reply.errors)}`);
        this.pulls++;
        for (const chat of reply.data.fetchPendingMessages) {
          if (chat.remaining > 0) this.again = true;
          for (const { id, sender } of chat.messages)
            this.sink.pulled(this, { chatId: chat.chatId, id, sender }, asked, at);
        }
      } while (this.again);
    } catch (error) {
      this.fail(error);
    } finally {
      this.busy = false;
    }
  }
}
