// Redis orders members of equal score, and lexicographic ranges, by their UTF-8 bytes. JavaScript
// compares strings by UTF-16 code units, which differs beyond the Basic Multilingual Plane.

export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
