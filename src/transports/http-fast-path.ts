// The hot path: a JSON POST to /graphql without an Origin (apps, backends) goes from node:http
// straight into Apollo; everything else goes through the express app (http.ts), which costs about
// as much CPU again (docs/performance.md). Both answer alike: the same request gate, body limit,
// error bodies, security headers and request log line.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import type { RequestHandler } from 'express';
import { logRequest, NO_STORE, REQUEST_ID, type RequestReport } from './http';
import type { Logger } from '../common/logger';
import { errorBody, type RequestGate } from '../security/request-gate';
import { APOLLO_JSON, type RegisteredExecution } from './http-registered';
import type { HttpMetrics } from '../metrics/http';

export interface FastPathOptions<Context extends BaseContext> {
  logger: Logger;
  gate: RequestGate;
  bodyLimitBytes: number;
  /** helmet's middleware: its headers are read once and set on every answer. */
  securityHeaders: RequestHandler;
  apollo: ApolloServer<Context>;
  context: (res: ServerResponse) => Promise<Context>;
  /** Answers valid documents, registered or text, without Apollo's per-request pipeline (http-registered.ts). */
  registered?: RegisteredExecution;
  /** Counts and times every request; unset with METRICS=off. */
  metrics?: HttpMetrics | undefined;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Wraps `fallback` (the express app) with the fast path for the requests it can serve. */
export function withGraphqlFastPath<Context extends BaseContext>(
  fallback: Handler,
  options: FastPathOptions<Context>,
): Handler {
  const shared = [...captureHeaders(options.securityHeaders), NO_STORE];
  const headers: AnswerHeaders = {
    set(res, report) {
      for (const [name, value] of shared) res.setHeader(name, value);
      res.setHeader('x-request-id', report.requestId);
    },
    // One writeHead with every header (answers in one piece), when none was set before: Node then
    // writes them as they are, instead of storing and checking each of a dozen setHeader calls.
    flat: shared.flat(),
    overlaps: (answer) => shared.some(([name]) => answer.has(name)),
  };
  return (req, res) => {
    if (!servedHere(req, options.bodyLimitBytes)) return fallback(req, res);
    const incoming = req.headers['x-request-id'];
    const report: RequestReport = {
      requestId: typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID(),
      principal: null,
    };
    // reportOf(res) reads res.locals.report, as on the express path.
    (res as ServerResponse & { locals: unknown }).locals = { report };
    logRequest(options.logger, req, res, report, options.metrics);
    serve(req, res, report, options, headers).catch((error: unknown) => {
      // The client hung up mid-body: as raw-body's 'request aborted', not a server error.
      if (req.destroyed && !req.complete) return void res.destroy();
      options.logger.error({ err: error }, 'unexpected HTTP error');
      if (res.headersSent) return void res.destroy();
      headers.set(res, report);
      refuse(res, report, 500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
    });
  };
}

/** The headers of every answer here (helmet's, no-store and the request id), set one of two ways. */
interface AnswerHeaders {
  set(res: ServerResponse, report: RequestReport): void;
  /** Name, value, name, value... for writeHead. */
  flat: string[];
  /** Whether the answer has a header of these (a raw list would then send it twice). */
  overlaps(answer: Map<string, string>): boolean;
}

/**
 * The request headers Apollo reads: the body's type and the answer's, and its CSRF check's two.
 * Copying all of a request's headers into its HeaderMap cost more than these lookups.
 */
const APOLLO_READS = ['content-type', 'accept', 'apollo-require-preflight', 'x-apollo-operation-name'] as const;

const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

function servedHere(req: IncomingMessage, limit: number): boolean {
  const { headers } = req;
  if (req.method !== 'POST' || headers.origin !== undefined || headers['transfer-encoding'] !== undefined) return false;
  if (headers['content-encoding'] !== undefined && headers['content-encoding'] !== 'identity') return false;
  const length = Number(headers['content-length']);
  if (!(length > 0 && length <= limit)) return false;
  if (!JSON_TYPE.test(headers['content-type'] ?? '')) return false;
  const url = req.url ?? '';
  return url === '/graphql' || url.startsWith('/graphql?');
}

async function serve<Context extends BaseContext>(
  req: IncomingMessage,
  res: ServerResponse,
  report: RequestReport,
  options: FastPathOptions<Context>,
  headers: AnswerHeaders,
): Promise<void> {
  const { principal, refusal, error } = await options.gate.admit(req.headers.authorization, req.socket.remoteAddress);
  report.principal = principal;
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- the store's own error, passed on as it came
  if (error !== undefined) throw error;
  if (refusal) {
    headers.set(res, report);
    for (const [name, value] of Object.entries(refusal.headers)) res.setHeader(name, value);
    return refuse(res, report, refusal.status, refusal.code, refusal.message, refusal.details);
  }

  const text = await readBody(req, Number(req.headers['content-length']));
  let body: unknown;
  try {
    // iconv-lite (express.json) drops a leading BOM.
    body = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    body = undefined;
  }
  // As express.json's strict mode: only an object or an array is a JSON body.
  if (body === null || typeof body !== 'object') {
    headers.set(res, report);
    return refuse(res, report, 400, 'BAD_REQUEST', 'Request body is not valid JSON');
  }

  if (options.registered && !Array.isArray(body)) {
    const accept = req.headers.accept;
    const answer = await options.registered(body as Record<string, unknown>, accept, report, () =>
      options.context(res),
    );
    if (answer) {
      answer.headers.set('content-type', APOLLO_JSON);
      return sendWhole(res, report, headers, answer.status, answer.headers, answer.body);
    }
  }

  const requestHeaders = new HeaderMap();
  for (const name of APOLLO_READS) {
    const value = req.headers[name];
    if (value !== undefined) requestHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const url = req.url ?? '';
  const answer = await options.apollo.executeHTTPGraphQLRequest({
    httpGraphQLRequest: {
      method: 'POST',
      headers: requestHeaders,
      search: url.includes('?') ? url.slice(url.indexOf('?')) : '',
      body,
    },
    context: () => options.context(res),
  });
  if (answer.body.kind === 'complete')
    return sendWhole(res, report, headers, answer.status ?? 200, answer.headers, answer.body.string);
  headers.set(res, report);
  for (const [name, value] of answer.headers) res.setHeader(name, value);
  res.statusCode = answer.status ?? 200;
  for await (const chunk of answer.body.asyncIterator) res.write(chunk);
  res.end();
}

/** An answer in one piece: our headers, the answer's own (content-type among them), the body. */
function sendWhole(
  res: ServerResponse,
  report: RequestReport,
  headers: AnswerHeaders,
  status: number,
  own: Map<string, string>,
  body: string,
): void {
  if (headers.overlaps(own)) {
    // A raw list would repeat the header: set one by one, the answer's replacing ours.
    headers.set(res, report);
    for (const [name, value] of own) res.setHeader(name, value);
    res.statusCode = status;
    res.setHeader('content-length', Buffer.byteLength(body));
  } else {
    const length = String(Buffer.byteLength(body));
    res.writeHead(status, [
      ...headers.flat,
      'x-request-id',
      report.requestId,
      ...[...own].flat(),
      'content-length',
      length,
    ]);
  }
  res.end(body);
}

/** The body, which the caller announced as `length` bytes (at most the limit). */
function readBody(req: IncomingMessage, length: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > length) {
        req.destroy();
        reject(new Error('request body longer than its content-length'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks, received).toString('utf8')));
    req.on('error', reject);
  });
}

/** The same JSON error answer as http.ts's sendError. */
function refuse(
  res: ServerResponse,
  report: RequestReport,
  status: number,
  code: string,
  message: string,
  details: Record<string, unknown> = {},
): void {
  report.errorCodes = [code];
  const body = JSON.stringify(errorBody(code, message, details));
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(body);
}

/** The headers helmet sets, read by running it once against a recording response. */
function captureHeaders(middleware: RequestHandler): [string, string][] {
  const captured = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: unknown) => captured.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => captured.delete(name.toLowerCase()),
    getHeader: (name: string) => captured.get(name.toLowerCase()),
  };
  let done = false;
  middleware({ headers: {}, method: 'POST', url: '/graphql' } as never, recorder as never, () => {
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously');
  return [...captured.entries()];
}
