// Notify-then-pull at scale (issues 9 and 38): 20,000 graphql-ws subscribers on one product server and one
// sender: the server's memory per idle subscriber, the time from sendMessage's reply to each recipient having
// pulled the message, every message exactly once. Method: docs/performance.md, the subscribers part.
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createChats, Deliveries, Sender, untilSubscribed, type Subscriber } from './subscribers-load';
import { bench, inParallel, isQuick, progress, until, type Figure } from './harness';
import { pin, pinnable, redisPid, startProduct, type ServerProcess } from './harness/server-process';
import { median, percentile, seeded, sumOf } from './harness/support';

const QUICK = isQuick();
const CHAT_SIZE = 5;
/** Descriptors this process and the server need besides the subscribers' sockets (Redis, the sender, Node's own). */
const OTHER_FILES = 100;

/**
 * 20,000, or what the open-file limit leaves room for: each socket is a descriptor here and in the
 * server (Node raises its soft limit to the hard one). Root without CAP_SYS_RESOURCE cannot raise
 * the hard limit: on this machine and CI it is 20,000, so 19,900.
 */
function subscriberCount(): number {
  if (process.env.BENCH_SUBSCRIBERS) return Number(process.env.BENCH_SUBSCRIBERS);
  const limit = Number(/^Max open files\s+(\d+)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? 1024);
  return Math.min(20_000, Math.floor((limit - OTHER_FILES) / CHAT_SIZE) * CHAT_SIZE);
}
const SUBSCRIBERS = subscriberCount();
const RATE = Number(process.env.BENCH_SEND_RATE ?? 100);
const WARMUP_SECONDS = QUICK ? 1 : 3;
const ROUNDS = QUICK ? 3 : 5;
/** Messages to the warm-up chat before the memory baseline. */
const WARMUP_CHAT_MESSAGES = 50;
const ROUND_SECONDS = QUICK ? 2 : 8;
const CONNECTING_AT_ONCE = 50;
const IDLE_SECONDS = QUICK ? 2.5 : 5;
const BURST_CHATS = QUICK ? 200 : 500;
const BURST_IN_FLIGHT = 16;
const BURST_DRAIN_MS = 3000;
/** A delivery not done this long after the round's last send fails the run. */
const DRAIN_TIMEOUT_MS = 15_000;
/** Server on CPU 1; redis-server and this process on CPU 0 (BENCH_PIN=0 leaves scheduling to Linux). */
const PIN = process.env.BENCH_PIN !== '0' && pinnable();
/** BENCH_SERVER_PROFILE=<dir>: CPU and heap profiles of the server (its figures are not to be quoted). */
const PROFILE_DIR = process.env.BENCH_SERVER_PROFILE;

/** Median RSS of the server over the last half of an idle period. */
async function idleRss(server: ServerProcess, seconds: number): Promise<number> {
  const samples: number[] = [];
  for (const end = Date.now() + seconds * 1000; Date.now() < end; await sleep(200)) samples.push(server.rssBytes());
  return median(samples.slice(Math.floor(samples.length / 2)));
}

/** Has the server's preloaded graphql/profiler run `command` (see there); nothing without BENCH_SERVER_PROFILE. */
async function inServer(server: ServerProcess, command: string): Promise<void> {
  if (!PROFILE_DIR) return;
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
  fs.writeFileSync(path.join(PROFILE_DIR, 'command'), command);
  process.kill(server.pid, 'SIGUSR2');
  await sleep(1000);
}

const chatCount = Math.ceil(SUBSCRIBERS / CHAT_SIZE);
const pullsEnded = (members: Subscriber[]): Promise<void> =>
  until(() => !members.some((m) => m.busy), 'a pull did not end', DRAIN_TIMEOUT_MS, 10);

const TITLE = `Notify-then-pull: ${SUBSCRIBERS} WebSocket subscribers on one server process`;

bench({ id: 'subscribers', title: TITLE }, async ({ admin: redis, url, report, server: started, defer }) => {
  if (PROFILE_DIR) console.log(`  profiling the server into ${PROFILE_DIR}: the figures are not to be quoted`);
  progress(0, 'starting the server');
  if (PIN) for (const pid of [await redisPid(redis), process.pid]) pin(pid, '0');
  // On a busy shared machine a connect's connection_init has come more than the default 5 s late.
  const serverEnv: Record<string, string> = { WS_INIT_TIMEOUT_MS: '60000' };
  if (PROFILE_DIR) {
    serverEnv.NODE_OPTIONS = `--require ${path.join(__dirname, 'graphql', 'profiler.js')}`;
    serverEnv.BENCH_PROFILE_DIR = PROFILE_DIR;
  }
  const server = await started(startProduct(url, serverEnv, PIN ? '1' : undefined));
  const subscribers: Subscriber[] = [];
  const deliveries = new Deliveries();
  const sender = new Sender(server.port, deliveries);
  /** Resolves once every recipient has pulled every message sent so far; fails after `ms`. */
  const drained = (ms = DRAIN_TIMEOUT_MS): Promise<void> => deliveries.until(sender.sent * CHAT_SIZE, ms);
  defer(() => subscribers.forEach((subscriber) => subscriber.close()));
  progress(0.01, 'creating chats');
  const names = Array.from({ length: chatCount + 1 }, (_, c) =>
    Array.from({ length: CHAT_SIZE }, (_, i) => (c === chatCount ? `warm${i}` : `user${c * CHAT_SIZE + i}`)),
  );
  const chats = await createChats(redis, names, `${server.origin.replace(/^http/, 'ws')}/graphql`, deliveries);
  const warmChat = chats.pop()!;

  // A warm-up chat of its own, its sockets closed again: the baseline is read compiled and allocated.
  progress(0.03, 'warm-up chat');
  await Promise.all(warmChat.members.map((member) => member.open()));
  await untilSubscribed(redis, CHAT_SIZE, 5000);
  const random = seeded(9);
  await sender.paced([warmChat], WARMUP_CHAT_MESSAGES, RATE, random);
  await drained();
  await pullsEnded(warmChat.members);
  for (const member of warmChat.members) member.close();
  await untilSubscribed(redis, 0, 5000);
  progress(0.04, 'idle baseline');
  const rssBefore = await idleRss(server, QUICK ? 1.5 : 3);
  await inServer(server, 'memory idle-before snapshot');

  for (const chat of chats) subscribers.push(...chat.members);
  const n = subscribers.length;
  await inServer(server, 'profile connect');
  const connectStart = performance.now();
  const connectCpu = { server: server.cpuSeconds(), load: process.cpuUsage() };
  let connected = 0;
  await inParallel(n, CONNECTING_AT_ONCE, async (i) => {
    await subscribers[i].open();
    if (++connected % 250 === 0) progress(0.05 + 0.4 * (connected / n), `connected ${connected}/${n} sockets`);
  });
  await untilSubscribed(redis, n, 30_000);
  const connectSeconds = (performance.now() - connectStart) / 1000;
  await inServer(server, 'profile connect');
  const loadCpu = process.cpuUsage(connectCpu.load);
  const connectCpuMs = ((server.cpuSeconds() - connectCpu.server) * 1000) / n;
  progress(0.47, 'idle with every subscriber');
  const rssAfter = await idleRss(server, IDLE_SECONDS);
  const perSubscriber = (rssAfter - rssBefore) / n;
  await inServer(server, `memory idle-${n} snapshot`);
  const loadRss = process.memoryUsage().rss;

  const roundStats: { latencies: number[]; pulls: number[]; deliveries: number; cpuMs: number; early: number }[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const warm = round === 0;
    progress(0.55 + 0.4 * (round / (ROUNDS + 1)), warm ? 'warm-up round' : `round ${round}/${ROUNDS}`);
    deliveries.startRound();
    const delivered = deliveries.delivered;
    if (round === 1) await inServer(server, 'profile rounds');
    const cpuBefore = server.cpuSeconds();
    await sender.paced(chats, Math.round((warm ? WARMUP_SECONDS : ROUND_SECONDS) * RATE), RATE, random);
    await drained();
    const cpu = server.cpuSeconds() - cpuBefore;
    const count = deliveries.delivered - delivered;
    const latencies = [...deliveries.round.latencies].sort((a, b) => a - b);
    if (latencies.length !== count) throw new Error(`${count} deliveries but ${latencies.length} latencies`);
    const pulls = [...deliveries.round.pullTimes].sort((a, b) => a - b);
    const early = deliveries.round.early;
    if (!warm) roundStats.push({ latencies, pulls, deliveries: count, cpuMs: (cpu * 1000) / count, early });
  }
  await inServer(server, 'profile rounds');
  const misrouted = (): number => sumOf(subscribers, (s) => s.misrouted);
  const behind = (): Subscriber[] =>
    chats.flatMap((chat) => chat.members.filter((member) => member.lastPulledId !== chat.latestId));
  const misroutedSteady = misrouted();

  // A notification may be dropped under load (the API says so): the left-behind pull as an app would on start.
  progress(0.95, 'burst of concurrent sends');
  deliveries.startRound();
  const burstMessages = await sender.burst(chats, BURST_CHATS, BURST_IN_FLIGHT, random);
  await drained(BURST_DRAIN_MS).catch(() => undefined);
  await pullsEnded(subscribers);
  const leftBehind = behind();
  await Promise.all(leftBehind.map((member) => member.catchUp()));
  await drained();
  const misroutedBurst = misrouted() - misroutedSteady;

  // Exactly once: no pull went wrong, and every subscriber has pulled up to its chat's newest message.
  const stillBehind = behind().length;
  const closed = subscribers.filter((s) => s.closedWith !== undefined).length;
  if (stillBehind) deliveries.errors.push(`${stillBehind} subscribers did not pull up to their chat's newest message`);
  if (closed) deliveries.errors.push(`${closed} sockets were closed by the server`);
  if (deliveries.errors.length) throw new Error(`deliveries went wrong:\n  ${deliveries.errors.join('\n  ')}`);
  const notifications = sumOf(subscribers, (s) => s.notifications);
  const pulls = sumOf(subscribers, (s) => s.pulls);
  progress(1, 'closing');

  const ms = (value: number): string => value.toFixed(1);
  const title = `Notify-then-pull: ${n} subscribers, ${RATE} messages/s to random chats of ${CHAT_SIZE} recipients`;
  report.tableOf(title, 1, roundStats, [
    ['round', (r) => String(roundStats.indexOf(r) + 1)],
    ['deliveries', (r) => String(r.deliveries)],
    ['p50 ms', (r) => ms(percentile(r.latencies, 50))],
    ['p99 ms', (r) => ms(percentile(r.latencies, 99))],
    ['max ms', (r) => ms(r.latencies[r.latencies.length - 1])],
    ['pull alone p99 ms', (r) => ms(percentile(r.pulls, 99))],
    ['pulled before reply', (r) => String(r.early)],
    ['server CPU ms/delivery', (r) => r.cpuMs.toFixed(3)],
  ]);
  const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
  const memory = [
    ['after start-up and warm-up', mib(rssBefore)],
    [`${n} idle subscribers`, mib(rssAfter)],
    ['per idle subscriber (KiB)', (perSubscriber / 1024).toFixed(2)],
  ];
  report.table('Server memory (RSS)', ['state', 'MiB'], memory, 1);

  const zero = { op: '==', value: 0 } as const;
  const latency = 'sendMessage reply -> recipient notified and pulled';
  const of = (pick: (r: (typeof roundStats)[number]) => number): number[] => roundStats.map(pick);
  const notInChat = 'Notifications naming a chat the subscriber is not in';
  const burst = `burst of ${burstMessages} sends, ${BURST_IN_FLIGHT} at once`;
  const latencyMax = Math.max(...of((r) => r.latencies[r.latencies.length - 1]));
  const delivered = sumOf(roundStats, (r) => r.deliveries);
  // A list of rounds is reported as their median and range, a number as it is.
  const figures: [string, string, string, number | number[], Figure['target']?][] = [
    [
      'memory_per_idle_subscriber',
      `Server RSS per idle graphql-ws subscriber (${n} sockets)`,
      'bytes',
      Math.round(perSubscriber),
      { op: '<=', value: 12_288 },
    ],
    ['server_rss_idle', `Server RSS with ${n} idle subscribers`, 'bytes', rssAfter],
    ['server_rss_baseline', 'Server RSS after start-up and warm-up', 'bytes', rssBefore],
    ['server_cpu_per_connection', 'Server CPU to accept one socket and start its subscription', 'ms', connectCpuMs],
    ['latency_p50', `${latency}, p50`, 'ms', of((r) => percentile(r.latencies, 50))],
    ['latency_p99', `${latency}, p99`, 'ms', of((r) => percentile(r.latencies, 99)), { op: '<=', value: 50 }],
    ['latency_max', `${latency}, max over all rounds`, 'ms', latencyMax],
    ['deliveries', 'Deliveries measured (recipient x message), all exactly once', 'deliveries', delivered],
    [
      'server_cpu_per_delivery',
      'Server CPU per delivery (notification + pull, and a fifth of the send)',
      'ms',
      of((r) => r.cpuMs),
    ],
    ['misrouted_notifications', `${notInChat} (steady rounds)`, 'notifications', misroutedSteady, zero],
    ['burst.misrouted_notifications', `${notInChat} (${burst})`, 'notifications', misroutedBurst, zero],
    [
      'burst.left_behind',
      `Subscribers not notified of a message within ${BURST_DRAIN_MS / 1000} s (burst; at most 2 notifications each)`,
      'subscribers',
      leftBehind.length,
      zero,
    ],
  ];
  for (const [name, label, unit, value, target] of figures)
    if (Array.isArray(value)) report.median(`subscribers.${name}`, label, unit, value, target);
    else report.value(`subscribers.${name}`, label, unit, value, target);

  report.note(
    `${n} users in ${chatCount} chats of ${CHAT_SIZE}, created through ChatRepository with the first message already seen; the sender is a member of every chat and holds no socket.`,
    `Each subscriber is a graphql-ws socket (a lean hand-written graphql-transport-ws client on the ws package) with one inboxChanged subscription; on each notification it pulls with the fetchPendingMessages mutation over the same socket (what an app holding the socket open would do), and once more when notifications came in during a pull.`,
    `A delivery is one recipient having pulled one message; its latency runs from sendMessage's HTTP reply reaching the sender to the reply of the recipient's pull holding the message reaching the recipient, both on this process's monotonic clock (a pull that beat the sender's reply counts as 0 ms); 'pull alone' is the part from the pull's request to its reply.`,
    `One sender over one kept-alive HTTP connection sends ${RATE} messages/s, one at a time, to chats drawn at random; every recipient must pull every message exactly once, in order (the run fails otherwise). Latency and CPU are the median of ${ROUNDS} rounds of ${ROUND_SECONDS} s after ${WARMUP_SECONDS} s of warm-up.`,
    `Memory: the server process's RSS from /proc, idle after start-up and a warm-up chat, then idle with every socket connected and subscribed (median of the last half of ${IDLE_SECONDS} s of samples); the difference over ${n}.`,
    PIN
      ? 'Pinned: the server on CPU 1; redis-server, the sender and the subscribers share CPU 0.'
      : 'Not pinned: the server, redis-server and the load process share the machine as Linux schedules them.',
    `After the rounds, a burst: two messages each to ${BURST_CHATS} chats drawn without repeats, ${BURST_IN_FLIGHT} sends in flight over ${BURST_IN_FLIGHT} connections; subscribers still behind after ${BURST_DRAIN_MS / 1000} s are counted as left behind and then pull, and the exactly-once check covers the burst too. A notification naming another member's chat is a leak between users.`,
    `Server CPU per delivery is the server process's user + system time over a round divided by its deliveries; it includes the sendMessage (one per ${CHAT_SIZE} deliveries) and the publish to the sender's own inbox topic. Connecting ${n} sockets, ${CONNECTING_AT_ONCE} at a time, took ${connectSeconds.toFixed(1)} s.`,
    `Load process: ${((loadCpu.user + loadCpu.system) / 1e3 / n).toFixed(2)} ms of CPU per socket to connect, ${(loadRss / 2 ** 20).toFixed(0)} MiB RSS; ${notifications} notifications led to ${pulls} pulls.`,
  );
});
