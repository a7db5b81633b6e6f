// Every Redis key name is built here. The part in {braces} is the Redis Cluster hash tag: keys
// that one script touches always share it, so each script runs unchanged on a cluster.
// Names from users reach this module only after `validName` (no braces, colons or spaces).

/**
 * Counters are spread over a fixed number of buckets by a hash of their name. One counter's
 * sample hashes and the known-counter sets of its bucket share the bucket's tag, so one update
 * is one atomic script; the buckets spread the counters over cluster slots.
 * Changing this number would strand existing data, so it is not configuration.
 */
export const COUNTER_BUCKETS = 16;

export function counterBucket(name: string): string {
  return (fnv1a32(name) % COUNTER_BUCKETS).toString(16).padStart(2, '0');
}

export const counterBuckets = (): string[] =>
  Array.from({ length: COUNTER_BUCKETS }, (_, i) => i.toString(16).padStart(2, '0'));

export const counterKeys = {
  /** zset, score 0, members are counter names with samples at this precision (the book's `known:`). */
  known: (bucket: string, precision: number): string => `ctr:{ctr-${bucket}}:known:${precision}`,
  /** hash from slice start (unix seconds) to count (the book's `count:<prec>:<name>`). */
  samples: (name: string, precision: number): string => `ctr:{ctr-${counterBucket(name)}}:s:${precision}:${name}`,
  /** Short lease so that one instance at a time cleans a precision. */
  cleanupLease: (precision: number): string => `ctr:{ctr-meta}:cleanup:${precision}`,
};

function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
