// The GraphQL path against what a user would build instead, measured side by side in one run:
//   raw          node:http + ioredis calling the product's repositories and Lua scripts (the limit)
//   apollo       bare @apollo/server, SDL + plain resolvers over the same repositories
//   apollo+tg    the same Apollo with the product's type-graphql schema and resolver classes
//   product      the product's own server (dist-bench/src/main.js, production mode)
//   redis        redis-benchmark running the Redis commands one operation sends (the Redis limit)
// Each server is its own process pinned to CPU 0; redis-server and this load generator share
// CPU 1, so a server's rate is what one core gives it. Every operation runs a warm-up per peer,
// then rounds with the peers taking turns in a rotating order; a figure is the median of the
// per-round values with their range.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { defineScripts } from '../src/redis/client/scripts';
import { Connection, runLoad } from './harness/http-load';
import { OPERATIONS, type OperationSpec, type PeerKind } from './graphql/operations';
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
const PER_ROUND = Number(process.env.BENCH_GRAPHQL_OPS ?? (QUICK ? 1000 : 3000));
const WARM_UP = Math.ceil(PER_ROUND / 4);
const CONCURRENCY = Number(process.env.BENCH_GRAPHQL_CONCURRENCY ?? 32);
const PEERS = ['raw', 'apollo', 'apollo+tg', 'product'] as const;
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

function startPeer(peer: Peer, redisUrl: string, nodeArgs: string[] = []): Promise<ServerProcess> {
  const env = { REDIS_URL: redisUrl, JWT_SECRET: BENCH_JWT_SECRET, NODE_ENV: 'production', LOG_LEVEL: 'warn' };
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
      return startProduct(redisUrl, {}, SERVER_CPU, nodeArgs);
  }
}

async function startPeers(redisUrl: string): Promise<Record<Peer, ServerProcess>> {
  const started = await Promise.all(PEERS.map((peer) => startPeer(peer, redisUrl)));
  return Object.fromEntries(PEERS.map((peer, i) => [peer, started[i]])) as Record<Peer, ServerProcess>;
}

/** Runs one round against a fresh copy of the peer started with --cpu-prof, and sums up where its CPU went. */
async function profile(
  peer: Peer,
  operation: OperationSpec,
  redis: Redis,
  redisUrl: string,
  id: number,
): Promise<Table[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-prof-'));
  const server = await startPeer(peer, redisUrl, ['--cpu-prof', '--cpu-prof-dir', dir]);
  try {
    await operation.prepare(redis, id, PER_ROUND);
    const connections = await Promise.all(Array.from({ length: CONCURRENCY }, () => Connection.open(server.port)));
    await runLoad(connections, PER_ROUND, (c, n, slot) => operation.run(kindOf(peer), c, n, slot, id));
    connections.forEach((c) => c.close());
  } finally {
    await server.stop();
  }
  const file = fs.readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) return [];
  const summary = summarizeProfile(path.join(dir, file));
  fs.rmSync(dir, { recursive: true, force: true });
  const rows = (list: [string, number][]) => list.map(([name, share]) => [name, `${(share * 100).toFixed(1)}%`]);
  return [
    {
      title: `Where ${peer}'s CPU went on ${operation.name} (self time by package or file; Node's own charged to its caller)`,
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

const kindOf = (peer: Peer): PeerKind => (peer === 'raw' ? 'raw' : 'graphql');

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
      const steps = SELECTED.length * PEERS.length * (ROUNDS + 1);
      let step = 0;
      let roundId = 1;
      for (const operation of SELECTED) {
        for (let round = 0; round <= ROUNDS; round++) {
          for (let i = 0; i < PEERS.length; i++) {
            const peer = PEERS[(i + round) % PEERS.length];
            const id = roundId++;
            const count = round === 0 ? WARM_UP : PER_ROUND;
            await operation.prepare(redis, id, count);
            progress(
              0.05 + (0.75 * step++) / steps,
              `${operation.name}: ${round === 0 ? 'warm-up' : `round ${round}/${ROUNDS}`}, ${peer}`,
            );
            // Fresh connections each run: servers close keep-alive connections left idle while the others ran.
            const connections = await Promise.all(
              Array.from({ length: CONCURRENCY }, () => Connection.open(servers[peer].port)),
            );
            const run = await measure(servers[peer], connections, count, (c, n, slot) =>
              operation.run(kindOf(peer), c, n, slot, id),
            );
            for (const connection of connections) connection.close();
            if (round > 0)
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
        if (productVsRaw.value < 0.5) missed.push(operation);
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

      // Where the product missed, and wherever BENCH_GRAPHQL_PROFILE names a peer: where the time went.
      const profiled = new Set((process.env.BENCH_GRAPHQL_PROFILE ?? '').split(',').filter(Boolean));
      for (const operation of SELECTED) {
        for (const peer of PEERS) {
          if (!profiled.has(peer) && !(peer === 'product' && missed.includes(operation))) continue;
          progress(0.93, `profiling ${peer} on ${operation.name}`);
          for (const table of await profile(peer, operation, redis, redisUrl, roundId++)) {
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
          `${CONCURRENCY} keep-alive connections per peer; a round is ${PER_ROUND} operations; ${ROUNDS} rounds after a warm-up of ${WARM_UP}; peers take turns in rotating order.`,
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
