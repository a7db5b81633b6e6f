// Push (issue 37): how many pushes a worker sends per second against the same provider client
// sending them straight (the raw peer), the Redis commands each costs, and how late a push
// arrives after its send, with 10,000 sleeping devices. The provider is a local Web Push receiver
// that checks each VAPID token and decrypts each body. Method: docs/performance.md, "Method: push".
import pino from 'pino';
import webpush from 'web-push';
import { loadConfig } from '../src/config';
import { createPushSenders } from '../src/push/providers';
import { PushScheduler } from '../src/push/scheduler';
import type { PushMessage, PushTarget } from '../src/push/types';
import { ChatRepository } from '../src/redis/chat';
import { closeRedis, connectRedis } from '../src/redis/client/connection';
import { PushDecisions } from '../src/redis/push/decisions';
import { PushTargets } from '../src/redis/push/targets';
import { TaskRepository } from '../src/redis/task';
import { pushDecisionSettings, startPushRunner } from '../src/workers/push-runner';
import { startWebPushReceiver } from '../tests/support/push/web-push-receiver';
import { bench, inParallel, measure, percentile, size, summarize, type Sample } from './harness';

const DEVICES = size('BENCH_PUSH_DEVICES', 2_000, 10_000);
const MEMBERS = 100;
const CHATS = DEVICES / MEMBERS;
const ROUNDS = size('BENCH_PUSH_ROUNDS', 3, 5);
/** Sends timed for the delay: each wakes one chat's 100 devices, spaced so the fan-outs barely overlap. */
const LATENCY_SENDS = size('BENCH_PUSH_LATENCY_SENDS', 10, 30);
const LATENCY_GAP_MS = 500;
const CONCURRENCY = 32;
const ROUND_TIMEOUT_MS = 180_000;

bench({ id: 'push', title: 'Push to devices that sleep' }, async ({ url, admin, report, steps, defer }) => {
  const logger = pino({ level: 'silent' });
  const vapid = webpush.generateVAPIDKeys();
  const receiver = await startWebPushReceiver({ vapidPublicKey: vapid.publicKey });
  defer(() => receiver.close());
  const config = loadConfig({
    NODE_ENV: 'test',
    REDIS_URL: url,
    PUSH_DELAY_MS: '0',
    PUSH_CONCURRENCY: String(CONCURRENCY),
    PUSH_VAPID_PUBLIC_KEY: vapid.publicKey,
    PUSH_VAPID_PRIVATE_KEY: vapid.privateKey,
    PUSH_VAPID_SUBJECT: 'mailto:bench@example.com',
  });
  const commands = await connectRedis(url, { name: 'bench:push', logger, commandTimeoutMs: 10_000 });
  defer(() => closeRedis(commands));
  const chats = new ChatRepository(commands, { ...config.messaging, maxChatMembers: MEMBERS + 1 });
  const targets = new PushTargets(commands, config.messaging);
  const tasks = new TaskRepository(commands, { ...config.tasks, maxTasksPerQueue: 1e7 });
  const decisions = new PushDecisions(commands, pushDecisionSettings(config));
  const scheduler = new PushScheduler(decisions, tasks, config.push, logger);
  const progress = steps(2 * (ROUNDS + 1) + 2);

  // Every device has fetched once with its name and registered a subscription of its own.
  progress.step(`${DEVICES} sleeping devices in ${CHATS} chats`);
  const subscriptions: PushTarget[] = [];
  const chatIds: string[] = [];
  for (let c = 0; c < CHATS; c++) {
    const members = Array.from({ length: MEMBERS }, (_, m) => `u${c * MEMBERS + m}`);
    chatIds.push((await chats.create('sender', members, 'hello', false)).chat.id);
  }
  await inParallel(DEVICES, 64, async (i) => {
    const { endpoint, keys } = receiver.subscribe();
    const target: PushTarget = { kind: 'webpush', endpoint, keys };
    subscriptions[i] = target;
    await chats.pending(`u${i}`, 1, false, 'phone');
    await targets.set(`u${i}`, 'phone', target);
  });

  const senders = await createPushSenders(config.push, logger);
  const runner = await startPushRunner({
    redis: url,
    commands,
    tasks,
    taskConfig: config.tasks,
    decisions,
    targets,
    senders,
    config: config.push,
    logger,
  });
  defer(() => runner.stop(5000));

  /** Ours: one message in every chat; done when every device's push has arrived. */
  const ours = async (): Promise<Sample> => {
    const expected = receiver.received().length + DEVICES;
    return measure(
      DEVICES,
      async () => {
        for (const chatId of chatIds) {
          await chats.send(chatId, 'sender', 'new');
          await scheduler.chatEntry(chatId);
        }
        await receiver.waitFor(expected, ROUND_TIMEOUT_MS);
      },
      { admin },
    );
  };
  /** Raw: the same provider client sends the same number of pushes, as many at once as the workers. */
  const sender = senders.webpush!;
  const raw = async (round: number): Promise<Sample> => {
    const expected = receiver.received().length + DEVICES;
    const message = (i: number): PushMessage => ({
      chatId: chatIds[Math.floor(i / MEMBERS)],
      mailbox: false,
      upTo: 1000 + round,
      unread: 1,
      badgeOnly: false,
      collapseKey: `chat:${chatIds[Math.floor(i / MEMBERS)]}`,
      ttlSeconds: 86_400,
    });
    return measure(
      DEVICES,
      async () => {
        await inParallel(DEVICES, CONCURRENCY, async (i) => {
          const result = await sender.send(subscriptions[i], message(i));
          if (result.outcome !== 'sent') throw new Error(`raw push ${i}: ${JSON.stringify(result)}`);
        });
        await receiver.waitFor(expected, ROUND_TIMEOUT_MS);
      },
      { admin },
    );
  };

  const rounds = { ours: [] as Sample[], raw: [] as Sample[] };
  for (let round = 0; round <= ROUNDS; round++) {
    const what = round === 0 ? 'warm-up' : `round ${round} of ${ROUNDS}`;
    progress.step(`ours, ${what}`);
    const a = await ours();
    progress.step(`raw, ${what}`);
    const b = await raw(round);
    console.log(`  ${what}: ours ${a.rate.toFixed(0)}/s, raw ${b.rate.toFixed(0)}/s`);
    if (round === 0) continue;
    rounds.ours.push(a);
    rounds.raw.push(b);
  }

  // Delay: sends one chat at a time to the still-sleeping devices; each push's arrival minus its send.
  progress.step(`delay of ${LATENCY_SENDS * MEMBERS} pushes`);
  const sentAt = new Map<string, number>();
  const before = receiver.received().length;
  for (let i = 0; i < LATENCY_SENDS; i++) {
    const chatId = chatIds[i % CHATS];
    const { message } = await chats.send(chatId, 'sender', 'timed');
    sentAt.set(`${chatId}:${message.id}`, Date.now());
    await scheduler.chatEntry(chatId);
    await new Promise((resolve) => setTimeout(resolve, LATENCY_GAP_MS));
  }
  await receiver.waitFor(before + LATENCY_SENDS * MEMBERS, ROUND_TIMEOUT_MS);
  const delays = receiver
    .received()
    .slice(before)
    .map((delivery) => {
      const { chatId, upTo } = delivery.payload as { chatId: string; upTo: number };
      return delivery.at - sentAt.get(`${chatId}:${upTo}`)!;
    })
    .sort((x, y) => x - y);

  const rate = (samples: Sample[]) => samples.map((s) => s.rate);
  report.ratio(
    'push.send.ours_vs_raw',
    'pushes/s: ours (decide, claim, check, send) / the client sending straight',
    rate(rounds.ours),
    rate(rounds.raw),
  );
  report.median(
    'push.send.ours_rate',
    `pushes/s a worker sends (${CONCURRENCY} at once)`,
    'pushes/s',
    rate(rounds.ours),
  );
  report.median('push.send.raw_rate', 'pushes/s the client sends straight', 'pushes/s', rate(rounds.raw));
  const perPush = (samples: Sample[]) => summarize(samples.map((s) => s.executed / s.ops));
  report.figure({
    id: 'push.send.redis_commands',
    label: 'Redis commands per push (in scripts too)',
    unit: 'commands',
    ...perPush(rounds.ours),
  });
  report.value(
    'push.delay.p50',
    `send to arrival, p50 (${DEVICES} sleeping devices, PUSH_DELAY_MS=0)`,
    'ms',
    percentile(delays, 50),
  );
  report.value('push.delay.p99', 'send to arrival, p99', 'ms', percentile(delays, 99));
  for (const note of [
    `${DEVICES} devices in ${CHATS} chats of ${MEMBERS}, each with a Web Push subscription at a receiver on loopback that checks the VAPID token and decrypts every body (in this process, so both peers pay for it alike).`,
    `Ours: one message in every chat, then the push queue's decisions and sends (one worker process, ${CONCURRENCY} at once) until every device's push arrived; raw: the same client sends as many pushes, ${CONCURRENCY} at once. 1 warm-up + ${ROUNDS} rounds each, taking turns.`,
    `Delay: ${LATENCY_SENDS} sends ${LATENCY_GAP_MS} ms apart, each waking a chat's ${MEMBERS} devices; PUSH_DELAY_MS=0, so the delay is the queue, the scripts and the provider, not the burst wait (add PUSH_DELAY_MS, 3 s by default).`,
  ])
    report.note(note);
});
