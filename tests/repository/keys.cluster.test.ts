// On a Redis Cluster (a *.cluster.test.ts file runs only with TEST_REDIS=cluster): the keys of one domain object share a slot, and a
// realistic set of objects spreads over every primary rather than piling onto one.
import type { Cluster } from 'ioredis';
import {
  AcquireSemaphoreDocument,
  CreateChatDocument,
  EnqueueTaskDocument,
  JoinGuildDocument,
  SendDirectMessageDocument,
  SendMessageDocument,
  UpdateCounterDocument,
  AddRecentContactDocument,
} from '../../src/generated/client/graphql';
import { serverForThisFile } from '../support/fixture';
import { post } from '../support/graphql';

const fixture = serverForThisFile();

/** The part of a key that picks its slot: the first {...} with something inside, else the key. */
function hashTag(key: string): string {
  const open = key.indexOf('{');
  const close = open >= 0 ? key.indexOf('}', open + 1) : -1;
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

describe('keys on a Redis Cluster', () => {
  it('keeps each object in one slot and spreads 40 users, 40 chats, 20 counters, 10 queues, guilds and semaphores over every primary', async () => {
    const { api } = fixture;
    const users = Array.from({ length: 40 }, (_, i) => `user${i}`);
    const token = (user: string): string => api.server.verifier.sign(user, [], 3600);
    const service = api.tokens.service;
    for (const [i, user] of users.entries()) {
      const friend = users[(i + 1) % users.length];
      const chat = await post(api.url, CreateChatDocument, { members: [friend], message: `hi ${friend}` }, token(user));
      expect(chat.errors).toBeUndefined();
      const sent = await post(
        api.url,
        SendMessageDocument,
        { chatId: chat.data!.createChat.id, message: 'second' },
        token(friend),
      );
      expect(sent.errors).toBeUndefined();
      expect(
        (await post(api.url, SendDirectMessageDocument, { to: friend, message: 'psst' }, token(user))).errors,
      ).toBeUndefined();
      expect((await post(api.url, AddRecentContactDocument, { contact: friend }, token(user))).errors).toBeUndefined();
      expect((await post(api.url, JoinGuildDocument, { guild: `guild${i % 10}` }, token(user))).errors).toBeUndefined();
    }
    for (let i = 0; i < 20; i++)
      expect(
        (await post(api.url, UpdateCounterDocument, { name: `page/${i}`, count: 1 }, service)).errors,
      ).toBeUndefined();
    for (let i = 0; i < 10; i++) {
      expect(
        (
          await post(
            api.url,
            EnqueueTaskDocument,
            { queue: `queue${i}`, name: 'work', delayMs: i % 2 === 0 ? 0 : 60_000 },
            service,
          )
        ).errors,
      ).toBeUndefined();
      expect(
        (await post(api.url, AcquireSemaphoreDocument, { name: `sem${i}`, limit: 2 }, service)).errors,
      ).toBeUndefined();
    }

    const cluster = api.redis.client as unknown as Cluster;
    const primaries = cluster.nodes('master');
    expect(primaries).toHaveLength(3);
    const keysByPrimary = await Promise.all(primaries.map((node) => node.keys('*')));
    const total = keysByPrimary.reduce((sum, keys) => sum + keys.length, 0);
    expect(total).toBe(await api.redis.client.dbsize());
    // Every primary holds a fair part: at least a sixth of the keys (a third would be even).
    for (const keys of keysByPrimary) expect(keys.length).toBeGreaterThan(total / 6);

    // Each object's keys share a slot: group every key by its hash tag and ask Redis for the slots.
    const slotsByTag = new Map<string, Set<number>>();
    for (const key of keysByPrimary.flat()) {
      const slot = Number(await cluster.cluster('KEYSLOT', key));
      const tag = hashTag(key);
      if (!slotsByTag.has(tag)) slotsByTag.set(tag, new Set());
      slotsByTag.get(tag)!.add(slot);
    }
    for (const [tag, slots] of slotsByTag) expect([tag, slots.size]).toEqual([tag, 1]);
    // The objects themselves: 40 chats, 40 users' keys, 10 queues, 10 guilds, 10 semaphores, counter buckets.
    const tags = [...slotsByTag.keys()];
    expect(tags.filter((tag) => /^c\d+$/.test(tag))).toHaveLength(40);
    expect(tags.filter((tag) => tag.startsWith('u:'))).toHaveLength(40);
    expect(tags.filter((tag) => tag.startsWith('q:'))).toHaveLength(10);
    expect(tags.filter((tag) => tag.startsWith('g:'))).toHaveLength(10);
    expect(tags.filter((tag) => tag.startsWith('s:'))).toHaveLength(10);
    expect(tags.filter((tag) => tag.startsWith('ctr-')).length).toBeGreaterThanOrEqual(8);
    // And the objects of each kind are on more than one primary.
    const primaryOf = new Map<string, number>();
    keysByPrimary.forEach((keys, index) => keys.forEach((key) => primaryOf.set(hashTag(key), index)));
    for (const prefix of [/^c\d+$/, /^u:/, /^q:/, /^g:/]) {
      const used = new Set(tags.filter((tag) => prefix.test(tag)).map((tag) => primaryOf.get(tag)));
      expect([String(prefix), used.size]).toEqual([String(prefix), 3]);
    }
  }, 60_000);
});
