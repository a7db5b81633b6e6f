// The JSON scalar (task args and results): graphql-scalars' JSON, except that a variable nested
// deeper than JSON_MAX_DEPTH is replaced by a marker before anything else sees it. type-graphql
// converts list arguments recursively before any resolver runs, so an array nested 45,000 deep
// (90 KB, within the body limit) overflowed the call stack there; now the resolver's validJson
// refuses it as it refuses 33 levels: BAD_USER_INPUT naming the argument. Literals are kept
// shallow enough by the document's token limit, and are checked by the resolver too.
import { GraphQLScalarType } from 'graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { JSON_MAX_DEPTH, nestedDeeperThan, TOO_DEEP_JSON } from '../common/validation';

export const JSONScalar = new GraphQLScalarType({
  ...GraphQLJSON.toConfig(),
  parseValue: (value: unknown): unknown => (nestedDeeperThan(value, JSON_MAX_DEPTH) ? TOO_DEEP_JSON : value),
});
