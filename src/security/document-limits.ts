// Limits on the GraphQL document itself: tokens (graphql-js's own parser limit) and depth,
// aliases, directives and cost (graphql-armor's rules). The same limits guard both transports:
// Apollo takes them as parse options and validation rules; the WebSocket server, outside
// Apollo's pipeline, parses and validates with them itself.
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { GraphQLError, parse, type DocumentNode, type ValidationContext, type ValidationRule } from 'graphql';

/** graphql-armor limits on one document, over HTTP and WebSocket alike. */
export interface DocumentLimits {
  maxTokens: number;
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxCost: number;
}

export interface DocumentGuard {
  /** Checked after graphql-js's own validation rules. */
  rules: ValidationRule[];
  /** Parses a document, failing with GRAPHQL_PARSE_FAILED beyond the token limit. */
  parse(source: string): DocumentNode;
  /** For Apollo, which parses documents itself. */
  parseOptions: { maxTokens: number };
}

export function documentGuard(limits: DocumentLimits): DocumentGuard {
  // Limits are stated in the messages: they are configuration, not secrets, and a client that
  // hits one needs to know which. A refusal is reported as a validation error; left to propagate,
  // armor throws out of graphql-js's validate(), which both servers would answer as a crash.
  // Introspection (Sandbox's schema query is deep) is exempt from depth and cost; it is switched
  // off as a whole where it must not be used.
  const shared = {
    exposeLimits: true,
    propagateOnRejection: false,
    onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
  };
  const rules = [
    maxDepthRule({ ...shared, n: limits.maxDepth, ignoreIntrospection: true }),
    maxAliasesRule({ ...shared, n: limits.maxAliases }),
    maxDirectivesRule({ ...shared, n: limits.maxDirectives }),
    costLimitRule({ ...shared, maxCost: limits.maxCost, ignoreIntrospection: true }),
  ] as unknown as ValidationRule[];
  const parseOptions = { maxTokens: limits.maxTokens };
  return {
    rules,
    parseOptions,
    parse(source: string): DocumentNode {
      try {
        return parse(source, parseOptions);
      } catch (error) {
        const message = error instanceof GraphQLError ? error.message : 'Syntax error';
        throw new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
      }
    },
  };
}
