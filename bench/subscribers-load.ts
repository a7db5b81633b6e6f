// The load side of the subscribers benchmark: the chats, the one sender, and the checks on what
// the subscribers pull (every message, exactly once, in order), with the latency of each delivery.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type Redis from 'ioredis';
import { CHAT_DEFAULTS, ChatRepository } from '../src/redis/chat';
import { benchTokens, inParallel } from './harness';
import type { DeliverySink, PulledMessage, Subscriber } from './subscribers-client';

/** The sending user: a member of every chat, holding no socket. */
export const SENDER = 'sender';
const TOKEN_SECONDS = 3600;

/** A token for `user` that the product server accepts for the length of a run. */
export const tokenFor = (user: string): string => benchTokens.sign(user, [], TOKEN_SECONDS);

interface SentMessage {
  at: number;
  /** When recipients pulled it, for pulls that beat the sender's reply. */
  early: number[];
}

/** Everything the subscribers report, checked as it arrives. */
export class Deliveries implements DeliverySink {
  /** `chatId:id` -> when sendMessage's reply arrived, for messages of this round. */
  private readonly sent = new Map<string, SentMessage>();
  /** Of this round's deliveries, in milliseconds. */
  latencies: number[] = [];
  /** How long the pulls of this round's deliveries took, from request to reply (the rest of a latency is the notification's way). */
  pullTimes: number[] = [];
  /** This round's deliveries whose pull beat the sender's reply. */
  pulledBeforeReply = 0;
  /** In all rounds. */
  delivered = 0;
  readonly errors: string[] = [];
  private waiter?: { count: number; resolve: () => void };

  startRound(): void {
    this.sent.clear();
    this.latencies = [];
    this.pullTimes = [];
    this.pulledBeforeReply = 0;
  }

  pulled(subscriber: Subscriber, message: PulledMessage, asked: number, at: number): void {
    if (message.chatId !== subscriber.chatId)
      return this.error(`${subscriber.user} pulled from chat ${message.chatId}, not its own`);
    if (message.id !== subscriber.lastPulledId + 1) {
      this.error(
        `${subscriber.user} pulled message ${message.id} of chat ${message.chatId} after ${subscriber.lastPulledId}`,
      );
    }
    subscriber.lastPulledId = Math.max(subscriber.lastPulledId, message.id);
    if (message.sender !== SENDER) return this.error(`${subscriber.user} pulled a message from ${message.sender}`);
    const key = `${message.chatId}:${message.id}`;
    let sent = this.sent.get(key);
    if (!sent) {
      sent = { at: NaN, early: [] };
      this.sent.set(key, sent);
    }
    if (Number.isNaN(sent.at)) sent.early.push(at);
    else this.latencies.push(at - sent.at);
    this.pullTimes.push(at - asked);
    this.delivered++;
    if (this.waiter && this.delivered >= this.waiter.count) this.waiter.resolve();
  }

  /** The sender has its reply for the message: pulls that beat it count as 0 ms. */
  replied(chatId: string, id: number, at: number): void {
    const key = `${chatId}:${id}`;
    const sent = this.sent.get(key);
    if (!sent) {
      this.sent.set(key, { at, early: [] });
      return;
    }
    sent.at = at;
    for (const _ of sent.early) this.latencies.push(0);
    this.pulledBeforeReply += sent.early.length;
    sent.early = [];
  }

  failed(subscriber: Subscriber, error: unknown): void {
    this.error(`${subscriber.user}: ${(error as Error).message}`);
  }

  /** Resolves once `count` deliveries have been made in all; rejects after the timeout. */
  until(count: number, timeoutMs: number): Promise<void> {
    if (this.delivered >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(
          new Error(`only ${this.delivered} of ${count} deliveries were made within ${timeoutMs} ms of the last send`),
        );
      }, timeoutMs);
      this.waiter = {
        count,
        resolve: () => {
          clearTimeout(timer);
          this.waiter = undefined;
          resolve();
        },
      };
    });
  }

  private error(text: string): void {
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

/** An HTTP client on kept-alive connections (one, as a phone's app would send, but for the burst). */
export class Sender {
  private readonly agent: http.Agent;
  private readonly token = tokenFor(SENDER);
  private sent = 0;

  constructor(
    private readonly origin: string,
    connections = 1,
    private readonly prefix = 'bench',
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  }

  /** Sends one message; resolves with its id and performance.now() when the reply arrived. */
  send(chatId: string): Promise<{ id: number; at: number }> {
    const n = ++this.sent;
    const body = JSON.stringify({
      query:
        'mutation Send($chatId: ID!, $message: String!, $clientMessageId: ID) { sendMessage(chatId: $chatId, message: $message, clientMessageId: $clientMessageId) { id } }',
      variables: { chatId, message: `${this.prefix} message ${n}`, clientMessageId: `${this.prefix}-${n}` },
    });
    return new Promise((resolve, reject) => {
      const request = http.request(
        `${this.origin}/graphql`,
        {
          method: 'POST',
          agent: this.agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            authorization: `Bearer ${this.token}`,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const at = performance.now();
            const reply = JSON.parse(Buffer.concat(chunks).toString()) as {
              data?: { sendMessage: { id: number } } | null;
              errors?: unknown;
            };
            if (response.statusCode !== 200 || !reply.data)
              reject(new Error(`sendMessage failed (${response.statusCode}): ${JSON.stringify(reply.errors)}`));
            else resolve({ id: reply.data.sendMessage.id, at });
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Sends `count` messages to random chats, `rate` per second, one at a time. */
export async function sendPaced(
  sender: Sender,
  chats: Chat[],
  deliveries: Deliveries,
  count: number,
  rate: number,
  random: () => number,
): Promise<void> {
  const interval = 1000 / rate;
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const chat = chats[Math.floor(random() * chats.length)];
    const { id, at } = await sender.send(chat.id);
    if (id !== chat.latestId + 1) throw new Error(`chat ${chat.id} gave message id ${id} after ${chat.latestId}`);
    chat.latestId = id;
    deliveries.replied(chat.id, id, at);
  }
}

/**
 * Two messages each to `chatCount` chats drawn without repeats, `inFlight` sends at once:
 * recipients get notifications close together, so the server's per-subscriber buffering is used.
 */
export async function sendBurst(
  sender: Sender,
  chats: Chat[],
  deliveries: Deliveries,
  chatCount: number,
  inFlight: number,
  random: () => number,
): Promise<number> {
  const order = [...chats];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const jobs = order.slice(0, chatCount).flatMap((chat) => [chat, chat]);
  await inParallel(jobs.length, inFlight, async (i) => {
    const { id, at } = await sender.send(jobs[i].id);
    jobs[i].latestId = Math.max(jobs[i].latestId, id);
    deliveries.replied(jobs[i].id, id, at);
  });
  return jobs.length;
}

/** Creates the chats through the repository, each of the sender and a group of users, all past the first message. */
export async function createChats(redis: Redis, users: string[][]): Promise<string[]> {
  const repository = new ChatRepository(redis, {
    maxChatMembers: 1000,
    maxChatsPerUser: 1_000_000,
    dedupeSeconds: 3600,
    ...CHAT_DEFAULTS,
  });
  const ids: string[] = new Array(users.length);
  await inParallel(users.length, 200, async (i) => {
    const { chat } = await repository.create(SENDER, users[i], 'welcome', false);
    await Promise.all(users[i].map((user) => repository.markSeen(chat.id, user, chat.latestMessageId)));
    ids[i] = chat.id;
  });
  return ids;
}

/** Opens every subscriber's socket and subscription, `atOnce` at a time. */
export async function connectAll(
  subscribers: Subscriber[],
  atOnce: number,
  onProgress: (done: number) => void,
): Promise<void> {
  let done = 0;
  await inParallel(subscribers.length, atOnce, async (i) => {
    await subscribers[i].open();
    if (++done % 250 === 0) onProgress(done);
  });
}

/** Waits until Redis has exactly `count` inbox channels: the server has (un)subscribed for every socket. */
export async function untilSubscribed(redis: Redis, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const channels = (await redis.pubsub('CHANNELS', 'INBOX_CHANGED:*')) as string[];
    if (channels.length === count) return;
    if (Date.now() > deadline)
      throw new Error(`${channels.length} inbox channels are subscribed in Redis, not ${count}, after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
