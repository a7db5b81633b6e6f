// GraphQL enums from the string unions the repositories define, so both share one list of values.
export const enumOf = <T extends string>(values: readonly T[]): Record<T, T> =>
  Object.fromEntries(values.map((value) => [value, value])) as Record<T, T>;
