// Limits on the GraphQL document itself (graphql-armor): tokens, depth, aliases, directives and
// cost. The same rules guard both transports: Apollo takes them as validation rules and a plugin,
// the WebSocket server runs them itself, because graphql-ws works outside Apollo's pipeline.
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { MaxTokensParserWLexer } from '@escape.tech/graphql-armor-max-tokens';
import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type DocumentNode, type ValidationRule } from 'graphql';

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
  /** Parses a document, failing with GRAPHQL_PARSE_FAILED beyond the token limit (WebSocket). */
  parse(source: string): DocumentNode;
  /** The token limit for Apollo, which parses documents itself. */
  apolloPlugin: ApolloServerPlugin;
}

export function documentGuard(limits: DocumentLimits): DocumentGuard {
  // Limits are stated in the messages: they are configuration, not secrets, and a client that
  // hits one needs to know which. Introspection (Sandbox's schema query is deep) is exempt from
  // depth and cost; it is switched off as a whole where it must not be used.
  const shared = { exposeLimits: true, propagateOnRejection: true };
  const rules: ValidationRule[] = [
    maxDepthRule({ ...shared, n: limits.maxDepth, ignoreIntrospection: true }) as unknown as ValidationRule,
    maxAliasesRule({ ...shared, n: limits.maxAliases }) as unknown as ValidationRule,
    maxDirectivesRule({ ...shared, n: limits.maxDirectives }) as unknown as ValidationRule,
    costLimitRule({ ...shared, maxCost: limits.maxCost, ignoreIntrospection: true }) as unknown as ValidationRule,
  ];
  const parse = (source: string): DocumentNode => {
    try {
      return new MaxTokensParserWLexer(source, { n: limits.maxTokens, exposeLimits: true }).parseDocument();
    } catch (error) {
      const message = error instanceof GraphQLError ? error.message : 'Syntax error';
      throw new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
    }
  };
  return {
    rules,
    parse,
    apolloPlugin: {
      async requestDidStart() {
        return {
          // Only for documents Apollo has not parsed before (it caches parsed documents).
          async parsingDidStart({ source }) {
            if (source !== undefined) parse(source);
          },
        };
      },
    },
  };
}
