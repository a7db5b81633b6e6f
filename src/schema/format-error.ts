// Every error a client sees has `extensions.code`. Known errors keep their message; anything
// unexpected is logged with its stack and, in production, shown only as "Internal server error".
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError, storeUnavailable } from '../common/errors';
import type { Logger } from '../common/logger';
import { isStoreUnavailable } from '../redis/client/store-errors';

export type ErrorFormatter = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

/**
 * Most variable errors reported for one request: graphql-js stops coercing there and adds an error
 * of its own. Every execution passes it (`maxCoercionErrors`), so the message below stays true.
 */
export const MAX_VARIABLE_ERRORS = 50;

/** What graphql-js says in that last error, which has no code and no location. */
const VARIABLE_ERRORS_CAPPED = /^Too many errors processing variables, error limit reached\b/;

// graphql-js suggests field, argument and enum names in its errors; a client probing the schema
// with introspection off learns it from them.
const SUGGESTION = / ?Did you mean .+\?$/;

const withoutSuggestion = (message: string): string => message.replace(SUGGESTION, '');

export function createErrorFormatter(options: {
  isProduction: boolean;
  logger: Logger;
  fieldSuggestions?: boolean;
}): ErrorFormatter {
  const format = createFormatter(options);
  if (options.fieldSuggestions !== false) return format;
  return (formatted, error) => {
    const result = format(formatted, error);
    return { ...result, message: withoutSuggestion(result.message) };
  };
}

function createFormatter(options: { isProduction: boolean; logger: Logger }): ErrorFormatter {
  return (formatted, error) => {
    const original = unwrapResolverError(error);
    const where = { locations: formatted.locations, path: formatted.path };

    if (isVariableErrorCap(error)) {
      // The request is wrong, not the server: the errors before this one are the first of its variables'.
      return {
        message: `More than ${MAX_VARIABLE_ERRORS} variable values are invalid: the first ${MAX_VARIABLE_ERRORS} are reported, the rest were not checked`,
        extensions: { code: 'BAD_USER_INPUT' },
      };
    }

    const known =
      original instanceof AppError ? original : isStoreUnavailable(original) ? storeUnavailable() : undefined;
    if (known) {
      if (known.code === 'STORE_UNAVAILABLE') options.logger.warn({ err: errorMessage(original) }, 'store unavailable');
      return { message: known.message, ...where, extensions: { code: known.code, ...known.details } };
    }

    const code = formatted.extensions?.code;
    if (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR') {
      // Apollo's own codes (parse, validation, bad variables) and type-graphql's.
      return {
        message: formatted.message,
        ...where,
        extensions: { ...formatted.extensions, code, stacktrace: undefined },
      };
    }
    if (isArgumentError(error)) {
      // graphql-js checks some arguments only while executing, e.g. an explicit null variable for
      // a non-null argument that has a default: the request is wrong, not the server.
      return { message: formatted.message, ...where, extensions: { code: 'BAD_USER_INPUT' } };
    }
    if (error instanceof GraphQLError && error.path === undefined && code === undefined && isAboutTheRequest(error)) {
      // An error outside any resolver is about the request itself: graphql-js reports bad variables
      // this way when Apollo is not in the path (WebSocket).
      return { message: formatted.message, ...where, extensions: { code: 'BAD_USER_INPUT' } };
    }

    options.logger.error({ err: original }, 'unexpected error');
    return {
      message: options.isProduction ? 'Internal server error' : formatted.message,
      ...where,
      extensions: options.isProduction
        ? { code: 'INTERNAL_SERVER_ERROR' }
        : { code: 'INTERNAL_SERVER_ERROR', stacktrace: formatted.extensions?.stacktrace },
    };
  };
}

/** graphql-js's own error after MAX_VARIABLE_ERRORS (getVariableValues): raised by it, not wrapping another. */
function isVariableErrorCap(error: unknown): boolean {
  return (
    error instanceof GraphQLError &&
    error.extensions.code === undefined &&
    error.path === undefined &&
    error.nodes === undefined &&
    (error.originalError === undefined || error.originalError === null) &&
    VARIABLE_ERRORS_CAPPED.test(error.message)
  );
}

const ARGUMENT_ERROR = /^Argument "[^"]+" (of required type|of non-null type|has invalid value)/;

function isArgumentError(error: unknown): boolean {
  const raw = error instanceof GraphQLError ? (error.originalError ?? error) : undefined;
  return raw instanceof GraphQLError && ARGUMENT_ERROR.test(raw.message);
}

/** No underlying exception, or one from coercing a variable: not an internal error in disguise. */
function isAboutTheRequest(error: GraphQLError): boolean {
  return error.originalError === undefined || error.originalError === null || /^Variable "\$/.test(error.message);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
