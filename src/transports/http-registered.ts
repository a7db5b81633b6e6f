// Registered documents on the fast path, executed without Apollo's per-request pipeline. A
// registered document was parsed and validated at start (security/trusted-documents.ts), so
// what Apollo would still do per request (hash the text, look the document up, call each
// plugin's hooks, negotiate the answer's type twice, copy the context) buys nothing for it. The
// answer is Apollo's, byte for byte: the same execute call, the same error enrichment and
// formatting, the same JSON and headers, the same log line (tests/api/graphql-fast-path.test.ts
// compares it with the express path, which goes through Apollo). Whatever this does not answer
// exactly as Apollo would (another accept type, a body of an odd shape, variables that do not
// coerce, a subscription, a server that is stopping) it leaves to Apollo, before anything ran.
import { execute, GraphQLError, OperationTypeNode, getOperationAST, type GraphQLSchema } from 'graphql';
import type { GraphQLFormattedError } from 'graphql';
import type { ErrorFormatter } from '../schema/format-error';
import type { TrustedDocuments } from '../security/trusted-documents';
import type { RequestReport } from './http';

export interface RegisteredAnswer {
  status: number;
  /** Apollo's JSON, newline included. */
  body: string;
}

export interface RegisteredExecutionOptions {
  schema: GraphQLSchema;
  trusted: TrustedDocuments;
  formatError: ErrorFormatter;
  /** As Apollo's includeStacktraceInErrorResponses. */
  includeStacktrace: boolean;
  /** True once the server is stopping: Apollo decides what a request gets then. */
  isDraining: () => boolean;
}

/** Apollo's answer type for a client that names none or JSON (ApolloServer's MEDIA_TYPES). */
export const APOLLO_JSON = 'application/json; charset=utf-8';
const PLAIN_ACCEPT = new Set([undefined, '', '*/*', 'application/json']);
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
    const document = options.trusted.document(resolved.query);
    if (!document) return undefined;
    const operation = getOperationAST(document, operationName);
    if (!operation || operation.operation === OperationTypeNode.SUBSCRIPTION) return undefined;

    const contextValue = await context();
    const result = await execute({
      schema: options.schema,
      document,
      contextValue,
      variableValues: variables,
      operationName,
    });
    // No data: the request itself was refused (variables that do not coerce) before any
    // resolver ran, so Apollo can run it again and answer in its own words (400, BAD_USER_INPUT).
    if (result.data === undefined) return undefined;
    report.operation = operationName ?? operation.name?.value;
    let status = 200;
    let errors: GraphQLFormattedError[] | undefined;
    if (result.errors?.length) {
      errors = result.errors.map((error) => {
        const formatted = enrich(error, options.includeStacktrace);
        if (formatted.status !== undefined) status = formatted.status;
        try {
          return options.formatError(formatted.error, error);
        } catch (formattingError) {
          // As Apollo: the formatter's own failure, described outside production only.
          if (options.includeStacktrace) return enrich(ensureGraphQLError(formattingError), true).error;
          return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
        }
      });
      report.errorCodes = errors.map((e) => String(e.extensions?.code ?? 'UNKNOWN'));
    }
    return { status, body: `${JSON.stringify({ errors, data: result.data, extensions: result.extensions })}\n` };
  };
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

/** Apollo's enrichment before formatError (errorNormalize.ts): a code, the status, the stack. */
function enrich(error: GraphQLError, includeStacktrace: boolean): { error: GraphQLFormattedError; status?: number } {
  const extensions: Record<string, unknown> = {
    ...error.extensions,
    code: error.extensions.code ?? 'INTERNAL_SERVER_ERROR',
  };
  let status: number | undefined;
  const http = extensions.http as { status?: unknown } | undefined;
  if (http !== undefined && typeof http === 'object' && http !== null) {
    if (typeof http.status === 'number') status = http.status;
    delete extensions.http;
  }
  if (includeStacktrace) extensions.stacktrace = error.stack?.split('\n');
  return { error: { ...error.toJSON(), extensions }, status };
}
