// Case-insensitive matching for autocomplete. JavaScript has no Unicode case folding, so this
// approximates it the way the Unicode fold tables mostly behave: upper-case then lower-case
// (ß -> SS -> ss, ﬁ -> FI -> fi), with two fixes where that round trip falls short: the final
// sigma made ordinary (lower-casing gives "ς" for a "Σ" that ends a word, so the prefix "ΟΔΟΣ"
// would not find "Οδοσα"), and the capital sharp s "ẞ", which upper-cases to itself, made "ss".
// Never locale-dependent. tests/unit/fold.test.ts checks every letter, digit and mark: a character,
// its lower and its upper case fold alike, and folding twice changes nothing.

// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included
const ASCII = /^[\x00-\x7f]*$/;
const COMBINING_MARK = /\p{M}/u;

/**
 * The form in which names and prefixes are compared, in NFC like every name we store. Runs for
 * every contact on every keystroke, so it skips what cannot change the result: ASCII only needs
 * lower-casing, and text without combining marks has nothing for NFC to compose (normalising is
 * most of the cost otherwise; bench/autocomplete.ts).
 */
export function foldCase(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  const folded = text.toUpperCase().toLowerCase().replace(/ς/g, 'σ').replace(/ß/g, 'ss');
  return COMBINING_MARK.test(folded) ? folded.normalize('NFC') : folded;
}
