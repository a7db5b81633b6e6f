// What the fuzzer accepts as an answer: the error codes a client may see (each with where it is
// documented and why it can occur in a fuzzed run), the HTTP statuses and the WebSocket close
// codes. Anything else is a finding.
import type { GraphQLFormattedError } from 'graphql';

/**
 * Codes a fuzzed request may get. docs/api.md and docs/security.md and
 * src/common/errors.ts name the product's own; Apollo Server adds its request-level ones.
 */
const DOCUMENTED_CODES: Record<string, string> = {
  BAD_USER_INPUT:
    "docs/api.md, src/common/errors.ts: an argument out of range or badly formed; also Apollo's and graphql-ws's code for a variable of the wrong type",
  UNAUTHENTICATED:
    'docs/security.md: every field but __typename and introspection needs a token; the anonymous caller gets it',
  FORBIDDEN: 'docs/security.md: a role the token does not hold (a user calling a service-only field)',
  NOT_FOUND: 'docs: a chat, listing or task that does not exist for this caller',
  CONFLICT: 'docs: a full mailbox, a taken item id, a reused idempotency key, WS_MAX_OPERATIONS',
  GRAPHQL_PARSE_FAILED:
    'Apollo, docs/security.md, documents: a document that does not parse, or over GRAPHQL_MAX_TOKENS',
  GRAPHQL_VALIDATION_FAILED:
    'Apollo, docs/security.md, documents: a document that does not validate, or over depth, alias, directive or cost limits',
  BAD_REQUEST:
    'Apollo, docs/security.md and its trusted documents: a subscription over HTTP, a mutation over GET, variables or extensions of the wrong shape, a text beside a persistedQuery hash that is not its own',
  OPERATION_RESOLUTION_FAILURE:
    'Apollo: an operationName the document does not hold, or several operations and no name',
  PERSISTED_QUERY_NOT_FOUND:
    'docs/security.md, trusted documents, as Apollo answers it: extensions.persistedQuery names a hash the manifest does not hold (no fuzz case sends a hash alone yet)',
  PAYLOAD_TOO_LARGE: 'docs/security.md, sizes: an HTTP body over BODY_LIMIT_BYTES (413)',
};

/**
 * Documented, yet a finding here: the fuzzed server's Redis is up for the whole run and its rate
 * limits are in the millions, so these would hide a failure rather than describe the request.
 */
const CODES_THAT_MUST_NOT_OCCUR: Record<string, string> = {
  INTERNAL_SERVER_ERROR: "the server failed: never an answer to a client's input",
  STORE_UNAVAILABLE: 'Redis is reachable throughout; a Redis error reported as unavailability is a bug',
  RATE_LIMITED: 'the fuzzed server allows 10,000,000 requests a minute',
  PERSISTED_QUERY_NOT_IN_LIST: 'the fuzzed server runs with TRUSTED_DOCUMENTS=allow, where any document may run',
};

/** HTTP statuses a fuzzed request may get, and when. */
const EXPECTED_STATUSES: Record<number, string> = {
  200: 'executed, with or without errors',
  400: 'refused before execution: parse, validation, variables, operation name, request shape',
  405: 'a mutation over GET (Apollo)',
  413: 'a body over BODY_LIMIT_BYTES',
};

/** WebSocket close codes that mean the server failed (graphql-ws's InternalServerError, and 1011). */
const FAILURE_CLOSES = [4500, 1011];

export interface Answer {
  transport: string;
  /** HTTP only. */
  status?: number;
  /** extensions.code of each error, in order. */
  codes: unknown[];
  errors: GraphQLFormattedError[];
  /** The data of the answer (the last `next` over WebSocket); undefined when there was none. */
  data?: unknown;
  /** WebSocket: how the socket closed, when it closed instead of answering. */
  closed?: { code: number; reason: string };
  /** WebSocket: the close this case must get (an oversized frame 1009, no token 4403). */
  expectedClose?: number;
  /** A wait for a lock or semaphore that the fuzzer cancelled at its deadline (allowed). */
  cancelled?: boolean;
  /** A subscription that started; the fuzzer completed it. */
  subscribed?: boolean;
  /** No answer in time. */
  timedOut?: boolean;
  /** Errors that arrived on the socket for an earlier operation (a subscription completed before it was refused): codes checked alike. */
  late?: GraphQLFormattedError[];
}

const shown = (error: GraphQLFormattedError): string => JSON.stringify(error).slice(0, 400);

/** Everything wrong with one answer, by the rules above; empty when it is fine. */
export function problemsOf(answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status !== undefined) {
    if (answer.status >= 500) problems.push(`HTTP ${answer.status}`);
    else if (!(answer.status in EXPECTED_STATUSES))
      problems.push(`HTTP ${answer.status}, not one of ${Object.keys(EXPECTED_STATUSES).join(', ')}`);
    if (answer.status === 200 && answer.data === undefined && answer.errors.length === 0)
      problems.push('HTTP 200 with neither data nor errors');
  }
  for (const error of [...answer.errors, ...(answer.late ?? [])]) {
    const code = error.extensions?.code;
    if (typeof code !== 'string') problems.push(`an error without extensions.code: ${shown(error)}`);
    else if (code in CODES_THAT_MUST_NOT_OCCUR)
      problems.push(`${code} (${CODES_THAT_MUST_NOT_OCCUR[code]}): ${shown(error)}`);
    else if (!(code in DOCUMENTED_CODES)) problems.push(`undocumented code ${code}: ${shown(error)}`);
  }
  if (answer.closed) {
    const { code, reason } = answer.closed;
    if (FAILURE_CLOSES.includes(code)) problems.push(`the socket closed with ${code} (${reason})`);
    else if (code !== answer.expectedClose)
      problems.push(
        `the socket closed with ${code} (${reason}); expected ${answer.expectedClose ?? 'it to stay open'}`,
      );
  } else if (answer.expectedClose !== undefined) {
    problems.push(`the socket stayed open; expected a close with ${answer.expectedClose}`);
  }
  if (answer.timedOut) problems.push('no answer in time');
  return problems;
}

/** Nothing was executed, or what was executed was refused: the call must have changed nothing. */
export function isRefused(answer: Answer): boolean {
  if (answer.subscribed || answer.cancelled || answer.timedOut) return false;
  if (answer.closed) return true;
  return (answer.data === undefined || answer.data === null) && answer.errors.length > 0;
}
