// Every ```graphql block of README.md and docs/ is parsed and validated against schema.graphql, so
// an example cannot name a field, an argument or a type the API does not have. A block may hold
// several examples: each operation in it is validated as a document of its own (with the block's
// fragments), as a reader pastes one at a time. A block that is deliberately not a valid operation
// is preceded by `<!-- not-validated: why -->`; there are EXCEPTIONS of those, no more.
import fs from 'node:fs';
import path from 'node:path';
import {
  buildSchema,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { documentationFiles, readMarkdown, ROOT, type Fence } from './markdown';

const EXCEPTIONS = 0;
/** 89 when written: fewer than this means the reader lost examples, not that they are all fine. */
const AT_LEAST_OPERATIONS = 85;

const schema = buildSchema(fs.readFileSync(path.join(ROOT, 'schema.graphql'), 'utf8'));

interface Checked {
  operations: number;
  problems: string[];
}

function checkFence(fence: Fence, against: GraphQLSchema): Checked {
  const where = `${fence.file}:${fence.line}`;
  let document: DocumentNode;
  try {
    document = parse(fence.body);
  } catch (error) {
    return { operations: 0, problems: [`${where}: ${(error as Error).message}`] };
  }
  const fragments = document.definitions.filter(
    (definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION,
  );
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (operations.length === 0) return { operations: 0, problems: [`${where}: no operation in the block`] };
  const problems = operations.flatMap((operation) => {
    const alone: DocumentNode = { kind: Kind.DOCUMENT, definitions: [operation, ...fragments] };
    const line = fence.line + (operation.loc?.startToken.line ?? 0);
    // Only the fragments this operation uses count: an unused one is fine in a block of several.
    return validate(against, alone)
      .filter((error) => !/^Fragment ".*" is never used\.$/.test(error.message))
      .map((error) => `${fence.file}:${line}: ${error.message}`);
  });
  return { operations: operations.length, problems };
}

const fences = documentationFiles()
  .flatMap((file) => readMarkdown(file).fences)
  .filter((fence) => fence.lang === 'graphql');
const skipped = fences.filter((fence) => fence.comment?.startsWith('not-validated:'));
const checked = fences.filter((fence) => !skipped.includes(fence));

describe('GraphQL examples in the documentation', () => {
  it('are valid operations against schema.graphql', () => {
    const results = checked.map((fence) => checkFence(fence, schema));
    expect(results.flatMap((result) => result.problems)).toEqual([]);
    const operations = results.reduce((sum, result) => sum + result.operations, 0);
    expect(operations).toBeGreaterThanOrEqual(AT_LEAST_OPERATIONS);
  });

  it(`leaves exactly ${EXCEPTIONS} blocks unchecked, each saying why`, () => {
    expect(skipped.map((fence) => `${fence.file}:${fence.line}`)).toHaveLength(EXCEPTIONS);
    for (const fence of skipped) expect(fence.comment!.replace('not-validated:', '').trim()).not.toBe('');
  });

  it('has examples on every building block page', () => {
    const pages = new Set(checked.map((fence) => fence.file));
    for (const page of ['chats', 'counters', 'locks', 'autocomplete', 'tasks', 'market', 'row-cache', 'locations']) {
      expect(pages).toContain(`docs/${page}.md`);
    }
  });

  it('reports an unknown field, a wrong argument and a broken document, with their place', () => {
    const fence = (body: string): Fence => ({ file: 'example.md', line: 10, lang: 'graphql', body });
    expect(checkFence(fence('query { counter(name: "a", precision: 60) { time count } }'), schema)).toEqual({
      operations: 1,
      problems: [],
    });
    const unknown = checkFence(
      fence('\nquery { counter(name: "a", precision: 60) { time count } }\nquery { nope }'),
      schema,
    );
    expect(unknown.operations).toBe(2);
    expect(unknown.problems).toEqual([
      expect.stringMatching(/^example\.md:13: Cannot query field "nope" on type "Query"\./),
    ]);
    expect(checkFence(fence('query { counter(name: 7, precision: 60) { time } }'), schema).problems).toEqual([
      expect.stringContaining('example.md:11: String cannot represent a non string value: 7'),
    ]);
    expect(checkFence(fence('query { counter('), schema).problems).toEqual([
      expect.stringMatching(/^example\.md:10: Syntax Error/),
    ]);
    expect(checkFence(fence('fragment F on Query { __typename }'), schema).problems).toEqual([
      'example.md:10: no operation in the block',
    ]);
  });
});
