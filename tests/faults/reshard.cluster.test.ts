// Resharding a Redis Cluster under a stream of chat sends (a *.cluster.test.ts file runs only with
// TEST_REDIS=cluster). The file starts a cluster of its own, as it changes it: a new, empty
// primary joins (CLUSTER MEET), one chat's slot is set importing there and migrating on its owner,
// the chat's keys are moved with MIGRATE and the slot is held open so requests meet ASK redirects,
// then the migration is finished (SETSLOT NODE). The API server (`node dist/main.js`) must log no
// error meanwhile (ioredis's ASKING promise used to end as an unhandled rejection when the slot
// refresh dropped the new primary's connection), lose and double nothing, and answer callers at
// most STORE_UNAVAILABLE. The slot is held open until the new primary has seen many ASKING
// commands, counted in its INFO commandstats: an event, not a guessed delay.
import { chatKeys } from '../../src/redis/keys';
import { FetchPendingMessagesDocument } from '../../src/generated/client/graphql';
import { createChat, serverEnv, trySend, userToken } from '../support/chat-faults';
import { startTestCluster, type TestCluster } from '../support/cluster';
import { eventually, post } from '../support/graphql';
import { cleanUpProcesses, ensureBuilt, startAndWait, tempDir, type Started } from '../support/process';
import { setTimeout as sleep } from 'node:timers/promises';

const CHATS = 6;
/** ASKING commands the new primary must have served before the migration is finished. */
const ASKINGS_WHILE_OPEN = 150;

let cluster: TestCluster;
let server: Started;
const loops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  ensureBuilt();
  cluster = await startTestCluster({ replicasPerPrimary: 0 });
  server = await startAndWait(serverEnv(cluster.env, tempDir()));
}, 60_000);
afterAll(async () => {
  await Promise.all(loops.splice(0).map((stop) => stop()));
  cleanUpProcesses();
  await cluster?.stop();
});

async function onNode<T>(port: number, run: (node: ReturnType<TestCluster['node']>) => Promise<T>): Promise<T> {
  const node = cluster.node(port);
  try {
    return await run(node);
  } finally {
    node.disconnect();
  }
}

/** The port of the primary that serves `slot`, as the node on `asked` sees it. */
async function ownerOf(slot: number, asked: number): Promise<number> {
  const ranges = (await onNode(asked, (node) => node.cluster('SLOTS'))) as unknown as [
    number,
    number,
    [string, number],
  ][];
  const range = ranges.find(([from, to]) => slot >= from && slot <= to);
  if (!range) throw new Error(`slot ${slot} is not served`);
  return range[2][1];
}

/** How often a node has run `command`, from INFO commandstats. */
async function calls(port: number, command: string): Promise<number> {
  const stats = await onNode(port, (node) => node.info('commandstats'));
  return Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
}

/** Moves every key of `slot` from `from` to `to` with MIGRATE; returns how many were moved. */
async function migrateKeys(slot: number, from: number, to: number): Promise<number> {
  let moved = 0;
  for (;;) {
    const keys = await onNode(from, (node) => node.cluster('GETKEYSINSLOT', slot, 100));
    if (keys.length === 0) return moved;
    await onNode(from, (node) =>
      node.call('MIGRATE', '127.0.0.1', to, '', 0, 5000, 'AUTH', cluster.password, 'KEYS', ...keys),
    );
    moved += keys.length;
  }
}

interface Ack {
  chatId: string;
  clientMessageId: string;
  id: number;
  at: number;
}

/**
 * One sender per chat, so the others go on while sends to the moving chat are refused; a failed
 * send is retried with its clientMessageId until acknowledged, as a phone would.
 */
function startStream(chats: string[]) {
  const acks: Ack[] = [];
  const refusals: string[] = [];
  let running = true;
  const sendUntilAcked = async (chatId: string, clientMessageId: string): Promise<void> => {
    for (;;) {
      const outcome = await trySend(server.url, userToken('alice'), chatId, clientMessageId, clientMessageId);
      if (outcome.kind === 'acked') {
        acks.push({ chatId, clientMessageId, id: outcome.id, at: Date.now() });
        return;
      }
      refusals.push(outcome.kind === 'refused' ? String(outcome.code) : `no answer: ${outcome.error}`);
      if (server.server.proc.exitCode !== null || server.server.proc.signalCode !== null) return;
      await sleep(50);
    }
  };
  const senders = chats.map(async (chatId, sender) => {
    for (let n = 0; running; n++) await sendUntilAcked(chatId, `s${sender}-${n}`);
  });
  const stop = async (): Promise<void> => {
    running = false;
    await Promise.all(senders);
  };
  loops.push(stop);
  return { acks, refusals, stop };
}

/** Every message pending for `member`, by chat, in the order fetched. */
async function pullAll(member: string): Promise<Map<string, { id: number; message: string }[]>> {
  const byChat = new Map<string, { id: number; message: string }[]>();
  for (;;) {
    const result = await post(server.url, FetchPendingMessagesDocument, { limit: 1000 }, userToken(member));
    expect(result.errors).toBeUndefined();
    const chats = result.data!.fetchPendingMessages;
    for (const chat of chats) {
      const list = byChat.get(chat.chatId) ?? [];
      list.push(...chat.messages.map(({ id, message }) => ({ id, message })));
      byChat.set(chat.chatId, list);
    }
    if (chats.every((chat) => chat.remaining === 0)) return byChat;
  }
}

const errorLines = (): string[] =>
  server.server.lines
    .filter((line) => Number(line.level) >= 50)
    .map((line) => `${String(line.msg)}: ${String((line.err as { message?: string } | undefined)?.message)}`);

it('moves a chat slot to a new primary under a stream of sends: no error logged, nothing lost or doubled, at most STORE_UNAVAILABLE', async () => {
  const chats: string[] = [];
  for (let n = 0; n < CHATS; n++) chats.push(await createChat(server.url, 'alice', ['bob'], 'opened'));
  const moving = chats[0];
  const [first] = cluster.nodes;
  const slot = Number(await onNode(first.port, (node) => node.cluster('KEYSLOT', chatKeys.messages(moving))));
  const source = await ownerOf(slot, first.port);

  const target = await cluster.addPrimary();
  const [sourceId, targetId] = [await cluster.nodeId(source), await cluster.nodeId(target)];
  const stream = startStream(chats);
  const ackedFor = (chatId: string, after = 0): number =>
    stream.acks.filter((ack) => ack.chatId === chatId && ack.at > after).length;
  await eventually(async () => ackedFor(moving) >= 3, 30_000);

  // Held open: the importing primary owns no slot, so each slot refresh drops the API's
  // connection to it, while sends to the moving chat keep being redirected there with ASK.
  expect(await onNode(target, (node) => node.cluster('SETSLOT', slot, 'IMPORTING', sourceId))).toBe('OK');
  expect(await onNode(source, (node) => node.cluster('SETSLOT', slot, 'MIGRATING', targetId))).toBe('OK');
  const moved = await migrateKeys(slot, source, target);
  expect(moved).toBeGreaterThanOrEqual(3);
  const opened = Date.now();
  const asksBefore = await calls(target, 'asking');
  await eventually(async () => (await calls(target, 'asking')) - asksBefore >= ASKINGS_WHILE_OPEN, 120_000, 250);
  const othersWhileOpen = chats.slice(1).map((chat) => ackedFor(chat, opened));

  const leftOver = await migrateKeys(slot, source, target);
  for (const port of [
    target,
    source,
    ...cluster.nodes.map((node) => node.port).filter((p) => p !== target && p !== source),
  ])
    expect(await onNode(port, (node) => node.cluster('SETSLOT', slot, 'NODE', targetId))).toBe('OK');
  const finished = Date.now();
  await eventually(async () => ackedFor(moving, finished) >= 3, 60_000);
  await stream.stop();

  const unhandled = errorLines();
  const fetched = await pullAll('bob');
  const lost: string[] = [];
  const doubled: string[] = [];
  const renumbered: string[] = [];
  const gapped: string[] = [];
  for (const chat of chats) {
    const messages = fetched.get(chat) ?? [];
    const ids = messages.map((m) => m.id);
    // Message 1 is the opening one; the stream's follow without gaps.
    if (ids.join() !== Array.from({ length: ids.length }, (_, i) => i + 1).join()) gapped.push(chat);
    const count = new Map<string, number>();
    for (const m of messages) count.set(m.message, (count.get(m.message) ?? 0) + 1);
    doubled.push(...[...count].filter(([, n]) => n > 1).map(([message]) => message));
    for (const ack of stream.acks.filter((one) => one.chatId === chat)) {
      const found = messages.find((m) => m.message === ack.clientMessageId);
      if (!found) lost.push(ack.clientMessageId);
      else if (found.id !== ack.id) renumbered.push(ack.clientMessageId);
    }
  }
  const codes = [...new Set(stream.refusals)];
  console.log(
    `reshard: slot ${slot} ${source} -> ${target}, ${moved + leftOver} keys moved; ` +
      `${stream.acks.length} sends acknowledged (${ackedFor(moving)} to the moving chat), ` +
      `${stream.refusals.length} refusals ${JSON.stringify(codes)}, ` +
      `${(await calls(target, 'asking')) - asksBefore} ASKING on the new primary, ${unhandled.length} error lines`,
  );

  expect({ unhandled, lost, doubled, renumbered, gapped }).toEqual({
    unhandled: [],
    lost: [],
    doubled: [],
    renumbered: [],
    gapped: [],
  });
  expect(codes.filter((code) => code !== 'STORE_UNAVAILABLE')).toEqual([]);
  expect(stream.acks.length).toBe(new Set(stream.acks.map((ack) => ack.clientMessageId)).size);
  // The other chats kept flowing while the slot was open, and the slot now belongs to the new primary.
  expect(othersWhileOpen.every((count) => count > 0)).toBe(true);
  for (const node of cluster.nodes) await eventually(async () => (await ownerOf(slot, node.port)) === target, 30_000);
  expect(server.server.proc.exitCode).toBeNull();
}, 300_000);
