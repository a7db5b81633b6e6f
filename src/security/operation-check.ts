// Whether a parsed GraphQL document may run, decided in one place for HTTP and WebSocket alike:
// graphql-js's rules (the subscription root rule in place of its own), no introspection where it
// is off, and the document limits; then which operation of the document runs. Apollo's own
// validation is off (server.ts), because Apollo always runs graphql-js's rule list first and
// one of its rules throws out of validate() (see subscription-root-rule.ts).
import {
  HeaderMap,
  type ApolloServerPlugin,
  type BaseContext,
  type GraphQLRequestListener,
  type GraphQLResponse,
} from '@apollo/server';
import {
  getOperationAST,
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  OperationTypeNode,
  SingleFieldSubscriptionsRule,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
} from 'graphql';
import type { ErrorFormatter } from '../schema/format-error';
import type { DocumentGuard } from './document-limits';
import { SubscriptionRootRule } from './subscription-root-rule';

export interface OperationCheck {
  /** What is wrong with a document (nothing when it may run), each error with its code; remembered per document. */
  validate(document: DocumentNode): readonly GraphQLError[];
  /** The operation `name` selects, or the error Apollo answers over HTTP when none does. */
  operation(document: DocumentNode, name: string | null | undefined): OperationDefinitionNode | GraphQLError;
}

export function createOperationCheck(options: {
  schema: GraphQLSchema;
  introspection: boolean;
  documents: DocumentGuard;
}): OperationCheck {
  const rules: ValidationRule[] = [
    ...specifiedRules.map((rule) => (rule === SingleFieldSubscriptionsRule ? SubscriptionRootRule : rule)),
    ...(options.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
    ...options.documents.rules,
  ];
  // Documents are shared: Apollo keeps one parsed copy per text, the WebSocket server too.
  const checked = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  return {
    validate(document) {
      let errors = checked.get(document);
      if (!errors) {
        errors = validate(options.schema, document, rules).map(
          (error) =>
            new GraphQLError(error.message, {
              nodes: error.nodes,
              source: error.source,
              positions: error.positions,
              originalError: error.originalError,
              extensions: { ...error.extensions, code: 'GRAPHQL_VALIDATION_FAILED' },
            }),
        );
        checked.set(document, errors);
      }
      return errors;
    },
    operation(document, name) {
      const operation = getOperationAST(document, name);
      if (operation) return operation;
      // graphql-js's words for it, which Apollo passes on over HTTP.
      const operations = document.definitions.filter(
        (definition) => definition.kind === Kind.OPERATION_DEFINITION,
      ).length;
      const message =
        name !== null && name !== undefined
          ? `Unknown operation named "${name}".`
          : operations > 1
            ? 'Must provide operation name if query contains multiple operations.'
            : 'Must provide an operation.';
      return new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } });
    },
  };
}

/**
 * Apollo's side: runs the check where Apollo would have validated, answering 400 with every
 * error (Apollo's own answer to an invalid document), and refuses subscriptions, which Apollo
 * would run like a query without an event to deliver.
 */
export function operationCheckPlugin<Context extends BaseContext>(
  check: OperationCheck,
  formatError: ErrorFormatter,
): ApolloServerPlugin<Context> {
  const refuse = (errors: readonly GraphQLError[]): GraphQLResponse => ({
    http: { status: 400, headers: new HeaderMap() },
    body: { kind: 'single', singleResult: { errors: errors.map((error) => formatError(error.toJSON(), error)) } },
  });
  // One listener for every request: it keeps nothing of its own, so none is made per request.
  const listener: GraphQLRequestListener<Context> = {
    responseForOperation({ document, operation }) {
      const errors = check.validate(document);
      if (errors.length > 0) return Promise.resolve(refuse(errors));
      if (operation?.operation === OperationTypeNode.SUBSCRIPTION) {
        return Promise.resolve(
          refuse([
            new GraphQLError('Subscriptions are served over WebSocket (graphql-ws) at /graphql', {
              extensions: { code: 'BAD_REQUEST' },
            }),
          ]),
        );
      }
      return Promise.resolve(null);
    },
  };
  return { requestDidStart: () => Promise.resolve(listener) };
}
