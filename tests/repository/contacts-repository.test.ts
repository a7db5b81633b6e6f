// The recent-contacts script against a real redis-server: whole-entry matching in the one-string
// layout, trimming at any cap, and one atomic step under concurrent additions.
import Redis from 'ioredis';
import { ContactsRepository } from '../../src/redis/contacts';
import { userKeys } from '../../src/redis/keys';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';

let redis: TestRedis;
let client: Redis;

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

const stored = () => redis.client.get(userKeys.contacts('u'));

describe('recent contacts in Redis', () => {
  it('matches whole names only, never a name inside another', async () => {
    const repository = new ContactsRepository(client, { maxContacts: 100 });
    for (const name of ['ab', 'ba', 'a', 'bab', 'b']) await repository.add('u', name);
    expect(await stored()).toBe('b\nbab\na\nba\nab');
    await repository.add('u', 'a');
    expect(await repository.all('u')).toEqual(['a', 'b', 'bab', 'ba', 'ab']);
    await repository.add('u', 'ab');
    expect(await repository.all('u')).toEqual(['ab', 'a', 'b', 'bab', 'ba']);
    expect(await repository.remove('u', 'b')).toBe(true);
    expect(await repository.all('u')).toEqual(['ab', 'a', 'bab', 'ba']);
    expect(await repository.remove('u', 'ba')).toBe(true);
    expect(await repository.remove('u', 'ba')).toBe(false);
    expect(await repository.remove('u', 'x')).toBe(false);
    expect(await stored()).toBe('ab\na\nbab');
  });

  it('trims to the cap, returning the length, and applies a lower cap on the next add', async () => {
    const wide = new ContactsRepository(client, { maxContacts: 12 });
    const lengths: number[] = [];
    for (let i = 1; i <= 15; i++) lengths.push(await wide.add('u', `n${i}`));
    expect(lengths).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 12, 12]);
    expect(await wide.all('u')).toEqual(['n15', 'n14', 'n13', 'n12', 'n11', 'n10', 'n9', 'n8', 'n7', 'n6', 'n5', 'n4']);

    const narrow = new ContactsRepository(client, { maxContacts: 10 });
    expect((await narrow.all('u')).length).toBe(10);
    expect(await narrow.add('u', 'n4')).toBe(10);
    expect(await narrow.all('u')).toEqual(['n4', 'n15', 'n14', 'n13', 'n12', 'n11', 'n10', 'n9', 'n8', 'n7']);
  });

  it('keeps one copy of each name when the same names are added concurrently from several connections', async () => {
    const others = Array.from({ length: 4 }, () => scriptClient(redis));
    try {
      const names = Array.from({ length: 30 }, (_, i) => `p${i}`);
      await Promise.all(
        others.flatMap((connection) => {
          const repository = new ContactsRepository(connection, { maxContacts: 20 });
          return names.map((name) => repository.add('u', name));
        }),
      );
      const list = await new ContactsRepository(client, { maxContacts: 20 }).all('u');
      expect(list).toHaveLength(20);
      expect(new Set(list).size).toBe(20);
    } finally {
      for (const connection of others) connection.disconnect();
    }
  });

  it('finds by prefix newest first and stops at the limit', async () => {
    const repository = new ContactsRepository(client, { maxContacts: 100 });
    for (const name of ['Anna', 'bert', 'ANTON', 'annika', 'Ánh']) await repository.add('u', name);
    expect(await repository.find('u', 'an', 10)).toEqual(['annika', 'ANTON', 'Anna']);
    expect(await repository.find('u', 'AN', 2)).toEqual(['annika', 'ANTON']);
    expect(await repository.find('u', 'á', 10)).toEqual(['Ánh']);
    expect(await repository.find('nobody', '', 10)).toEqual([]);
  });
});
