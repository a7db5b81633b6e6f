// Whole requests for one root field, generated from the schema: arguments as literals or
// variables (declared right, loosely or wrongly), nulls and omissions, a selection drawn from the
// return type, aliases, fragments, directives on every position, operation names, a second
// operation, and request shapes only HTTP takes. Each generated case prints as the request it
// sends, long values shortened, so a shrunk counterexample reads as a reproduction.
import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import type { Caller } from '../hostile';
import { directivePlans, type DirectivePlan, type DirectivePosition } from './directives';
import { RawJson, toJsonText, type Json } from './json';
import { selectionFor, type Selection } from './selections';
import { LIMITS, sampleFor, type Sample, type ValueOptions } from './values';

export type FuzzTransport = 'fast' | 'express' | 'get' | 'ws';
export const FUZZ_TRANSPORTS: FuzzTransport[] = ['fast', 'express', 'get', 'ws'];
/** Subscriptions mostly over WebSocket and mutations seldom over GET: elsewhere both are refused at once (BAD_REQUEST). */
const TRANSPORT_MIX: Record<RootField['keyword'], FuzzTransport[]> = {
  query: ['fast', 'ws', 'express', 'get'],
  mutation: ['fast', 'ws', 'express', 'fast', 'ws', 'express', 'get'],
  subscription: ['ws', 'fast', 'ws', 'express', 'ws', 'get'],
};
/** Shrinking goes towards the first; the anonymous caller is refused nearly everything, so less often. */
const CALLERS: Caller[] = ['user', 'service', 'user', 'service', 'other', 'anonymous'];

export interface FuzzRequest {
  query: string;
  /** Left out of the request when undefined. */
  variables?: Json;
  operationName?: Json;
  extensions?: Json;
}

export interface FuzzCase {
  /** The root field the case was made for: `Mutation.sendMessage`. */
  field: string;
  caller: Caller;
  transport: FuzzTransport;
  request: FuzzRequest;
  /** What the generator did on purpose that the document does not show (a mutation, a size). */
  notes: string[];
  /** Arguments given a value, as `Mutation.sendMessage.chatId`: what the run covered. */
  given?: string[];
}

// ---------------------------------------------------------------------------------------------
// Root fields, meta-fields included (`__typename` on every root type, `__schema` and `__type` on Query)
// ---------------------------------------------------------------------------------------------

export interface RootField {
  root: GraphQLObjectType;
  keyword: 'query' | 'mutation' | 'subscription';
  field: GraphQLField<unknown, unknown>;
  /** `Query.me` */
  key: string;
}

export function rootFields(schema: GraphQLSchema): RootField[] {
  const roots: [GraphQLObjectType | null | undefined, RootField['keyword']][] = [
    [schema.getQueryType(), 'query'],
    [schema.getMutationType(), 'mutation'],
    [schema.getSubscriptionType(), 'subscription'],
  ];
  const found: RootField[] = [];
  for (const [root, keyword] of roots) {
    if (!root) continue;
    const meta =
      keyword === 'query' ? [TypeNameMetaFieldDef, SchemaMetaFieldDef, TypeMetaFieldDef] : [TypeNameMetaFieldDef];
    for (const field of [...Object.values(root.getFields()), ...meta]) {
      found.push({ root, keyword, field: field, key: `${root.name}.${field.name}` });
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------

type ArgumentPlan =
  | { how: 'omit' }
  | { how: 'literal'; literal: string }
  | {
      how: 'variable';
      /** As declared: `Int!`, or loosened, or wrong. */
      declared: string;
      /** `= <literal>` in the declaration. */
      defaultLiteral?: string;
      /** Not sent at all when undefined. */
      value?: Json;
    };

const printType = (type: GraphQLInputType): string => String(type);

/**
 * Plans for one argument. Typed: a value of its type as a literal or an exactly declared variable,
 * left out or null only where the type allows. Otherwise also nulls and omissions anywhere,
 * variables declared loosely or wrongly, declared and not sent.
 */
function argumentPlan(
  argument: GraphQLArgument,
  otherScalars: string[],
  options: ValueOptions,
): fc.Arbitrary<ArgumentPlan> {
  const type = argument.type;
  const optional = !isNonNullType(type) || argument.defaultValue !== undefined;
  const sample = sampleFor(type, options);
  const declared = printType(type);
  const asLiteral = (s: Sample): ArgumentPlan =>
    s.literal !== undefined ? { how: 'literal', literal: s.literal } : { how: 'variable', declared, value: s.json };
  if (options.longBadLists && isListType(getNullableType(type))) {
    // Always given, as a literal or an exactly declared variable: the two ways graphql-js caps.
    return fc.oneof(
      sample.map((s): ArgumentPlan => ({ how: 'variable', declared, value: s.json })),
      sample.map(asLiteral),
    );
  }
  if (options.typed) {
    return fc.oneof(
      { arbitrary: sample.map(asLiteral), weight: 5 },
      { arbitrary: sample.map((s): ArgumentPlan => ({ how: 'variable', declared, value: s.json })), weight: 5 },
      { arbitrary: fc.constant<ArgumentPlan>({ how: 'omit' }), weight: optional ? 2 : 0 },
      {
        arbitrary: fc.constantFrom<ArgumentPlan>(
          { how: 'literal', literal: 'null' },
          { how: 'variable', declared, value: null },
          { how: 'variable', declared },
        ),
        weight: isNonNullType(type) ? 0 : 1,
      },
    );
  }
  const loosened = isNonNullType(type) ? printType(getNullableType<GraphQLInputType>(type)) : declared;
  const declaration: fc.Arbitrary<{ declared: string; defaultLiteral?: string }> = fc.oneof(
    { arbitrary: fc.constant({ declared }), weight: 6 },
    { arbitrary: fc.constant({ declared: loosened }), weight: 2 },
    {
      arbitrary: sample
        .filter((s) => s.literal !== undefined)
        .map((s) => ({ declared: loosened, defaultLiteral: s.literal! })),
      weight: 1,
    },
    {
      arbitrary: fc
        .constantFrom(...otherScalars.filter((name) => name !== getNamedType(type).name), `[${declared}]`, 'Unknown')
        .map((name) => ({ declared: name })),
      weight: 1,
    },
  );
  return fc.oneof(
    { arbitrary: sample.map(asLiteral), weight: 5 },
    {
      arbitrary: fc
        .tuple(sample, declaration)
        .map(([s, d]): ArgumentPlan => ({ how: 'variable', ...d, value: s.json })),
      weight: 5,
    },
    { arbitrary: fc.constant<ArgumentPlan>({ how: 'omit' }), weight: optional ? 3 : 1 },
    { arbitrary: fc.constant<ArgumentPlan>({ how: 'literal', literal: 'null' }), weight: 1 },
    { arbitrary: declaration.map((d): ArgumentPlan => ({ how: 'variable', ...d, value: null })), weight: 1 },
    // A variable declared and left out of the variables.
    { arbitrary: declaration.map((d): ArgumentPlan => ({ how: 'variable', ...d })), weight: 1 },
  );
}

// ---------------------------------------------------------------------------------------------
// Operations and requests
// ---------------------------------------------------------------------------------------------

type OperationNamePlan = 'absent' | 'matching' | 'unknown' | 'empty' | 'null';

interface CasePlan {
  caller: Caller;
  transport: FuzzTransport;
  arguments: ArgumentPlan[];
  extraArgument: string | null;
  selection: Selection;
  alias: string | null;
  /** The same field once more under another alias (two root fields; a subscription allows one). */
  twice: boolean;
  /** Sent under another root's keyword (a mutation field in a query). */
  wrongKeyword: boolean;
  named: boolean;
  operationName: OperationNamePlan;
  /** Another operation in the same document. */
  secondOperation: boolean;
  directives: DirectivePlan[];
  /** Variables nobody declared or used; over HTTP only, variables, extensions or operationName of the wrong shape. */
  shape:
    | 'plain'
    | 'variablesNull'
    | 'variablesString'
    | 'variablesArray'
    | 'persistedQuery'
    | 'extensionsString'
    | 'operationNameNumber'
    | 'unusedVariable'
    | 'extraVariables';
}

export interface CaseOptions extends ValueOptions {
  /** Generate directives (every position) on every case. */
  directives?: boolean;
  /** Operation names: unknown names and several operations on every case. */
  operationNames?: boolean;
  /** Restrict the transports and callers (shrinking goes towards the first). */
  transports?: FuzzTransport[];
  callers?: Caller[];
  /** Keep to what every transport takes alike (no HTTP-only request shapes). */
  portable?: boolean;
}

/**
 * Three cases in four are typed (they pass validation and reach the resolvers with hostile values);
 * the rest also break GraphQL's rules: wrong types, nulls, unknown arguments, two root fields, the
 * wrong operation keyword, bad selections, request shapes only HTTP takes.
 */
function casePlan(target: RootField, otherScalars: string[], options: CaseOptions = {}): fc.Arbitrary<CasePlan> {
  const typed =
    options.typed !== undefined
      ? fc.constant(options.typed)
      : fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 });
  return typed.chain((isTyped) => planOf(target, otherScalars, { ...options, typed: isTyped }));
}

function planOf(target: RootField, otherScalars: string[], options: CaseOptions): fc.Arbitrary<CasePlan> {
  const { field } = target;
  const typed = options.typed === true;
  const shapes: CasePlan['shape'][] = typed
    ? ['plain', 'extraVariables']
    : options.portable
      ? ['plain', 'unusedVariable', 'extraVariables']
      : [
          'plain',
          'unusedVariable',
          'extraVariables',
          'variablesNull',
          'variablesString',
          'variablesArray',
          'persistedQuery',
          'extensionsString',
          'operationNameNumber',
        ];
  const never = fc.constant(false);
  return fc.record({
    caller: fc.constantFrom(...(options.callers ?? CALLERS)),
    transport: fc.constantFrom(...(options.transports ?? TRANSPORT_MIX[target.keyword])),
    arguments:
      field.args.length === 0
        ? fc.constant([])
        : fc.tuple(...field.args.map((a) => argumentPlan(a, otherScalars, options))),
    extraArgument: typed
      ? fc.constant(null)
      : fc.option(fc.constantFrom('bogus: 1', 'first: 1', 'limit: null'), { freq: 4 }),
    selection: selectionFor(getNamedType(field.type), 2, typed, ''),
    alias: fc.option(fc.constantFrom('a', 'alias', '__x'), { freq: 8 }),
    // Two root fields: fine for queries and mutations, refused for a subscription.
    twice: typed && target.keyword === 'subscription' ? never : rarely,
    wrongKeyword: typed ? never : rarely,
    named: fc.boolean(),
    operationName: options.operationNames
      ? fc.constantFrom<OperationNamePlan>('unknown', 'absent', 'matching', 'empty', 'null')
      : fc.constantFrom<OperationNamePlan>('absent', 'absent', 'absent', 'matching', 'matching', 'null'),
    secondOperation: options.operationNames ? fc.boolean() : never,
    directives: options.directives ? directivePlans : fc.constant([]),
    shape: fc.oneof(
      { arbitrary: fc.constant<CasePlan['shape']>('plain'), weight: 12 },
      { arbitrary: fc.constantFrom(...shapes), weight: 2 },
    ),
  });
}

/** False nine times in ten (shrinking to false). */
const rarely: fc.Arbitrary<boolean> = fc.oneof(
  { arbitrary: fc.constant(false), weight: 9 },
  { arbitrary: fc.constant(true), weight: 1 },
);

/** The request a plan makes. */
function renderCase(target: RootField, plan: CasePlan): FuzzCase {
  const { field } = target;
  const notes: string[] = [];
  const variableDefinitions: string[] = [];
  const variables: Record<string, Json> = {};
  const argumentTexts: string[] = [];
  const given: string[] = [];
  field.args.forEach((argument, i) => {
    const p = plan.arguments[i];
    if (p.how === 'omit') return;
    if (p.how === 'literal' || p.value !== undefined) given.push(`${target.key}.${argument.name}`);
    if (p.how === 'literal') {
      argumentTexts.push(`${argument.name}: ${p.literal}`);
      return;
    }
    variableDefinitions.push(
      `$${argument.name}: ${p.declared}${p.defaultLiteral !== undefined ? ` = ${p.defaultLiteral}` : ''}`,
    );
    if (p.value !== undefined) variables[argument.name] = p.value;
    argumentTexts.push(`${argument.name}: $${argument.name}`);
  });
  if (plan.extraArgument) argumentTexts.push(plan.extraArgument);

  // Directives: each at its position, a variable of its own where it uses one.
  const at: Record<DirectivePosition, string[]> = {
    operation: [],
    variableDefinition: [],
    rootField: [],
    inlineFragment: [],
    fragmentSpread: [],
    fragmentDefinition: [],
  };
  plan.directives.forEach((d, i) => {
    let text = d.text;
    if (d.variable) {
      text = text.replace('$VAR', `$d${i}`);
      variableDefinitions.push(`$d${i}: ${d.variable.declared}`);
      if (d.variable.value !== undefined) variables[`d${i}`] = d.variable.value;
    }
    at[d.position].push(text);
  });
  const dirs = (position: DirectivePosition): string => (at[position].length > 0 ? ` ${at[position].join(' ')}` : '');
  if (at.variableDefinition.length > 0) {
    if (variableDefinitions.length === 0) variableDefinitions.push('$unused: Int');
    variableDefinitions[0] += dirs('variableDefinition');
  }

  const selection = plan.selection.text;
  const fragments = [...plan.selection.fragments];
  const args = argumentTexts.length > 0 ? `(${argumentTexts.join(', ')})` : '';
  const call = (alias: string | null) =>
    `${alias ? `${alias}: ` : ''}${field.name}${args}${dirs('rootField')}${selection}`;
  let body = plan.twice ? `${call(plan.alias ?? 'first')} ${call('second')}` : call(plan.alias);
  const rootName = target.root.name;
  if (at.inlineFragment.length > 0) body = `... on ${rootName}${dirs('inlineFragment')} { ${body} }`;
  if (at.fragmentSpread.length > 0 || at.fragmentDefinition.length > 0) {
    fragments.push(`fragment Root on ${rootName}${dirs('fragmentDefinition')} { ${body} }`);
    body = `...Root${dirs('fragmentSpread')}`;
  }

  const keyword = plan.wrongKeyword
    ? ({ query: 'mutation', mutation: 'subscription', subscription: 'query' } as const)[target.keyword]
    : target.keyword;
  if (plan.wrongKeyword) notes.push(`a ${target.keyword} field under "${keyword}"`);
  const name = plan.named || plan.operationName === 'matching' || plan.secondOperation ? 'Op' : '';
  const definitions = variableDefinitions.length > 0 ? `(${variableDefinitions.join(', ')})` : '';
  const shorthand =
    keyword === 'query' &&
    !name &&
    !definitions &&
    at.operation.length === 0 &&
    plan.named === false &&
    plan.operationName === 'absent';
  const head = shorthand ? '' : `${keyword}${name ? ` ${name}` : ''}${definitions}${dirs('operation')} `;
  const parts = [`${head}{ ${body} }`, ...fragments];
  if (plan.secondOperation) parts.push('query Other { __typename }');
  const query = parts.join(' ');

  const request: FuzzRequest = { query };
  if (Object.keys(variables).length > 0) request.variables = variables;
  switch (plan.operationName) {
    case 'matching':
      request.operationName = 'Op';
      break;
    case 'unknown':
      request.operationName = 'Nope';
      break;
    case 'empty':
      request.operationName = '';
      break;
    case 'null':
      request.operationName = null;
      break;
    default:
      break;
  }
  const httpOnly = plan.transport !== 'ws';
  switch (plan.shape) {
    case 'unusedVariable':
      request.query = query.replace(
        /^(query|mutation|subscription)( Op)?(\(([^)]*)\))?/,
        (_m, kw: string, op = '', _p, inner?: string) => `${kw}${op}(${inner ? `${inner}, ` : ''}$never: Int)`,
      );
      break;
    case 'extraVariables':
      // An own "__proto__" member, as JSON.parse makes it, besides a variable nobody declared.
      request.variables = {
        ...(request.variables as Record<string, Json> | undefined),
        notDeclared: 1,
        ...(JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, Json>),
      };
      break;
    case 'variablesNull':
      if (httpOnly) request.variables = null;
      break;
    case 'variablesString':
      if (httpOnly) request.variables = JSON.stringify(request.variables ?? {});
      break;
    case 'variablesArray':
      if (httpOnly) request.variables = [request.variables ?? null];
      break;
    case 'persistedQuery':
      if (httpOnly)
        request.extensions = {
          persistedQuery: {
            version: 1,
            sha256Hash: 'ecf4edb46db40b5132295c0291d62fb65d6759a9eedfa4d5d612dd5ec54a6b38',
          },
        };
      break;
    case 'extensionsString':
      if (httpOnly) request.extensions = 'x';
      break;
    case 'operationNameNumber':
      if (httpOnly) request.operationName = 5;
      break;
    default:
      break;
  }
  return withDisplay({ field: target.key, caller: plan.caller, transport: plan.transport, request, notes, given });
}

/** Cases within the body and frame limit (the test of sizes pads its own past it). */
export function caseFor(target: RootField, otherScalars: string[], options: CaseOptions = {}): fc.Arbitrary<FuzzCase> {
  return casePlan(target, otherScalars, options)
    .map((plan) => renderCase(target, plan))
    .filter((c) => Buffer.byteLength(requestJson(c.request)) < LIMITS.bodyBytes - 200);
}

/** Input scalars of the schema, to declare variables of the wrong type. */
export function inputScalars(schema: GraphQLSchema): string[] {
  return Object.values(schema.getTypeMap())
    .filter(
      (type) => !type.name.startsWith('__') && (isScalarType(type) || isEnumType(type) || isInputObjectType(type)),
    )
    .map((type) => type.name);
}

// ---------------------------------------------------------------------------------------------
// Printing a case for a counterexample
// ---------------------------------------------------------------------------------------------

/** Invisible and unprintable characters as \u escapes, long texts shortened. */
function visible(text: string, max = 300): string {
  const escaped = text.replace(
    /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  if (escaped.length <= max) return escaped;
  const repeated = /^(.{1,8}?)\1{20,}/su.exec(escaped);
  const head = repeated
    ? `${repeated[1]}×${Math.floor(repeated[0].length / repeated[1].length)}`
    : escaped.slice(0, max / 2);
  return `${head} …(${text.length} characters)… ${escaped.slice(-max / 4)}`;
}

function shortJson(value: Json | undefined): string {
  if (value === undefined) return 'undefined';
  if (value instanceof RawJson) return value.label;
  if (typeof value === 'string') return JSON.stringify(visible(value, 120));
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? String(value);
  if (Array.isArray(value)) {
    const shown = value.slice(0, 5).map(shortJson);
    return `[${shown.join(', ')}${value.length > 5 ? `, …${value.length} items` : ''}]`;
  }
  const entries = Object.entries(value);
  const shown = entries.slice(0, 8).map(([key, member]) => `${JSON.stringify(visible(key, 40))}: ${shortJson(member)}`);
  return `{${shown.join(', ')}${entries.length > 8 ? `, …${entries.length} keys` : ''}}`;
}

export function describeCase(c: FuzzCase): string {
  const lines = [`${c.field} as ${c.caller} over ${c.transport}`, `  query: ${visible(c.request.query, 600)}`];
  if ('variables' in c.request) lines.push(`  variables: ${shortJson(c.request.variables)}`);
  if ('operationName' in c.request) lines.push(`  operationName: ${shortJson(c.request.operationName)}`);
  if ('extensions' in c.request) lines.push(`  extensions: ${shortJson(c.request.extensions)}`);
  for (const note of c.notes) lines.push(`  note: ${note}`);
  return lines.join('\n');
}

export function withDisplay(c: FuzzCase): FuzzCase {
  Object.defineProperty(c, fc.toStringMethod, { value: () => `\n${describeCase(c)}\n`, enumerable: false });
  return c;
}

/** The request body as sent over HTTP POST and inside a graphql-ws subscribe message. */
export function requestJson(request: FuzzRequest): string {
  const members: string[] = [`"query":${JSON.stringify(request.query)}`];
  if ('variables' in request) members.push(`"variables":${toJsonText(request.variables)}`);
  if ('operationName' in request) members.push(`"operationName":${toJsonText(request.operationName)}`);
  if ('extensions' in request) members.push(`"extensions":${toJsonText(request.extensions)}`);
  return `{${members.join(',')}}`;
}
