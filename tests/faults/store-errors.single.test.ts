// Which errors answer STORE_UNAVAILABLE (retry) rather than INTERNAL_SERVER_ERROR, checked on the
// errors ioredis really gives when a connection goes away mid-command: a redis-server killed while
// a pipeline waits, a connection cut between the replies of a MULTI, a MULTI that Redis discards
// because it cannot serve, a connection that cannot be made. Errors that are bugs stay bugs.
// (A *.single file: it kills its own redis-server processes.)
import net from 'node:net';
import pino from 'pino';
import { ConnectionPool } from '../../src/redis/client/connection-pool';
import { closeRedis, connectRedis, type RedisClient } from '../../src/redis/client/connection';
import { userKeys } from '../../src/redis/keys';
import { MailboxRepository } from '../../src/redis/mailbox';
import { isStoreUnavailable } from '../../src/redis/client/store-errors';
import { eventually } from '../support/graphql';
import { startRedisProcess, stopRedisProcesses, type RedisProcess } from '../support/redis-process';

const silent = pino({ level: 'silent' });
const SETTINGS = { maxMailboxMessages: 100 };
const clients: RedisClient[] = [];
const servers: net.Server[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => closeRedis(client)));
  for (const server of servers.splice(0)) server.close();
});
afterAll(stopRedisProcesses);

async function connect(url: string, replicaWait?: { replicas: number; timeoutMs: number }): Promise<RedisClient> {
  const client = await connectRedis(url, { name: 'test:store-errors', logger: silent, replicaWait });
  clients.push(client);
  return client;
}

/** Resolves once `redis` holds a client blocked in a command (WAIT), i.e. every earlier reply is written. */
async function blockedClient(redis: RedisProcess): Promise<void> {
  await eventually(async () => /^blocked_clients:[1-9]/m.test(await redis.client().info('clients')), 10_000, 10);
}

/** What a promise rejected with (it must reject). */
async function rejection(
  pending: Promise<unknown>,
): Promise<Error & { command?: { name: string }; previousErrors?: Error[] }> {
  return pending.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: Error) => error,
  );
}

/**
 * A loopback proxy to `port` that, once armed, lets through only the first reply line after the
 * client sends `marker`, then closes the client's connection: a connection lost between replies.
 */
async function cuttingProxy(
  port: number,
): Promise<{ url: (password: string) => string; cutAfterFirstReplyTo: (marker: string) => void }> {
  let marker: string | undefined;
  const server = net.createServer((downstream) => {
    const upstream = net.connect(port, '127.0.0.1');
    let cutting = false;
    downstream.on('data', (chunk) => {
      if (marker !== undefined && chunk.toString('latin1').includes(marker)) cutting = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!cutting) return void downstream.write(chunk);
      const end = chunk.indexOf('\r\n');
      downstream.end(chunk.subarray(0, end + 2));
      upstream.destroy();
    });
    const close = (): void => {
      downstream.destroy();
      upstream.destroy();
    };
    upstream.on('error', close).on('close', close);
    downstream.on('error', close).on('close', close);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxyPort = (server.address() as net.AddressInfo).port;
  return {
    url: (password) => `redis://:${password}@127.0.0.1:${proxyPort}`,
    cutAfterFirstReplyTo: (text) => {
      marker = text;
    },
  };
}

describe('errors that mean the store cannot serve now (STORE_UNAVAILABLE)', () => {
  it('a write whose WAIT was cut off: redis-server killed after the script replied, while WAIT was pending (REDIS_WAIT_REPLICAS)', async () => {
    const redis = await startRedisProcess();
    // No replica: WAIT blocks until its timeout, long after the kill.
    const mailbox = new MailboxRepository(await connect(redis.url, { replicas: 1, timeoutMs: 10_000 }), SETTINGS);
    const sending = rejection(mailbox.send('bob', 'alice', 'hello'));
    await blockedClient(redis);
    await redis.kill();

    const error = await sending;
    expect({ name: error.name, message: error.message, command: error.command?.name }).toEqual({
      name: 'AbortError',
      message: 'Command aborted due to connection close',
      command: 'wait',
    });
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it('a write whose primary turns into a replica while its WAIT is pending (UNBLOCKED)', async () => {
    const redis = await startRedisProcess();
    const mailbox = new MailboxRepository(await connect(redis.url, { replicas: 1, timeoutMs: 10_000 }), SETTINGS);
    const sending = rejection(mailbox.send('bob', 'alice', 'hello'));
    await blockedClient(redis);
    await redis.client().replicaof('127.0.0.1', await closedPort());

    const error = await sending;
    expect(error.message).toMatch(/^UNBLOCKED /);
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it('a single command in flight when redis-server is killed', async () => {
    const redis = await startRedisProcess();
    const client = await connect(redis.url);
    const waiting = rejection(client.wait(1, 10_000));
    await blockedClient(redis);
    await redis.kill();

    const error = await waiting;
    expect(error.name).toBe('MaxRetriesPerRequestError');
    expect(isStoreUnavailable(error)).toBe(true);
    // And any command sent while it is down.
    expect(isStoreUnavailable(await rejection(client.get('anything')))).toBe(true);
  });

  it('a MULTI read whose connection is lost between the replies (after MULTI answered, before EXEC)', async () => {
    const redis = await startRedisProcess();
    const proxy = await cuttingProxy(redis.port);
    const mailbox = new MailboxRepository(await connect(proxy.url(new URL(redis.url).password)), SETTINGS);
    expect(await mailbox.status('bob')).toEqual({ waiting: 0, oldestTs: undefined, latestMessageId: 0 });
    proxy.cutAfterFirstReplyTo('multi');

    const error = await rejection(mailbox.status('bob'));
    expect({ name: error.name, message: error.message, command: error.command?.name }).toEqual({
      name: 'AbortError',
      message: 'Command aborted due to connection close',
      command: 'exec',
    });
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it('a MULTI read that Redis discards (EXECABORT) because the node cannot serve: a replica that lost its primary', async () => {
    const redis = await startRedisProcess();
    const client = await connect(redis.url);
    // A replica of a primary that is gone, told not to serve what it may have stale.
    const closed = await closedPort();
    await client.config('SET', 'replica-serve-stale-data', 'no');
    await client.replicaof('127.0.0.1', closed);

    const error = await rejection(new MailboxRepository(client, SETTINGS).status('bob'));
    expect(error.message).toMatch(/^EXECABORT /);
    expect(error.previousErrors?.map((refusal) => refusal.message.split(' ')[0])).toEqual([
      'MASTERDOWN',
      'MASTERDOWN',
      'MASTERDOWN',
    ]);
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it('a connection that cannot be made for a request (the WATCH strategy opens pool connections on demand)', async () => {
    const redis = await startRedisProcess();
    await redis.kill();
    const pool = new ConnectionPool(() => connect(redis.url), 2);

    const error = await rejection(pool.use(async () => 'never', performance.now() + 5000));
    expect(error.message).toMatch(/^Cannot reach Redis at /);
    expect(isStoreUnavailable(error)).toBe(true);
    await pool.close();
  });
});

describe('errors that are bugs (INTERNAL_SERVER_ERROR)', () => {
  it('a command on the wrong type inside a MULTI, a MULTI discarded for an unknown command, a script error', async () => {
    const redis = await startRedisProcess();
    const client = await connect(redis.url);
    await client.set(userKeys.mailbox('bob'), 'not a list');

    const wrongType = await rejection(new MailboxRepository(client, SETTINGS).status('bob'));
    expect(wrongType.message).toMatch(/^WRONGTYPE /);
    expect(isStoreUnavailable(wrongType)).toBe(false);

    const discarded = await rejection(client.multi().call('no-such-command').get('x').exec());
    expect(discarded.message).toMatch(/^EXECABORT /);
    expect(isStoreUnavailable(discarded)).toBe(false);

    const script = await rejection(client.eval("return redis.call('NOSUCHCOMMAND')", 0));
    expect(isStoreUnavailable(script)).toBe(false);
    expect(isStoreUnavailable(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isStoreUnavailable('Connection is closed.')).toBe(false);
  });
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
