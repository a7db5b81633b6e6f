// Times in the API are unix seconds (with millisecond precision); Redis and the repositories keep
// milliseconds. The conversion happens here, at the resolvers' edge, and nowhere else.

export const unixSeconds = (ms: number): number => ms / 1000;

/** null for a time that is not set. */
export const unixSecondsOrNull = (ms: number | undefined): number | null => (ms === undefined ? null : unixSeconds(ms));
