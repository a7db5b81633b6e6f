// A semaphore holder that freezes (SIGSTOP, as a long GC pause or a suspended VM would) past its
// timeout, as a real child process (tests/support/semaphore-holder.cjs) against the API server.
// Its slot goes to the next caller with a higher fencing token; once it runs again (SIGCONT) its
// refresh and release are refused, and a resource that keeps the highest fencing token it has
// seen refuses its late write.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import {
  AcquireSemaphoreDocument,
  RefreshSemaphoreDocument,
  ReleaseSemaphoreDocument,
  SemaphoreStateDocument,
} from '../../src/generated/client/graphql';
import { serverForThisFile } from '../support/fixture';
import { eventually, post } from '../support/graphql';
import type { TestServer } from '../support/server';

const HOLDER = path.join(__dirname, '..', 'support', 'semaphore-holder.cjs');
const NAME = 'pdf-render';
const TIMEOUT_MS = 3000;
/** The holder's pause between rounds: a third of its timeout, so it refreshes in time while it runs. */
const PAUSE_MS = 1000;

const fixture = serverForThisFile();
let api: TestServer;
const children: ChildProcess[] = [];
let resource: http.Server | undefined;

beforeAll(() => {
  api = fixture.api;
});
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await new Promise<void>((resolve) => (resource ? resource.close(() => resolve()) : resolve()));
  resource = undefined;
});

interface Write {
  writer: string;
  fencingToken: number;
  seq: number;
  accepted: boolean;
}

/** A resource protected by fencing tokens: it refuses a token lower than the highest it has seen. */
async function fencedResource(): Promise<{ url: string; writes: Write[] }> {
  const writes: Write[] = [];
  let highest = 0;
  resource = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const write = JSON.parse(body) as Omit<Write, 'accepted'>;
      const accepted = write.fencingToken >= highest;
      if (accepted) highest = write.fencingToken;
      writes.push({ ...write, accepted });
      res.writeHead(accepted ? 200 : 409, { 'content-type': 'application/json' }).end(JSON.stringify({ highest }));
    });
  });
  await new Promise<void>((resolve) => resource!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(resource.address() as AddressInfo).port}/write`, writes };
}

type Line = Record<string, unknown> & { event: string };

function startHolder(env: Record<string, string>): {
  proc: ChildProcess;
  lines: Line[];
  exited: Promise<number | null>;
} {
  const proc = spawn(process.execPath, [HOLDER], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(proc);
  const lines: Line[] = [];
  readline.createInterface({ input: proc.stdout }).on('line', (line) => lines.push(JSON.parse(line) as Line));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, lines, exited };
}

it('refuses a holder frozen past its timeout, whose token is lower than the next holder’s', async () => {
  const { url: resourceUrl, writes } = await fencedResource();
  const frozenToken = api.server.verifier.sign('frozen-worker', ['service'], 3600);
  const freshToken = api.server.verifier.sign('fresh-worker', ['service'], 3600);
  const state = async () =>
    (await post(api.url, SemaphoreStateDocument, { name: NAME }, api.tokens.service)).data!.semaphore;

  const holder = startHolder({
    API_URL: api.url,
    API_TOKEN: frozenToken,
    RESOURCE_URL: resourceUrl,
    NAME,
    TIMEOUT_MS: String(TIMEOUT_MS),
    PAUSE_MS: String(PAUSE_MS),
  });
  // It holds steadily: two rounds of write and refresh, then it is frozen in its pause.
  await eventually(async () => holder.lines.some((line) => line.event === 'idle' && line.seq === 2), 15_000, 5);
  holder.proc.kill('SIGSTOP');
  const acquired = holder.lines.find((line) => line.event === 'acquired')!;
  const first = { id: acquired.id as string, fencingToken: acquired.fencingToken as number };
  expect(first.fencingToken).toBe(1);
  expect(holder.lines.map((line) => [line.event, line.ok ?? line.accepted])).toEqual([
    ['acquired', undefined],
    ['write', true],
    ['refresh', true],
    ['idle', undefined],
    ['write', true],
    ['refresh', true],
    ['idle', undefined],
  ]);

  // Frozen but within its time, it still holds the only slot: nobody else gets it early.
  const early = await post(api.url, AcquireSemaphoreDocument, { name: NAME, limit: 1, timeoutMs: 10_000 }, freshToken);
  expect(early.data).toEqual({ acquireSemaphore: null });
  expect(await state()).toMatchObject({
    limit: 1,
    lastFencingToken: 1,
    holders: [{ owner: 'frozen-worker', fencingToken: 1 }],
  });

  // Past its timeout the slot goes to the next caller, with a higher fencing token.
  const next = (
    await post(
      api.url,
      AcquireSemaphoreDocument,
      { name: NAME, limit: 1, timeoutMs: 10_000, waitMs: 15_000 },
      freshToken,
    )
  ).data!.acquireSemaphore!;
  expect(next.fencingToken).toBe(2);
  expect(next.fencingToken).toBeGreaterThan(first.fencingToken);
  expect(await state()).toMatchObject({ lastFencingToken: 2, holders: [{ owner: 'fresh-worker', fencingToken: 2 }] });
  const freshWrite = await fetch(resourceUrl, {
    method: 'POST',
    body: JSON.stringify({ writer: 'fresh', fencingToken: next.fencingToken, seq: 1 }),
  });
  expect(freshWrite.status).toBe(200);
  // The holder never ran meanwhile: it printed nothing more.
  expect(holder.lines).toHaveLength(7);

  // It runs again, not knowing it was away: its write is refused by the fencing token, its
  // refresh says it lost the slot, and its release changes nothing.
  holder.proc.kill('SIGCONT');
  expect(await holder.exited).toBe(0);
  expect(holder.lines.slice(7).map(({ at: _at, ...line }) => line)).toEqual([
    { event: 'write', seq: 3, accepted: false, highest: 2 },
    { event: 'refresh', seq: 3, ok: false },
    { event: 'release', released: false },
    { event: 'stopped' },
  ]);
  expect(writes).toEqual([
    { writer: 'holder', fencingToken: 1, seq: 1, accepted: true },
    { writer: 'holder', fencingToken: 1, seq: 2, accepted: true },
    { writer: 'fresh', fencingToken: 2, seq: 1, accepted: true },
    { writer: 'holder', fencingToken: 1, seq: 3, accepted: false },
  ]);

  // The new holder is untouched by all that: it still holds, refreshes and releases its slot.
  expect(await state()).toMatchObject({
    lastFencingToken: 2,
    waiting: 0,
    holders: [{ owner: 'fresh-worker', fencingToken: 2 }],
  });
  const refreshed = await post(api.url, RefreshSemaphoreDocument, { name: NAME, id: next.id }, freshToken);
  expect(refreshed.data!.refreshSemaphore).toMatchObject({ id: next.id, fencingToken: 2 });
  // The frozen holder's lease id was never the new one's.
  expect(next.id).not.toBe(first.id);
  expect((await post(api.url, ReleaseSemaphoreDocument, { name: NAME, id: next.id }, freshToken)).data).toEqual({
    releaseSemaphore: true,
  });
  expect((await state()).holders).toEqual([]);
}, 45_000);
