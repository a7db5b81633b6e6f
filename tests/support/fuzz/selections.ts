// Selection sets drawn from a field's return type: a subset of its fields, nested a level or two,
// with aliases, inline fragments and named fragments; loosely, also missing, empty and unknown ones.
import fc from 'fast-check';
import { getNamedType, isNonNullType, isObjectType, type GraphQLField, type GraphQLNamedType } from 'graphql';

/** A selection set's text and the fragment definitions it spreads. */
export interface Selection {
  text: string;
  fragments: string[];
}

const NO_SELECTION: Selection = { text: '', fragments: [] };

/**
 * A selection set for `type` (none for leaves), `depth` levels at most. Typed: a valid one, with
 * aliases that cannot clash; otherwise also missing, empty and unknown selections and clashes.
 * `path` names the fragments, so that each is defined once.
 */
export function selectionFor(
  type: GraphQLNamedType,
  depth: number,
  typed: boolean,
  path: string,
): fc.Arbitrary<Selection> {
  if (!isObjectType(type)) {
    const bogus: Selection = { text: ' { bogus }', fragments: [] };
    return typed
      ? fc.constant(NO_SELECTION)
      : fc.oneof({ arbitrary: fc.constant(NO_SELECTION), weight: 4 }, { arbitrary: fc.constant(bogus), weight: 1 });
  }
  const fields = Object.values(type.getFields()).filter((field) =>
    field.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined),
  );
  const leaves = fields.filter((field) => !isObjectType(getNamedType(field.type)));
  const usable = depth > 0 ? fields : leaves;
  if (usable.length === 0) return fc.constant({ text: ' { __typename }', fragments: [] });
  const aliases = typed
    ? (name: string) => fc.constantFrom(`${name}_a`, `${name}_b`)
    : () => fc.constantFrom('a', 'b', 'x1');
  const one = (field: GraphQLField<unknown, unknown>): fc.Arbitrary<Selection> =>
    fc
      .tuple(
        fc.option(aliases(field.name), { freq: 6 }),
        isObjectType(getNamedType(field.type))
          ? selectionFor(getNamedType(field.type), depth - 1, typed, `${path}_${field.name}`)
          : fc.constant(NO_SELECTION),
      )
      .map(([alias, inner]) => ({
        text: `${alias ? `${alias}: ` : ''}${field.name}${inner.text}`,
        fragments: inner.fragments,
      }));
  const picked: fc.Arbitrary<Selection> = fc
    .subarray(usable, { minLength: 1, maxLength: Math.min(4, usable.length) })
    .chain((chosen) => fc.tuple(...chosen.map(one)))
    .map((parts) => ({ text: parts.map((p) => p.text).join(' '), fragments: parts.flatMap((p) => p.fragments) }));
  const fragment = `F${path}`;
  const odd: Selection[] = typed
    ? [{ text: ' { __typename }', fragments: [] }]
    : [
        NO_SELECTION,
        { text: ' { }', fragments: [] },
        { text: ' { bogusField }', fragments: [] },
        { text: ' { __typename }', fragments: [] },
      ];
  return fc.oneof(
    { arbitrary: picked.map((inner) => ({ ...inner, text: ` { ${inner.text} }` })), weight: 10 },
    { arbitrary: picked.map((inner) => ({ ...inner, text: ` { __typename ${inner.text} }` })), weight: 2 },
    { arbitrary: picked.map((inner) => ({ ...inner, text: ` { ... on ${type.name} { ${inner.text} } }` })), weight: 1 },
    {
      arbitrary: picked.map((inner) => ({
        text: ` { ...${fragment} }`,
        fragments: [...inner.fragments, `fragment ${fragment} on ${type.name} { ${inner.text} }`],
      })),
      weight: 1,
    },
    { arbitrary: fc.constantFrom(...odd), weight: 1 },
  );
}
