// Settings of the time-series counters: their precisions, how many samples each keeps, and the
// limits of one update.
import { z } from 'zod';
import { flag, int, parsed, type SettingDomain, type SettingsReader } from '../common/settings';
import type { CounterSettings } from './counter';

export const DEFAULT_PRECISIONS = [1, 5, 60, 300, 3600, 18000, 86400];

const MAX_SAMPLES = 100_000;

const precisionList = z.string().transform((value, context) => {
  const parts = value.split(',').map((part) => part.trim());
  const numbers = parts.map(Number);
  const valid =
    parts.length <= 16 &&
    parts.every((part) => /^\d+$/.test(part)) &&
    numbers.every((n) => n >= 1 && n <= 31_536_000) &&
    new Set(numbers).size === numbers.length;
  if (!valid) {
    context.addIssue({
      code: 'custom',
      message: `must be a comma-separated list of at most 16 distinct whole numbers of seconds from 1 to 31536000, got "${value}"`,
    });
    return z.NEVER;
  }
  return [...numbers].sort((a, b) => a - b);
});

/** `precision:samples` pairs, each precision one of the configured ones (read first). */
const retentionPairs = (precisions: readonly number[]): z.ZodType<Record<number, number>, string> =>
  z
    .string()
    .refine(
      (value) => {
        const pairs = value.split(',').map((part) => part.trim().split(':'));
        return (
          pairs.every((pair) => pair.length === 2 && pair.every((part) => /^\d+$/.test(part.trim()))) &&
          pairs.every(
            ([precision, samples]) =>
              precisions.includes(Number(precision)) && Number(samples) >= 1 && Number(samples) <= MAX_SAMPLES,
          ) &&
          new Set(pairs.map(([precision]) => Number(precision))).size === pairs.length
        );
      },
      {
        error: (issue) =>
          `must be a comma-separated list of precision:samples pairs, each precision once and one of COUNTER_PRECISIONS (${precisions.join(',')}), samples from 1 to ${MAX_SAMPLES}, got "${String(issue.input)}"`,
      },
    )
    .transform((value) =>
      Object.fromEntries(
        value
          .split(',')
          .map((part) => part.trim().split(':'))
          .map(([precision, samples]) => [Number(precision), Number(samples)]),
      ),
    );

const SETTINGS = {
  COUNTER_PRECISIONS: parsed({
    type: 'list',
    bounds: 'at most 16 distinct whole numbers from 1 to 31536000, comma-separated',
    default: DEFAULT_PRECISIONS,
    defaultText: `\`${DEFAULT_PRECISIONS.join(',')}\``,
    schema: precisionList,
    description: 'Slice lengths of every counter, in seconds.',
  }),
  COUNTER_SAMPLES: int({
    default: 120,
    min: 1,
    max: MAX_SAMPLES,
    description: 'Samples kept per counter and precision.',
  }),
  COUNTER_RETENTION: parsed({
    type: 'list',
    bounds: `\`precision:samples\` pairs, comma-separated: each precision once and one of \`COUNTER_PRECISIONS\`, samples 1 to ${MAX_SAMPLES}`,
    default: {},
    defaultText: 'none',
    schema: retentionPairs(DEFAULT_PRECISIONS),
    description: 'Samples kept at some precisions instead of `COUNTER_SAMPLES`, e.g. `1:3600,60:1440,3600:720`.',
  }),
  COUNTER_CLEANUP: flag({ default: true, description: 'Run the counter cleanup worker in this process.' }),
  COUNTER_MAX_INCREMENT: int({
    default: 1_000_000,
    min: 1,
    max: 2_147_483_647,
    description: 'Largest absolute `count` of one update.',
  }),
  COUNTER_MAX_FUTURE_SECONDS: int({
    default: 60,
    min: 0,
    max: 86_400,
    description: "How far ahead of Redis's clock an explicit `at` may be.",
  }),
} as const;

export const COUNTER_SETTINGS: SettingDomain = {
  title: 'Counters',
  summary: 'Time-series counters: the precisions they count at and the samples they keep.',
  settings: SETTINGS,
};

export interface CounterConfig extends CounterSettings {
  /** Whether this process runs the cleanup worker. */
  cleanup: boolean;
  /** Largest absolute value of one update's `count`. */
  maxIncrement: number;
}

export function readCounters(reader: SettingsReader): CounterConfig {
  const values = reader.read(SETTINGS, ['COUNTER_RETENTION']);
  const precisions = values.COUNTER_PRECISIONS;
  return {
    precisions,
    samples: values.COUNTER_SAMPLES,
    // Checked against the precisions just read, not the default ones.
    retention: reader.one('COUNTER_RETENTION', SETTINGS.COUNTER_RETENTION, retentionPairs(precisions)),
    cleanup: values.COUNTER_CLEANUP,
    maxIncrement: values.COUNTER_MAX_INCREMENT,
    maxFutureSeconds: values.COUNTER_MAX_FUTURE_SECONDS,
  };
}
