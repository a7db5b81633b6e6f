// The load side of the subscribers benchmark: the chats, the one sender, and the checks on what
// the subscribers pull (every message, exactly once, in order), with the latency of each delivery.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type Redis from 'ioredis';
import { CHAT_DEFAULTS, ChatRepository } from '../src/redis/chat';
import { Connection, inParallel, post, within } from './harness';
import { Subscriber, bearer, type PulledMessage } from './subscribers-client';

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

export interface Chat {
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
    const order = [...chats];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const jobs = order.slice(0, chatCount).flatMap((chat) => [chat, chat]);
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
  const repository = new ChatRepository(redis, {
    maxChatMembers: 1000,
    maxChatsPerUser: 1_000_000,
    dedupeSeconds: 3600,
    ...CHAT_DEFAULTS,
  });
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
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const channels = (await redis.pubsub('CHANNELS', 'INBOX_CHANGED:*')) as string[];
    if (channels.length === count) return;
    if (Date.now() > deadline)
      throw new Error(`${channels.length} inbox channels are subscribed in Redis, not ${count}, after ${timeoutMs} ms`);
    await sleep(50);
  }
}
