// `npm run soak [-- --minutes 5] [--seed N] [--heap-snapshots]`: mixed load against two API
// processes on one Redis for a chosen time, SIGKILLing an API process, then Redis, then the task
// worker mid-task; then it drains and checks each part's invariants (exit 1 when one fails). Logs:
// bench/results/logs/soak-*.log; report: bench/results/soak-latest.{json,md}. docs/development.md#soak.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startWatchdog } from '../../src/redis/client/embedded';
import { startRedisProcess } from '../../tests/support/redis-process';
import { clock, ProgressBar } from '../harness/progress-bar';
import { within } from '../harness/rounds';
import { startNodeProcess, startProduct, type NodeProcess, type ServerProcess } from '../harness/server-process';
import { seeded, sumOf, usedMemory } from '../harness/support';
import { check, signer, type SoakContext } from './actor';
import { ChatLoad } from './chat';
import { ApiPool } from './client';
import { CounterLoad } from './counters';
import { LeaseLoad } from './leases';
import { MarketLoad } from './market';
import { growthByShape, keptBytes, keyspace, MemorySampler } from './memory';
import { writeReport, type SoakReport } from './report';
import { SubscriberLoad } from './subscribers';
import { TaskLoad } from './tasks';

/** dist-bench/bench/soak/run.js: the repository is three levels up. */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const RESULTS = path.join(ROOT, 'bench', 'results');
const LOGS = path.join(RESULTS, 'logs');
const WORKER = path.join(__dirname, '..', '..', 'src', 'worker.js');
const HANDLERS = path.join(ROOT, 'bench', 'soak', 'handlers.cjs');
const HEAP_PROBE = path.join(ROOT, 'bench', 'soak', 'heap-probe.cjs');
/** 5 minutes, not the product's day: the dedupe records level off within a run (docs/development.md#soak). */
const CHAT_DEDUPE_SECONDS = 300;
const API_PROCESSES = 2;
/** How long each fault's own phase lasts before the next phase ("recovered") begins. */
const FAULT_PHASE_MS = 10_000;
const WARM_UP_SECONDS = 30;
/** Each fault's phase and the phase after it, in the order they come. */
const FAULTS = {
  api: ['API process killed', 'after the API kill'],
  redis: ['Redis killed', 'after the Redis kill'],
  worker: ['worker killed mid-task', 'after the worker kill'],
} as const;
const PHASES: string[] = ['steady', ...Object.values(FAULTS).flat(), 'draining'];

function parseOptions(): { minutes: number; seed: number; heapSnapshots: boolean } {
  try {
    const { values } = parseArgs({
      options: { minutes: { type: 'string' }, seed: { type: 'string' }, 'heap-snapshots': { type: 'boolean' } },
    });
    const [minutes, seed] = [Number(values.minutes ?? 5), Number(values.seed ?? Date.now() % 100_000)];
    if (!(minutes >= 1 && minutes <= 24 * 60) || !Number.isInteger(seed))
      throw new Error('--minutes must be from 1 to 1440 and --seed a whole number');
    return { minutes, seed, heapSnapshots: values['heap-snapshots'] ?? false };
  } catch (error) {
    console.error(`usage: npm run soak [-- --minutes 5] [--seed N] [--heap-snapshots]\n${(error as Error).message}`);
    process.exit(2);
  }
}

// A process's output, line by line, to a log file; error-level JSON lines kept; `onLine` sees each.
// A followed process is killed should the soak itself die (even by SIGKILL), as tests do for redis-server.
function processLog(name: string) {
  const file = fs.createWriteStream(path.join(LOGS, `soak-${name}.log`), { flags: 'a' });
  const errors: string[] = [];
  const follow = (child: ChildProcess, label: string, onLine: (line: string) => unknown = () => undefined): void => {
    const watchdog = startWatchdog(child.pid!, 'KILL');
    child.once('exit', () => watchdog.kill('SIGKILL'));
    for (const input of [child.stdout!, child.stderr!])
      readline.createInterface({ input }).on('line', (line) => {
        file.write(`${line}\n`);
        if (Number(/"level":(\d+)/.exec(line)?.[1] ?? 0) >= 50) errors.push(`${label}: ${line.slice(0, 300)}`);
        onLine(line);
      });
  };
  return { errors, follow, close: () => file.end() };
}

async function main(): Promise<void> {
  const options = parseOptions();
  fs.mkdirSync(LOGS, { recursive: true });
  for (const file of fs.readdirSync(LOGS))
    if (/^soak-(api|worker)\.log$|^soak-task-runs\.jsonl$|\.heapsnapshot$/.test(file)) fs.rmSync(path.join(LOGS, file));
  const taskLog = path.join(LOGS, 'soak-task-runs.jsonl');
  const durationMs = options.minutes * 60_000;
  const bar = new ProgressBar();
  const api = new ApiPool();
  const token = signer(options.minutes / 60 + 1);
  const soak: SoakContext = { ...options, api, token, random: seeded(options.seed), taskLog, stopped: false };
  const memory = new MemorySampler();
  const [apiLog, workerLog] = [processLog('api'), processLog('worker')];
  const faults: SoakReport['faults'] = [];
  const started = Date.now();
  const note = (what: string, detail: string): void => {
    const at = clock((Date.now() - started) / 1000);
    faults.push({ at, what, detail });
    bar.log(`${at}  ${what}: ${detail}`);
  };

  bar.log(
    `soak: ${options.minutes} min, seed ${options.seed}; logs in ${path.relative(process.cwd(), LOGS)}/soak-*.log`,
  );
  const redis = await startRedisProcess();
  const processes: (ServerProcess | undefined)[] = [];
  let worker: NodeProcess | undefined;
  // Finished tasks stay readable for the whole run (the check reads each), and counter samples
  // at the precisions checked cover it; both as the defaults for runs of 10 minutes or less.
  const taskHistory = Math.min(1_000_000, Math.max(10_000, 1000 * Math.ceil(options.minutes)));
  const env = { TASK_HISTORY: String(taskHistory), TASK_MAX_PER_QUEUE: String(2 * taskHistory) };
  const startApi = async (slot: number): Promise<void> => {
    const server = await startProduct(
      redis.url,
      { LOG_LEVEL: 'warn', COUNTER_CLEANUP: 'on', CHAT_DEDUPE_SECONDS: String(CHAT_DEDUPE_SECONDS), ...env },
      undefined,
      // Heap used after a forced collection every 30 s, and a heap snapshot on SIGUSR2 (below).
      ['--require', HEAP_PROBE, '--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${LOGS}`],
    );
    apiLog.follow(server.child, `api-${slot + 1}`, (line) => {
      if (!line.startsWith('{"soakHeap"')) return;
      const { heapUsed } = (JSON.parse(line) as { soakHeap: { heapUsed: number } }).soakHeap;
      memory.add(`API process ${slot + 1} (pid ${server.pid}) heap used after GC`, heapUsed);
    });
    // Stopping (a signal): a process started after that is stopped at once.
    if (soak.stopped) return void (await server.stop());
    processes[slot] = server;
    api.origins[slot] = server.origin;
  };
  const tasks = new TaskLoad(soak);
  const startWorker = async (): Promise<NodeProcess> => {
    const worker = startNodeProcess(WORKER, {
      ...process.env,
      ...{ REDIS_URL: redis.url, WORKER_QUEUES: tasks.queue, TASK_HANDLERS: HANDLERS, SOAK_TASK_LOG: taskLog },
      ...{ WORKER_CONCURRENCY: '8', TASK_VISIBILITY_TIMEOUT_MS: '5000', LOG_LEVEL: 'info', ...env },
    });
    const ready = new Promise<void>((resolve, reject) => {
      workerLog.follow(worker.child, 'worker', (line) => line.includes('task workers started') && resolve());
      worker.child.once('exit', (code) =>
        reject(new Error(`the worker exited during start-up (${code}); see soak-worker.log`)),
      );
    });
    await within(ready, 30_000, () => 'the worker did not start within 30 s').catch(async (error: unknown) => {
      await worker.stop('SIGKILL');
      throw error;
    });
    if (soak.stopped) await worker.stop('SIGKILL');
    return worker;
  };

  const cleanUp = async (): Promise<void> => {
    soak.stopped = true;
    await worker?.stop('SIGKILL');
    await Promise.all(processes.flatMap((p) => (p ? [p.stop()] : [])));
    await redis.stop();
    for (const log of [apiLog, workerLog]) log.close();
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      bar.clear();
      console.error(`soak: ${signal}; stopping its processes`);
      void cleanUp().then(() => process.exit(130));
    });
  }

  try {
    for (let slot = 0; slot < API_PROCESSES; slot++) await startApi(slot);
    worker = await startWorker();
    const chat = new ChatLoad(soak);
    const phones = new SubscriberLoad(soak, () => chat.members());
    const actors = [chat, phones, new LeaseLoad(soak), tasks, new MarketLoad(soak), new CounterLoad(soak)];
    for (const actor of actors) await actor.setup();
    const keysBefore = await keyspace(redis.client());

    // Memory every 5 s; once a minute also what the kept histories take (a keyspace walk).
    let samples = 0;
    const sampler = setInterval(() => {
      processes.forEach((p, slot) => {
        // Not a process killed (a zombie's RSS reads as NaN, which is not kept).
        if (p && p.child.exitCode === null && p.child.signalCode === null)
          memory.add(`API process ${slot + 1} (pid ${p.pid}) RSS`, p.rssBytes());
      });
      const pid = redis.pid;
      if (!pid) return;
      const withKeys = samples++ % 12 === 0;
      void (async () => {
        const bytes = await usedMemory(redis.client());
        memory.add(`Redis used_memory (pid ${pid})`, bytes);
        if (!withKeys) return;
        const kept = keptBytes(await keyspace(redis.client()));
        memory.add(`Redis: finished tasks kept for the check (pid ${pid})`, kept.taskHistory);
        memory.add(`Redis: chat dedupe records (pid ${pid})`, kept.chatDedupe);
        memory.add(`Redis used_memory less the kept tasks (pid ${pid})`, bytes - kept.taskHistory);
      })().catch(() => undefined);
    }, 5000);

    let [lastCalls, lastTick] = [0, Date.now()];
    const ticker = setInterval(() => {
      const now = Date.now();
      const rate = Math.round(((api.calls - lastCalls) * 1000) / (now - lastTick));
      [lastCalls, lastTick] = [api.calls, now];
      const unexpected = sumOf([...api.unexpected.values()], (n) => n);
      bar.update({
        overall: Math.min(1, (now - started) / durationMs),
        suite: api.phase.name,
        index: Math.max(1, PHASES.indexOf(api.phase.name) + 1),
        count: PHASES.length,
        label: `${rate} calls/s, ${api.calls} calls, ${unexpected} unexpected errors`,
        elapsed: (now - started) / 1000,
        suiteElapsed: (now - api.phase.startedAt) / 1000,
      });
    }, 1000);

    api.begin('steady');
    const running = Promise.all(actors.map((actor) => actor.run()));
    const at = async (fraction: number): Promise<void> => {
      const wait = started + durationMs * fraction - Date.now();
      if (wait > 0) await sleep(wait);
    };
    /** At `fraction` of the run: the fault's phase, its kill, pause and restart, then the phase after it. */
    const fault = async (fraction: number, [phase, after]: readonly string[], killAndRestart: () => Promise<void>) => {
      await at(fraction);
      api.begin(phase);
      await killAndRestart();
      await sleep(FAULT_PHASE_MS);
      api.begin(after);
    };
    // Only when asked; of the restarted API process, not of process 1, whose RSS it would swell.
    const snapshot = async (fraction: number): Promise<void> => {
      await at(fraction);
      if (!options.heapSnapshots) return;
      processes[1]?.child.kill('SIGUSR2');
      note('heap snapshot of API process 2', `pid ${processes[1]?.pid} into ${path.relative(ROOT, LOGS)}/`);
    };

    await fault(0.25, FAULTS.api, async () => {
      const victim = processes[1]!;
      api.origins[1] = undefined;
      victim.child.kill('SIGKILL');
      note('SIGKILL API process 2', `pid ${victim.pid}`);
      await sleep(2000);
      await startApi(1);
      phones.faultEnded();
      note('started API process 2 again', `pid ${processes[1]!.pid}`);
    });
    await snapshot(1 / 3);
    await fault(0.5, FAULTS.redis, async () => {
      const pid = redis.pid;
      await redis.kill();
      note('SIGKILL Redis', `pid ${pid}`);
      await sleep(2000);
      await redis.restart();
      phones.faultEnded();
      note('started Redis again from its append-only file', `pid ${redis.pid}`);
    });
    await fault(0.75, FAULTS.worker, async () => {
      const old = worker!;
      const longTask = await tasks.killMidTask(old.pid, () => old.stop('SIGKILL'));
      note('SIGKILL the task worker', `pid ${old.pid} while it ran task ${longTask}`);
      await sleep(1000);
      worker = await startWorker();
      note('started the task worker again', `pid ${worker.pid}`);
    });
    await snapshot(1);
    soak.stopped = true;
    api.begin('draining');
    await running;
    note('load stopped', 'draining: pulling what is still waiting, letting tasks finish');
    const deadline = Date.now() + 120_000;
    const undrained: string[] = [];
    for (const actor of actors) {
      // A part that cannot read its final state fails its own checks; the others still report.
      await actor
        .drain(deadline)
        .catch((error: unknown) => undrained.push(`${actor.name}: ${(error as Error)?.message ?? String(error)}`));
    }
    clearInterval(ticker);
    clearInterval(sampler);
    const keysAfter = await keyspace(redis.client());
    const checks = actors.flatMap((actor) => actor.check());
    if (undrained.length > 0) checks.push(check('every part read its final state', false, undrained.join('; ')));
    const unexpected = [...api.unexpected].map(([code, n]) => `${code} × ${n}`).join(', ');
    checks.push(check('no INTERNAL_SERVER_ERROR or 5xx answer', !unexpected, unexpected || `${api.calls} calls`));
    bar.clear();

    writeReport(
      {
        startedAt: new Date(started).toISOString(),
        minutes: options.minutes,
        seed: options.seed,
        calls: api.calls,
        phases: api.summary(),
        faults,
        checks,
        stats: Object.fromEntries(actors.map((actor) => [actor.name, actor.stats()])),
        memory: memory.growth(WARM_UP_SECONDS),
        memoryLate: memory.growth(durationMs / 3 / 1000),
        memoryCurve: memory.curve(),
        keyspace: growthByShape(keysBefore, keysAfter),
        errorLines: {
          api: apiLog.errors.length,
          worker: workerLog.errors.length,
          samples: [...apiLog.errors, ...workerLog.errors].slice(0, 10),
        },
      },
      RESULTS,
    );
    process.exitCode = checks.every((c) => c.ok) ? 0 : 1;
  } finally {
    bar.clear();
    await cleanUp();
  }
}

main().catch((error: unknown) => {
  console.error(`soak failed: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
