// How many places each level shows: the API allows 1 to 1000.
export const LIMITS = [10, 25, 100] as const;
