// The GraphQL path beside what a user would build instead, in one run: raw node:http over the
// product's resolvers, bare Apollo (SDL, and with the product's type-graphql schema), GraphQL Yoga,
// Mercurius with graphql-jit, the product (documents as text, and registered by hash) and
// redis-benchmark on the same commands.
// Peers, pinning and warm-up: docs/performance.md, "Method: graphql, subscribers, leases, counters".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Redis from 'ioredis';
import pino from 'pino';
import { loadConfig } from '../src/config';
import { createTokenVerifier } from '../src/security/tokens';
import { benchManifest, OPERATIONS, type OperationSpec } from './graphql/operations';
import { profileTables } from './graphql/profile';
import { signToken, startProvider, TOKEN_KINDS } from './graphql/provider';
import { countRoundTrips, redisLimit } from './graphql/redis-side';
import { alternate, bench, Connection, runLoad, size, startProduct, until, untilSteady, type Steady } from './harness';
import { pin, pinnable, PRODUCT_ENV, redisPid, startServerProcess, type ServerProcess } from './harness/server-process';
import { median, percentile } from './harness/support';

const ROUNDS = size('BENCH_GRAPHQL_ROUNDS', 3, 5);
const PER_ROUND = size('BENCH_GRAPHQL_OPS', 2000, 4000);
/** Warm-up: chunks of WARM_CHUNK operations until the rate holds (the JIT settles first). */
const WARM_CHUNK = 1000;
const WARM_MIN = size('BENCH_GRAPHQL_WARM_MIN', 5000, 5000);
const WARM: Steady<Run> = { rate: (r) => r.rate, agree: 0.1, work: () => WARM_CHUNK, minWork: WARM_MIN, maxRounds: 30 };
/** Operations in the profiled window (after a steady warm-up). */
const PROFILED = size('BENCH_GRAPHQL_PROFILED', 10_000, 10_000);
const CONCURRENCY = size('BENCH_GRAPHQL_CONCURRENCY', 32, 32);
/** Fresh tokens verified in a row, per kind and round (signed before). */
const VERIFY_BATCH = size('BENCH_GRAPHQL_VERIFY', 1000, 2000);
const PEERS = ['raw', 'apollo', 'yoga', 'mercurius', 'apollo+tg', 'product', 'product#'] as const;
/** The GraphQL servers a user would pick instead; the product (text) is to beat the fastest. */
const RIVALS = ['apollo', 'yoga', 'mercurius'] as const;
/** With the product's server sent provider tokens (on two operations: on five, 40% longer), never twice in a row. */
const WITH_TOKENS = [
  'raw',
  'apollo',
  'yoga',
  'product:ES256',
  'mercurius',
  'apollo+tg',
  'product:RS256',
  'product',
  'product#',
] as const;
type Peer = (typeof WITH_TOKENS)[number];
const peersOf = ({ name }: OperationSpec): readonly Peer[] =>
  ['sendMessage', 'updateCounter'].includes(name) ? WITH_TOKENS : PEERS;
type Run = Awaited<ReturnType<typeof load>>;

const SERVER_CPU = '0';
const LOAD_CPU = '1';
const PINNED = pinnable() && os.cpus().length >= 2;

/** The benchmark's documents registered with the product (bench/graphql/operations.ts), for product#. */
const MANIFEST = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ria-bench-')), 'trusted-documents.json');
fs.writeFileSync(MANIFEST, JSON.stringify(benchManifest()));

/** Every peer gets the product's settings (workers off, production mode), so they do the same work. */
function startPeer(peer: Peer, redisUrl: string, nodeArgs: string[] = [], extra: Record<string, string> = {}) {
  const env = { ...extra, ...(peer === 'product#' && { TRUSTED_DOCUMENTS_FILE: MANIFEST }) };
  if (peer.startsWith('product')) return startProduct(redisUrl, env, SERVER_CPU, nodeArgs);
  return startServerProcess({
    script: path.join(__dirname, 'graphql', 'peers.js'),
    env: { ...PRODUCT_ENV, REDIS_URL: redisUrl, ...env, BENCH_PEER: peer },
    cpus: SERVER_CPU,
    readyPath: '/',
    anyAnswer: true,
    nodeArgs,
  });
}

/** The median of some rates and their range, as the table shows them. */
function spread(rates: number[]): [string, string] {
  return [median(rates).toFixed(0), `${Math.min(...rates).toFixed(0)}-${Math.max(...rates).toFixed(0)}`];
}

let roundId = 1;
/** `count` operations on fresh connections (servers close those left idle), with the server's CPU over them. */
async function load(server: ServerProcess, peer: Peer, operation: OperationSpec, redis: Redis, count: number) {
  const id = roundId++;
  await operation.prepare?.(redis, id, count);
  const connections = await Promise.all(Array.from({ length: CONCURRENCY }, () => Connection.open(server.port)));
  const cpuBefore = server.cpuSeconds();
  const result = await runLoad(connections, count, (connection, n, slot) =>
    operation.run({ peer, connection }, n, slot, id),
  );
  const cpu = server.cpuSeconds() - cpuBefore;
  for (const connection of connections) connection.close();
  const latencies = Array.from(result.latencies);
  return {
    rate: count / result.seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    /** Server CPU per operation, µs. */
    cpuUs: (cpu / count) * 1e6,
    /** Share of its core the server used while loaded. */
    busy: cpu / result.seconds,
  };
}

/** Where a fresh, warmed-up copy of the peer's CPU went over PROFILED operations (graphql/profiler.ts). */
async function profile(peer: Peer, operation: OperationSpec, redis: Redis, redisUrl: string, env: object) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-prof-'));
  const file = path.join(dir, 'loaded.cpuprofile');
  const profiler = ['--require', path.join(__dirname, 'graphql', 'profiler.js')];
  const server = await startPeer(peer, redisUrl, profiler, { ...env, BENCH_PROFILE_DIR: dir });
  const signalled = async (written: string) => {
    process.kill(server.pid, 'SIGUSR2');
    await until(() => fs.existsSync(written), `the profiled server did not write ${written}`, 30_000, 20);
  };
  try {
    await untilSteady(WARM, () => load(server, peer, operation, redis, WARM_CHUNK));
    await signalled(path.join(dir, 'started'));
    await load(server, peer, operation, redis, PROFILED);
    await signalled(file);
    return profileTables(file, peer, operation.name, PROFILED);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const BY_HASH = 'product, registered document by hash';
/** The per-operation ratios: [id, label, numerator, denominator, target]. */
const RATIOS: [string, string, Peer, Peer, { op: '>='; value: number }?][] = [
  ['product_vs_raw', 'product / raw node:http (req/s)', 'product', 'raw', { op: '>=', value: 0.6 }],
  ['registered_vs_raw', `${BY_HASH} / raw node:http (req/s)`, 'product#', 'raw', { op: '>=', value: 0.7 }],
  ['product_vs_apollo', 'product / bare Apollo (req/s)', 'product', 'apollo'],
  ['product_vs_yoga', 'product / GraphQL Yoga (req/s)', 'product', 'yoga'],
  ['product_vs_mercurius', 'product / Mercurius + graphql-jit (req/s)', 'product', 'mercurius'],
  ['registered_vs_yoga', `${BY_HASH} / GraphQL Yoga (req/s)`, 'product#', 'yoga'],
  ['registered_vs_mercurius', `${BY_HASH} / Mercurius + graphql-jit (req/s)`, 'product#', 'mercurius'],
  ['hash_vs_text', `${BY_HASH} / unregistered text (req/s)`, 'product#', 'product'],
  ['apollo_vs_raw', 'bare Apollo / raw node:http', 'apollo', 'raw'],
  ['yoga_vs_raw', 'GraphQL Yoga / raw node:http', 'yoga', 'raw'],
  ['mercurius_vs_raw', 'Mercurius + graphql-jit / raw node:http', 'mercurius', 'raw'],
  ['product_vs_apollo_tg', 'product / Apollo + type-graphql (middleware cost)', 'product', 'apollo+tg'],
  ['es256_vs_hs256', 'product, remembered ES256 token / HS256', 'product:ES256', 'product', { op: '>=', value: 0.95 }],
  ['rs256_vs_hs256', 'product, remembered RS256 token / HS256', 'product:RS256', 'product', { op: '>=', value: 0.95 }],
];

const TITLE = 'The GraphQL path beside raw node:http, bare Apollo, GraphQL Yoga, Mercurius and redis-benchmark';

bench({ id: 'graphql', title: TITLE }, async ({ admin: redis, url, report, quick, server, defer, steps: progress }) => {
  if (PINNED) {
    pin(await redisPid(redis), LOAD_CPU);
    pin(process.pid, LOAD_CPU);
  }
  const steps = progress(OPERATIONS.reduce((n, operation) => n + peersOf(operation).length, 0) * (ROUNDS + 3) + 3);
  steps.step(`starting the ${PEERS.length} servers`);
  const idp = await startProvider();
  defer(idp.close);
  // One after another: seven starting at once on one core of a busy machine missed the 30 s to be ready.
  const servers = {} as Record<Peer, ServerProcess>;
  for (const peer of PEERS) servers[peer] = await server(startPeer(peer, url, [], idp.env));
  servers['product:ES256'] = servers['product:RS256'] = servers.product;
  steps.step('making the data');
  for (const operation of OPERATIONS) await operation.prepare?.(redis, 0, PER_ROUND);

  const runs = new Map<string, Record<Peer, Run[]>>();
  const warmUps: number[] = [];
  for (const operation of OPERATIONS) {
    const { measured, warm } = await alternate({
      peers: peersOf(operation),
      rounds: ROUNDS,
      rotate: true,
      warmUp: WARM,
      steps,
      quiet: true,
      label: operation.name,
      run: (peer, round) => load(servers[peer], peer, operation, redis, round.warm ? WARM_CHUNK : PER_ROUND),
    });
    runs.set(operation.name, measured);
    for (const peer of peersOf(operation)) warmUps.push(warm[peer].results.length * WARM_CHUNK);
  }

  steps.step('TokenVerifier.verify on fresh tokens');
  const settings = loadConfig({ ...PRODUCT_ENV, ...idp.env });
  const { measured: verified } = await alternate({
    peers: TOKEN_KINDS,
    rounds: ROUNDS,
    rotate: true,
    quiet: true,
    warmUp: { rate: (rate: number) => rate, agree: 0.1, maxRounds: 20 },
    run: async (kind) => {
      const verifier = createTokenVerifier(settings, pino({ level: 'warn' })); // nothing remembered; keys fetched meanwhile
      const tokens = await Promise.all(Array.from({ length: VERIFY_BATCH }, (_, i) => signToken(kind, `v${i}`)));
      const start = performance.now();
      for (const token of tokens) await verifier.verify(token);
      return VERIFY_BATCH / ((performance.now() - start) / 1000);
    },
  });

  steps.step('counting Redis round trips (MONITOR)');
  const counts = new Map<string, Awaited<ReturnType<typeof countRoundTrips>>>();
  for (const operation of OPERATIONS) {
    for (const peer of peersOf(operation)) {
      const id = roundId++;
      await operation.prepare?.(redis, id, 20);
      const connection = await Connection.open(servers[peer].port);
      const counted = await countRoundTrips(url, 20, (n) =>
        operation.run({ peer, connection, compare: true }, n, 0, id),
      );
      connection.close();
      counts.set(`${operation.name}/${peer}`, counted);
    }
  }

  steps.step('redis-benchmark on the same commands');
  const rows: string[][] = [];
  const missed: OperationSpec[] = [];
  for (const operation of OPERATIONS) {
    const { name } = operation;
    const of = runs.get(name)!;
    const rate = (peer: Peer): number[] => of[peer].map((run) => run.rate);
    const key = `graphql.${name.replace('+', '_')}`;
    const product = counts.get(`${name}/product`)!;
    const commands = product.firstOperation;
    const limit = redisLimit(url, commands, CONCURRENCY, quick ? 5000 : 20000, PINNED ? SERVER_CPU : undefined);
    for (const [id, label, a, b, target] of RATIOS)
      if (a in of) report.ratio(`${key}.${id}`, `${name}: ${label}`, rate(a), rate(b), target);
    const fastest = RIVALS.reduce((best, peer) => (median(rate(peer)) > median(rate(best)) ? peer : best));
    const fastestLabel = `${name}: product / the fastest of bare Apollo, Yoga, Mercurius (${fastest} here; req/s)`;
    report.ratio(`${key}.product_vs_fastest`, fastestLabel, rate('product'), rate(fastest), { op: '>=', value: 1 });
    // Profiled below when even a registered document misses (the product's best path).
    if (report.figures.find((f) => f.id === `${key}.registered_vs_raw`)!.pass === false) missed.push(operation);
    const cost = rate('apollo+tg').map((r, i) => 1 - r / rate('apollo')[i]);
    const costLabel = `${name}: type-graphql cost vs bare Apollo (1 - rate ratio)`;
    report.median(`${key}.type_graphql_cost`, costLabel, 'share', cost, { op: '<=', value: 0.1 });
    const trips = operation.roundTrips === undefined ? undefined : ({ op: '<=', value: operation.roundTrips } as const);
    const tripsLabel = `${name}: Redis commands sent per operation (product)`;
    report.value(`${key}.round_trips`, tripsLabel, 'commands', product.perOperation, trips);
    const toRedis = rate('raw').map((r) => r / limit);
    report.median(`${key}.raw_vs_redis`, `${name}: raw node:http / redis-benchmark limit`, 'x', toRedis);
    for (const peer of peersOf(operation)) {
      const middle = (pick: (run: Run) => number): number => median(of[peer].map(pick));
      rows.push([
        name,
        peer,
        ...spread(rate(peer)),
        middle((r) => r.p50).toFixed(2),
        middle((r) => r.p99).toFixed(2),
        middle((r) => r.cpuUs).toFixed(0),
        `${(middle((r) => r.busy) * 100).toFixed(0)}%`,
        counts.get(`${name}/${peer}`)!.perOperation.toFixed(1),
      ]);
    }
    rows.push([name, 'redis-benchmark', limit.toFixed(0), ...Array<string>(5).fill(''), String(commands.length)]);
  }
  for (const kind of TOKEN_KINDS.slice(1)) {
    const label = `TokenVerifier.verify, fresh tokens: ${kind} / HS256 (verifications/s)`;
    report.ratio(`graphql.verify.${kind.toLowerCase()}_vs_hs256_fresh`, label, verified[kind], verified.HS256);
  }
  for (const kind of TOKEN_KINDS)
    rows.push(['verify (fresh)', kind, ...spread(verified[kind]), ...Array<string>(5).fill('')]);
  report.table(
    `GraphQL path: ${CONCURRENCY} connections, medians of ${ROUNDS} rounds of ${PER_ROUND} operations`,
    ['operation', 'peer', 'ops/s', 'range', 'p50 ms', 'p99 ms', 'server CPU µs/op', 'server busy', 'Redis cmds/op'],
    rows,
    2,
  );

  // Where the product missed with a registered document, and wherever BENCH_GRAPHQL_PROFILE
  // names a peer: where the time went.
  const profiled = new Set((process.env.BENCH_GRAPHQL_PROFILE ?? '').split(',').filter(Boolean));
  for (const operation of OPERATIONS) {
    for (const peer of PEERS) {
      if (!profiled.has(peer) && !(peer === 'product#' && missed.includes(operation))) continue;
      steps.step(`profiling ${peer} on ${operation.name}`, 0);
      for (const t of await profile(peer, operation, redis, url, idp.env)) report.table(t.title, t.header, t.rows, 1);
    }
  }

  report.note(
    `Each server is a separate process${PINNED ? ' pinned to CPU 0; redis-server and the load generator share CPU 1' : ' (not pinned: taskset missing or one CPU)'}.`,
    `${CONCURRENCY} keep-alive connections per peer; a round is ${PER_ROUND} operations; ${ROUNDS} rounds; peers take turns in rotating order.`,
    `Warm-up, per operation and peer before its rounds: chunks of ${WARM_CHUNK} operations until two chunks in a row agreed on the rate within ${WARM.agree * 100}% after at least ${WARM_MIN} (at most ${WARM.maxRounds * WARM_CHUNK}); this run took ${Math.min(...warmUps)}-${Math.max(...warmUps)}. A fresh server's first rounds of 1,000 measured 610, 410, 260, 150 µs per operation: before that, the figure is the JIT's.`,
    "Profiles (where the product missed, or BENCH_GRAPHQL_PROFILE=<peers>) come from a fresh copy of the peer, warmed up the same way, and cover only the loaded window: V8's profiler started and stopped by signal around it (bench/graphql/profiler.ts), so start-up and warm-up are not in them.",
    "product# is the product with the benchmark's documents registered (TRUSTED_DOCUMENTS_FILE), sent by hash alone (extensions.persistedQuery): the fast path executes them without Apollo's per-request pipeline. product sends the same documents as text, unregistered, through Apollo.",
    "The bare Apollo peers run without the cache-control plugin, as the product does; bare Apollo, Yoga and Mercurius take the product's schema as SDL with the same plain resolver map and the same context (the principal from the bearer token).",
    "yoga: graphql-yoga 5.24 on node:http, GraphiQL off, no plugins added; its parse and validation cache (an LRU keyed by the document's text) is on by default. mercurius: mercurius 16.10 on fastify 5.12, logger off, jit: 1 (graphql-jit 0.8 compiles a document the second time it comes and runs it compiled after); its parse and validation cache (1,024 texts) is on by default. Both get the same text documents over POST /graphql as Apollo and the product.",
    'While Redis commands are counted, every answer from a GraphQL peer must have the shape (fields, order, value types) of the first answer to that operation, and guildMembers the same names for the same prefix from every peer: a peer answering wrong fails the run.',
    "product / fastest peer divides the product's rounds by those of whichever of bare Apollo, Yoga and Mercurius had the best median rate on that operation in this run.",
    "The raw peer and the Apollo, Yoga and Mercurius peers are built by the product's own src/app/parts.ts from the same settings (bench/graphql/peers.ts): they verify the same bearer tokens and call the product's own resolvers (so the same repositories, validation and notifications) as the product; the product adds express, helmet, origin checks, rate limits, document limits and its error formatting.",
    'The product runs in production mode with LOG_LEVEL=warn (no line per request), its counter cleanup and row cache refresher off, and rate limits raised for the one load-generating address.',
    'Redis commands per operation are counted with MONITOR over 20 sequential operations: commands sent by a client, not those run inside scripts. redis-benchmark runs the commands the product sent for one operation, and the limit is 1 / (sum of 1/rate over those commands).',
    'fetchPendingMessages pulls 6 messages from 2 chats per call; each round uses its own users, so every peer pulls the same amount.',
    "product:ES256 and product:RS256 are the product peer's own server sent an identity provider's tokens instead of HS256 ones, on sendMessage and updateCounter only (on all five operations the suite would take 40% longer), their rounds and the product's each after another server's, as the product's always were. Every peer runs with OIDC_PROVIDERS naming a key set the bench process serves on loopback (one ES256 and one RS256 key made with jose). Each user's token (iss, aud, sub, exp; the service token with the \"service\" role) is signed once and sent with every request, so after the warm-up the server finds it among the tokens it remembers: the ratio is what a remembered provider token costs beside a remembered HS256 one.",
    `verify (fresh): TokenVerifier.verify in the bench process (the product's settings, the same provider) on tokens it has never seen, so each is checked by crypto: batches of ${VERIFY_BATCH} tokens, signed before the timed part and verified one after the other by a verifier of their own (none remembered; its keys fetched while they were signed); the kinds take turns in rotating order, each warmed up until two batches agree within 10%, then ${ROUNDS} rounds. ops/s there are verifications per second on one core.`,
  );
});
