// What the location suite reads from Redis around each run: the commands the clients sent, by
// name (a hook on ioredis's sendCommand, which every command goes through, pipelines and scripts
// too), what Redis ran (INFO commandstats deltas, which count the calls made inside Lua as well),
// and used_memory sampled while the run goes (used_memory_peak is never reset by RESETSTAT).
import Redis from 'ioredis';
import { sumOf, usedMemory } from './harness';

export type Counts = Map<string, number>;

/** Sent by the clients under test, and by the bench's own admin connection (left out). */
const sent: Counts = new Map();
const adminSent: Counts = new Map();
let adminClient: Redis | undefined;

/** Commands whose first argument names the command in commandstats (`client|setname`). */
const CONTAINERS = new Set(['client', 'config', 'script', 'xinfo', 'memory', 'object', 'xgroup', 'function']);
/** The bench's own reads, never part of a run. */
const IGNORED = new Set(['info', 'config|resetstat', 'config|get', 'config|set']);

/** EVAL counts as `evalsha`: ioredis writes a script as EVAL the first time on a connection. */
const fold = (name: string): string => (name === 'eval' ? 'evalsha' : name);

const bump = (counts: Counts, name: string, by = 1): void => void counts.set(name, (counts.get(name) ?? 0) + by);

/** Starts counting what every connection sends; returns the bench's own one, counted apart. */
export function countingAdmin(url: string): Redis {
  const send = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function (this: Redis, ...args: Parameters<Redis['sendCommand']>) {
    const [{ name, args: commandArgs }] = args;
    const command = fold(name.toLowerCase());
    const stat =
      CONTAINERS.has(command) && commandArgs.length > 0
        ? `${command}|${String(commandArgs[0]).toLowerCase()}`
        : command;
    bump(this === adminClient ? adminSent : sent, stat);
    return send.apply(this, args);
  };
  return (adminClient = new Redis(url));
}

export const total = (counts: Counts): number => sumOf([...counts.values()], (n) => n);

function minus(a: Counts, b: Counts): Counts {
  const out = new Map(a);
  for (const [name, n] of b) out.set(name, (out.get(name) ?? 0) - n);
  for (const [name, n] of out) if (n === 0) out.delete(name);
  return out;
}

/**
 * Starts counting: RESETSTAT, a snapshot of what was sent, and a used_memory sample every 20 ms
 * (between the event loop's other work: a long synchronous tally delays a sample). `finish` gives
 * the commands the clients sent and those Redis ran inside scripts (commandstats less what was
 * sent, the admin connection's left out). `outside`: commands another process sent (the worker
 * processes), names the product's scripts never call, so every call Redis ran of them was sent.
 */
export async function startProbe(admin: Redis, outside: readonly string[] = []) {
  const baseBytes = await usedMemory(admin);
  const sent0 = new Map(sent);
  const admin0 = new Map(adminSent);
  await admin.config('RESETSTAT');
  let peakBytes = baseBytes;
  let sampling = false;
  const timer = setInterval(() => {
    if (sampling) return;
    sampling = true;
    usedMemory(admin)
      .then((bytes) => (peakBytes = Math.max(peakBytes, bytes)))
      .catch(() => undefined)
      .finally(() => (sampling = false));
  }, 20);
  return async function finish() {
    clearInterval(timer);
    peakBytes = Math.max(peakBytes, await usedMemory(admin));
    const ran: Counts = new Map();
    for (const [, name, calls] of (await admin.info('commandstats')).matchAll(/^cmdstat_(\S+?):calls=(\d+)/gm))
      if (!IGNORED.has(name)) bump(ran, fold(name), Number(calls));
    const ranByClients = minus(ran, minus(adminSent, admin0));
    const clientSent = minus(sent, sent0);
    for (const name of outside) {
      const calls = ranByClients.get(name) ?? 0;
      if (calls > (clientSent.get(name) ?? 0)) clientSent.set(name, calls);
    }
    const internal = minus(ranByClients, clientSent);
    for (const [name, n] of internal) if (n < 0 || IGNORED.has(name)) internal.delete(name);
    return { sent: clientSent, internal, peakBytes, baseBytes };
  };
}
export type Measured = Awaited<ReturnType<Awaited<ReturnType<typeof startProbe>>>>;

export const describeCounts = (counts: Counts): string =>
  [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
