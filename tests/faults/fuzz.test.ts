// The schema-driven fuzzer (issue 20): for every Query, Mutation and Subscription root field of the
// schema the server serves, requests generated from the field's arguments and return type, sent
// over HTTP (fast path, express, GET) and WebSocket by every kind of caller. Every answer must
// carry documented codes only, never a 5xx, INTERNAL_SERVER_ERROR or a 4500/1011 close; the
// server must write no error-level log line and nothing to console.error/warn; a refused call
// must leave Redis exactly as seeded; a long-running subscription beside it all must survive.
// A fixed seed and bounded runs here; `npm run fuzz` runs longer (FUZZ_RUNS, FUZZ_SEED, FUZZ_PATH).
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { GraphQLSafeInt } from 'graphql-scalars';
import {
  buildClientSchema,
  buildSchema,
  getIntrospectionQuery,
  getNamedType,
  GraphQLScalarType,
  lexicographicSortSchema,
  parse,
  printSchema,
  specifiedRules,
  validate,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { documentGuard } from '../../src/security/document-limits';
import {
  caseFor,
  describeCase,
  FUZZ_TRANSPORTS,
  inputScalars,
  requestJson,
  rootFields,
  withDisplay,
  type CaseOptions,
  type FuzzCase,
  type RootField,
} from '../support/fuzz/documents';
import { deepArray } from '../support/fuzz/json';
import { mutate, mutationsFor } from '../support/fuzz/mutations';
import type { Answer } from '../support/fuzz/oracle';
import { FuzzRunner, type Expectation } from '../support/fuzz/runner';
import { SeedState } from '../support/fuzz/seed';
import { capsKept, longestLists } from '../support/fuzz/caps';
import { LIMITS, takesLongBadLists } from '../support/fuzz/values';
import { serverForThisFile } from '../support/fixture';
import { postBody } from '../support/hostile';
import { closeRawSockets } from '../support/raw-ws';

// ---------------------------------------------------------------------------------------------
// Settings: a fixed seed and bounded runs in CI; `npm run fuzz` (FUZZ=long) a random seed and more.
// ---------------------------------------------------------------------------------------------
const LONG = process.env.FUZZ === 'long';
const SEED =
  process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : LONG ? Math.floor(Math.random() * 2 ** 31) : 20;
const RUNS = process.env.FUZZ_RUNS !== undefined ? Number(process.env.FUZZ_RUNS) : LONG ? 200 : undefined;
const REPLAY_PATH = process.env.FUZZ_PATH;
if (!Number.isInteger(SEED) || (RUNS !== undefined && !(Number.isInteger(RUNS) && RUNS > 0)))
  throw new Error('FUZZ_SEED must be an integer and FUZZ_RUNS a positive integer');

/** Runs per property in CI, chosen to keep this file well under a minute on two cores. */
const CI_RUNS = {
  perField: 40,
  directives: 300,
  json: 80,
  oversize: 40,
  mutated: 500,
  operationNames: 150,
  sameEverywhere: 100,
  longLists: 40,
};
const runsOf = (name: keyof typeof CI_RUNS): number => RUNS ?? CI_RUNS[name];
/** Enough for the runs on a loaded machine, plus shrinking a counterexample. */
const timeoutFor = (runs: number, perRunMs = 150): number => 60_000 + runs * perRunMs * (LONG ? 2 : 1);

const FILE_SCHEMA = buildSchema(fs.readFileSync(path.join(__dirname, '..', '..', 'schema.graphql'), 'utf8'));
const FIELD_KEYS = rootFields(FILE_SCHEMA).map((f) => f.key);

const fixture = serverForThisFile({ ROW_CACHE: 'off' });
let schema: GraphQLSchema;
let fields: RootField[];
let scalars: string[];
let runner: FuzzRunner;
let seed: SeedState;

beforeAll(async () => {
  const api = fixture.api;
  // The schema as the server serves it: introspected over HTTP, not read from a list of fields.
  const introspection = await postBody(
    api,
    JSON.stringify({ query: getIntrospectionQuery({ specifiedByUrl: true, directiveIsRepeatable: true }) }),
    api.tokens.user,
  );
  schema = buildClientSchema(introspection.data as IntrospectionQuery);
  // An introspected schema's custom scalars take any literal, where the server's SafeInt refuses
  // one that is not a safe integer: validated here, such a document must be invalid too.
  const safeInt = schema.getType('SafeInt');
  if (safeInt instanceof GraphQLScalarType) safeInt.parseLiteral = (node) => GraphQLSafeInt.parseLiteral(node);
  fields = rootFields(schema);
  scalars = inputScalars(schema);
  seed = new SeedState(api);
  await seed.create();
  runner = new FuzzRunner(api, seed);
  await runner.start();
  console.info(
    `fuzz: seed ${SEED}${REPLAY_PATH ? `, replaying path ${REPLAY_PATH}` : ''}; runs per property ${RUNS ?? JSON.stringify(CI_RUNS)}`,
  );
}, 60_000);

beforeEach(() => runner.reset());

afterAll(() => {
  if (runner) {
    const t = runner.tally;
    console.info(
      `fuzz: ${t.cases} cases (${JSON.stringify(t.byTransport)}), ${t.refused} refused and checked against Redis, ` +
        `${t.arguments.size} arguments given values, ${seed.slowChecks} Redis comparisons by snapshot, ` +
        `${runner.notificationsSeen} notifications to the long-running subscription; answers: ${JSON.stringify(t.codes)}`,
    );
    runner.stop();
  }
  closeRawSockets();
});

const target = (key: string): RootField => {
  const found = fields.find((f) => f.key === key);
  if (!found) throw new Error(`${key} is in schema.graphql but not in the served schema`);
  return found;
};

/** Runs the property; on failure, fast-check's report (shrunk counterexample) and the command that replays it. */
async function fuzz(
  arbitrary: fc.Arbitrary<FuzzCase | FuzzCase[]>,
  runs: number,
  expectation?: Expectation,
): Promise<void> {
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (cases) => {
      for (const c of Array.isArray(cases) ? cases : [cases]) {
        const { problems } = await runner.run(c, expectation);
        if (problems.length > 0) throw new Error(`${describeCase(c)}\n${problems.map((p) => `  - ${p}`).join('\n')}`);
      }
    }),
    { seed: SEED, numRuns: runs, ...(REPLAY_PATH ? { path: REPLAY_PATH } : {}) },
  );
  if (!details.failed) return;
  const name = expect.getState().currentTestName ?? '';
  // jest's -t takes a regular expression.
  const pattern = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, "'\\''");
  const replay = `FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath} npm run fuzz -- -t '^${pattern}$'`;
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `Property failed after ${details.numRuns} run(s), shrunk ${details.numShrinks} time(s), seed ${details.seed}.\n` +
      `Counterexample and what was wrong:\n${error}\n\nReplay: ${replay}`,
  );
}

/**
 * For a case sent over every transport in turn (the fast path first), from the same seeded state:
 * where the fast path refused it (nothing ran), the others must refuse it with the same codes,
 * except where a transport has a rule of its own: no subscriptions over HTTP, no mutations over GET.
 */
function sameCodesAsFastPath(): Expectation {
  const answers: Partial<Record<string, Answer>> = {};
  return (answer, c) => {
    if (c.transport === 'fast') for (const key of Object.keys(answers)) delete answers[key];
    answers[c.transport] = answer;
    if (c.transport !== 'ws') return [];
    const fast = answers.fast!;
    const refused = fast.data === undefined || fast.data === null;
    if (!refused || fast.errors.length === 0 || fast.codes.includes('BAD_REQUEST')) return [];
    const problems: string[] = [];
    for (const [transport, other] of Object.entries(answers)) {
      if (!other || transport === 'fast') continue;
      if (transport === 'get' && other.status === 405) continue;
      // A URL cannot carry a lone surrogate (URLSearchParams makes it U+FFFD): GET sent other text.
      if (transport === 'get' && /\\ud[89a-f][0-9a-f]{2}/i.test(requestJson(c.request))) continue;
      const mine = [...new Set(other.codes.map(String))].sort();
      const theirs = [...new Set(fast.codes.map(String))].sort();
      if (mine.join() !== theirs.join())
        problems.push(`over ${transport} ${JSON.stringify(mine)}, over the fast path ${JSON.stringify(theirs)}`);
    }
    return problems;
  };
}

const anyField = (options: CaseOptions = {}): fc.Arbitrary<FuzzCase> =>
  fc.constantFrom(...fields).chain((f) => caseFor(f, scalars, options));

describe('the schema-driven fuzzer', () => {
  it('fuzzes the schema the server serves, every root field of it', () => {
    expect(printSchema(lexicographicSortSchema(schema))).toBe(printSchema(lexicographicSortSchema(FILE_SCHEMA)));
    expect(fields.map((f) => f.key).sort()).toEqual([...FIELD_KEYS].sort());
    expect(fields.filter((f) => f.keyword === 'subscription').length).toBeGreaterThan(1);
  });

  it.each(FIELD_KEYS)(
    '%s: generated arguments and selections, every transport and caller',
    async (key) => {
      await fuzz(caseFor(target(key), scalars), runsOf('perField'));
    },
    timeoutFor(runsOf('perField'), 400),
  );

  it(
    'takes directives on every position of every root field, subscription root fields included',
    async () => {
      await fuzz(anyField({ directives: true }), runsOf('directives'));
    },
    timeoutFor(runsOf('directives')),
  );

  it(
    'answers JSON arguments nested up to the body limit (40,000 levels) with BAD_USER_INPUT beyond 32 levels',
    async () => {
      const withJson = fields.filter((f) => f.field.args.some((a) => getNamedType(a.type).name === 'JSON'));
      expect(withJson.length).toBeGreaterThan(0);
      // Mostly as a service caller: a user is refused (FORBIDDEN) before the arguments are converted.
      const cases = fc
        .constantFrom(...withJson)
        .chain((f) => caseFor(f, scalars, { hugeJson: true, callers: ['service', 'service', 'service', 'user'] }));
      await fuzz(cases, runsOf('json'));
    },
    timeoutFor(runsOf('json'), 300),
  );

  it(
    'refuses bodies and frames over the size limit: 413 PAYLOAD_TOO_LARGE over HTTP, 1009 over WebSocket',
    async () => {
      const padding = fc.constantFrom<[string, (c: FuzzCase) => FuzzCase]>(
        [
          'a comment',
          (c) => ({ ...c, request: { ...c.request, query: `${c.request.query}\n#${'x'.repeat(LIMITS.bodyBytes)}` } }),
        ],
        [
          'an unused variable',
          (c) => ({
            ...c,
            request: {
              ...c.request,
              variables: { ...(c.request.variables as object), pad: 'x'.repeat(LIMITS.bodyBytes) },
            },
          }),
        ],
        [
          'an array 60,000 deep',
          (c) => ({
            ...c,
            request: { ...c.request, variables: { ...(c.request.variables as object), pad: deepArray(60_000) } },
          }),
        ],
        [
          'a megabyte of spaces',
          (c) => ({ ...c, request: { ...c.request, query: `${c.request.query}${' '.repeat(1024 * 1024)}` } }),
        ],
      );
      const cases = fc
        .tuple(anyField(), padding)
        .map(([c, [what, pad]]) =>
          withDisplay({ ...pad(c), notes: [...c.notes, `padded with ${what} past the limit`] }),
        );
      const tooLarge: Expectation = (answer) => {
        if (answer.transport === 'ws')
          return answer.closed?.code === 1009 ? [] : ['expected the socket to close with 1009'];
        return answer.status === 413 && answer.codes.join() === 'PAYLOAD_TOO_LARGE'
          ? []
          : ['expected HTTP 413 PAYLOAD_TOO_LARGE'];
      };
      await fuzz(cases, runsOf('oversize'), tooLarge);
    },
    timeoutFor(runsOf('oversize'), 300),
  );

  it(
    'answers mutated documents of every root field (tokens deleted, inserted, duplicated, swapped)',
    async () => {
      const cases = fc.tuple(anyField(), mutationsFor(schema)).map(([c, mutations]) =>
        withDisplay({
          ...c,
          request: { ...c.request, query: mutate(c.request.query, mutations) },
          notes: [
            ...c.notes,
            `mutated from: ${c.request.query.slice(0, 300)}`,
            `mutations: ${JSON.stringify(mutations)}`,
          ],
        }),
      );
      await fuzz(cases, runsOf('mutated'));
    },
    timeoutFor(runsOf('mutated')),
  );

  it(
    'answers an unknown operationName, or several operations and none named, with OPERATION_RESOLUTION_FAILURE over every transport',
    async () => {
      const rules = [...specifiedRules, ...documentGuard(fixture.api.config.security).rules];
      const resolutionFails = (c: FuzzCase): boolean => {
        let valid: boolean;
        try {
          valid = validate(schema, parse(c.request.query), rules).length === 0;
        } catch {
          valid = false;
        }
        const name = c.request.operationName;
        const several = /\bquery Other\b/.test(c.request.query);
        return valid && (name === 'Nope' || (several && (name === undefined || name === null)));
      };
      const expectation: Expectation = (answer: Answer, c: FuzzCase) => {
        if (!resolutionFails(c) || answer.closed) return [];
        return answer.codes.join() === 'OPERATION_RESOLUTION_FAILURE'
          ? []
          : [`expected OPERATION_RESOLUTION_FAILURE (as over HTTP), got ${JSON.stringify(answer.codes)}`];
      };
      await fuzz(anyField({ operationNames: true, portable: true }), runsOf('operationNames'), expectation);
    },
    timeoutFor(runsOf('operationNames')),
  );

  it(
    'refuses a request with the same codes over every transport',
    async () => {
      const cases = anyField({ portable: true, callers: ['user', 'other', 'service'] }).map((c) =>
        FUZZ_TRANSPORTS.map((transport) => withDisplay({ ...c, transport })),
      );
      await fuzz(cases, runsOf('sameEverywhere'), sameCodesAsFastPath());
    },
    timeoutFor(runsOf('sameEverywhere'), 600),
  );

  it(
    'answers lists of more than 50 bad items, as variables and as literals, within the caps alike on every transport',
    async () => {
      // graphql-js reports 50 variable errors, then one of its own that once came back as
      // INTERNAL_SERVER_ERROR with an error log line; 100 validation errors, then one more.
      const listArguments = new Map(
        fields.map((f) => [f.key, f.field.args.filter((a) => takesLongBadLists(a.type)).map((a) => a.name)]),
      );
      const withLists = fields.filter((f) => listArguments.get(f.key)!.length > 0);
      expect(withLists.map((f) => f.key)).toEqual(
        expect.arrayContaining(['Mutation.enqueueTasks', 'Mutation.createChat', 'Query.cachedRows']),
      );
      // What was sent over the caps, by field: `variable` past 50 items, `literal` past 100.
      const beyond = new Set<string>();
      const same = sameCodesAsFastPath();
      const expectation: Expectation = (answer, c) => {
        const names = listArguments.get(c.field) ?? [];
        const { variable, literal } = longestLists(c.request, names);
        if (variable > 50) beyond.add(`${c.field} variable`);
        if (literal > 100) beyond.add(`${c.field} literal`);
        return [...capsKept(answer, c, names), ...same(answer, c)];
      };
      // Typed otherwise, so that the lists decide the answer; callers who pass the gate.
      const cases = fc
        .constantFrom(...withLists)
        .chain((f) =>
          caseFor(f, scalars, { typed: true, longBadLists: true, portable: true, callers: ['service', 'user'] }),
        )
        .map((c) => FUZZ_TRANSPORTS.map((transport) => withDisplay({ ...c, transport })));
      await fuzz(cases, runsOf('longLists'), expectation);
      if (REPLAY_PATH) return;
      expect([...beyond].filter((what) => what.endsWith('variable')).length).toBeGreaterThan(0);
      expect([...beyond].filter((what) => what.endsWith('literal')).length).toBeGreaterThan(0);
    },
    timeoutFor(runsOf('longLists'), 600),
  );

  // Only a full run can be held to it: not a replay, nor fewer runs than CI's.
  (REPLAY_PATH || runsOf('perField') < CI_RUNS.perField ? it.skip : it)(
    'gave a value to every argument of every root field',
    () => {
      const all = fields.flatMap((f) => f.field.args.map((a) => `${f.key}.${a.name}`));
      expect(all.length).toBeGreaterThan(80);
      expect(all.filter((a) => !runner.tally.arguments.has(a))).toEqual([]);
    },
  );

  it('kept the long-running subscription beside the fuzzed operations open and notified', async () => {
    expect(await runner.watcherStillNotified()).toEqual([]);
  });
});
