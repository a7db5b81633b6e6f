// The soak's GraphQL client: posts to whichever API process is up, times every call into the soak's
// phase, and sorts each failure into refused (nothing changed) or unknown (the answer was lost: it
// may have happened; only a call with an idempotency key is sent again). docs/development.md#soak.
import { performance } from 'node:perf_hooks';
import { percentile } from '../harness/support';
import { round } from './memory';

export type Outcome<T> =
  { kind: 'ok'; data: T } | { kind: 'refused'; code: string; message: string } | { kind: 'unknown'; reason: string };

/** Codes that say the call was refused before it changed anything. */
const REFUSALS = new Set([
  'BAD_USER_INPUT',
  'CONFLICT',
  'NOT_FOUND',
  'FORBIDDEN',
  'UNAUTHENTICATED',
  'RATE_LIMITED',
  'GRAPHQL_VALIDATION_FAILED',
]);
/** Node's codes for a connection that never carried the request. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EADDRNOTAVAIL']);
/** Refusals that a later send may get past: no process up, a connection never made, a rate limit. */
export const PASSING = new Set([...NEVER_SENT, 'NO_PROCESS', 'RATE_LIMITED']);

const REQUEST_TIMEOUT_MS = 15_000;

export type PhaseSummary = ReturnType<ApiPool['summary']>[number];
/** A phase of the soak: the latency of each call begun in it, and how many calls came out which way. */
type Phase = { name: string; startedAt: number; ms: number[] } & Record<Outcome<0>['kind'], number>;

export class ApiPool {
  /** Per process slot, its origin while it is up, undefined while it is down. */
  readonly origins: (string | undefined)[] = [];
  private next = 0;
  /** Codes of unexpected answers (INTERNAL_SERVER_ERROR, 5xx), counted for the report. */
  readonly unexpected = new Map<string, number>();
  private readonly phases: Phase[] = [];
  calls = 0;

  constructor() {
    this.begin('setup');
  }

  /** The calls from now on are timed into phase `name`. */
  begin(name: string): void {
    this.phases.push({ name, startedAt: Date.now(), ms: [], ok: 0, refused: 0, unknown: 0 });
  }

  get phase(): Phase {
    return this.phases.at(-1)!;
  }

  summary() {
    return this.phases.map(({ name, startedAt, ms, ok, refused, unknown }, i) => {
      const sorted = Array.from(Float64Array.from(ms).sort());
      // A phase ends where the next begins.
      const seconds = ((this.phases[i + 1]?.startedAt ?? Date.now()) - startedAt) / 1000;
      const [calls, perSecond] = [sorted.length, seconds > 0 ? Math.round(sorted.length / seconds) : 0];
      const [p50, p90, p99, max] = [50, 90, 99, 100].map((p) => (calls ? round(percentile(sorted, p)) : 0));
      // The report's table shows these in this order, all but `ok`.
      return { name, seconds: round(seconds), calls, perSecond, ok, refused, unknown, p50, p90, p99, max };
    });
  }

  /** Round robin over the processes that are up. */
  pick(): string | undefined {
    for (let i = 0; i < this.origins.length; i++) {
      const origin = this.origins[(this.next++ >>> 0) % this.origins.length];
      if (origin) return origin;
    }
    return undefined;
  }

  /** Sends `query`; the answer is its first field's (the one after the first `{`). */
  async call<T>(token: string, query: string, variables: Record<string, unknown> = {}): Promise<Outcome<T>> {
    const origin = this.pick();
    if (!origin) return { kind: 'refused', code: 'NO_PROCESS', message: 'no API process is up' };
    const started = performance.now();
    const outcome = await post<T>(origin, token, query, variables);
    const phase = this.phases.at(-1)!;
    phase.ms.push(performance.now() - started);
    phase[outcome.kind]++;
    this.calls++;
    const code = outcome.kind === 'refused' ? outcome.code : outcome.kind === 'unknown' ? outcome.reason : '';
    if (code === 'INTERNAL_SERVER_ERROR' || /^HTTP 5/.test(code))
      this.unexpected.set(code, (this.unexpected.get(code) ?? 0) + 1);
    return outcome;
  }
}

async function post<T>(origin: string, token: string, query: string, variables: object): Promise<Outcome<T>> {
  let response: Response;
  try {
    response = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const code = errorCode(error);
    if (NEVER_SENT.has(code)) return { kind: 'refused', code, message: 'connection refused' };
    return { kind: 'unknown', reason: code };
  }
  let body: { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: { code?: string } }[] };
  try {
    body = (await response.json()) as typeof body;
  } catch (error) {
    return { kind: 'unknown', reason: response.status >= 500 ? `HTTP ${response.status}` : errorCode(error) };
  }
  const error = body.errors?.[0];
  if (error) {
    const code = error.extensions?.code ?? `HTTP ${response.status}`;
    if (REFUSALS.has(code)) return { kind: 'refused', code, message: error.message };
    return { kind: 'unknown', reason: code };
  }
  const field = /\{\s*(\w+)/.exec(query)![1];
  if (!body.data || !(field in body.data)) return { kind: 'unknown', reason: `HTTP ${response.status} without data` };
  return { kind: 'ok', data: body.data[field] as T };
}

function errorCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if ((current as Error).name === 'TimeoutError') return 'TIMEOUT';
    current = (current as { cause?: unknown }).cause;
  }
  return (error as Error)?.name ?? 'ERROR';
}
