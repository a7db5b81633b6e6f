// Failover of a Redis Cluster primary under a stream of chat sends (a *.cluster.test.ts file runs
// only with TEST_REDIS=cluster). The file starts a cluster of its own (node timeout 1 s, AOF), as
// it breaks it: a managed CLUSTER FAILOVER loses no acknowledged message; a primary killed with
// SIGKILL is replaced by its replica, requests for its slots fail as STORE_UNAVAILABLE meanwhile
// while the other slots keep working, and the messages that survive are each there exactly once.
// With REDIS_WAIT_REPLICAS=1 the same kill loses nothing acknowledged, and the shard refuses
// writes while it has no replica to confirm them; a write whose primary dies between the
// script's reply and WAIT's answers STORE_UNAVAILABLE and is stored once when retried.
// Nothing here waits on a race: what a case asserts about "while the primary is down" or "just
// before the kill" is made so (the replica held back from taking over, a WAIT-confirmed marker),
// and progress is waited for rather than slept for, so a loaded machine only makes it slower.
// The figures (recovery times, acknowledged writes lost) are printed with the results.
import { TokenVerifier } from '../../src/security/auth';
import { chatKeys } from '../../src/redis/keys';
import { TOPICS } from '../../src/schema/topics';
import {
  CreateChatDocument,
  FetchPendingMessagesDocument,
  InboxChangedDocument,
  SendMessageDocument,
} from '../../src/generated/client/graphql';
import { serverEnv } from '../support/chat-faults';
import { startTestCluster, type TestCluster } from '../support/cluster';
import { connectWs, eventually, post, wsOperation, type WsClient } from '../support/graphql';
import { cleanUpProcesses, ensureBuilt, startAndWait, tempDir, type Started } from '../support/process';
import { TEST_SECRET } from '../support/server';
import { setTimeout as sleep } from 'node:timers/promises';

const MEMBERS = ['alice', 'bob', 'carol'] as const;
type Member = (typeof MEMBERS)[number];
const SENDERS = 6;

let cluster: TestCluster;
/** The API server, run as users run it (`node dist/main.js`), on this file's cluster. */
let server: Started;
const api = {
  get url(): string {
    return server.url;
  },
  get logs(): Record<string, unknown>[] {
    return server.server.lines;
  },
};
const signer = new TokenVerifier({ secret: TEST_SECRET });
const token = Object.fromEntries(MEMBERS.map((member) => [member, signer.sign(member, [], 3600)])) as Record<
  Member,
  string
>;
const sockets: WsClient[] = [];

const startServer = (extra: Record<string, string> = {}): Promise<Started> =>
  startAndWait(serverEnv(cluster.env, tempDir(), extra));

/**
 * Other shards serve on while one has no primary only with cluster-require-full-coverage no. With
 * Redis's default (yes) every node answers CLUSTERDOWN from the moment the dead primary is marked
 * failed until its replica is promoted, so every request fails for that while.
 */
async function serveWithoutFullCoverage(port: number): Promise<void> {
  const node = cluster.node(port);
  try {
    expect(await node.config('SET', 'cluster-require-full-coverage', 'no')).toBe('OK');
  } finally {
    node.disconnect();
  }
}

beforeAll(async () => {
  ensureBuilt();
  cluster = await startTestCluster({ nodeTimeoutMs: 1000, appendOnly: true });
  for (const node of cluster.nodes) await serveWithoutFullCoverage(node.port);
  server = await startServer();
}, 60_000);
// A case that brought the server down (it is asserted there) leaves a new one for the next.
beforeEach(async () => {
  if (server.server.proc.exitCode !== null || server.server.proc.signalCode !== null) server = await startServer();
}, 30_000);
/** Loops and timers a case started; stopped after it even when it fails, so jest can exit. */
const runningLoops: (() => unknown)[] = [];
afterEach(async () => {
  await Promise.all(runningLoops.splice(0).map((stop) => stop()));
});
afterAll(async () => {
  await Promise.all(sockets.splice(0).map((socket) => socket.dispose()));
  cleanUpProcesses();
  await cluster?.stop();
});

/** The server process is still running and logged no error (an unexpected error, an uncaught exception). */
function expectServerRunning(): void {
  const proc = server.server.proc;
  const errors = server.server.lines
    .filter((line) => Number(line.level) >= 50)
    .map((line) => `${String(line.msg)}: ${JSON.stringify(line.err)}`);
  expect({ exitCode: proc.exitCode, signal: proc.signalCode, errors }).toEqual({
    exitCode: null,
    signal: null,
    errors: [],
  });
}

type SlotRanges = [number, number, [string, number, ...unknown[]], ...unknown[]][];

/**
 * Port of the primary serving each slot now, once every live primary tells the same: just after
 * a failover a primary that has not heard of it yet would name the old owner.
 */
async function slotOwners(): Promise<(slot: number) => number> {
  let ranges: SlotRanges = [];
  await eventually(
    async () => {
      const { primaries } = await cluster.roles();
      const views = await Promise.all(
        primaries.map(async (port) => {
          const node = cluster.node(port);
          try {
            const slots = (await node.cluster('SLOTS')) as unknown as SlotRanges;
            return slots.map(([from, to, [, owner]]) => [from, to, owner] as const).sort((a, b) => a[0] - b[0]);
          } finally {
            node.disconnect();
          }
        }),
      );
      const agreed = views.every((view) => JSON.stringify(view) === JSON.stringify(views[0]));
      if (agreed) ranges = views[0].map(([from, to, owner]) => [from, to, ['127.0.0.1', owner]]);
      return agreed;
    },
    20_000,
    100,
  );
  return (slot) => {
    const range = ranges.find(([from, to]) => slot >= from && slot <= to);
    if (!range) throw new Error(`slot ${slot} is not served`);
    return range[2][1];
  };
}

/**
 * Resolves once `primary`'s replica has every write the primary had made when this was called:
 * a marker written there is confirmed by WAIT, and replication keeps order. Returns the moment
 * just before the marker went out: a write acknowledged before it is on the replica.
 */
async function replicatedUpToNow(primary: number): Promise<number> {
  const owner = await slotOwners();
  let marker = 0;
  while (owner(await keySlot(`failover-test:marker:${marker}`)) !== primary) marker += 1;
  const node = cluster.node(primary);
  try {
    const before = Date.now();
    await node.set(`failover-test:marker:${marker}`, String(before));
    expect(await node.wait(1, 20_000)).toBe(1);
    return before;
  } finally {
    node.disconnect();
  }
}

/** With `hold`, the replica does not take over from a failed primary (cluster-replica-no-failover) until called again without. */
async function holdFailover(replica: number, hold: boolean): Promise<void> {
  const node = cluster.node(replica);
  try {
    expect(await node.config('SET', 'cluster-replica-no-failover', hold ? 'yes' : 'no')).toBe('OK');
  } finally {
    node.disconnect();
  }
}

/** Acknowledgements for these chats after `since` (Date.now() time). */
const acksAfter = (acks: Ack[], chatIds: Set<string>, since: number): number =>
  acks.filter((ack) => chatIds.has(ack.chatId) && ack.at > since).length;

async function keySlot(key: string): Promise<number> {
  const { primaries } = await cluster.roles();
  const node = cluster.node(primaries[0]);
  try {
    return Number(await node.cluster('KEYSLOT', key));
  } finally {
    node.disconnect();
  }
}

interface Chat {
  id: string;
  /** The primary that served the chat's slot when the chat was made. */
  primary: number;
}

/** Chats of all three members, at least two on every primary. */
async function createChats(): Promise<Chat[]> {
  const owner = await slotOwners();
  const chats: Chat[] = [];
  const perPrimary = new Map<number, number>();
  for (let made = 0; made < 40; made++) {
    const created = await post(
      api.url,
      CreateChatDocument,
      { members: ['bob', 'carol'], message: 'opened' },
      token.alice,
    );
    expect(created.errors).toBeUndefined();
    const id = created.data!.createChat.id;
    const primary = owner(await keySlot(chatKeys.messages(id)));
    chats.push({ id, primary });
    perPrimary.set(primary, (perPrimary.get(primary) ?? 0) + 1);
    if (perPrimary.size === 3 && [...perPrimary.values()].every((count) => count >= 2) && chats.length >= 9) break;
  }
  expect(perPrimary.size).toBe(3);
  expect([...perPrimary.values()].every((count) => count >= 2)).toBe(true);
  return chats;
}

interface Ack {
  chatId: string;
  clientMessageId: string;
  id: number;
  /** When the first try was sent and when the acknowledgement arrived (Date.now()). */
  triedAt: number;
  at: number;
  tries: number;
}

interface Failure {
  chatId: string;
  code: string;
  message: string;
  at: number;
  ms: number;
}

/**
 * SENDERS loops, each sending to the chats in turn; a failed send is retried with the same
 * clientMessageId until it is acknowledged (or `giveUpMs` passes), as a phone would.
 */
function startStream(chats: Chat[], label: string, giveUpMs = 20_000) {
  const acks: Ack[] = [];
  const failures: Failure[] = [];
  const givenUp: string[] = [];
  let running = true;
  const sendUntilAcked = async (chatId: string, clientMessageId: string): Promise<void> => {
    const triedAt = Date.now();
    for (let tries = 1; ; tries++) {
      const started = Date.now();
      let code: string;
      let message: string;
      try {
        const result = await post(
          api.url,
          SendMessageDocument,
          { chatId, message: clientMessageId, clientMessageId },
          token.alice,
        );
        if (!result.errors && result.data?.sendMessage) {
          acks.push({ chatId, clientMessageId, id: result.data.sendMessage.id, triedAt, at: Date.now(), tries });
          return;
        }
        code = String(result.errors?.[0]?.extensions?.code ?? `HTTP ${result.status}`);
        message = String(result.errors?.[0]?.message ?? '');
      } catch (error) {
        code = 'FETCH_FAILED';
        message = (error as Error).message;
      }
      failures.push({ chatId, code, message, at: Date.now(), ms: Date.now() - started });
      const serverGone = server.server.proc.exitCode !== null || server.server.proc.signalCode !== null;
      if (serverGone || Date.now() - triedAt > giveUpMs) {
        givenUp.push(clientMessageId);
        return;
      }
      await sleep(50);
    }
  };
  const loops = Array.from({ length: SENDERS }, async (_, sender) => {
    for (let n = 0; running; n++) {
      const chat = chats[(sender + n * SENDERS) % chats.length];
      await sendUntilAcked(chat.id, `${label}-s${sender}-${n}`);
    }
  });
  const stop = async (): Promise<void> => {
    running = false;
    await Promise.all(loops);
  };
  runningLoops.push(stop);
  return { acks, failures, givenUp, stop };
}

interface Fetched {
  chatId: string;
  id: number;
  message: string;
}

/** Everything pending for a member, in pulls of up to 1000. */
async function pullAll(member: Member): Promise<Fetched[]> {
  const fetched: Fetched[] = [];
  for (;;) {
    const result = await post(api.url, FetchPendingMessagesDocument, { limit: 1000 }, token[member]);
    expect(result.errors).toBeUndefined();
    const chats = result.data!.fetchPendingMessages;
    for (const chat of chats)
      fetched.push(...chat.messages.map((m) => ({ chatId: chat.chatId, id: m.id, message: m.message })));
    if (chats.every((chat) => chat.remaining === 0)) return fetched;
  }
}

interface Outcome {
  /** Acknowledged messages that no member fetched. */
  lost: Ack[];
  /** Per member: clientMessageIds fetched more than once. */
  duplicates: Record<Member, string[]>;
  /** Fetched messages whose id differs from the one acknowledged for them. */
  renumbered: { clientMessageId: string; acked: number; fetched: number }[];
  /** Chats whose fetched ids are not 1..n without gaps. */
  gapped: string[];
  /** Whether every member fetched the same messages. */
  sameForAll: boolean;
}

/** What the members fetch of these chats (every message in them: opening, stream and probes). */
async function settle(acks: Ack[], chats: Chat[], label: string): Promise<Outcome> {
  const chatIds = new Set(chats.map((chat) => chat.id));
  const fetched = {} as Record<Member, Fetched[]>;
  for (const member of MEMBERS) fetched[member] = (await pullAll(member)).filter((m) => chatIds.has(m.chatId));
  const ours = (member: Member) => fetched[member].filter((m) => m.message.startsWith(`${label}-`));
  const duplicates = {} as Record<Member, string[]>;
  for (const member of MEMBERS) {
    const seen = new Map<string, number>();
    for (const m of ours(member)) seen.set(m.message, (seen.get(m.message) ?? 0) + 1);
    duplicates[member] = [...seen].filter(([, count]) => count > 1).map(([message]) => message);
  }
  const byMessage = new Map(ours('bob').map((m) => [m.message, m]));
  const lost = acks.filter((ack) => !byMessage.has(ack.clientMessageId));
  const renumbered = acks
    .filter((ack) => byMessage.has(ack.clientMessageId) && byMessage.get(ack.clientMessageId)!.id !== ack.id)
    .map((ack) => ({
      clientMessageId: ack.clientMessageId,
      acked: ack.id,
      fetched: byMessage.get(ack.clientMessageId)!.id,
    }));
  const gapped: string[] = [];
  for (const chatId of chatIds) {
    const ids = fetched.bob.filter((m) => m.chatId === chatId).map((m) => m.id);
    if (ids.some((id, i) => id !== i + 1)) gapped.push(chatId);
  }
  const key = (m: Fetched) => `${m.chatId}/${m.id}/${m.message}`;
  const sorted = (member: Member) => fetched[member].map(key).sort();
  const sameForAll = MEMBERS.every((member) => JSON.stringify(sorted(member)) === JSON.stringify(sorted('bob')));
  return { lost, duplicates, renumbered, gapped, sameForAll };
}

/** Longest time between successive acknowledgements for these chats in the run. */
function longestGap(acks: Ack[], chatIds: Set<string>): { ms: number; from: number; to: number } {
  const times = acks
    .filter((ack) => chatIds.has(ack.chatId))
    .map((ack) => ack.at)
    .sort((a, b) => a - b);
  let best = { ms: 0, from: 0, to: 0 };
  for (let i = 1; i < times.length; i++)
    if (times[i] - times[i - 1] > best.ms) best = { ms: times[i] - times[i - 1], from: times[i - 1], to: times[i] };
  return best;
}

const countBy = <T>(items: T[], keyOf: (item: T) => string): Record<string, number> =>
  items.reduce<Record<string, number>>(
    (counts, item) => ({ ...counts, [keyOf(item)]: (counts[keyOf(item)] ?? 0) + 1 }),
    {},
  );

async function replicaOf(primary: number): Promise<number> {
  const { replicas } = await cluster.roles();
  const replica = [...replicas].find(([, of]) => of === primary)?.[0];
  if (replica === undefined) throw new Error(`primary ${primary} has no replica`);
  return replica;
}

async function isPrimary(port: number): Promise<boolean> {
  return (await cluster.roles()).primaries.includes(port);
}

/** The primary that serves a member's inbox channel now (on a cluster the API SPUBLISHes the member's notices there). */
async function inboxPrimary(member: Member): Promise<number> {
  return (await slotOwners())(await keySlot(TOPICS.inboxChanged.channel(member)));
}

/** Bob's inboxChanged subscription over WebSocket. */
function watchInbox() {
  const socket = connectWs(api.url, token.bob);
  sockets.push(socket);
  const inbox = wsOperation(socket.client, InboxChangedDocument, {});
  return {
    /** Sends to `chatId` until bob is told of one of those sends; ms from the first send. */
    async heardAfter(chatId: string, timeoutMs = 15_000): Promise<number> {
      const started = Date.now();
      const sent = new Set<number>();
      await eventually(
        async () => {
          const result = await post(
            api.url,
            SendMessageDocument,
            { chatId, message: `nudge-${sent.size}` },
            token.alice,
          );
          if (result.data?.sendMessage) sent.add(result.data.sendMessage.id);
          return inbox.results.some(
            (r) => r.data?.inboxChanged.chatId === chatId && sent.has(r.data.inboxChanged.latestMessageId ?? -1),
          );
        },
        timeoutMs,
        100,
      );
      return Date.now() - started;
    },
  };
}

/** Server log lines at error level or above (level >= 50) since `since`: message, error and command. */
function errorLogs(since: number): string[] {
  return api.logs
    .slice(since)
    .filter((line) => Number(line.level) >= 50)
    .map((line) => `${String(line.msg)}: ${JSON.stringify(line.err)}`);
}

/** Server log lines at warn or above, counted by message and error. */
function serverWarnings(since: number): Record<string, number> {
  const lines = api.logs.slice(since).filter((line) => Number(line.level) >= 40);
  return countBy(
    lines,
    (line) => `${String(line.msg)}${typeof line.err === 'string' ? `: ${line.err.slice(0, 60)}` : ''}`,
  );
}

describe('a managed failover (CLUSTER FAILOVER on a replica) under a stream of sends', () => {
  it('loses no acknowledged message: every member fetches each exactly once, sends to the moved slots succeed again, and notices still arrive', async () => {
    const chats = await createChats();
    // The shard that serves bob's inbox channel, so his WebSocket subscription moves with it.
    const victim = await inboxPrimary('bob');
    const replica = await replicaOf(victim);
    const affected = new Set(chats.filter((chat) => chat.primary === victim).map((chat) => chat.id));
    const watcher = watchInbox();
    await watcher.heardAfter(chats[0].id);
    const logged = api.logs.length;

    const stream = startStream(chats, 'managed');
    await sleep(1000);
    const node = cluster.node(replica);
    const failoverAt = Date.now();
    expect(await node.cluster('FAILOVER')).toBe('OK');
    node.disconnect();
    await eventually(async () => (await isPrimary(replica)) && !(await isPrimary(victim)), 20_000, 20);
    const promotedAt = Date.now();
    await cluster.waitHealthy(20_000);
    // Sends to the moved slots go on for a while (however slowly a loaded machine runs them).
    await sleep(2000);
    await eventually(async () => acksAfter(stream.acks, affected, promotedAt) >= 10, 30_000, 50);
    await stream.stop();
    expectServerRunning();
    const noticeAfterMs = await watcher.heardAfter([...affected][0]);

    const gap = longestGap(stream.acks, affected);
    const outcome = await settle(stream.acks, chats, 'managed');
    console.log(
      `failover (managed): ${stream.acks.length} sends acknowledged, ${stream.acks.filter((a) => affected.has(a.chatId)).length} on the failed-over shard; ` +
        `the replica was primary ${promotedAt - failoverAt} ms after CLUSTER FAILOVER; longest gap between acknowledgements on that shard ${gap.ms} ms; ` +
        `failed tries ${JSON.stringify(countBy(stream.failures, (f) => f.code))}; acknowledged and lost ${outcome.lost.length}; ` +
        `bob told of a send ${noticeAfterMs} ms after the stream; server warnings ${JSON.stringify(serverWarnings(logged))}`,
    );

    expect(stream.givenUp).toEqual([]);
    expect(stream.acks.filter((ack) => affected.has(ack.chatId) && ack.at > promotedAt).length).toBeGreaterThan(0);
    // A failed try is STORE_UNAVAILABLE (retry), never INTERNAL_SERVER_ERROR.
    expect(
      [...new Set(stream.failures.map((failure) => failure.code))].filter((code) => code !== 'STORE_UNAVAILABLE'),
    ).toEqual([]);
    expect(outcome).toEqual({
      lost: [],
      duplicates: { alice: [], bob: [], carol: [] },
      renumbered: [],
      gapped: [],
      sameForAll: true,
    });
  }, 120_000);
});

describe('an unmanaged failover (a primary killed with SIGKILL) under a stream of sends', () => {
  it('answers STORE_UNAVAILABLE for the dead slots meanwhile, keeps the others working, recovers after promotion, and keeps what survived exactly once', async () => {
    await cluster.waitHealthy(10_000);
    const chats = await createChats();
    const victim = await inboxPrimary('bob');
    const replica = await replicaOf(victim);
    const affected = chats.filter((chat) => chat.primary === victim);
    const others = chats.filter((chat) => chat.primary !== victim);
    const affectedIds = new Set(affected.map((chat) => chat.id));
    const watcher = watchInbox();
    await watcher.heardAfter(chats[0].id);
    const logged = api.logs.length;

    const stream = startStream(chats, 'killed');
    await sleep(1000);
    // Everything acknowledged before this is on the replica; only later writes may be lost.
    const replicatedBefore = await replicatedUpToNow(victim);
    // The replica may not take over until the probes below have seen the dead slots answer,
    // however slowly a loaded machine runs them (it goes on replicating and answering meanwhile).
    await holdFailover(replica, true);
    runningLoops.push(() => holdFailover(replica, false));
    const killedAt = Date.now();
    await cluster.kill(victim);

    // Until the replica takes over, probe a chat on the dead primary and, separately, the others.
    const probes: { on: 'dead' | 'live'; code: string | undefined; at: number; ms: number }[] = [];
    let promoted = false;
    runningLoops.push(() => (promoted = true));
    const probing = (['dead', 'live'] as const).map(async (on) => {
      for (let probe = 0; !promoted; probe++) {
        const chat = on === 'dead' ? affected[0] : others[probe % others.length];
        const started = Date.now();
        const result = await post(
          api.url,
          SendMessageDocument,
          { chatId: chat.id, message: `probe-${on}-${probe}` },
          token.alice,
        );
        probes.push({
          on,
          code: result.errors ? String(result.errors[0]?.extensions?.code) : undefined,
          at: Date.now(),
          ms: Date.now() - started,
        });
        await sleep(20);
      }
    });
    await eventually(
      async () => probes.filter((p) => p.on === 'dead').length >= 2 && probes.some((p) => p.on === 'live'),
      30_000,
      20,
    );
    const resumedAt = Date.now();
    await holdFailover(replica, false);
    await eventually(() => isPrimary(replica), 30_000, 20);
    const promotedAt = Date.now();
    promoted = true;
    await Promise.all(probing);
    await cluster.waitHealthy(30_000);
    // Sends to those slots succeed again after the promotion (however slowly a loaded machine runs them).
    await sleep(2000);
    await eventually(async () => acksAfter(stream.acks, affectedIds, promotedAt) >= 10, 30_000, 50);
    await stream.stop();
    expectServerRunning();
    const noticeAfterMs = await watcher.heardAfter(affected[0].id);

    // Answered while the replica was held back: the shard surely had no primary.
    const beforePromotion = probes.filter((p) => p.at < resumedAt);
    const dead = beforePromotion.filter((p) => p.on === 'dead');
    const live = beforePromotion.filter((p) => p.on === 'live');
    const onShard = (ack: Ack) => affectedIds.has(ack.chatId);
    const firstFailure = Math.min(...stream.failures.filter((f) => affectedIds.has(f.chatId)).map((f) => f.at));
    const recovered = stream.acks.filter((ack) => onShard(ack) && ack.at > firstFailure).sort((a, b) => a.at - b.at)[0];
    const outcome = await settle(stream.acks, chats, 'killed');
    const ackedLastSecond = stream.acks.filter((ack) => onShard(ack) && ack.at <= killedAt && ack.at > killedAt - 1000);
    console.log(
      `failover (SIGKILL): ${stream.acks.length} sends acknowledged, ${stream.acks.filter(onShard).length} on the killed primary's shard; ` +
        `replica held back ${resumedAt - killedAt} ms after the kill, primary ${promotedAt - resumedAt} ms after it was let go; sends there succeed again ${recovered ? recovered.at - killedAt : 'never'} ms after the kill ` +
        `(${recovered ? recovered.at - promotedAt : '-'} ms after the promotion); probes before promotion: dead slots ${JSON.stringify(countBy(dead, (p) => p.code ?? 'ok'))} ` +
        `(slowest ${Math.max(0, ...dead.map((p) => p.ms))} ms), other slots ${JSON.stringify(countBy(live, (p) => p.code ?? 'ok'))} (slowest ${Math.max(0, ...live.map((p) => p.ms))} ms); ` +
        `failed tries ${JSON.stringify(countBy(stream.failures, (f) => f.code))}, the slowest ${Math.max(0, ...stream.failures.map((f) => f.ms))} ms; ` +
        `ACKNOWLEDGED WRITES LOST: ${outcome.lost.length} (${ackedLastSecond.length} were acknowledged on that shard in the last second before the kill, ` +
        `${stream.acks.filter((ack) => onShard(ack) && ack.at >= replicatedBefore && ack.at <= killedAt).length} after the replica was last known to have everything, ${killedAt - replicatedBefore} ms before the kill); ` +
        `bob told of a send ${noticeAfterMs} ms after the stream; server warnings ${JSON.stringify(serverWarnings(logged))}`,
    );
    if (outcome.lost.length > 0)
      console.log(`lost, ms before the kill: ${JSON.stringify(outcome.lost.map((ack) => killedAt - ack.at))}`);

    // While the primary is down its slots answer STORE_UNAVAILABLE; the other slots keep working.
    expect(dead.length).toBeGreaterThan(0);
    expect(dead.map((p) => p.code)).toEqual(dead.map(() => 'STORE_UNAVAILABLE'));
    expect(live.length).toBeGreaterThan(0);
    expect(live.map((p) => p.code)).toEqual(live.map(() => undefined));
    expect(
      [...new Set(stream.failures.map((failure) => failure.code))].filter((code) => code !== 'STORE_UNAVAILABLE'),
    ).toEqual([]);
    // Sends to those slots succeed again after the promotion, and none was given up. (How soon
    // is printed above: a test does not assert on wall-clock time.)
    expect(stream.givenUp).toEqual([]);
    expect(recovered).toBeDefined();
    // Replication is asynchronous, so acknowledged writes may be lost, but only on the killed
    // shard and only those acknowledged after the replica was last known to have everything;
    // what is there is there exactly once, for everyone.
    expect(outcome.lost.filter((ack) => !onShard(ack) || ack.at < replicatedBefore)).toEqual([]);
    expect(outcome.duplicates).toEqual({ alice: [], bob: [], carol: [] });
    expect(outcome.renumbered).toEqual([]);
    expect(outcome.gapped).toEqual([]);
    expect(outcome.sameForAll).toBe(true);

    // The killed node comes back as a replica of the promoted one.
    await cluster.restart(victim);
    await serveWithoutFullCoverage(victim);
    await eventually(async () => (await cluster.roles()).replicas.get(victim) === replica, 20_000, 100);
    await cluster.waitHealthy(20_000);
    expect(await isPrimary(victim)).toBe(false);
    const again = await post(
      api.url,
      SendMessageDocument,
      { chatId: affected[0].id, message: 'after rejoin' },
      token.alice,
    );
    expect(again.errors).toBeUndefined();
    expectServerRunning();
  }, 180_000);
});

describe('an unmanaged failover with REDIS_WAIT_REPLICAS=1 (writes acknowledged once the replica has them)', () => {
  it('loses no acknowledged message: the shard refuses writes while it has no replica, and serves again once the killed node is back as one', async () => {
    await cluster.waitHealthy(15_000);
    server.server.proc.kill('SIGTERM');
    await new Promise((resolve) => server.server.proc.once('exit', resolve));
    server = await startServer({ REDIS_WAIT_REPLICAS: '1', REDIS_WAIT_TIMEOUT_MS: '300' });
    const chats = await createChats();
    const victim = (await cluster.roles()).primaries[0];
    const replica = await replicaOf(victim);
    const affectedIds = new Set(chats.filter((chat) => chat.primary === victim).map((chat) => chat.id));
    expect(affectedIds.size).toBeGreaterThan(0);
    const logged = api.logs.length;

    const stream = startStream(chats, 'waited', 60_000);
    // A second of sends, and some on the doomed shard just before the kill.
    await sleep(1000);
    await eventually(async () => acksAfter(stream.acks, affectedIds, Date.now() - 1000) >= 5, 30_000, 10);
    const killedAt = Date.now();
    await cluster.kill(victim);
    await eventually(() => isPrimary(replica), 30_000, 20);
    const promotedAt = Date.now();
    // The promoted node has no replica: writes there cannot be confirmed, so they fail.
    const refusedByPromoted = (f: Failure) =>
      affectedIds.has(f.chatId) && f.at > promotedAt && /of the 1 replicas required/.test(f.message);
    await eventually(async () => stream.failures.some(refusedByPromoted), 30_000, 20);
    const failedWithoutReplica = stream.failures.filter(refusedByPromoted);
    const restartedAt = Date.now();
    await cluster.restart(victim);
    await serveWithoutFullCoverage(victim);
    await eventually(async () => (await cluster.roles()).replicas.get(victim) === replica, 30_000, 100);
    await cluster.waitHealthy(30_000);
    const healthyAt = Date.now();
    // Once the killed node is a replica again, writes there are confirmed again.
    await sleep(1500);
    await eventually(async () => acksAfter(stream.acks, affectedIds, healthyAt) >= 5, 30_000, 50);
    await stream.stop();
    expectServerRunning();

    const onShard = (ack: Ack) => affectedIds.has(ack.chatId);
    const outcome = await settle(stream.acks, chats, 'waited');
    const ackedLastSecond = stream.acks.filter((ack) => onShard(ack) && ack.at <= killedAt && ack.at > killedAt - 1000);
    console.log(
      `failover (SIGKILL, REDIS_WAIT_REPLICAS=1): ${stream.acks.length} sends acknowledged, ${stream.acks.filter(onShard).length} on the killed primary's shard ` +
        `(${ackedLastSecond.length} in the last second before the kill); replica primary ${promotedAt - killedAt} ms after the kill; ` +
        `failed tries ${JSON.stringify(countBy(stream.failures, (f) => f.code))}; sends there succeed again ${Math.min(...stream.acks.filter((ack) => onShard(ack) && ack.at > promotedAt).map((ack) => ack.at)) - restartedAt} ms after the killed node was restarted (it rejoins as a replica); ` +
        `ACKNOWLEDGED WRITES LOST: ${outcome.lost.length}; server warnings ${JSON.stringify(serverWarnings(logged))}`,
    );

    expect(stream.givenUp).toEqual([]);
    expect(
      [...new Set(stream.failures.map((failure) => failure.code))].filter((code) => code !== 'STORE_UNAVAILABLE'),
    ).toEqual([]);
    expect(failedWithoutReplica.length).toBeGreaterThan(0);
    expect(ackedLastSecond.length).toBeGreaterThan(0);
    expect(outcome.lost).toEqual([]);
    expect(outcome.duplicates).toEqual({ alice: [], bob: [], carol: [] });
    expect(outcome.renumbered).toEqual([]);
    expect(outcome.gapped).toEqual([]);
    expect(outcome.sameForAll).toBe(true);
    expect(stream.acks.filter((ack) => onShard(ack) && ack.at > healthyAt).length).toBeGreaterThan(0);
  }, 180_000);
});

describe('a write cut off by a failover (REDIS_WAIT_REPLICAS=1, the primary killed while its WAIT is pending)', () => {
  it('answers STORE_UNAVAILABLE without an error log, and a retry with the same clientMessageId after the promotion stores the message once', async () => {
    await cluster.waitHealthy(20_000);
    server.server.proc.kill('SIGTERM');
    await new Promise((resolve) => server.server.proc.once('exit', resolve));
    // A WAIT longer than the test needs: it is still pending when the primary dies.
    server = await startServer({ REDIS_WAIT_REPLICAS: '1', REDIS_WAIT_TIMEOUT_MS: '4000' });
    const created = await post(
      api.url,
      CreateChatDocument,
      { members: ['bob', 'carol'], message: 'opened' },
      token.alice,
    );
    expect(created.errors).toBeUndefined();
    const chatId = created.data!.createChat.id;
    const victim = (await slotOwners())(await keySlot(chatKeys.messages(chatId)));
    const replica = await replicaOf(victim);
    const logged = api.logs.length;

    // The replica stalls, so the send's WAIT cannot be confirmed; the primary then dies mid-WAIT.
    cluster.pause(replica);
    runningLoops.push(() => cluster.resume(replica));
    const clientMessageId = 'cut-off-1';
    const sentAt = Date.now();
    const first = post(
      api.url,
      SendMessageDocument,
      { chatId, message: clientMessageId, clientMessageId },
      token.alice,
    );
    await sleep(200);
    // The script has run and its reply is written once the primary holds the connection in WAIT.
    const probe = cluster.node(victim);
    try {
      await eventually(async () => /^blocked_clients:[1-9]/m.test(await probe.info('clients')), 10_000, 20);
    } finally {
      probe.disconnect();
    }
    const killedAt = Date.now();
    await cluster.kill(victim);
    const answer = await first;
    const answeredAt = Date.now();

    // Not INTERNAL_SERVER_ERROR with an error logged: the client is told to retry with its key.
    expect({
      code: answer.errors?.[0]?.extensions?.code,
      message: answer.errors?.[0]?.message,
      data: answer.data ?? null,
      errorLogs: errorLogs(logged),
    }).toEqual({
      code: 'STORE_UNAVAILABLE',
      message: 'The data store is unavailable; retry shortly',
      data: null,
      errorLogs: [],
    });

    // The replica goes on and is promoted; the killed node comes back as its replica, so writes
    // there can be confirmed again.
    cluster.resume(replica);
    await eventually(() => isPrimary(replica), 30_000, 50);
    const promotedAt = Date.now();
    await cluster.restart(victim);
    await serveWithoutFullCoverage(victim);
    await eventually(async () => (await cluster.roles()).replicas.get(victim) === replica, 30_000, 100);
    await cluster.waitHealthy(30_000);

    let retried: { id: number; tries: number; codes: string[] } | undefined;
    const codes: string[] = [];
    await eventually(
      async () => {
        const result = await post(
          api.url,
          SendMessageDocument,
          { chatId, message: clientMessageId, clientMessageId },
          token.alice,
        );
        if (result.data?.sendMessage && !result.errors) {
          retried = { id: result.data.sendMessage.id, tries: codes.length + 1, codes };
          return true;
        }
        codes.push(String(result.errors?.[0]?.extensions?.code ?? `HTTP ${result.status}`));
        return false;
      },
      20_000,
      100,
    );
    console.log(
      `write cut off by a failover: answered ${answer.errors?.[0]?.extensions?.code} "${answer.errors?.[0]?.message}" ${answeredAt - killedAt} ms after the kill ` +
        `(${killedAt - sentAt} ms after the send); replica primary ${promotedAt - killedAt} ms after the kill; the retry got id ${retried!.id} ` +
        `after ${retried!.tries} tries (${JSON.stringify(countBy(codes, (code) => code))}); server warnings ${JSON.stringify(serverWarnings(logged))}`,
    );
    expect(codes.filter((code) => code !== 'STORE_UNAVAILABLE')).toEqual([]);

    // Stored once, under the id the retry answered: every member fetches it exactly once.
    for (const member of MEMBERS) {
      const mine = (await pullAll(member)).filter((m) => m.chatId === chatId && m.message === clientMessageId);
      expect({ member, fetched: mine.map((m) => m.id) }).toEqual({ member, fetched: [retried!.id] });
    }
    expect(errorLogs(logged)).toEqual([]);
    expectServerRunning();
  }, 120_000);
});
