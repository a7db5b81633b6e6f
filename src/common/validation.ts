// Input checks shared by every resolver. A name that passes `validName` is safe to put in a Redis
// key: it never holds `{`, `}`, `:`, whitespace or control characters.
import { badInput } from './errors';

const NAME_MAX_LENGTH = 128;

/** Documented in the schema wherever a name argument appears. */
export const NAME_RULE = `1 to ${NAME_MAX_LENGTH} characters: Unicode letters, digits, marks, emoji and _ - . / @ (compared after NFC normalisation)`;

// Emoji are pictographs, skin-tone modifiers, flag letters, and the zero-width joiner that glues
// a sequence such as a family together. The joiner is allowed only between two emoji, never next
// to a letter, so it cannot hide inside a word ("ab" against "a\u200Db").
const NAME_PATTERN =
  /^[\p{L}\p{N}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u200D_\-./@]+$/u;
const STRAY_JOINER =
  /(?<!(?:\p{Extended_Pictographic}|\p{Emoji_Modifier})\uFE0F?)\u200D|\u200D(?!\p{Extended_Pictographic})/u;

/** Returns the NFC form of `value`, so visually equal names share one key. */
export function validName(value: string, argument: string, maxLength = NAME_MAX_LENGTH): string {
  const normalised = value.normalize('NFC');
  const length = [...normalised].length;
  if (length === 0) throw badInput(`${argument} must not be empty`, argument);
  if (length > maxLength) throw badInput(`${argument} must be at most ${maxLength} characters`, argument);
  if (!NAME_PATTERN.test(normalised) || STRAY_JOINER.test(normalised)) {
    throw badInput(`${argument} may hold only Unicode letters, digits, marks, emoji and _ - . / @`, argument);
  }
  return normalised;
}

export function intInRange(value: number, argument: string, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw badInput(`${argument} must be an integer from ${min} to ${max}`, argument);
  }
  return value;
}

// Control characters other than tab and newline, and lone UTF-16 surrogates (which cannot be
// stored as UTF-8 without silently changing the text).
const FORBIDDEN_IN_TEXT = /[\p{Cc}\p{Cs}]/u;
/** Nothing a reader could see: only white space and format characters such as zero-width spaces. */
const INVISIBLE = /^[\s\p{Cf}]*$/u;

// Characters that reorder how text is shown (bidi overrides and isolates): a prefix holding one
// is a spoofing attempt, not something a user typed.
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const BIDI_OVERRIDES = /[\u202A-\u202E]/u;

/**
 * An autocomplete prefix: may be empty, and may hold any character a person could type, each
 * matched literally (one that no name holds simply matches nothing).
 */
export function validPrefix(value: string, argument: string): string {
  const normalised = value.normalize('NFC');
  if ([...normalised].length > NAME_MAX_LENGTH)
    throw badInput(`${argument} must be at most ${NAME_MAX_LENGTH} characters`, argument);
  if (FORBIDDEN_IN_TEXT.test(normalised) || BIDI_CONTROLS.test(normalised)) {
    throw badInput(`${argument} must not hold control or text-direction characters`, argument);
  }
  return normalised;
}

/** Free text such as a message: kept as written, except NFC normalisation. */
export function validText(value: string, argument: string, maxLength: number): string {
  const normalised = value.normalize('NFC');
  if (INVISIBLE.test(normalised)) throw badInput(`${argument} must not be empty`, argument);
  if ([...normalised].length > maxLength)
    throw badInput(`${argument} must be at most ${maxLength} characters`, argument);
  // Embeddings and overrides make text display in another order than it is stored (an
  // "invoice\u202Efdp.exe" shows as "invoiceexe.pdf"); isolates and marks, which right-to-left
  // writing needs, stay allowed.
  if (BIDI_OVERRIDES.test(normalised))
    throw badInput(`${argument} must not hold bidi embedding or override characters`, argument);
  if (FORBIDDEN_IN_TEXT.test(normalised.replace(/[\t\n]/g, ''))) {
    throw badInput(`${argument} must not hold control characters other than tab and newline`, argument);
  }
  return normalised;
}

const ID_PATTERN = /^[1-9][0-9]{0,14}$/;

/** A numeric id such as a chat id: a positive decimal integer without leading zeros. */
export function validId(value: string, argument: string): string {
  if (!ID_PATTERN.test(value)) throw badInput(`${argument} must be a positive whole number`, argument);
  return value;
}

export const JSON_MAX_DEPTH = 32;

/**
 * True when objects and arrays in `value` nest deeper than `maxDepth`. Walks with its own stack,
 * not by recursion: a body within the size limit can nest 50,000 deep, which would overflow the
 * call stack of any recursive walk (type-graphql's argument conversion, JSON.stringify).
 */
export function nestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    // A variable the JSON scalar already refused, placed inside a literal (`args: {a: $x}`).
    if (depth > maxDepth || item === TOO_DEEP_JSON) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * What the JSON scalar hands on for a value nested deeper than JSON_MAX_DEPTH, instead of the
 * value itself, which recursive code before the resolver (type-graphql's argument conversion)
 * cannot take; validJson refuses it, naming the argument. Never stored: serialising it throws.
 */
export const TOO_DEEP_JSON: object = Object.freeze({
  toJSON(): never {
    throw new Error('a JSON argument nested too deep reached storage: check it with validJson');
  },
});

/** Whether an optional GraphQL argument was given: left out and `null` both mean not. */
export const given = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;

/**
 * A JSON value from a client as text for storage, or undefined for null. Bounded in size and in
 * nesting, so neither Redis nor the worker that parses it meets a pathological document.
 */
export function validJson(value: unknown, argument: string, maxBytes: number): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (value === TOO_DEEP_JSON || nestedDeeperThan(value, JSON_MAX_DEPTH))
    throw badInput(`${argument} may be nested at most ${JSON_MAX_DEPTH} deep`, argument);
  const text = JSON.stringify(value);
  if (Buffer.byteLength(text) > maxBytes)
    throw badInput(`${argument} must be at most ${maxBytes} bytes of JSON`, argument);
  return text;
}

/**
 * A key that names something outside this API, such as a database row's key: kept exactly as
 * given, without normalisation, as it must match the other system's key byte for byte. 1 to
 * `maxLength` characters; no control, text-direction or lone surrogate characters.
 */
export function validKey(value: string, argument: string, maxLength = NAME_MAX_LENGTH): string {
  const length = [...value].length;
  if (length === 0) throw badInput(`${argument} must not be empty`, argument);
  if (length > maxLength) throw badInput(`${argument} must be at most ${maxLength} characters`, argument);
  if (FORBIDDEN_IN_TEXT.test(value) || BIDI_CONTROLS.test(value)) {
    throw badInput(`${argument} must not hold control or text-direction characters`, argument);
  }
  return value;
}
