// The GraphQL path against what a user would build instead, measured side by side in one run:
//   raw          node:http + ioredis calling the product's repositories and Lua scripts (the limit)
//   apollo       bare @apollo/server, SDL + plain resolvers over the same repositories
//   apollo+tg    the same Apollo with the product's type-graphql schema and resolver classes
//   product      the product's own server (dist-bench/src/main.js, production mode)
//   product#     the product with the benchmark's documents registered (TRUSTED_DOCUMENTS_FILE),
//                each request naming its document by hash: executed without Apollo's per-request
//                pipeline (src/transports/http-registered.ts)
//   redis        redis-benchmark running the Redis commands one operation sends (the Redis limit)
// Each server is its own process pinned to CPU 0; redis-server and this load generator share
// CPU 1, so a server's rate is what one core gives it. Every operation first warms each peer up
// until its rate is steady (warmUp below), then runs rounds with the peers taking turns in a
// rotating order; a figure is the median of the per-round values with their range.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { defineScripts } from '../src/redis/client/scripts';
import { Connection, runLoad } from './harness/http-load';
import { benchManifest, OPERATIONS, type OperationSpec, type PeerKind } from './graphql/operations';
import { summarizeProfile } from './graphql/profile';
import { countRoundTrips, redisLimit } from './graphql/redis-side';
import { figure, isQuick, progress, reportResult, summarize, type Figure, type Table } from './harness/report';
import {
  BENCH_JWT_SECRET,
  pinnable,
  startProduct,
  startServerProcess,
  type ServerProcess,
} from './harness/server-process';
import { percentile, printTable, runBenchmark, withBenchRedis } from './harness/support';

const QUICK = isQuick();
const ROUNDS = Number(process.env.BENCH_GRAPHQL_ROUNDS ?? (QUICK ? 3 : 5));
const PER_ROUND = Number(process.env.BENCH_GRAPHQL_OPS ?? (QUICK ? 2000 : 4000));
/**
 * Warm-up: chunks of WARM_CHUNK operations until two chunks in a row agree on the rate within
 * WARM_AGREE and at least WARM_MIN operations ran, or WARM_MAX did. A fresh server measured
 * 610, 410, 260 and 150 µs per operation over its first rounds of 1,000 (JIT and inline caches
 * settling), so a figure taken before that is the compiler's, not the server's.
 */
const WARM_CHUNK = 1000;
const WARM_MIN = Number(process.env.BENCH_GRAPHQL_WARM_MIN ?? 5000);
const WARM_MAX = 30_000;
const WARM_AGREE = 0.1;
/** Operations in the profiled window (after a steady warm-up). */
const PROFILED = Number(process.env.BENCH_GRAPHQL_PROFILED ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_GRAPHQL_CONCURRENCY ?? 32);
const PEERS = ['raw', 'apollo', 'apollo+tg', 'product', 'product#'] as const;
const ONLY = process.env.BENCH_GRAPHQL_ONLY?.split(',');
const SELECTED = OPERATIONS.filter((operation) => !ONLY || ONLY.includes(operation.name));
type Peer = (typeof PEERS)[number];

interface Run {
  rate: number;
  p50: number;
  p99: number;
  /** Server CPU per operation, µs. */
  cpuUs: number;
  /** Share of its core the server used while loaded. */
  busy: number;
}

const SERVER_CPU = '0';
const LOAD_CPU = '1';

function pin(pid: number, cpus: string): void {
  spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

function startPeer(
  peer: Peer,
  redisUrl: string,
  nodeArgs: string[] = [],
  extraEnv: Record<string, string> = {},
): Promise<ServerProcess> {
  const env = {
    REDIS_URL: redisUrl,
    JWT_SECRET: BENCH_JWT_SECRET,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  const script = (name: string): string => path.join(__dirname, 'graphql', `${name}.js`);
  const apollo = (schema: string) =>
    startServerProcess({
      script: script('apollo-server'),
      env: { ...env, BENCH_SCHEMA: schema },
      cpus: SERVER_CPU,
      readyPath: '/',
      anyAnswer: true,
      nodeArgs,
    });
  switch (peer) {
    case 'raw':
      return startServerProcess({
        script: script('raw-server'),
        env,
        cpus: SERVER_CPU,
        readyPath: '/healthz',
        nodeArgs,
      });
    case 'apollo':
      return apollo('sdl');
    case 'apollo+tg':
      return apollo('type-graphql');
    case 'product':
      return startProduct(redisUrl, extraEnv, SERVER_CPU, nodeArgs);
    case 'product#':
      return startProduct(redisUrl, { TRUSTED_DOCUMENTS_FILE: manifestFile(), ...extraEnv }, SERVER_CPU, nodeArgs);
  }
}

let manifest: string | undefined;
/** The benchmark's documents registered with the product (bench/graphql/operations.ts). */
function manifestFile(): string {
  if (manifest) return manifest;
  manifest = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ria-bench-')), 'trusted-documents.json');
  fs.writeFileSync(manifest, JSON.stringify(benchManifest()));
  return manifest;
}

async function startPeers(redisUrl: string): Promise<Record<Peer, ServerProcess>> {
  const started = await Promise.all(PEERS.map((peer) => startPeer(peer, redisUrl)));
  return Object.fromEntries(PEERS.map((peer, i) => [peer, started[i]])) as Record<Peer, ServerProcess>;
}

/**
 * Profiles a fresh copy of the peer over a loaded window only: warmed up as in the rounds, then
 * PROFILED operations between two SIGUSR2s (graphql/profiler.ts), and sums up where its CPU went.
 */
async function profile(
  peer: Peer,
  operation: OperationSpec,
  redis: Redis,
  redisUrl: string,
  nextId: () => number,
): Promise<Table[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-prof-'));
  const file = path.join(dir, 'loaded.cpuprofile');
  const server = await startPeer(peer, redisUrl, ['--require', path.join(__dirname, 'graphql', 'profiler.js')], {
    BENCH_PROFILE_DIR: dir,
  });
  try {
    await warmUp(server, peer, operation, redis, nextId);
    const id = nextId();
    await operation.prepare(redis, id, PROFILED);
    const connections = await Promise.all(Array.from({ length: CONCURRENCY }, () => Connection.open(server.port)));
    process.kill(server.pid, 'SIGUSR2');
    await waitForFile(path.join(dir, 'started'));
    await runLoad(connections, PROFILED, (c, n, slot) => operation.run(kindOf(peer), c, n, slot, id));
    process.kill(server.pid, 'SIGUSR2');
    await waitForFile(file);
    connections.forEach((c) => c.close());
  } finally {
    await server.stop();
  }
  const summary = summarizeProfile(file);
  fs.rmSync(dir, { recursive: true, force: true });
  const rows = (list: [string, number][]) => list.map(([name, share]) => [name, `${(share * 100).toFixed(1)}%`]);
  const window = `${PROFILED} operations after a steady warm-up`;
  return [
    {
      title: `Where ${peer}'s CPU went on ${operation.name}, ${window} (self time by package or file; Node's own charged to its caller)`,
      header: ['where', 'share of samples'],
      rows: rows(summary.byPlace),
    },
    {
      title: `${peer} on ${operation.name}: time with each package or file on the stack`,
      header: ['package or file', 'share of samples'],
      rows: rows(summary.inclusive),
    },
    {
      title: `${peer} on ${operation.name}: heaviest functions (self time)`,
      header: ['function', 'share of samples'],
      rows: rows(summary.byFunction),
    },
  ];
}

async function waitForFile(file: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the profiled server did not write ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Runs chunks of the operation against the peer until its rate is steady (see WARM_CHUNK);
 * returns the operations it took.
 */
async function warmUp(
  server: ServerProcess,
  peer: Peer,
  operation: OperationSpec,
  redis: Redis,
  nextId: () => number,
): Promise<number> {
  let done = 0;
  let last = 0;
  for (;;) {
    const id = nextId();
    await operation.prepare(redis, id, WARM_CHUNK);
    const connections = await Promise.all(Array.from({ length: CONCURRENCY }, () => Connection.open(server.port)));
    const result = await runLoad(connections, WARM_CHUNK, (c, n, slot) => operation.run(kindOf(peer), c, n, slot, id));
    for (const connection of connections) connection.close();
    done += WARM_CHUNK;
    const rate = WARM_CHUNK / result.seconds;
    const steady = last > 0 && Math.abs(rate - last) / last <= WARM_AGREE;
    if ((steady && done >= WARM_MIN) || done >= WARM_MAX) return done;
    last = rate;
  }
}

const kindOf = (peer: Peer): PeerKind => (peer === 'raw' ? 'raw' : peer === 'product#' ? 'hash' : 'graphql');

async function measure(
  server: ServerProcess,
  connections: Connection[],
  count: number,
  work: (c: Connection, n: number, slot: number) => Promise<void>,
): Promise<Run> {
  const cpuBefore = server.cpuSeconds();
  const result = await runLoad(connections, count, work);
  const cpu = server.cpuSeconds() - cpuBefore;
  return {
    rate: count / result.seconds,
    p50: percentile(Array.from(result.latencies), 50),
    p99: percentile(Array.from(result.latencies), 99),
    cpuUs: (cpu / count) * 1e6,
    busy: cpu / result.seconds,
  };
}

async function main(): Promise<void> {
  const started = Date.now();
  await withBenchRedis(async (redisUrl) => {
    const redis = new Redis(redisUrl);
    defineScripts(redis);
    const pinned = pinnable() && os.cpus().length >= 2;
    if (pinned) {
      pin(Number(/process_id:(\d+)/.exec(await redis.info('server'))![1]), LOAD_CPU);
      pin(process.pid, LOAD_CPU);
    }
    progress(0, 'starting the four servers');
    const servers = await startPeers(redisUrl);
    try {
      progress(0.03, 'making the data');
      for (const operation of SELECTED) await operation.prepare(redis, 0, PER_ROUND);

      const runs = new Map<string, Run[]>();
      const warmUps: number[] = [];
      const steps = SELECTED.length * PEERS.length * (ROUNDS + 1);
      let step = 0;
      let roundId = 1;
      const nextId = (): number => roundId++;
      for (const operation of SELECTED) {
        for (const peer of PEERS) {
          progress(0.05 + (0.75 * step++) / steps, `${operation.name}: warming ${peer} up until its rate is steady`);
          warmUps.push(await warmUp(servers[peer], peer, operation, redis, nextId));
        }
        for (let round = 1; round <= ROUNDS; round++) {
          for (let i = 0; i < PEERS.length; i++) {
            const peer = PEERS[(i + round) % PEERS.length];
            const id = nextId();
            await operation.prepare(redis, id, PER_ROUND);
            progress(0.05 + (0.75 * step++) / steps, `${operation.name}: round ${round}/${ROUNDS}, ${peer}`);
            // Fresh connections each run: servers close keep-alive connections left idle while the others ran.
            const connections = await Promise.all(
              Array.from({ length: CONCURRENCY }, () => Connection.open(servers[peer].port)),
            );
            const run = await measure(servers[peer], connections, PER_ROUND, (c, n, slot) =>
              operation.run(kindOf(peer), c, n, slot, id),
            );
            for (const connection of connections) connection.close();
            runs.set(`${operation.name}/${peer}`, [...(runs.get(`${operation.name}/${peer}`) ?? []), run]);
          }
        }
      }

      progress(0.82, 'counting Redis round trips (MONITOR)');
      const roundTrips = new Map<string, number>();
      const productCommands = new Map<string, string[][]>();
      for (const operation of SELECTED) {
        for (const peer of PEERS) {
          const id = roundId++;
          await operation.prepare(redis, id, 20);
          const connection = await Connection.open(servers[peer].port);
          const counted = await countRoundTrips(redisUrl, 20, (n) => operation.run(kindOf(peer), connection, n, 0, id));
          connection.close();
          roundTrips.set(`${operation.name}/${peer}`, counted.perOperation);
          if (peer === 'product') productCommands.set(operation.name, counted.firstOperation);
        }
      }

      progress(0.88, 'redis-benchmark on the same commands');
      const limits = new Map<string, number>();
      for (const operation of SELECTED) {
        limits.set(
          operation.name,
          redisLimit(
            redisUrl,
            productCommands.get(operation.name)!,
            CONCURRENCY,
            QUICK ? 5000 : 20000,
            pinned ? SERVER_CPU : undefined,
          ),
        );
      }

      const figures: Figure[] = [];
      const tables: Table[] = [];
      const rows: string[][] = [];
      const missed: OperationSpec[] = [];
      for (const operation of SELECTED) {
        const of = (peer: Peer): Run[] => runs.get(`${operation.name}/${peer}`)!;
        const ratio = (a: Peer, b: Peer) => summarize(of(a).map((run, i) => run.rate / of(b)[i].rate));
        const key = operation.name.replace('+', '_');
        const productVsRaw = ratio('product', 'raw');
        figures.push(
          figure({
            id: `graphql.${key}.product_vs_raw`,
            label: `${operation.name}: product / raw node:http (req/s)`,
            unit: 'x',
            ...productVsRaw,
            target: { op: '>=', value: 0.5 },
          }),
        );
        // Profiled below when even a registered document misses (the product's best path).
        if (summarize(of('product#').map((run, i) => run.rate / of('raw')[i].rate)).value < 0.5) missed.push(operation);
        figures.push(
          figure({
            id: `graphql.${key}.registered_vs_raw`,
            label: `${operation.name}: product, registered document by hash / raw node:http (req/s)`,
            unit: 'x',
            ...ratio('product#', 'raw'),
            target: { op: '>=', value: 0.5 },
          }),
        );
        figures.push(
          figure({
            id: `graphql.${key}.product_vs_apollo`,
            label: `${operation.name}: product / bare Apollo (req/s)`,
            unit: 'x',
            ...ratio('product', 'apollo'),
            target: { op: '>=', value: 1 },
          }),
        );
        figures.push(
          figure({
            id: `graphql.${key}.hash_vs_text`,
            label: `${operation.name}: product, registered document by hash / unregistered text (req/s)`,
            unit: 'x',
            ...ratio('product#', 'product'),
          }),
        );
        figures.push(
          figure({
            id: `graphql.${key}.apollo_vs_raw`,
            label: `${operation.name}: bare Apollo / raw node:http`,
            unit: 'x',
            ...ratio('apollo', 'raw'),
          }),
        );
        const tgCost = summarize(of('apollo+tg').map((run, i) => 1 - run.rate / of('apollo')[i].rate));
        figures.push(
          figure({
            id: `graphql.${key}.type_graphql_cost`,
            label: `${operation.name}: type-graphql cost vs bare Apollo (1 - rate ratio)`,
            unit: 'share',
            ...tgCost,
            target: { op: '<=', value: 0.1 },
          }),
        );
        figures.push(
          figure({
            id: `graphql.${key}.product_vs_apollo_tg`,
            label: `${operation.name}: product / Apollo + type-graphql (middleware cost)`,
            unit: 'x',
            ...ratio('product', 'apollo+tg'),
          }),
        );
        const trips = roundTrips.get(`${operation.name}/product`)!;
        figures.push(
          figure({
            id: `graphql.${key}.round_trips`,
            label: `${operation.name}: Redis commands sent per operation (product)`,
            unit: 'commands',
            value: trips,
            target:
              operation.mutation && operation.name !== 'fetchPendingMessages'
                ? { op: '<=', value: operation.name.includes('+') ? 2 : 1 }
                : undefined,
          }),
        );
        const limit = limits.get(operation.name)!;
        figures.push(
          figure({
            id: `graphql.${key}.raw_vs_redis`,
            label: `${operation.name}: raw node:http / redis-benchmark limit`,
            unit: 'x',
            ...summarize(of('raw').map((run) => run.rate / limit)),
          }),
        );
        for (const peer of PEERS) {
          const list = of(peer);
          const rate = summarize(list.map((run) => run.rate));
          rows.push([
            operation.name,
            peer,
            rate.value.toFixed(0),
            `${rate.spread.min.toFixed(0)}-${rate.spread.max.toFixed(0)}`,
            summarize(list.map((run) => run.p50)).value.toFixed(2),
            summarize(list.map((run) => run.p99)).value.toFixed(2),
            summarize(list.map((run) => run.cpuUs)).value.toFixed(0),
            `${(summarize(list.map((run) => run.busy)).value * 100).toFixed(0)}%`,
            roundTrips.get(`${operation.name}/${peer}`)!.toFixed(1),
          ]);
        }
        rows.push([
          operation.name,
          'redis-benchmark',
          limit.toFixed(0),
          '',
          '',
          '',
          '',
          '',
          String(productCommands.get(operation.name)!.length),
        ]);
      }
      const header = [
        'operation',
        'peer',
        'ops/s',
        'range',
        'p50 ms',
        'p99 ms',
        'server CPU µs/op',
        'server busy',
        'Redis cmds/op',
      ];
      tables.push({
        title: `GraphQL path: ${CONCURRENCY} connections, medians of ${ROUNDS} rounds of ${PER_ROUND} operations`,
        header,
        rows,
      });
      console.log();
      printTable(header, rows, 2);

      // Where the product missed with a registered document, and wherever BENCH_GRAPHQL_PROFILE
      // names a peer: where the time went.
      const profiled = new Set((process.env.BENCH_GRAPHQL_PROFILE ?? '').split(',').filter(Boolean));
      for (const operation of SELECTED) {
        for (const peer of PEERS) {
          if (!profiled.has(peer) && !(peer === 'product#' && missed.includes(operation))) continue;
          progress(0.93, `profiling ${peer} on ${operation.name}`);
          for (const table of await profile(peer, operation, redis, redisUrl, nextId)) {
            tables.push(table);
            console.log(`\n${table.title}`);
            printTable(table.header, table.rows, 1);
          }
        }
      }

      for (const f of figures)
        console.log(
          `${f.pass === undefined ? '    ' : f.pass ? 'PASS' : 'MISS'}  ${f.label}: ${f.value.toFixed(3)}${f.spread ? ` (${f.spread.min.toFixed(3)}-${f.spread.max.toFixed(3)})` : ''}`,
        );
      await reportResult({
        suite: 'graphql',
        title: 'The GraphQL path beside raw node:http, bare Apollo and redis-benchmark',
        quick: QUICK,
        seconds: (Date.now() - started) / 1000,
        figures,
        tables,
        notes: [
          `Each server is a separate process${pinned ? ' pinned to CPU 0; redis-server and the load generator share CPU 1' : ' (not pinned: taskset missing or one CPU)'}.`,
          `${CONCURRENCY} keep-alive connections per peer; a round is ${PER_ROUND} operations; ${ROUNDS} rounds; peers take turns in rotating order.`,
          `Warm-up, per operation and peer before its rounds: chunks of ${WARM_CHUNK} operations until two chunks in a row agreed on the rate within ${WARM_AGREE * 100}% after at least ${WARM_MIN} (at most ${WARM_MAX}); this run took ${Math.min(...warmUps)}-${Math.max(...warmUps)}. A fresh server's first rounds of 1,000 measured 610, 410, 260, 150 µs per operation: before that, the figure is the JIT's.`,
          "Profiles (where the product missed, or BENCH_GRAPHQL_PROFILE=<peers>) come from a fresh copy of the peer, warmed up the same way, and cover only the loaded window: V8's profiler started and stopped by signal around it (bench/graphql/profiler.ts), so start-up and warm-up are not in them.",
          "product# is the product with the benchmark's documents registered (TRUSTED_DOCUMENTS_FILE), sent by hash alone (extensions.persistedQuery): the fast path executes them without Apollo's per-request pipeline. product sends the same documents as text, unregistered, through Apollo.",
          'The bare Apollo peers run without the cache-control plugin, as the product does.',
          'The raw peer and both Apollo peers verify the same bearer tokens and call the same repositories, validation and notifications as the product; the product adds express, helmet, origin checks, rate limits, document limits and its error formatting.',
          'The product runs in production mode with LOG_LEVEL=warn (no line per request), its counter cleanup and row cache refresher off, and rate limits raised for the one load-generating address.',
          'Redis commands per operation are counted with MONITOR over 20 sequential operations: commands sent by a client, not those run inside scripts. redis-benchmark runs the commands the product sent for one operation, and the limit is 1 / (sum of 1/rate over those commands).',
          'fetchPendingMessages pulls 6 messages from 2 chats per call; each round uses its own users, so every peer pulls the same amount.',
        ],
      });
    } finally {
      await Promise.all(Object.values(servers).map((server) => server.stop()));
      redis.disconnect();
    }
  });
}

runBenchmark(main);
