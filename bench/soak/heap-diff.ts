// Compares two V8 heap snapshots (the soak's --heap-snapshots) by constructor: what each kind of
// object counts and holds, and what grew between them; a leak is a count rising with the load.
import fs from 'node:fs';

/** [count, self bytes] by constructor (strings, code and the like by their type alone). */
function kinds(file: string): Map<string, [number, number]> {
  const heap = JSON.parse(fs.readFileSync(file, 'utf8'));
  const { node_fields: fields, node_types: types } = heap.snapshot.meta;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const byKind = new Map<string, [number, number]>();
  for (let i = 0; i < heap.nodes.length; i += fields.length) {
    const type: string = types[0][heap.nodes[i + typeAt]];
    // A string's or a number's "name" is its value: one group for each such type instead.
    const named = ['object', 'closure', 'native'].includes(type);
    const kind = named ? `${heap.strings[heap.nodes[i + nameAt]]} (${type})` : `(${type})`;
    const [count, bytes] = byKind.get(kind) ?? [0, 0];
    byKind.set(kind, [count + 1, bytes + heap.nodes[i + sizeAt]]);
  }
  return byKind;
}

const [before, after, rows = '25'] = process.argv.slice(2);
if (!before || !after) {
  console.error('usage: node dist-bench/bench/soak/heap-diff.js before.heapsnapshot after.heapsnapshot [rows]');
  process.exit(2);
}
const [a, b] = [kinds(before), kinds(after)];
const kb = (bytes: number): number => Math.round(bytes / 1024);
const total = (m: Map<string, [number, number]>): number[] =>
  [...m.values()].reduce(([c, s], [count, bytes]) => [c + count, s + bytes], [0, 0]);
const [[countA, bytesA], [countB, bytesB]] = [total(a), total(b)];
console.log(
  `objects ${countA} -> ${countB} (${countB - countA}), self size ${kb(bytesA)} -> ${kb(bytesB)} KB (${kb(bytesB - bytesA)})`,
);
const diff = [...new Set([...a.keys(), ...b.keys()])].map((kind) => {
  const [[count0, bytes0], [count1, bytes1]] = [a.get(kind) ?? [0, 0], b.get(kind) ?? [0, 0]];
  return { kind, count: count1, countAdded: count1 - count0, kb: kb(bytes1), kbAdded: kb(bytes1 - bytes0) };
});
for (const [title, key] of [
  ['grew most by size (KB)', 'kbAdded'],
  ['grew most by count', 'countAdded'],
] as const) {
  console.log(`\n${title}`);
  console.table(diff.sort((p, q) => q[key] - p[key]).slice(0, Number(rows)));
}
