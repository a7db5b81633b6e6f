// Mutated documents: token deletions, insertions, duplications and swaps of a generated document,
// the inserted tokens drawn from GraphQL's punctuation and keywords and the schema's own names.
import fc from 'fast-check';
import { Lexer, Source, TokenKind, type GraphQLSchema } from 'graphql';
import { rootFields } from './documents';

export interface Mutation {
  kind: 'delete' | 'duplicate' | 'insert' | 'swap';
  at: number;
  token: string;
}

/** The document's tokens as written (punctuation, names, numbers, strings); raw splitting if it does not lex. */
function tokensOf(query: string): string[] {
  const tokens: string[] = [];
  try {
    const lexer = new Lexer(new Source(query));
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (token.kind !== TokenKind.COMMENT) tokens.push(query.slice(token.start, token.end));
    }
    return tokens;
  } catch {
    return query.split(/\s+/).filter(Boolean);
  }
}

export function mutationsFor(schema: GraphQLSchema): fc.Arbitrary<Mutation[]> {
  const names = rootFields(schema).map((r) => r.field.name);
  const typeNames = Object.keys(schema.getTypeMap()).filter((name) => !name.startsWith('__'));
  const pool = fc.oneof(
    fc.constantFrom('{', '}', '(', ')', '[', ']', ':', '$', '@', '...', '!', '=', '|', '&', ',', '"', '"""', '#'),
    fc.constantFrom(
      'query',
      'mutation',
      'subscription',
      'fragment',
      'on',
      'null',
      'true',
      '1',
      '-1',
      '1.5',
      '1e999',
      '"x"',
      '"\\ud800"',
      '"\u0000"',
      '$v',
      '$v: Int',
      '__typename',
      '__schema',
      '@skip(if: true)',
      '@include(if: $v)',
      '@skip',
      '... on Query',
      '... on Subscription',
    ),
    fc.constantFrom(...names),
    fc.constantFrom(...typeNames),
  );
  const one = fc.record({
    kind: fc.constantFrom<Mutation['kind']>('delete', 'duplicate', 'insert', 'swap'),
    at: fc.nat(),
    token: pool,
  });
  return fc.array(one, { minLength: 1, maxLength: 4 });
}

export function mutate(query: string, mutations: Mutation[]): string {
  const tokens = tokensOf(query);
  for (const m of mutations) {
    const i = tokens.length === 0 ? 0 : m.at % tokens.length;
    if (m.kind === 'delete') tokens.splice(i, 1);
    else if (m.kind === 'duplicate' && tokens.length > 0) tokens.splice(i, 0, tokens[i]);
    else if (m.kind === 'insert') tokens.splice(i, 0, m.token);
    else if (m.kind === 'swap' && i + 1 < tokens.length) [tokens[i], tokens[i + 1]] = [tokens[i + 1], tokens[i]];
  }
  return tokens.join(' ');
}
