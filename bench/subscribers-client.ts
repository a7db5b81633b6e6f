// The phone side of the subscribers benchmark: a lean hand-written graphql-ws client that
// subscribes to inboxChanged and on each notification pulls with fetchPendingMessages over the
// same socket (why not graphql-ws's createClient: docs/performance.md, the subscribers method).
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

export interface PulledMessage {
  chatId: string;
  id: number;
  sender: string;
}

interface PendingChatReply {
  chatId: string;
  remaining: number;
  messages: { id: number; sender: string }[];
}

interface TransportHandlers {
  notified(chatId: string | null): void;
  /** The subscription was refused or ended, or a frame made no sense. */
  failed(error: Error): void;
  closed(code: number): void;
}

const SUBSCRIBE = 'subscription Inbox { inboxChanged { chatId latestMessageId mailbox } }';
const PULL = 'mutation Pull { fetchPendingMessages { chatId remaining messages { id sender } } }';

interface GraphQLReply<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

type PullReply = GraphQLReply<{ fetchPendingMessages: PendingChatReply[] }>;
type NotificationReply = GraphQLReply<{ inboxChanged: { chatId: string | null } }>;

function pulledFrom(reply: PullReply): { messages: PulledMessage[]; remaining: number } {
  if (reply.errors?.length || !reply.data)
    throw new Error(`fetchPendingMessages failed: ${JSON.stringify(reply.errors)}`);
  const messages: PulledMessage[] = [];
  let remaining = 0;
  for (const chat of reply.data.fetchPendingMessages) {
    remaining += chat.remaining;
    for (const message of chat.messages) messages.push({ chatId: chat.chatId, id: message.id, sender: message.sender });
  }
  return { messages, remaining };
}

function notifiedChat(reply: NotificationReply): string | null | Error {
  if (reply.errors?.length || !reply.data) return new Error(`inboxChanged failed: ${JSON.stringify(reply.errors)}`);
  return reply.data.inboxChanged.chatId;
}

/** The graphql-transport-ws protocol by hand: one socket, one JSON parse per frame, no timers. */
export class Transport {
  private socket?: WebSocket;
  private operations = 0;
  private readonly pulls = new Map<
    string,
    { resolve: (reply: PullReply) => void; reject: (error: Error) => void; reply?: PullReply }
  >();

  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  open(handlers: TransportHandlers): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url, 'graphql-transport-ws', { perMessageDeflate: false });
      this.socket = socket;
      socket.on('open', () =>
        socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${this.token}` } })),
      );
      socket.on('error', reject);
      socket.on('close', (code) => {
        reject(new Error(`socket closed (${code}) before connection_ack`));
        for (const pull of this.pulls.values()) pull.reject(new Error(`socket closed (${code}) during a pull`));
        this.pulls.clear();
        handlers.closed(code);
      });
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string; id?: string; payload?: unknown };
        switch (message.type) {
          case 'connection_ack':
            socket.send(JSON.stringify({ id: 's', type: 'subscribe', payload: { query: SUBSCRIBE } }));
            resolve();
            break;
          case 'ping':
            socket.send('{"type":"pong"}');
            break;
          case 'next':
            if (message.id === 's') {
              const chatId = notifiedChat(message.payload as NotificationReply);
              if (chatId instanceof Error) handlers.failed(chatId);
              else handlers.notified(chatId);
            } else {
              const pull = this.pulls.get(message.id!);
              if (pull) pull.reply = message.payload as PullReply;
            }
            break;
          case 'complete': {
            const pull = this.pulls.get(message.id!);
            if (message.id === 's') handlers.failed(new Error('the server completed the inboxChanged subscription'));
            if (!pull) break;
            this.pulls.delete(message.id!);
            if (pull.reply) pull.resolve(pull.reply);
            else pull.reject(new Error('a pull completed without a result'));
            break;
          }
          case 'error': {
            const errors = JSON.stringify(message.payload);
            if (message.id === 's') handlers.failed(new Error(`inboxChanged was refused: ${errors}`));
            const pull = this.pulls.get(message.id!);
            this.pulls.delete(message.id!);
            pull?.reject(new Error(`a pull was refused: ${errors}`));
            break;
          }
        }
      });
    });
  }

  pull(): Promise<{ messages: PulledMessage[]; remaining: number }> {
    const id = `p${++this.operations}`;
    return new Promise<PullReply>((resolve, reject) => {
      this.pulls.set(id, { resolve, reject });
      this.socket!.send(JSON.stringify({ id, type: 'subscribe', payload: { query: PULL } }));
    }).then((reply) => pulledFrom(reply));
  }

  close(): void {
    this.socket?.terminate();
  }
}

/** What the benchmark learns from its subscribers. */
export interface DeliverySink {
  /** A message came back from a pull sent at `asked`, whose reply arrived `at` (both performance.now()). */
  pulled(subscriber: Subscriber, message: PulledMessage, asked: number, at: number): void;
  failed(subscriber: Subscriber, error: unknown): void;
}

/**
 * One member's device: every notification leads to a pull; notifications that arrive while a
 * pull is on its way lead to one more pull after it (they are coalesced, as the API allows).
 */
export class Subscriber {
  /** Id of the last message pulled from the member's chat: the next must be exactly one more. */
  lastPulledId: number;
  notifications = 0;
  /** Notifications naming a chat the member is not in. */
  misrouted = 0;
  pulls = 0;
  closedWith: number | undefined;
  private pulling = false;
  private again = false;
  private closing = false;

  constructor(
    readonly user: string,
    readonly chatId: string,
    seenId: number,
    private readonly transport: Transport,
    private readonly sink: DeliverySink,
  ) {
    this.lastPulledId = seenId;
  }

  open(): Promise<void> {
    return this.transport.open({
      notified: (chatId) => this.notified(chatId),
      failed: (error) => {
        if (!this.closing) this.sink.failed(this, error);
      },
      closed: (code) => {
        this.closedWith = code;
      },
    });
  }

  /** True while a pull is on its way. */
  get busy(): boolean {
    return this.pulling;
  }

  /** Pulls now, as an app does when it opens (resolves once nothing is pending or a pull was already on its way). */
  async catchUp(): Promise<void> {
    if (!this.pulling) await this.pullUntilEmpty();
  }

  /** Closes the socket; a pull it cuts short is not a failure. */
  close(): void {
    this.closing = true;
    this.transport.close();
  }

  private notified(chatId: string | null): void {
    this.notifications++;
    if (chatId !== this.chatId) this.misrouted++;
    if (this.pulling) {
      this.again = true;
      return;
    }
    void this.pullUntilEmpty();
  }

  private async pullUntilEmpty(): Promise<void> {
    this.pulling = true;
    try {
      do {
        this.again = false;
        const asked = performance.now();
        const { messages, remaining } = await this.transport.pull();
        const at = performance.now();
        this.pulls++;
        for (const message of messages) this.sink.pulled(this, message, asked, at);
        if (remaining > 0) this.again = true;
      } while (this.again);
    } catch (error) {
      if (!this.closing) this.sink.failed(this, error);
    } finally {
      this.pulling = false;
    }
  }
}
