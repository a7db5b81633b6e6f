// Sends fuzzed cases, one at a time, over HTTP (the fast path: a JSON POST without Origin; the
// express path: the server's own Origin, or GET) and over WebSocket (one graphql-ws socket per
// caller, kept open across cases; the user's also holds a long-running subscription), and checks
// each answer: documented codes only, no 5xx, no 4500/1011 close, no error-level log line, nothing
// on console.error/warn, and Redis exactly as seeded after a refused call.
import {
  getOperationAST,
  Kind,
  OperationTypeNode,
  parse,
  type DocumentNode,
  type GraphQLFormattedError,
  type SelectionSetNode,
} from 'graphql';
import WebSocket from 'ws';
import { outcomeOf, postBody, tokenOf, type Caller } from '../hostile';
import { rawSocket, type Frame, type RawSocket } from '../raw-ws';
import type { TestServer } from '../server';
import { describeCase, requestJson, type FuzzCase, type FuzzRequest } from './documents';
import { isRefused, problemsOf, type Answer } from './oracle';
import type { SeedState } from './seed';
import { toJsonText } from './json';

/** Lock and semaphore acquisitions may wait (docs/locks.md: acquireTimeoutMs, waitMs); they are cancelled at this deadline. */
const WAITING_FIELDS = /\b(acquireLock|acquireSemaphore)\b/;
const WAIT_DEADLINE_MS = 1000;
/** Any other answer must come within this. */
const ANSWER_DEADLINE_MS = 10_000;
/** Longest GET URL sent; longer requests go as POST (Node refuses headers over 16 KB with a bare 431). */
const MAX_GET_URL = 8000;

const WATCH_ID = 'watch';
const WATCH_QUERY = 'subscription { inboxChanged { mailbox chatId } }';

export interface Expectation {
  /** Extra checks of this test's own (an exact code, a status). */
  (answer: Answer, c: FuzzCase): string[];
}

export interface Tally {
  cases: number;
  byTransport: Record<string, number>;
  refused: number;
  codes: Record<string, number>;
  /** `Mutation.sendMessage.chatId`: arguments that were given a value (literal or variable). */
  arguments: Set<string>;
}

interface ConsoleCall {
  method: string;
  text: string;
}

export class FuzzRunner {
  private readonly sockets = new Map<Caller, RawSocket>();
  private watchSocket: RawSocket | undefined;
  private watchNotifications = 0;
  /** How each socket holding the long-running subscription was lost, and to which case. */
  readonly watchLost: string[] = [];
  private nextId = 0;
  /** Redis may differ from the seed (the last case was not refused, or the test just began). */
  private dirty = true;
  private readonly consoleCalls: ConsoleCall[] = [];
  private readonly spies: jest.SpyInstance[] = [];
  readonly tally: Tally = { cases: 0, byTransport: {}, refused: 0, codes: {}, arguments: new Set() };

  constructor(
    private readonly api: TestServer,
    private readonly seed: SeedState,
  ) {}

  /** Captures console.error and console.warn (graphql-ws prints there) and opens the watching socket. */
  async start(): Promise<void> {
    for (const method of ['error', 'warn'] as const) {
      this.spies.push(
        jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
          this.consoleCalls.push({
            method,
            text: args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(' '),
          });
        }),
      );
    }
    await this.watch();
  }

  /** The user's socket, with the long-running subscription on it beside the user's fuzzed operations. */
  private async watch(): Promise<void> {
    this.watchSocket = await this.socketFor('user');
    this.watchSocket.send({ id: WATCH_ID, type: 'subscribe', payload: { query: WATCH_QUERY } });
  }

  stop(): void {
    for (const spy of this.spies.splice(0)) spy.mockRestore();
    for (const socket of this.sockets.values()) socket.socket.terminate();
    this.sockets.clear();
  }

  /** Must be called at the start of every test: the fixture empties Redis before each. */
  reset(): void {
    this.dirty = true;
  }

  /** Sends one case; returns its answer and what is wrong with it. */
  async run(c: FuzzCase, expectation?: Expectation): Promise<{ answer: Answer; problems: string[] }> {
    if (this.dirty) {
      await this.seed.restore();
      this.dirty = false;
    }
    const logsBefore = this.api.logs.length;
    const consoleBefore = this.consoleCalls.length;
    const answer = c.transport === 'ws' ? await this.overWebSocket(c) : await this.overHttp(c);
    // The request log line is written when the answer has gone.
    await new Promise((resolve) => setImmediate(resolve));
    this.count(c, answer);

    const problems = [...problemsOf(answer), ...(expectation?.(answer, c) ?? [])];
    for (const line of this.api.logs.slice(logsBefore)) {
      if (Number(line.level) >= 50)
        problems.push(`log line at level ${line.level}: ${line.msg} ${JSON.stringify(line.err ?? '').slice(0, 300)}`);
    }
    for (const call of this.consoleCalls.slice(consoleBefore))
      problems.push(`console.${call.method}: ${call.text.slice(0, 500)}`);
    if (this.watchSocket && this.watchSocket.socket.readyState !== WebSocket.OPEN) {
      // Reported once, by the case that closed it; a new one watches the cases that follow.
      const closed = await this.watchSocket.closedWithin(1000);
      this.watchLost.push(`closed with ${closed.code} (${closed.reason}) by:\n${describeCase(c)}`);
      problems.push(`the socket holding the long-running subscription closed with ${closed.code} (${closed.reason})`);
      await this.watch();
    }

    if (answer.cancelled) {
      // The server takes the cancelled waiter out of its queue; let it finish before the next restore.
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    if (isRefused(answer) && this.executedAtMostOneRootField(c.request, answer.errors)) {
      this.tally.refused++;
      if (!(await this.seed.unchanged())) {
        problems.push(`refused, but Redis changed:\n${await this.seed.difference()}`);
        this.dirty = true;
      }
    } else {
      this.dirty = true;
    }
    if (problems.length > 0)
      problems.unshift(`answer: ${JSON.stringify({ ...answer, errors: answer.errors.slice(0, 5) }).slice(0, 1500)}`);
    return { answer, problems };
  }

  /** The long-running subscription's socket is open, and a new message for its user reaches it. */
  async watcherStillNotified(): Promise<string[]> {
    const socket = this.watchSocket;
    if (this.watchLost.length > 0)
      return this.watchLost.map((lost) => `the socket holding the long-running subscription ${lost}`);
    if (!socket || socket.socket.readyState !== WebSocket.OPEN)
      return ['the socket holding the long-running subscription closed'];
    await this.seed.restore();
    this.dirty = true;
    const before = socket.frames.filter((f) => f.id === WATCH_ID).length;
    const sent = await postBody(
      this.api,
      JSON.stringify({ query: 'mutation { sendDirectMessage(to: "alice", message: "still there?") { id } }' }),
      this.api.tokens.other,
    );
    if (sent.errors.length > 0) return [`could not send the direct message: ${JSON.stringify(sent.errors)}`];
    try {
      const notice = await socket.next(
        (f) => f.id === WATCH_ID && socket.frames.filter((g) => g.id === WATCH_ID).indexOf(f) >= before,
        5000,
      );
      const payload = notice.payload as { data?: { inboxChanged?: { mailbox?: boolean } } };
      if (notice.type !== 'next' || payload.data?.inboxChanged?.mailbox !== true)
        return [`the long-running subscription got ${JSON.stringify(notice)}`];
    } catch (error) {
      return [`the long-running subscription was not notified: ${(error as Error).message.slice(0, 300)}`];
    }
    return [];
  }

  get notificationsSeen(): number {
    return this.watchNotifications;
  }

  // -------------------------------------------------------------------------------------------
  // HTTP
  // -------------------------------------------------------------------------------------------

  private async overHttp(c: FuzzCase): Promise<Answer> {
    const token = tokenOf(this.api, c.caller);
    const waits = WAITING_FIELDS.test(c.request.query);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), waits ? WAIT_DEADLINE_MS : ANSWER_DEADLINE_MS);
    try {
      const { status, codes, errors, data } = await this.httpRequest(c, token, controller.signal);
      return { transport: c.transport, status, codes, errors, ...(data !== undefined ? { data } : {}) };
    } catch (error) {
      if (!controller.signal.aborted) throw error;
      return { transport: c.transport, codes: [], errors: [], ...(waits ? { cancelled: true } : { timedOut: true }) };
    } finally {
      clearTimeout(timer);
    }
  }

  private httpRequest(c: FuzzCase, token: string | undefined, signal: AbortSignal) {
    const body = requestJson(c.request);
    if (c.transport === 'fast') return postBody(this.api, body, token, {}, signal);
    const ownOrigin = new URL(this.api.url).origin;
    if (c.transport === 'get') {
      const url = getUrl(this.api.url, c.request);
      if (url.length <= MAX_GET_URL) {
        const headers: Record<string, string> = {
          'apollo-require-preflight': 'true',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        };
        return fetch(url, { headers, signal }).then(outcomeOf);
      }
    }
    return postBody(this.api, body, token, { origin: ownOrigin }, signal);
  }

  // -------------------------------------------------------------------------------------------
  // WebSocket
  // -------------------------------------------------------------------------------------------

  private async socketFor(caller: Caller): Promise<RawSocket> {
    const open = this.sockets.get(caller);
    if (open && open.socket.readyState === WebSocket.OPEN) return open;
    const socket = await rawSocket(this.api.url);
    socket.send({ type: 'connection_init', payload: { authorization: `Bearer ${tokenOf(this.api, caller)}` } });
    await socket.next((frame) => frame.type === 'connection_ack');
    this.sockets.set(caller, socket);
    return socket;
  }

  private async overWebSocket(c: FuzzCase): Promise<Answer> {
    const id = `c${++this.nextId}`;
    const message = `{"id":"${id}","type":"subscribe","payload":${requestJson(c.request)}}`;
    const tooBig = Buffer.byteLength(message) > this.api.config.security.wsMaxPayloadBytes;
    if (c.caller === 'anonymous' || tooBig) {
      // On a socket of its own, which the server closes: 1009 for the frame (sent first, so that it
      // decides), 4403 for a connection_init without a token (the operation is never sent: a
      // subscribe before the refusal would be 4401, a protocol error of the client's).
      const socket = await rawSocket(this.api.url);
      socket.send(tooBig ? message : { type: 'connection_init', payload: {} });
      const closed = await socket.closedWithin(5000);
      socket.socket.terminate();
      return {
        ...answerOf(c.transport, socket.frames, id),
        expectedClose: tooBig ? 1009 : 4403,
        ...(closed.code === -1 ? {} : { closed }),
      };
    }

    const socket = await this.socketFor(c.caller);
    this.takeWatchNotifications(socket);
    socket.frames.splice(0);
    socket.send(message);
    const subscription = operationType(c.request) === 'subscription';
    const waits = WAITING_FIELDS.test(c.request.query);
    const deadline = waits ? WAIT_DEADLINE_MS : ANSWER_DEADLINE_MS;
    const logsBefore = this.api.logs.length;
    // A subscription has started once the server says its stream runs (a debug line); waiting
    // for a refusal that does not come for a guessed time failed on a busy machine.
    const running = (): boolean =>
      this.api.logs.slice(logsBefore).some((line) => line.msg === 'websocket subscription running' && line.id === id);
    const answered = socket
      .next((frame) => frame.id === id && (frame.type === 'complete' || frame.type === 'error'), deadline)
      .then(
        () => 'answered' as const,
        () => 'nothing' as const,
      );
    const outcome = subscription
      ? await Promise.race([answered, pollUntil(running, deadline).then((ok) => (ok ? 'running' : 'nothing'))])
      : await answered;
    const ended = outcome === 'answered';
    let closed: { code: number; reason: string } | undefined;
    if (socket.socket.readyState !== WebSocket.OPEN) closed = await socket.closedWithin(1000);
    else if (!ended) socket.send({ id, type: 'complete' });
    // Frames other than this operation's and the watcher's belong to earlier operations.
    const late = socket.frames
      .filter((frame) => frame.id !== id && frame.id !== WATCH_ID)
      .flatMap((frame) => errorsIn(frame));
    this.takeWatchNotifications(socket);
    const answer = { ...answerOf(c.transport, socket.frames, id), ...(late.length > 0 ? { late } : {}) };
    socket.frames.splice(0);
    if (closed) return { ...answer, closed };
    if (!ended)
      return {
        ...answer,
        ...(outcome === 'running' ? { subscribed: true } : waits ? { cancelled: true } : { timedOut: true }),
      };
    return answer;
  }

  private takeWatchNotifications(socket: RawSocket): void {
    if (socket !== this.watchSocket) return;
    this.watchNotifications += socket.frames.filter((frame) => frame.id === WATCH_ID && frame.type === 'next').length;
  }

  // -------------------------------------------------------------------------------------------

  /**
   * A refused answer whose errors point into fields (a `path`) may come from a document with two
   * root fields, one of which ran: only documents that ran at most one root field are held to
   * "nothing changed".
   */
  private executedAtMostOneRootField(request: FuzzRequest, errors: GraphQLFormattedError[]): boolean {
    if (errors.every((e) => e.path === undefined)) return true;
    const document = parsed(request.query);
    if (!document) return true;
    const operation = getOperationAST(
      document,
      typeof request.operationName === 'string' ? request.operationName : undefined,
    );
    return operation ? countRootFields(operation.selectionSet, document, new Set()) <= 1 : true;
  }

  private count(c: FuzzCase, answer: Answer): void {
    const t = this.tally;
    t.cases++;
    t.byTransport[c.transport] = (t.byTransport[c.transport] ?? 0) + 1;
    for (const code of answer.codes) t.codes[String(code)] = (t.codes[String(code)] ?? 0) + 1;
    if (answer.closed) t.codes[`close ${answer.closed.code}`] = (t.codes[`close ${answer.closed.code}`] ?? 0) + 1;
    if (answer.subscribed) t.codes['subscribed'] = (t.codes['subscribed'] ?? 0) + 1;
    if (answer.cancelled) t.codes['wait cancelled'] = (t.codes['wait cancelled'] ?? 0) + 1;
    if (answer.data !== undefined && answer.data !== null && answer.errors.length === 0)
      t.codes['ok'] = (t.codes['ok'] ?? 0) + 1;
    for (const argument of c.given ?? []) t.arguments.add(argument);
  }
}

function getUrl(base: string, request: FuzzRequest): string {
  const params = new URLSearchParams({ query: request.query });
  if (request.variables !== undefined) params.set('variables', toJsonText(request.variables));
  if (request.operationName !== undefined && request.operationName !== null) {
    params.set(
      'operationName',
      typeof request.operationName === 'string' ? request.operationName : toJsonText(request.operationName),
    );
  }
  if (request.extensions !== undefined) params.set('extensions', toJsonText(request.extensions));
  return `${base}?${params.toString()}`;
}

function errorsIn(frame: Frame): GraphQLFormattedError[] {
  if (frame.type === 'error') return (frame.payload as GraphQLFormattedError[]) ?? [];
  if (frame.type === 'next') return (frame.payload as { errors?: GraphQLFormattedError[] }).errors ?? [];
  return [];
}

function answerOf(transport: string, frames: Frame[], id: string): Answer {
  const mine = frames.filter((frame) => frame.id === id);
  const errors = mine.flatMap(errorsIn);
  let data: unknown;
  for (const frame of mine) {
    if (frame.type === 'next') {
      const payload = frame.payload as { data?: unknown };
      if (payload.data !== undefined) data = payload.data;
    }
  }
  return { transport, codes: errors.map((e) => e.extensions?.code), errors, ...(data !== undefined ? { data } : {}) };
}

function parsed(query: string): DocumentNode | undefined {
  try {
    return parse(query);
  } catch {
    return undefined;
  }
}

function operationType(request: FuzzRequest): string | undefined {
  const document = parsed(request.query);
  if (!document) return undefined;
  const named =
    typeof request.operationName === 'string' && request.operationName !== '' ? request.operationName : undefined;
  const operation = getOperationAST(document, named);
  if (operation) return operation.operation;
  // Ambiguous: a subscription among the operations may start.
  return document.definitions.some(
    (d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === OperationTypeNode.SUBSCRIPTION,
  )
    ? 'subscription'
    : undefined;
}

function countRootFields(selectionSet: SelectionSetNode, document: DocumentNode, seen: Set<string>): number {
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) count++;
    else if (selection.kind === Kind.INLINE_FRAGMENT) count += countRootFields(selection.selectionSet, document, seen);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = document.definitions.find(
        (d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value,
      );
      if (fragment && fragment.kind === Kind.FRAGMENT_DEFINITION)
        count += countRootFields(fragment.selectionSet, document, seen);
    }
  }
  return count;
}

/** Resolves true once `check` holds, or false after `ms`. */
async function pollUntil(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() >= end) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return true;
}
