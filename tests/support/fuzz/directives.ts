// Directives for every position a document has (operation, variable definition, root field, inline
// fragment, fragment spread, fragment definition): @skip and @include with literals and variables
// of every declaration, and directives that are unknown, repeated, or not allowed there.
import fc from 'fast-check';
import type { Json } from './json';

export type DirectivePosition =
  'operation' | 'variableDefinition' | 'rootField' | 'inlineFragment' | 'fragmentSpread' | 'fragmentDefinition';
const DIRECTIVE_POSITIONS: DirectivePosition[] = [
  'rootField',
  'inlineFragment',
  'fragmentSpread',
  'fragmentDefinition',
  'operation',
  'variableDefinition',
];

export interface DirectivePlan {
  position: DirectivePosition;
  /** The directive's text; `$VAR` stands for a variable of its own. */
  text: string;
  /** The variable's declaration and value, when `text` uses one. */
  variable?: { declared: string; value?: Json };
}

const ifValue: fc.Arbitrary<Pick<DirectivePlan, 'variable'> & { argument: string }> = fc.oneof(
  { arbitrary: fc.constantFrom('true', 'false').map((argument) => ({ argument })), weight: 4 },
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom('Boolean!', 'Boolean', 'Boolean = true', 'Boolean! = false', 'String'),
        fc.constantFrom<Json | undefined>(false, true, null, undefined, 'yes', 1),
      )
      .map(([declared, value]) => ({ argument: '$VAR', variable: { declared, value } })),
    weight: 4,
  },
  { arbitrary: fc.constantFrom('"yes"', '1', 'null', 'TRUE', '[true]').map((argument) => ({ argument })), weight: 1 },
);

const directiveText: fc.Arbitrary<Omit<DirectivePlan, 'position'>> = fc.oneof(
  {
    arbitrary: fc.tuple(fc.constantFrom('skip', 'include'), ifValue).map(([name, { argument, variable }]) => ({
      text: `@${name}(if: ${argument})`,
      ...(variable ? { variable } : {}),
    })),
    weight: 8,
  },
  {
    arbitrary: fc
      .constantFrom(
        '@skip',
        '@include',
        '@skip(if: true) @skip(if: false)',
        '@include(if: true, if: false)',
        '@skip(unless: true)',
        '@unknown',
        '@unknown(arg: 1)',
        '@deprecated',
        '@deprecated(reason: "x")',
        '@specifiedBy(url: "https://example.com")',
        '@oneOf',
      )
      .map((text) => ({ text })),
    weight: 3,
  },
);

export const directivePlans: fc.Arbitrary<DirectivePlan[]> = fc.array(
  fc.tuple(fc.constantFrom(...DIRECTIVE_POSITIONS), directiveText).map(([position, d]) => ({ position, ...d })),
  { minLength: 1, maxLength: 3 },
);
