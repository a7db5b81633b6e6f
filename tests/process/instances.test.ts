// Two API server processes (`node dist/main.js`) on one Redis, or on one Redis Cluster with
// TEST_REDIS=cluster: a client sees the same state through either, a change made through one
// reaches a WebSocket subscriber on the other, and the background workers (counter cleanup,
// delayed-task poller, row-cache refresher) do each piece of work once, not once per instance.
import path from 'node:path';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { TokenVerifier } from '../../src/security/auth';
import { counterKeys } from '../../src/redis/keys';
import {
  AcquireLockDocument,
  AcquireSemaphoreDocument,
  CachedRowDocument,
  CancelTaskDocument,
  CounterDocument,
  CounterUpdatedDocument,
  CreateChatDocument,
  EnqueueTaskDocument,
  FetchPendingMessagesDocument,
  InboxChangedDocument,
  LockStateDocument,
  QueueStatsDocument,
  ReleaseLockDocument,
  ReleaseSemaphoreDocument,
  RescheduleTaskDocument,
  ScheduleRowCacheDocument,
  SemaphoreReleasedDocument,
  SendMessageDocument,
  TaskChangedDocument,
  TaskDocument,
  UpdateCounterDocument,
} from '../../src/generated/client/graphql';
import { serverEnv } from '../support/chat-faults';
import { connectWs, eventually, post, wsOperation, type WsClient } from '../support/graphql';
import { findPostgres, startTestPostgres } from '../support/postgres';
import { cleanUpProcesses, ensureBuilt, startAndWait, tempDir, type Started } from '../support/process';
import { startTestRedis, type TestRedis } from '../support/redis';
import { TEST_SECRET } from '../support/server';
import { runsIn } from '../support/task-runs';
import { setTimeout as sleep } from 'node:timers/promises';

const HANDLERS = path.join(__dirname, '..', 'support', 'task-handlers.cjs');

let redis: TestRedis;
const sockets: WsClient[] = [];
const signer = new TokenVerifier({ secret: TEST_SECRET });
const token = {
  alice: signer.sign('alice', [], 3600),
  bob: signer.sign('bob', [], 3600),
  service: signer.sign('ops-service', ['service'], 3600),
};

beforeAll(async () => {
  ensureBuilt();
  redis = await startTestRedis();
}, 60_000);
afterAll(async () => {
  await Promise.all(sockets.splice(0).map((socket) => socket.dispose()));
  cleanUpProcesses();
  await redis?.stop();
});

/** An API process on the shared Redis; workers off unless `extra` turns them on. */
async function startInstance(extra: Record<string, string> = {}): Promise<Started> {
  return startAndWait(serverEnv(redis.env, tempDir(), extra));
}

async function startPair(
  extra: (which: 'a' | 'b') => Record<string, string> = () => ({}),
): Promise<[Started, Started]> {
  return Promise.all([startInstance(extra('a')), startInstance(extra('b'))]);
}

/** SIGTERM, and the exit code (0: drained and closed cleanly). */
async function stopInstance(instance: Started): Promise<number | null> {
  instance.server.proc.kill('SIGTERM');
  return instance.server.exited;
}

function socketTo(url: string, bearer: string): WsClient {
  const socket = connectWs(url, bearer);
  sockets.push(socket);
  return socket;
}

/** A GraphQL call that must succeed; its data. */
async function ok<R, V>(url: string, document: TypedDocumentNode<R, V>, variables: V, bearer: string): Promise<R> {
  const result = await post(url, document, variables, bearer);
  expect(result.errors).toBeUndefined();
  return result.data!;
}

describe('two instances serving clients', () => {
  let a: Started;
  let b: Started;

  beforeAll(async () => {
    [a, b] = await startPair();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.dispose()));
    expect(await Promise.all([stopInstance(a), stopInstance(b)])).toEqual([0, 0]);
  });

  it('shows a chat created on A, written to on B, to its members on either', async () => {
    const created = await ok(a.url, CreateChatDocument, { members: ['bob'], message: 'hello from A' }, token.alice);
    const chatId = created.createChat.id;
    const sent = await ok(
      b.url,
      SendMessageDocument,
      { chatId, message: 'reply via B', clientMessageId: 'bob-1' },
      token.bob,
    );
    expect(sent.sendMessage.id).toBe(2);
    // The same clientMessageId through the other instance is the same message, not a copy.
    const resent = await ok(
      a.url,
      SendMessageDocument,
      { chatId, message: 'reply via B', clientMessageId: 'bob-1' },
      token.bob,
    );
    expect(resent.sendMessage.id).toBe(2);

    const expected = [
      [1, 'alice', 'hello from A'],
      [2, 'bob', 'reply via B'],
    ];
    const aliceOnA = await ok(a.url, FetchPendingMessagesDocument, {}, token.alice);
    expect(aliceOnA.fetchPendingMessages.map((chat) => [chat.chatId, chat.remaining])).toEqual([[chatId, 0]]);
    expect(aliceOnA.fetchPendingMessages[0].messages.map((m) => [m.id, m.sender, m.message])).toEqual(expected);
    const bobOnB = await ok(b.url, FetchPendingMessagesDocument, {}, token.bob);
    expect(bobOnB.fetchPendingMessages[0].messages.map((m) => [m.id, m.sender, m.message])).toEqual(expected);
    // Each fetch moved the fetcher's seen-id for both instances: nothing is fetched twice.
    const aliceOnB = await ok(b.url, FetchPendingMessagesDocument, {}, token.alice);
    expect(aliceOnB.fetchPendingMessages.flatMap((chat) => chat.messages)).toEqual([]);
  });

  it('reads through B the counts written through A and B', async () => {
    const at = Math.floor(Date.now() / 1000) - 30;
    const name = `shared/${Date.now()}`;
    expect((await ok(a.url, UpdateCounterDocument, { name, count: 5, at }, token.service)).updateCounter).toBe(true);
    expect((await ok(b.url, UpdateCounterDocument, { name, count: 2, at }, token.service)).updateCounter).toBe(true);
    const slice = at - (at % 60);
    for (const url of [b.url, a.url]) {
      const read = await ok(url, CounterDocument, { name, precision: 60 }, token.alice);
      expect(read.counter).toEqual([{ time: slice, count: 7 }]);
    }
  });

  it('refuses through B a lock held through A, and grants it through B with the next fencing token once A releases it', async () => {
    const name = `invoice/${Date.now()}`;
    const held = (
      await ok(a.url, AcquireLockDocument, { name, acquireTimeoutMs: 0, lockTimeoutMs: 20_000 }, token.service)
    ).acquireLock;
    expect(held).not.toBeNull();
    const refused = await ok(
      b.url,
      AcquireLockDocument,
      { name, acquireTimeoutMs: 0, lockTimeoutMs: 20_000 },
      token.service,
    );
    expect(refused.acquireLock).toBeNull();
    const state = await ok(b.url, LockStateDocument, { name }, token.service);
    expect(state.lock.holder?.fencingToken).toBe(held!.fencingToken);

    expect((await ok(a.url, ReleaseLockDocument, { name, token: held!.token }, token.service)).releaseLock).toBe(true);
    const next = (
      await ok(b.url, AcquireLockDocument, { name, acquireTimeoutMs: 0, lockTimeoutMs: 20_000 }, token.service)
    ).acquireLock;
    expect(next?.fencingToken).toBe(held!.fencingToken + 1);
    // A's token is spent: releasing with it again through either instance does nothing.
    expect((await ok(b.url, ReleaseLockDocument, { name, token: held!.token }, token.service)).releaseLock).toBe(false);
    expect((await ok(a.url, ReleaseLockDocument, { name, token: next!.token }, token.service)).releaseLock).toBe(true);
  });

  // A subscription is in place once its server has subscribed in Redis, which the client is not
  // told; so each case repeats its change until the subscriber hears of one, then checks the notice.
  it('tells a subscriber on B of a chat message sent through A (inboxChanged)', async () => {
    const created = await ok(a.url, CreateChatDocument, { members: ['bob'], message: 'first' }, token.alice);
    const chatId = created.createChat.id;
    const inbox = wsOperation(socketTo(b.url, token.bob).client, InboxChangedDocument, {});
    const sentIds: number[] = [];
    await eventually(
      async () => {
        sentIds.push(
          (await ok(a.url, SendMessageDocument, { chatId, message: `ping ${sentIds.length}` }, token.alice)).sendMessage
            .id,
        );
        return inbox.results.length > 0;
      },
      10_000,
      100,
    );
    const notice = inbox.results[0].data!.inboxChanged;
    expect(notice).toMatchObject({ chatId, mailbox: false });
    expect(sentIds).toContain(notice.latestMessageId);
    // Once subscribed, every later send is heard: one more, and its id arrives.
    const last = (await ok(a.url, SendMessageDocument, { chatId, message: 'last' }, token.alice)).sendMessage.id;
    await eventually(async () => inbox.results.some((r) => r.data?.inboxChanged.latestMessageId === last), 5000, 20);
  });

  it('tells a subscriber on A of a counter updated through B (counterUpdated)', async () => {
    const name = `notify/${Date.now()}`;
    const updates = wsOperation(socketTo(a.url, token.alice).client, CounterUpdatedDocument, { name });
    await eventually(
      async () => {
        await ok(b.url, UpdateCounterDocument, { name, count: 1 }, token.service);
        return updates.results.length > 0;
      },
      10_000,
      100,
    );
    expect(updates.results[0].data!.counterUpdated.name).toBe(name);
  });

  it('tells a subscriber on B of a semaphore released through A (semaphoreReleased)', async () => {
    const name = `render/${Date.now()}`;
    const released = wsOperation(socketTo(b.url, token.service).client, SemaphoreReleasedDocument, { name });
    await eventually(
      async () => {
        const lease = (await ok(a.url, AcquireSemaphoreDocument, { name, limit: 1, timeoutMs: 10_000 }, token.service))
          .acquireSemaphore;
        expect(lease).not.toBeNull();
        expect(
          (await ok(a.url, ReleaseSemaphoreDocument, { name, id: lease!.id }, token.service)).releaseSemaphore,
        ).toBe(true);
        return released.results.length > 0;
      },
      10_000,
      100,
    );
    expect(released.results[0].data!.semaphoreReleased.name).toBe(name);
  });

  it('tells a subscriber on A of a task changed through B (taskChanged)', async () => {
    const queue = `notify-${Date.now()}`;
    const task = (await ok(b.url, EnqueueTaskDocument, { queue, name: 'work', delayMs: 3_600_000 }, token.service))
      .enqueueTask;
    const changes = wsOperation(socketTo(a.url, token.service).client, TaskChangedDocument, { id: task.id });
    await eventually(
      async () => {
        await ok(b.url, RescheduleTaskDocument, { id: task.id, delayMs: 3_600_000 }, token.service);
        return changes.results.length > 0;
      },
      10_000,
      100,
    );
    expect(changes.results[0].data!.taskChanged).toEqual({ id: task.id, state: 'DELAYED', progress: null });
    expect((await ok(b.url, CancelTaskDocument, { id: task.id }, token.service)).cancelTask).toBe(true);
    await eventually(async () => changes.results.some((r) => r.data?.taskChanged.state === 'CANCELLED'), 5000, 20);
  });
});

describe('background workers on two instances', () => {
  afterEach(async () => {
    await redis.client.flushdb();
  });

  it('runs each counter cleanup pass on one instance: passes of a precision are a lease apart, not one per instance', async () => {
    // One precision of 1 s with 8 samples: its pass is due every 1000 ms (8 passes per window).
    // Redis says when the lease is taken: a keyspace notice for each SET that took it.
    const lease = counterKeys.cleanupLease(1);
    const node = await redis.nodeFor(lease);
    await node.config('SET', 'notify-keyspace-events', 'K$');
    const listener = node.duplicate();
    let grants = 0;
    listener.on('message', (_channel: string, event: string) => {
      if (event === 'set') grants += 1;
    });
    await listener.subscribe(`__keyspace@0__:${lease}`);
    try {
      // Every pass happens between these two moments, however slowly the instances start.
      const from = Date.now();
      const [a, b] = await startPair(() => ({
        COUNTER_CLEANUP: 'on',
        COUNTER_PRECISIONS: '1',
        COUNTER_SAMPLES: '8',
        LOG_LEVEL: 'debug',
      }));
      const passesOf = () =>
        [a, b].flatMap((instance, which) =>
          instance.server.lines
            .filter((line) => line.msg === 'counter cleanup pass' && line.precision === 1)
            .map((line) => ({ at: line.time as number, which })),
        );
      await eventually(async () => passesOf().length >= 6, 60_000, 20);
      // The lease that made the last pass is in Redis, held by one instance for at most the interval
      // (between its end and the next pass it is briefly absent, so look again until it is there).
      let leaseLeft = -2;
      await eventually(async () => (leaseLeft = await redis.client.pttl(lease)) > 0, 10_000, 5);
      expect(await Promise.all([stopInstance(a), stopInstance(b)])).toEqual([0, 0]);
      const until = Date.now();
      await eventually(async () => grants >= passesOf().length, 10_000, 10);

      const passes = passesOf().sort((x, y) => x.at - y.at);
      const summary = {
        passes: passes.length,
        grants,
        byInstance: [0, 1].map((w) => passes.filter((p) => p.which === w).length),
        seconds: (until - from) / 1000,
      };
      // Each pass took the lease (a grant the stop cut short may have no pass), and the lease
      // admits one pass per interval across both instances: at most one per second of the whole
      // run. Each instance on its own would make about twice as many.
      const most = Math.floor((until - from) / 1000) + 1;
      expect({ ...summary, ownGrant: grants - passes.length <= 1 && grants >= passes.length }).toEqual({
        ...summary,
        ownGrant: true,
      });
      expect({ ...summary, most, withinMost: passes.length <= most }).toEqual({ ...summary, most, withinMost: true });
      expect(leaseLeft).toBeLessThanOrEqual(1000);
    } finally {
      listener.disconnect();
      await node.config('SET', 'notify-keyspace-events', '');
    }
  }, 120_000);

  it('runs each delayed task once, with the delayed-task pollers and workers of both instances on its queue', async () => {
    const queue = 'later';
    const log = path.join(tempDir(), 'runs.jsonl');
    const [a, b] = await startPair(() => ({
      TASK_WORKER: 'on',
      WORKER_QUEUES: queue,
      TASK_HANDLERS: HANDLERS,
      WORKER_CONCURRENCY: '4',
    }));
    const count = 60;
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      // Due over the next 1.5 s, enqueued through both instances.
      const url = i % 2 === 0 ? a.url : b.url;
      const task = await ok(
        url,
        EnqueueTaskDocument,
        { queue, name: 'work', args: { log, ms: 10 }, delayMs: 200 + (i % 15) * 100 },
        token.service,
      );
      expect(task.enqueueTask.state).toBe('DELAYED');
      ids.push(task.enqueueTask.id);
    }
    await eventually(
      async () => (await ok(a.url, QueueStatsDocument, { name: queue }, token.service)).queue.completed === count,
      20_000,
      100,
    );
    // A window in which a second, late run of any task would show.
    await sleep(300);
    const stats = (await ok(b.url, QueueStatsDocument, { name: queue }, token.service)).queue;
    expect(stats).toMatchObject({
      delayed: 0,
      active: 0,
      completed: count,
      failed: 0,
      waitingHigh: 0,
      waitingNormal: 0,
      waitingLow: 0,
    });

    const starts = runsIn(log).filter((run) => run.event === 'start');
    expect(starts.map((run) => run.id).sort()).toEqual([...ids].sort());
    expect(starts.every((run) => run.attempt === 1)).toBe(true);
    const pids = [a.server.proc.pid, b.server.proc.pid];
    expect(starts.every((run) => pids.includes(run.pid))).toBe(true);
    const records = await Promise.all(
      ids.map(async (id) => (await ok(a.url, TaskDocument, { id }, token.service)).task),
    );
    expect(records.filter((record) => record?.state === 'COMPLETED' && record.attempts === 1)).toHaveLength(count);
    console.log(
      `instances: ${count} delayed tasks run by pid ${pids[0]}: ${starts.filter((r) => r.pid === pids[0]).length}, pid ${pids[1]}: ${starts.filter((r) => r.pid === pids[1]).length}`,
    );
    expect(await Promise.all([stopInstance(a), stopInstance(b)])).toEqual([0, 0]);
  }, 40_000);

  const binDir = findPostgres();
  const withPostgres = binDir === undefined ? it.skip : it;
  if (binDir === undefined) {
    console.warn(
      'instances: no initdb/postgres found (PATH, /usr/local/bin, /usr/lib/postgresql/*/bin); the two-refresher row cache case is skipped',
    );
  }

  withPostgres(
    'reads each due row from the database once, not once per instance, with the row cache refresher on both',
    async () => {
      const pg = await startTestPostgres(binDir!);
      try {
        // The refreshers read a view that notes every row it returns, and who read it: each
        // instance connects as its own database user.
        await pg.query(`
        CREATE ROLE instance_a LOGIN SUPERUSER;
        CREATE ROLE instance_b LOGIN SUPERUSER;
        CREATE TABLE inventory (id integer PRIMARY KEY, name text NOT NULL, stock integer NOT NULL);
        INSERT INTO inventory SELECT n, 'item ' || n, n FROM generate_series(1, 50) AS n;
        CREATE TABLE reads (row_id integer NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp(), reader text NOT NULL DEFAULT session_user);
        CREATE FUNCTION note_read(row_id integer) RETURNS boolean LANGUAGE plpgsql VOLATILE COST 100000 AS
          $$ BEGIN INSERT INTO reads (row_id) VALUES (row_id); RETURN true; END $$;
        CREATE VIEW counted_inventory AS SELECT i.* FROM inventory AS i WHERE note_read(i.id);
      `);
        const url = (user: string) => pg.url.replace('postgres@', `${user}@`);
        const [a, b] = await startPair((which) => ({
          ROW_CACHE: 'on',
          DATABASE_URL: url(`instance_${which}`),
          ROW_CACHE_TABLE: 'counted_inventory',
          ROW_CACHE_MAX_SLEEP_MS: '50',
          ROW_CACHE_DB_TIMEOUT_MS: '1000',
        }));
        const rows = Array.from({ length: 12 }, (_, i) => String(i + 1));
        const delaySeconds = 1;
        for (const [i, rowId] of rows.entries()) {
          await ok(i % 2 === 0 ? a.url : b.url, ScheduleRowCacheDocument, { rowId, delaySeconds }, token.service);
          await sleep(40); // spread the rows' due times over the second, so both refreshers find some due
        }
        // Five due times of every row, however long the instances take on this machine.
        const readCounts = async () =>
          (await pg.query('SELECT row_id, count(*)::int AS n FROM reads GROUP BY row_id')).map((row) => Number(row.n));
        await eventually(
          async () => {
            const counts = await readCounts();
            return counts.length === rows.length && counts.every((n) => n >= 5);
          },
          60_000,
          100,
        );
        for (const rowId of rows) await ok(a.url, ScheduleRowCacheDocument, { rowId, delaySeconds: 0 }, token.service);
        // Copies are gone once unscheduled; before that both instances served them (checked below).
        const reads = (
          await pg.query('SELECT row_id, extract(epoch FROM at) * 1000 AS at, reader FROM reads ORDER BY at')
        ).map((read) => ({
          rowId: String(read.row_id),
          at: Number(read.at),
          reader: String(read.reader),
        }));
        expect(await Promise.all([stopInstance(a), stopInstance(b)])).toEqual([0, 0]);

        const byRow = new Map(rows.map((rowId) => [rowId, reads.filter((read) => read.rowId === rowId)]));
        const readers = new Set(reads.map((read) => read.reader));
        console.log(
          `instances: ${reads.length} row reads over ${rows.length} rows (${[...readers].map((r) => `${r}: ${reads.filter((x) => x.reader === r).length}`).join(', ')})`,
        );
        // Both refreshers took part, so the once-each below is not one instance doing everything.
        expect([...readers].sort()).toEqual(['instance_a', 'instance_b']);
        expect(reads.every((read) => rows.includes(read.rowId))).toBe(true);
        // Read at once, then once per second. A due time refreshed by both instances would add a
        // second read within ms of the first; successive ones come at least 750 ms apart (a delay
        // after the store, less at most a quarter of it of look-ahead).
        const offending = [...byRow]
          .map(([rowId, own]) => ({
            rowId,
            reads: own.length,
            gaps: own.slice(1).map((read, i) => Math.round(read.at - own[i].at)),
          }))
          .filter(({ reads, gaps }) => reads < 5 || gaps.some((gap) => gap < delaySeconds * 1000 * 0.5));
        expect(offending).toEqual([]);
      } finally {
        await pg.stop();
      }
    },
    120_000,
  );

  withPostgres(
    'serves the same cached copy through either instance',
    async () => {
      const pg = await startTestPostgres(binDir!);
      try {
        await pg.query(`
        CREATE TABLE inventory (id integer PRIMARY KEY, name text NOT NULL, stock integer NOT NULL);
        INSERT INTO inventory VALUES (7, 'kettle', 3);
      `);
        const [a, b] = await startPair(() => ({
          ROW_CACHE: 'on',
          DATABASE_URL: pg.url,
          ROW_CACHE_MAX_SLEEP_MS: '50',
          ROW_CACHE_DB_TIMEOUT_MS: '1000',
        }));
        await ok(a.url, ScheduleRowCacheDocument, { rowId: '7', delaySeconds: 0.2 }, token.service);
        const cached = async (url: string) =>
          (await ok(url, CachedRowDocument, { rowId: '7' }, token.alice)).cachedRow as Record<string, unknown> | null;
        await eventually(async () => (await cached(b.url)) !== null, 10_000, 50);
        await pg.query('UPDATE inventory SET stock = 2 WHERE id = 7');
        await eventually(async () => (await cached(a.url))?.stock === 2, 10_000, 50);
        expect(await cached(b.url)).toEqual({ id: 7, name: 'kettle', stock: 2 });
        expect(await Promise.all([stopInstance(a), stopInstance(b)])).toEqual([0, 0]);
      } finally {
        await pg.stop();
      }
    },
    30_000,
  );
});
