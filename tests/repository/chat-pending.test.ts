// pending() in two passes (with and without advance, a chat left between them) and the notification JSON the scripts publish.
import { counterKeys } from '../../src/redis/keys';
import Redis from 'ioredis';
import { CHAT_DEFAULTS, ChatRepository } from '../../src/redis/chat';
import { CounterRepository } from '../../src/redis/counter';
import { eventually } from '../support/graphql';
import { listen, scriptClient, startTestRedis, type TestRedis } from '../support/redis';

let redis: TestRedis;
let client: Redis;
const SETTINGS = { maxChatMembers: 1000, maxChatsPerUser: 1000, dedupeSeconds: 3600, ...CHAT_DEFAULTS };

beforeAll(async () => {
  redis = await startTestRedis();
  client = scriptClient(redis);
});
afterAll(async () => {
  client.disconnect();
  await redis.stop();
});
beforeEach(async () => {
  await redis.client.flushdb();
});

describe('pending(advance=false) with a second pass', () => {
  it('returns each pending message at most once and the right remaining count', async () => {
    const chats = new ChatRepository(client, SETTINGS);
    const busy = (await chats.create('alice', ['bob'], 'm1', false)).chat.id;
    for (let i = 2; i <= 20; i++) await chats.send(busy, 'alice', `m${i}`);
    const quiet = (await chats.create('carol', ['bob'], 'q1', false)).chat.id;

    const pending = await chats.pending('bob', 10, false);
    const busyChat = pending.find((chat) => chat.chatId === busy)!;
    const ids = busyChat.messages.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length); // no duplicates
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(pending.reduce((n, c) => n + c.messages.length, 0)).toBeLessThanOrEqual(10);
    expect(busyChat.remaining).toBe(20 - ids.length);
    void quiet;
  });
});

describe('pending more cases', () => {
  it('more chats than the limit: never more than limit, all messages eventually, none twice (advance=true)', async () => {
    const chats = new ChatRepository(client, SETTINGS);
    const ids: string[] = [];
    for (let c = 0; c < 7; c++) {
      const id = (await chats.create('alice', ['bob'], 'a1', false)).chat.id;
      for (let i = 2; i <= 4; i++) await chats.send(id, 'alice', `a${i}`);
      ids.push(id);
    }
    const seen = new Map<string, number[]>();
    for (let round = 0; round < 50; round++) {
      const pending = await chats.pending('bob', 3, true);
      if (pending.length === 0) break;
      expect(pending.reduce((n, c) => n + c.messages.length, 0)).toBeLessThanOrEqual(3);
      for (const chat of pending)
        seen.set(chat.chatId, [...(seen.get(chat.chatId) ?? []), ...chat.messages.map((m) => m.id)]);
    }
    for (const id of ids) expect(seen.get(id)).toEqual([1, 2, 3, 4]);
  });

  it('a chat left between the passes keeps the messages the first pass already took', async () => {
    const chats = new ChatRepository(client, SETTINGS);
    const busy = (await chats.create('alice', ['bob'], 'm1', false)).chat.id;
    for (let i = 2; i <= 10; i++) await chats.send(busy, 'alice', `m${i}`);
    await chats.create('carol', ['bob'], 'q1', false);
    const name = 'chatFetch';
    const original = (client as any)[name];
    let calls = 0;
    (client as any)[name] = async function (...args: unknown[]) {
      calls++;
      if (calls === 3)
        await new ChatRepository(redis.client as never, SETTINGS).leave(busy, 'bob').catch(() => undefined);
      return original.apply(this, args);
    };
    try {
      const other = scriptClient(redis);
      calls = 0;
      (client as any)[name] = async function (...args: unknown[]) {
        calls++;
        if (calls === 3) await new ChatRepository(other, SETTINGS).leave(busy, 'bob');
        return original.apply(this, args);
      };
      const pending = await chats.pending('bob', 6, true);
      other.disconnect();
      const fromBusy = pending.find((c) => c.chatId === busy);
      // first pass took m1..m3 (and advanced past them), then bob left; report them or not, but say so
      expect(fromBusy?.messages.map((m) => m.id)).toEqual([1, 2, 3]);
    } finally {
      (client as any)[name] = original;
    }
  });
});

describe('notification payloads from the scripts', () => {
  it('counter-update publishes what JSON.stringify would, for unusual names', async () => {
    const got: [string, unknown][] = [];
    const names = ['a/b', 'é.x', 'ß@y', '😀_z', 'e\u0301'.normalize('NFC'), '日本-語'];
    const sub = await listen(redis, names.map(counterKeys.updated), (channel, message) =>
      got.push([channel, JSON.parse(message)]),
    );
    const repo = new CounterRepository(
      client,
      { precisions: [1, 5], samples: 120, maxFutureSeconds: 60 },
      counterKeys.updated,
    );
    const times: number[] = [];
    // A fixed fraction of a second, within the retention (an older time is refused).
    const [seconds] = await client.time();
    for (const n of names) times.push(await repo.update(n, 1, Number(seconds) - 60.75));
    // Each name is its own channel; on a cluster they live on different shards, heard on
    // different connections, so they may arrive in any order (and late on a loaded machine).
    await eventually(async () => got.length >= names.length, 10_000, 10);
    sub.disconnect();
    const byChannel = (entries: [string, unknown][]) => [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    expect(byChannel(got)).toEqual(
      byChannel(names.map((n, i) => [counterKeys.updated(n), JSON.parse(JSON.stringify({ name: n, time: times[i] }))])),
    );
  });
});
