// How a domain declares the environment variables it reads: a zod schema that turns the set text
// into the typed value, the default, the bounds and a description. src/config.ts composes the
// declarations into Config, and src/app/emit-config-docs.ts writes docs/configuration.md from them,
// so the reference cannot drift from what is read.
import { z } from 'zod';

/** One environment variable. `D` is the type of the default: `undefined` when unset means none. */
export interface Setting<T, D extends T | undefined = T> {
  /** For the reference: integer, boolean, one of, text, list ... */
  readonly type: string;
  readonly description: string;
  /** For the reference: what is accepted, when the type alone does not say. */
  readonly bounds?: string;
  /** For the reference: the default as a reader should see it (it may be derived from others). */
  readonly defaultText: string;
  /** The value when the variable is unset or blank. */
  readonly fallback: D;
  /** Turns the set (trimmed) text into the value; an issue's message completes "<VARIABLE> ...". */
  readonly schema: z.ZodType<T, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a group holds settings of any value type
export type SettingGroup = Readonly<Record<string, Setting<any, any>>>;

/** The values a group reads: each setting's type, or undefined where it has no default. */
export type SettingValues<G extends SettingGroup> = {
  [K in keyof G]: G[K] extends Setting<infer T, infer D> ? T | D : never;
};

/** A domain's settings, titled for the reference. */
export interface SettingDomain {
  readonly title: string;
  /** One or two sentences above the domain's table. */
  readonly summary: string;
  readonly settings: SettingGroup;
}

const code = (value: string | number): string => `\`${value}\``;

interface Described<D> {
  description: string;
  default: D;
  /** Shown instead of the default when it is derived or needs a word of explanation. */
  defaultText?: string;
  /** Shown instead of the bounds the type gives, to name a rule beyond them. */
  bounds?: string;
}

/** A whole number from min to max. The default may lie outside them only when derived (undefined). */
export function int<D extends number | undefined>(
  options: Described<D> & { min: number; max: number },
): Setting<number, D> {
  const { min, max } = options;
  return {
    type: 'integer',
    description: options.description,
    bounds: options.bounds ?? `${min} to ${max}`,
    defaultText: options.defaultText ?? (options.default === undefined ? 'unset' : code(options.default)),
    fallback: options.default,
    schema: intSchema(min, max),
  };
}

/** The schema of an integer setting, also for bounds known only once another setting is read. */
export function intSchema(min: number, max: number): z.ZodType<number, string> {
  return z
    .string()
    .refine((value) => /^-?\d+$/.test(value) && Number(value) >= min && Number(value) <= max, {
      error: (issue) => `must be an integer from ${min} to ${max}, got "${String(issue.input)}"`,
    })
    .transform(Number);
}

const TRUE = ['1', 'true', 'on', 'yes'];
const FALSE = ['0', 'false', 'off', 'no'];

/** on/off, true/false, yes/no or 1/0, in any case. */
export function flag<D extends boolean | undefined>(options: Described<D>): Setting<boolean, D> {
  return {
    type: 'boolean',
    description: options.description,
    bounds: options.bounds ?? 'on/off, true/false, yes/no, 1/0',
    defaultText: options.defaultText ?? (options.default ? code('on') : code('off')),
    fallback: options.default,
    schema: z
      .string()
      .transform((value) => value.toLowerCase())
      .pipe(
        z.enum([...TRUE, ...FALSE], {
          error: (issue) => `must be true or false (or on/off, 1/0), got "${String(issue.input)}"`,
        }),
      )
      .transform((value) => TRUE.includes(value)),
  };
}

/** One of a list of words, exactly as written. */
export function oneOf<const V extends string, D extends V | undefined>(
  allowed: readonly V[],
  options: Described<D>,
): Setting<V, D> {
  return {
    type: 'one of',
    description: options.description,
    bounds: options.bounds ?? allowed.map(code).join(', '),
    defaultText: options.defaultText ?? (options.default === undefined ? 'unset' : code(options.default)),
    fallback: options.default,
    schema: z.enum(allowed, {
      error: (issue) => `must be one of ${allowed.join(', ')}, got "${String(issue.input)}"`,
    }),
  };
}

/** Free text (a host, a path, a claim), taken as set. */
export function text<D extends string | undefined>(options: Described<D>): Setting<string, D> {
  return {
    type: 'text',
    description: options.description,
    bounds: options.bounds,
    defaultText: options.defaultText ?? (options.default === undefined ? 'unset' : code(options.default)),
    fallback: options.default,
    schema: z.string(),
  };
}

/** Any other shape (a URL, a list): the caller's schema, whose issues carry the whole message. */
export function parsed<T, D extends T | undefined>(
  options: Described<D> & { type: string; schema: z.ZodType<T, string> },
): Setting<T, D> {
  return {
    type: options.type,
    description: options.description,
    bounds: options.bounds,
    defaultText: options.defaultText ?? 'unset',
    fallback: options.default,
    schema: options.schema,
  };
}

/** A comma-separated list: its parts trimmed, the empty ones dropped. */
export const commaList = (value: string): string[] =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads settings from the environment and collects every problem, so one start-up attempt
 * reports all of them, listed in the order the variables are declared (problems not about one
 * variable last).
 */
export class SettingsReader {
  private readonly found: { at: number; message: string }[] = [];
  private readonly failedNames = new Set<string>();
  private readonly order: Map<string, number>;

  constructor(
    private readonly env: Env,
    domains: readonly SettingDomain[] = [],
  ) {
    this.order = new Map(domains.flatMap((domain) => Object.keys(domain.settings)).map((name, at) => [name, at]));
  }

  /** The trimmed value, or undefined when unset or blank. */
  raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  isSet(name: string): boolean {
    return this.raw(name) !== undefined;
  }

  /** One setting's value: its fallback when unset or (after a problem is noted) invalid. */
  one<T, D extends T | undefined>(name: string, setting: Setting<T, D>, schema = setting.schema): T | D {
    const value = this.raw(name);
    if (value === undefined) return setting.fallback;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) this.problem(name, `${name} ${issue.message}`);
    return setting.fallback;
  }

  /**
   * A group's values. Settings named in `later` are left out: their bounds depend on others of
   * the group, so the caller reads them with one() and a schema built from those.
   */
  read<G extends SettingGroup, L extends keyof G & string = never>(
    group: G,
    later: readonly L[] = [],
  ): Omit<SettingValues<G>, L> {
    const values: Record<string, unknown> = {};
    for (const [name, setting] of Object.entries(group)) {
      if (!(later as readonly string[]).includes(name)) values[name] = this.one(name, setting);
    }
    return values as Omit<SettingValues<G>, L>;
  }

  /** A problem about `name` (listed with that variable's), or, with undefined, about several. */
  problem(name: string | undefined, message: string): void {
    if (name !== undefined) this.failedNames.add(name);
    this.found.push({ at: (name === undefined ? undefined : this.order.get(name)) ?? Infinity, message });
  }

  /** Whether a problem was noted about `name` (its value is then the fallback, not what was set). */
  failed(name: string): boolean {
    return this.failedNames.has(name);
  }

  get problems(): string[] {
    // Array.prototype.sort is stable: a variable's problems keep the order they were found in.
    return [...this.found].sort((a, b) => a.at - b.at).map((found) => found.message);
  }
}
