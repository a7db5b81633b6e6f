// What an answer to a long list of bad items must be. graphql-js reports at most 50 variable
// errors and 100 validation errors, each time adding one more error of its own; the server must
// answer that one with a documented code too, and never more errors than the caps allow.
import { Kind, parse, visit } from 'graphql';
import type { FuzzCase, FuzzRequest } from './documents';
import type { Answer } from './oracle';

const MAX_VARIABLE_ERRORS = 50;
const MAX_VALIDATION_ERRORS = 100;
/** The server's words for the error after the 50th (src/schema/format-error.ts). */
const VARIABLES_CAPPED = /^More than 50 variable values are invalid: the first 50 are reported/;
/** graphql-js's words for the error after the 100th, which the server passes on. */
const VALIDATION_CAPPED = 'Too many validation errors, error limit reached. Validation aborted.';
/** graphql-js's words (sic) for a document over the token limit. */
const OVER_TOKENS = /^Syntax Error: Document contains more tha[nt] \d+ tokens/;

/**
 * The longest list given to one of `listArguments`, as a variable's value (renderCase names each
 * variable after its argument) and as a literal; 0 where none was.
 */
export function longestLists(
  request: FuzzRequest,
  listArguments: readonly string[],
): { variable: number; literal: number } {
  let variable = 0;
  const variables = request.variables;
  if (variables && typeof variables === 'object' && !Array.isArray(variables)) {
    for (const name of listArguments) {
      const value = (variables as Record<string, unknown>)[name];
      if (Array.isArray(value)) variable = Math.max(variable, value.length);
    }
  }
  let literal = 0;
  try {
    visit(parse(request.query), {
      [Kind.ARGUMENT]: (node) => {
        if (node.value.kind === Kind.LIST && listArguments.includes(node.name.value))
          literal = Math.max(literal, node.value.values.length);
      },
    });
  } catch {
    // not a document: no literal
  }
  return { variable, literal };
}

/** Every way the answer breaks the caps; empty when it keeps them. */
export function capsKept(answer: Answer, c: FuzzCase, listArguments: readonly string[]): string[] {
  // Refused before the document was read: a mutation over GET, a subscription over HTTP.
  if (answer.closed || answer.status === 405 || answer.codes.includes('BAD_REQUEST')) return [];
  const { variable, literal } = longestLists(c.request, listArguments);
  const { errors } = answer;
  const codes = [...new Set(answer.codes.map(String))];
  const problems: string[] = [];
  const refusedBeforeRunning = answer.data === undefined || answer.data === null;
  if (answer.status !== undefined && answer.status !== 400)
    problems.push(`HTTP ${answer.status} for a request refused before it ran`);
  if (!refusedBeforeRunning) problems.push('data for a request with a list of bad items');

  // A long literal may not get as far as validation: past GRAPHQL_MAX_TOKENS, parsing stops.
  if (
    literal > 0 &&
    codes.join() === 'GRAPHQL_PARSE_FAILED' &&
    errors.length === 1 &&
    OVER_TOKENS.test(errors[0].message)
  )
    return problems;
  const validationFailed = codes.length === 1 && codes[0] === 'GRAPHQL_VALIDATION_FAILED';
  if (literal > 0 || validationFailed) {
    // A literal list of bad items fails validation; so may another argument of the case.
    if (!validationFailed) problems.push(`a literal list of ${literal} bad items: ${JSON.stringify(codes)}`);
    if (errors.length < Math.min(literal, MAX_VALIDATION_ERRORS + 1))
      problems.push(`${errors.length} errors for a literal list of ${literal} bad items`);
    if (errors.length > MAX_VALIDATION_ERRORS + 1) problems.push(`${errors.length} validation errors`);
    if (errors.length > MAX_VALIDATION_ERRORS !== (errors.at(-1)?.message === VALIDATION_CAPPED))
      problems.push(`${errors.length} validation errors, the last: ${errors.at(-1)?.message}`);
    return problems;
  }
  if (codes.length !== 1 || codes[0] !== 'BAD_USER_INPUT')
    problems.push(`a variable list of ${variable} bad items: ${JSON.stringify(codes)}`);
  if (errors.length < Math.min(variable, MAX_VARIABLE_ERRORS + 1))
    problems.push(`${errors.length} errors for a variable list of ${variable} bad items`);
  if (errors.length > MAX_VARIABLE_ERRORS + 1) problems.push(`${errors.length} variable errors`);
  // The 51st error, and only it, says that the rest were not reported.
  if (errors.length > MAX_VARIABLE_ERRORS !== VARIABLES_CAPPED.test(errors.at(-1)?.message ?? ''))
    problems.push(`${errors.length} variable errors, the last: ${errors.at(-1)?.message}`);
  return problems;
}
