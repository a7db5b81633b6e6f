// Documents on the fast path executed without Apollo's per-request pipeline: registered ones,
// parsed and validated at start (security/trusted-documents.ts), and text documents, parsed and
// validated the first time their text comes and kept by it (security/document-cache.ts, shared
// with the WebSocket server). For either, what Apollo would still do per request (hash the text,
// look the document up, call each plugin's hooks, negotiate the answer's type twice, copy the
// context) buys nothing. The answer is Apollo's, byte for byte: the same execute call, the same
// error enrichment and formatting, the same JSON and headers, the same log line and metrics
// (tests/api/graphql-fast-path*.test.ts compare it with the express path, which goes through
// Apollo). Whatever this does not answer exactly as Apollo would (another accept type, a body of
// an odd shape, a refused or invalid document, an operation name the document does not hold,
// variables that do not coerce, a subscription, a server that is stopping) it leaves to Apollo,
// before anything ran.
import { execute, GraphQLError, OperationTypeNode, getOperationAST, type GraphQLSchema } from 'graphql';
import type { GraphQLFormattedError } from 'graphql';
import { MAX_VARIABLE_ERRORS, type ErrorFormatter } from '../schema/format-error';
import type { DocumentCache } from '../security/document-cache';
import type { TrustedDocuments } from '../security/trusted-documents';
import { reportErrors, type RequestReport } from './http';

interface RegisteredAnswer {
  status: number;
  /** Set by errors through `extensions.http`, as Apollo lets them. */
  headers: Map<string, string>;
  /** Apollo's JSON, newline included. */
  body: string;
}

export interface RegisteredExecutionOptions {
  schema: GraphQLSchema;
  trusted: TrustedDocuments;
  /** Valid text documents by text; unset: only registered documents are run here. */
  texts?: DocumentCache | undefined;
  formatError: ErrorFormatter;
  /** As Apollo's includeStacktraceInErrorResponses. */
  includeStacktrace: boolean;
  /** True once the server is stopping: Apollo decides what a request gets then. */
  isDraining: () => boolean;
}

/** Apollo's answer type for a client that names none or JSON (ApolloServer's MEDIA_TYPES). */
export const APOLLO_JSON = 'application/json; charset=utf-8';
// Accept values for which Apollo's negotiation picks that type (axios sends the last one).
const PLAIN_ACCEPT = new Set([undefined, '', '*/*', 'application/json', 'application/json, text/plain, */*']);
const BODY_FIELDS = new Set(['query', 'variables', 'operationName', 'extensions']);

export type RegisteredExecution = (
  body: Record<string, unknown>,
  accept: string | undefined,
  report: RequestReport,
  context: () => Promise<object>,
) => Promise<RegisteredAnswer | undefined>;

export function registeredExecution(options: RegisteredExecutionOptions): RegisteredExecution {
  return async (body, accept, report, context) => {
    if (!PLAIN_ACCEPT.has(accept) || options.isDraining() || !plainRequest(body)) return undefined;
    const operationName = body.operationName as string | null | undefined;
    const variables = (body.variables ?? undefined) as Record<string, unknown> | undefined;
    const resolved = options.trusted.resolve(body.query, body.extensions, report.principal);
    if ('error' in resolved) return undefined;
    const { query } = resolved;
    let document = options.trusted.document(query);
    const registered = document !== undefined;
    if (!document) {
      // Not a string, or empty: Apollo's own 400, in its words.
      if (!options.texts || typeof query !== 'string' || query === '') return undefined;
      const valid = options.texts.valid(query);
      if (!('kind' in valid)) return undefined;
      document = valid;
    }
    const operation = getOperationAST(document, operationName);
    if (!operation || operation.operation === OperationTypeNode.SUBSCRIPTION) return undefined;

    let contextValue: object;
    try {
      contextValue = await context();
    } catch {
      return undefined; // nothing ran: Apollo makes it again and answers a failure in its words
    }
    const result = await execute({
      schema: options.schema,
      document,
      contextValue,
      variableValues: variables,
      operationName,
      options: { maxCoercionErrors: MAX_VARIABLE_ERRORS },
    });
    // No data: the request itself was refused (variables that do not coerce) before any
    // resolver ran, so Apollo can run it again and answer in its own words (400, BAD_USER_INPUT).
    if (result.data === undefined) return undefined;
    // As reportPlugin (server.ts): the metrics name the operation of a registered document only.
    report.operation = operationName ?? operation.name?.value;
    report.registered = registered;
    const head: Head = { status: undefined, headers: new Map() };
    const errors = result.errors?.length ? formatErrors(result.errors, head, options) : undefined;
    if (errors) reportErrors(report, errors);
    try {
      const body = `${JSON.stringify({ errors, data: result.data, extensions: result.extensions })}\n`;
      return { status: head.status ?? 200, headers: head.headers, body };
    } catch (error) {
      // As Apollo's answer to a result it cannot write (errorResponse): the failure alone, 500.
      const failed: Head = { status: undefined, headers: new Map() };
      const failure = formatErrors([ensureGraphQLError(error)], failed, options);
      return {
        status: failed.status ?? 500,
        headers: failed.headers,
        body: `${JSON.stringify({ errors: failure })}\n`,
      };
    }
  };
}

/** The status and headers errors may set through `extensions.http`, as Apollo merges them. */
interface Head {
  status: number | undefined;
  headers: Map<string, string>;
}

/** Apollo's normalizeAndFormatErrors (errorNormalize.ts): enrich each error, then formatError. */
function formatErrors(
  errors: readonly GraphQLError[],
  head: Head,
  options: RegisteredExecutionOptions,
): GraphQLFormattedError[] {
  return errors.map((error) => {
    try {
      return options.formatError(enrich(error, options.includeStacktrace, head), error);
    } catch (formattingError) {
      // The formatter's own failure, described outside production only.
      if (options.includeStacktrace) return enrich(ensureGraphQLError(formattingError), true, head);
      return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    }
  });
}

/** A code, the status and headers of a well-formed `extensions.http` (taken out), the stack. */
function enrich(error: GraphQLError, includeStacktrace: boolean, head: Head): GraphQLFormattedError {
  const extensions: Record<string, unknown> = {
    ...error.extensions,
    code: error.extensions.code ?? 'INTERNAL_SERVER_ERROR',
  };
  const http = extensions.http as { status?: unknown; headers?: unknown } | undefined | null;
  const wellFormed =
    !!http &&
    (http.status === undefined || typeof http.status === 'number') &&
    (http.headers === undefined || http.headers instanceof Map);
  if (wellFormed) {
    if (http.status) head.status = http.status as number;
    for (const [name, value] of (http.headers as Map<string, string> | undefined) ?? [])
      head.headers.set(name.toLowerCase(), value);
    delete extensions.http;
  }
  if (includeStacktrace) extensions.stacktrace = error.stack?.split('\n');
  return { ...error.toJSON(), extensions };
}

/** A JSON body Apollo would take as one request: its fields and their types as Apollo checks them. */
function plainRequest(body: Record<string, unknown>): boolean {
  if (Array.isArray(body)) return false;
  for (const field in body) if (!BODY_FIELDS.has(field)) return false;
  const { operationName, variables, extensions } = body;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return false;
  if (variables !== undefined && variables !== null && !plainObject(variables)) return false;
  return extensions === undefined || extensions === null || plainObject(extensions);
}

const ensureGraphQLError = (value: unknown): GraphQLError =>
  value instanceof GraphQLError
    ? value
    : new GraphQLError(value instanceof Error ? value.message : `Unexpected error value: ${String(value)}`, {
        originalError: value instanceof Error ? value : undefined,
      });

const plainObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);
