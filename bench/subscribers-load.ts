// The load side of the subscribers benchmark: the phones (a lean hand-written graphql-ws client that
// subscribes to inboxChanged and on each notification pulls with fetchPendingMessages over the same
// socket; why not graphql-ws's createClient: docs/performance.md, the subscribers method), the chats,
// the one sender, and the checks on what the phones pull (every message, exactly once, in order),
// with the latency of each delivery.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type Redis from 'ioredis';
import WebSocket from 'ws';
import { CHAT_DEFAULTS, ChatRepository } from '../src/redis/chat';
import { benchTokens, Connection, inParallel, post, shuffle, until, within } from './harness';

type PulledMessage = { chatId: string; id: number; sender: string };

/** The authorization header (or connection_init field) of a user the product accepts. */
const bearer = (user: string): string => `Bearer ${benchTokens.sign(user, [], 3600)}`;

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

/** The sending user: a member of every chat, holding no socket. */
const SENDER = 'sender';

/** Everything the subscribers report, checked as it arrives. */
export class Deliveries {
  /** `chatId:id` -> when sendMessage's reply arrived (NaN before), and when pulls that beat it arrived. */
  private readonly sent = new Map<string, { at: number; early: number[] }>();
  /**
   * This round's: each delivery's latency (ms), how long its pull took from request to reply (the rest of a
   * latency is the notification's way), and the deliveries whose pull beat the sender's reply.
   */
  round = { latencies: [] as number[], pullTimes: [] as number[], early: 0 };
  /** In all rounds. */
  delivered = 0;
  readonly errors: string[] = [];
  private waiter?: { count: number; resolve: () => void };

  startRound(): void {
    this.sent.clear();
    this.round = { latencies: [], pullTimes: [], early: 0 };
  }

  pulled(subscriber: Subscriber, message: PulledMessage, asked: number, at: number): void {
    const { user, lastPulledId } = subscriber;
    if (message.chatId !== subscriber.chatId)
      return this.error(`${user} pulled from chat ${message.chatId}, not its own`);
    if (message.id !== lastPulledId + 1)
      this.error(`${user} pulled message ${message.id} of chat ${message.chatId} after ${lastPulledId}`);
    subscriber.lastPulledId = Math.max(lastPulledId, message.id);
    if (message.sender !== SENDER) return this.error(`${user} pulled a message from ${message.sender}`);
    const sent = this.sentMessage(`${message.chatId}:${message.id}`);
    if (Number.isNaN(sent.at)) sent.early.push(at);
    else this.round.latencies.push(at - sent.at);
    this.round.pullTimes.push(at - asked);
    this.delivered++;
    if (this.waiter && this.delivered >= this.waiter.count) this.waiter.resolve();
  }

  /** The sender has its reply for the message: pulls that beat it count as 0 ms. */
  replied(chatId: string, id: number, at: number): void {
    const sent = this.sentMessage(`${chatId}:${id}`);
    sent.at = at;
    for (const _ of sent.early) this.round.latencies.push(0);
    this.round.early += sent.early.length;
    sent.early = [];
  }

  /** Resolves once `count` deliveries have been made in all; rejects after the timeout. */
  until(count: number, timeoutMs: number): Promise<void> {
    const reached = new Promise<void>((resolve) => {
      this.waiter = { count, resolve };
      if (this.delivered >= count) resolve();
    });
    const failure = (): string =>
      `only ${this.delivered} of ${count} deliveries were made within ${timeoutMs} ms of the last send`;
    return within(reached, timeoutMs, failure);
  }

  private sentMessage(key: string): { at: number; early: number[] } {
    let sent = this.sent.get(key);
    if (!sent) this.sent.set(key, (sent = { at: NaN, early: [] }));
    return sent;
  }

  error(text: string): void {
    if (this.errors.length < 20) this.errors.push(text);
    else if (this.errors.length === 20) this.errors.push('…');
  }
}

interface Chat {
  id: string;
  members: Subscriber[];
  /** Id of the newest message sent to the chat. */
  latestId: number;
}

const SEND =
  'mutation Send($chatId: ID!, $message: String!, $clientMessageId: ID) { sendMessage(chatId: $chatId, message: $message, clientMessageId: $clientMessageId) { id } }';

/** The sending user's client: a kept-alive HTTP connection per paced run, as a phone's app would send. */
export class Sender {
  private readonly authorization = { authorization: bearer(SENDER) };
  /** Messages sent so far. */
  sent = 0;

  constructor(
    private readonly port: number,
    private readonly deliveries: Deliveries,
  ) {}

  /** Sends `count` messages to random chats, `rate` per second, one at a time. */
  async paced(chats: Chat[], count: number, rate: number, random: () => number): Promise<void> {
    const connection = await Connection.open(this.port);
    const start = performance.now();
    try {
      for (let i = 0; i < count; i++) {
        const wait = start + (i * 1000) / rate - performance.now();
        if (wait > 1) await sleep(wait);
        await this.send(connection, chats[Math.floor(random() * chats.length)], 'bench');
      }
    } finally {
      connection.close();
    }
  }

  /** Two messages each to `chatCount` chats drawn without repeats, `inFlight` at once: notifications close together. */
  async burst(chats: Chat[], chatCount: number, inFlight: number, random: () => number): Promise<number> {
    const jobs = shuffle([...chats], random)
      .slice(0, chatCount)
      .flatMap((chat) => [chat, chat]);
    const connections = await Promise.all(Array.from({ length: inFlight }, () => Connection.open(this.port)));
    try {
      await inParallel(jobs.length, inFlight, (i, slot) => this.send(connections[slot], jobs[i], 'burst'));
    } finally {
      for (const connection of connections) connection.close();
    }
    return jobs.length;
  }

  /** One sendMessage; in a paced run its id must follow the chat's newest (a burst's may overtake). */
  private async send(connection: Connection, chat: Chat, prefix: 'bench' | 'burst'): Promise<void> {
    const n = ++this.sent;
    const variables = { chatId: chat.id, message: `${prefix} message ${n}`, clientMessageId: `${prefix}-${n}` };
    const answer = await connection.send(post('/graphql', { query: SEND, variables }, this.authorization));
    const at = performance.now();
    const reply = JSON.parse(answer.body.toString()) as { data?: { sendMessage: { id: number } }; errors?: unknown };
    if (answer.status !== 200 || !reply.data)
      throw new Error(`sendMessage failed (${answer.status}): ${JSON.stringify(reply.errors)}`);
    const { id } = reply.data.sendMessage;
    if (prefix === 'bench' && id !== chat.latestId + 1)
      throw new Error(`chat ${chat.id} gave message id ${id} after ${chat.latestId}`);
    chat.latestId = Math.max(chat.latestId, id);
    this.deliveries.replied(chat.id, id, at);
  }
}

/** Creates the chats through the repository, each of the sender and a group of users, all past the first message. */
export async function createChats(redis: Redis, users: string[][], url: string, sink: Deliveries): Promise<Chat[]> {
  const limits = { maxChatMembers: 1000, maxChatsPerUser: 1_000_000, dedupeSeconds: 3600 };
  const repository = new ChatRepository(redis, { ...limits, ...CHAT_DEFAULTS });
  const chats: Chat[] = new Array(users.length);
  await inParallel(users.length, 200, async (i) => {
    const { chat } = await repository.create(SENDER, users[i], 'welcome', false);
    await Promise.all(users[i].map((user) => repository.markSeen(chat.id, user, chat.latestMessageId)));
    const members = users[i].map((user) => new Subscriber(user, chat.id, url, sink));
    chats[i] = { id: chat.id, latestId: 1, members };
  });
  return chats;
}

/** Waits until Redis has exactly `count` inbox channels: the server has (un)subscribed for every socket. */
export async function untilSubscribed(redis: Redis, count: number, timeoutMs: number): Promise<void> {
  let channels = 0;
  const subscribed = async (): Promise<boolean> => {
    channels = ((await redis.pubsub('CHANNELS', 'INBOX_CHANGED:*')) as string[]).length;
    return channels === count;
  };
  const failure = () => `${channels} inbox channels are subscribed in Redis, not ${count}, after ${timeoutMs} ms`;
  await until(subscribed, failure, timeoutMs, 50);
}
