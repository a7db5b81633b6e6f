// Input checks shared by every resolver. A name that passes `validName` is safe to put in a Redis
// key: it never holds `{`, `}`, `:`, whitespace or control characters.
import { badInput } from './errors';

export const NAME_MAX_LENGTH = 128;

/** Documented in the schema wherever a name argument appears. */
export const NAME_RULE =
  `1 to ${NAME_MAX_LENGTH} characters: Unicode letters, digits, marks and _ - . / @ (compared after NFC normalisation)`;

const NAME_PATTERN = /^[\p{L}\p{N}\p{M}_\-./@]+$/u;

/** Returns the NFC form of `value`, so visually equal names share one key. */
export function validName(value: string, argument: string, maxLength = NAME_MAX_LENGTH): string {
  const normalised = value.normalize('NFC');
  const length = [...normalised].length;
  if (length === 0) throw badInput(`${argument} must not be empty`, argument);
  if (length > maxLength) throw badInput(`${argument} must be at most ${maxLength} characters`, argument);
  if (!NAME_PATTERN.test(normalised)) {
    throw badInput(`${argument} may hold only Unicode letters, digits, marks and _ - . / @`, argument);
  }
  return normalised;
}

export function intInRange(value: number, argument: string, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw badInput(`${argument} must be an integer from ${min} to ${max}`, argument);
  }
  return value;
}
