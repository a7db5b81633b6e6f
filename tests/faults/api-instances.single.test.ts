// Two API server processes (`node dist/main.js`) on one Redis, and one of them killed outright
// (SIGKILL) under a stream of chat sends that alternates between them. The client sends each
// message again, with the same clientMessageId, through the surviving instance whenever it got no
// answer or an error. Nothing is lost or stored twice, including sends that the dead instance had
// handed to Redis but never answered. A subscriber on one instance hears of sends made through the
// other. `npm test` builds dist/ before jest runs.
import { InboxChangedDocument } from '../../src/generated/client/graphql';
import { chatKeys } from '../../src/redis/keys';
import {
  createChat,
  oneTo,
  pullAll,
  serverEnv,
  trySend,
  userToken,
  type SendOutcome,
  type Stored,
} from '../support/chat-faults';
import { connectWs, eventually, wsOperation, type WsClient } from '../support/graphql';
import { cleanUpProcesses, ensureBuilt, startAndWait, tempDir, type Started } from '../support/process';
import { startTestRedis, type TestRedis } from '../support/redis';
import { setTimeout as sleep } from 'node:timers/promises';

const SENDERS = ['alice', 'bob', 'dave'];
const LISTENER = 'carol';
const MEMBERS = ['alice', 'bob', 'carol', 'dave'];
/** How long Redis is kept busy while instance A dies with sends in flight. */
const BUSY_MS = 700;

let redis: TestRedis;
let a: Started;
let b: Started;
const sockets: WsClient[] = [];

beforeAll(ensureBuilt, 120_000);
beforeAll(async () => {
  redis = await startTestRedis();
  [a, b] = await Promise.all([
    startAndWait(serverEnv(redis.env, tempDir())),
    startAndWait(serverEnv(redis.env, tempDir())),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all(sockets.map((socket) => socket.dispose()));
  cleanUpProcesses();
  await redis?.stop();
});

/**
 * Keeps Redis busy in one script for `ms`: commands sent meanwhile wait unanswered in its buffers.
 * The script names a key of the chat, so a cluster client would run it on the chat's shard.
 */
const keepRedisBusy = (chatId: string, ms: number): Promise<unknown> =>
  redis.client.eval(
    "local s = redis.call('TIME') local from = s[1] * 1000000 + s[2] repeat local t = redis.call('TIME') until t[1] * 1000000 + t[2] - from > tonumber(ARGV[1]) * 1000 return 1",
    1,
    chatKeys.messages(chatId),
    ms,
  );

/** Messages of the chat as stored in Redis right now, by text. */
const storedIds = async (chatId: string, message: string): Promise<number[]> =>
  (await redis.client.zrange(chatKeys.messages(chatId), 0, -1, 'WITHSCORES')).flatMap((value, i, all) =>
    i % 2 === 0 && (JSON.parse(value) as { message: string }).message === message ? [Number(all[i + 1])] : [],
  );

interface ClientSend {
  sender: string;
  message: string;
  clientMessageId: string;
  via: 'A' | 'B';
  first: SendOutcome;
  /** Attempts through B after the first had no answer or an error. */
  retries: SendOutcome[];
  /** The id the client finally got. */
  id: number | undefined;
}

it('loses and duplicates nothing when an instance dies mid-stream and the client retries on the other', async () => {
  const chatId = await createChat(a.url, 'alice', MEMBERS.slice(1), 'welcome');
  const expected: Stored[] = [{ id: 1, sender: 'alice', message: 'welcome' }];

  // Cross-instance notification: carol listens on B and hears of a send made through A. Her
  // subscription may take a moment to start, so A sends until she has heard of one.
  const carolSocket = connectWs(b.url, userToken(LISTENER));
  sockets.push(carolSocket);
  const carolInbox = wsOperation(carolSocket.client, InboxChangedDocument, {});
  let heard: number | undefined;
  for (let ping = 1; heard === undefined && ping <= 20; ping++) {
    const sent = await trySend(a.url, userToken('alice'), chatId, `ping ${ping}`, `alice-ping-${ping}`);
    if (sent.kind !== 'acked') throw new Error(`ping through A failed: ${JSON.stringify(sent)}`);
    expected.push({ id: sent.id, sender: 'alice', message: `ping ${ping}` });
    const deadline = Date.now() + 500;
    while (heard === undefined && Date.now() < deadline) {
      if (carolInbox.results.some((r) => r.data?.inboxChanged.latestMessageId === sent.id)) heard = sent.id;
      else await sleep(20);
    }
  }
  expect(heard).toBeDefined();
  expect(carolInbox.results.find((r) => r.data?.inboxChanged.latestMessageId === heard)?.data?.inboxChanged).toEqual({
    chatId,
    latestMessageId: heard,
    mailbox: false,
    waiting: null,
  });

  // The stream: each sender alternates between A and B and retries on B what got no answer.
  let streaming = true;
  const sends: ClientSend[] = [];
  const send = async (
    sender: string,
    message: string,
    clientMessageId: string,
    via: 'A' | 'B',
  ): Promise<ClientSend> => {
    const token = userToken(sender);
    const record: ClientSend = {
      sender,
      message,
      clientMessageId,
      via,
      first: await trySend((via === 'A' ? a : b).url, token, chatId, message, clientMessageId),
      retries: [],
      id: undefined,
    };
    let outcome = record.first;
    while (outcome.kind !== 'acked' && record.retries.length < 20) {
      outcome = await trySend(b.url, token, chatId, message, clientMessageId);
      record.retries.push(outcome);
    }
    record.id = outcome.kind === 'acked' ? outcome.id : undefined;
    return record;
  };
  const streams = SENDERS.map(async (sender, s) => {
    for (let n = 1; streaming; n++) {
      sends.push(await send(sender, `${sender} says ${n}`, `${sender}-${n}`, (n + s) % 2 === 0 ? 'A' : 'B'));
      await sleep(5);
    }
  });
  await eventually(
    async () => SENDERS.every((sender) => sends.filter((x) => x.sender === sender && x.id !== undefined).length >= 20),
    20_000,
    20,
  );

  // Redis is busy for a moment; meanwhile each sender has one more send in flight through A, and
  // A dies. A has handed those sends to Redis, which runs them once it is free: stored, never
  // answered.
  const busy = keepRedisBusy(chatId, BUSY_MS);
  await sleep(50);
  const inFlight = SENDERS.map((sender) => ({
    sender,
    message: `${sender} in flight`,
    clientMessageId: `${sender}-in-flight`,
  }));
  const inFlightOutcomes = inFlight.map((x) =>
    trySend(a.url, userToken(x.sender), chatId, x.message, x.clientMessageId),
  );
  await sleep(200);
  a.server.proc.kill('SIGKILL');
  await a.server.exited;
  const sentAtKill = sends.length;
  await busy;
  await sleep(100);

  for (const [i, x] of inFlight.entries()) {
    expect(await inFlightOutcomes[i]).toMatchObject({ kind: 'no-answer' });
    const [storedId, ...others] = await storedIds(chatId, x.message);
    expect(storedId).toBeDefined();
    expect(others).toEqual([]);
    // The client's retry through B gets that message, not a copy.
    const retried = await send(x.sender, x.message, x.clientMessageId, 'B');
    expect(retried).toMatchObject({ first: { kind: 'acked', id: storedId }, id: storedId });
    sends.push({ ...retried, via: 'A', first: await inFlightOutcomes[i], retries: [retried.first] });
  }

  await eventually(
    async () =>
      // Sends through A that met it dead: counted by their retry, as the check below counts them (a
      // send A answered just before it died can be recorded after the kill on a loaded machine).
      sends.filter((x) => x.via === 'A' && x.retries.length > 0).length >= 9 + inFlight.length &&
      sends.slice(sentAtKill).filter((x) => x.via === 'B').length >= 9,
    20_000,
    20,
  );
  streaming = false;
  await Promise.all(streams);

  // Every send got an id in the end; only sends through A ever needed a retry, and those that did
  // got no answer (A was dead or dying); the first retry through B always worked.
  expect(sends.filter((x) => x.id === undefined)).toEqual([]);
  const retried = sends.filter((x) => x.retries.length > 0);
  expect(retried.every((x) => x.via === 'A' && x.first.kind === 'no-answer' && x.retries.length === 1)).toBe(true);
  expect(sends.filter((x) => x.via === 'A' && x.first.kind === 'acked').length).toBeGreaterThanOrEqual(20);
  expect(retried.length).toBeGreaterThanOrEqual(9 + inFlight.length);

  // No duplicates and no gaps: every send, answered at first or on retry, holds one id of 1..N.
  expected.push(...sends.map((x) => ({ id: x.id!, sender: x.sender, message: x.message })));
  expected.sort((x, y) => x.id - y.id);
  expect(expected.map((m) => m.id)).toEqual(oneTo(expected.length));
  expect(new Set(expected.map((m) => m.message)).size).toBe(expected.length);

  // carol, still on B, hears of the last send; everyone pulls each message exactly once, in order.
  await eventually(
    async () => carolInbox.results.some((r) => r.data?.inboxChanged.latestMessageId === expected.length),
    5000,
    20,
  );
  for (const member of MEMBERS) {
    expect(await pullAll(b.url, userToken(member), chatId)).toEqual(expected);
  }
  // History is kept (the default retention): exactly the messages accounted for, none besides.
  expect(await redis.client.zcard(chatKeys.messages(chatId))).toBe(expected.length);

  if (process.env.FAULT_FIGURES) {
    const figures = {
      sends: sends.length,
      firstThroughA: sends.filter((x) => x.via === 'A').length,
      ackedByAFirst: sends.filter((x) => x.via === 'A' && x.first.kind === 'acked').length,
      ackedByBFirst: sends.filter((x) => x.via === 'B' && x.first.kind === 'acked').length,
      retriedOnB: retried.length,
      storedButUnanswered: inFlight.length,
      noAnswerErrors: [...new Set(retried.map((x) => (x.first.kind === 'no-answer' ? x.first.error : x.first.kind)))],
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  }
}, 60_000);
