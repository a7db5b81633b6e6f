// The GraphQL specification's "single root field" rule for subscriptions, as amended by
// graphql-spec#860: the root selection set of a subscription must not use @skip or @include.
// It replaces graphql-js 16's SingleFieldSubscriptionsRule, which evaluates those directives
// during validation with no variables: `@skip(if: $x)`, or a @skip without `if`, made it throw
// out of validate() (HTTP 500, a WebSocket closed with 4500), and `@skip(if: true)` on the only
// root field passed validation and crashed execution. This rule reads no directive values.
import {
  GraphQLError,
  isAbstractType,
  Kind,
  OperationTypeNode,
  typeFromAST,
  type ASTVisitor,
  type DirectiveNode,
  type FieldNode,
  type NamedTypeNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

export function SubscriptionRootRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(node) {
      if (node.operation !== OperationTypeNode.SUBSCRIPTION) return;
      const schema = context.getSchema();
      const root = schema.getSubscriptionType();
      if (!root) return;
      const subject = node.name ? `Subscription "${node.name.value}"` : 'Anonymous Subscription';

      const applies = (condition: NamedTypeNode | undefined): boolean => {
        if (!condition) return true;
        const type = typeFromAST(schema, condition);
        if (type === root) return true;
        return type !== undefined && isAbstractType(type) && schema.isSubType(type, root);
      };
      // Fields by response name and every @skip/@include met, through fragments at the root.
      const fields = new Map<string, FieldNode[]>();
      const conditional: DirectiveNode[] = [];
      const visited = new Set<string>();
      const collect = (selectionSet: SelectionSetNode): void => {
        for (const selection of selectionSet.selections) {
          for (const directive of selection.directives ?? []) {
            if (directive.name.value === 'skip' || directive.name.value === 'include') conditional.push(directive);
          }
          if (selection.kind === Kind.FIELD) {
            const key = selection.alias?.value ?? selection.name.value;
            fields.set(key, [...(fields.get(key) ?? []), selection]);
          } else if (selection.kind === Kind.INLINE_FRAGMENT) {
            if (applies(selection.typeCondition)) collect(selection.selectionSet);
          } else if (!visited.has(selection.name.value)) {
            visited.add(selection.name.value);
            const fragment = context.getFragment(selection.name.value);
            if (fragment && applies(fragment.typeCondition)) collect(fragment.selectionSet);
          }
        }
      };
      collect(node.selectionSet);

      if (conditional.length > 0) {
        context.reportError(
          new GraphQLError(`${subject} must not use @skip or @include in its top level selection.`, {
            nodes: conditional,
          }),
        );
      }
      const groups = [...fields.values()];
      if (groups.length > 1) {
        context.reportError(
          new GraphQLError(`${subject} must select only one top level field.`, { nodes: groups.slice(1).flat() }),
        );
      }
      for (const group of groups) {
        if (group[0].name.value.startsWith('__')) {
          context.reportError(
            new GraphQLError(`${subject} must not select an introspection top level field.`, { nodes: group }),
          );
        }
      }
    },
  };
}
