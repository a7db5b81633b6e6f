// Compares two V8 heap snapshots (the soak takes them of an API process with SIGUSR2) by
// constructor: what each kind of object counts and holds in each, and what grew between them.
// A leak shows as a constructor whose count keeps rising with the load while the rest stay flat.
//
//   node dist-bench/bench/soak/heap-diff.js before.heapsnapshot after.heapsnapshot [rows]
import fs from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

interface Kind {
  count: number;
  bytes: number;
}

/** Objects grouped by constructor (strings, code and the like by their type alone). */
function kinds(file: string): Map<string, Kind> {
  const heap = JSON.parse(fs.readFileSync(file, 'utf8')) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const byKind = new Map<string, Kind>();
  for (let i = 0; i < heap.nodes.length; i += fields.length) {
    const type = types[heap.nodes[i + typeAt]];
    // A string's or a number's "name" is its value: one group for each such type instead.
    const named = type === 'object' || type === 'closure' || type === 'native';
    const kind = named ? `${heap.strings[heap.nodes[i + nameAt]]} (${type})` : `(${type})`;
    const entry = byKind.get(kind) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += heap.nodes[i + sizeAt];
    byKind.set(kind, entry);
  }
  return byKind;
}

function main(): void {
  const [before, after, rowsArg] = process.argv.slice(2);
  if (!before || !after) {
    console.error('usage: node dist-bench/bench/soak/heap-diff.js before.heapsnapshot after.heapsnapshot [rows]');
    process.exit(2);
  }
  const rows = Number(rowsArg ?? 25);
  const [a, b] = [kinds(before), kinds(after)];
  const total = (m: Map<string, Kind>): Kind =>
    [...m.values()].reduce((t, k) => ({ count: t.count + k.count, bytes: t.bytes + k.bytes }), { count: 0, bytes: 0 });
  const [ta, tb] = [total(a), total(b)];
  console.log(
    `objects ${ta.count} -> ${tb.count} (${tb.count - ta.count}), self size ${kb(ta.bytes)} -> ${kb(tb.bytes)} KB (${kb(tb.bytes - ta.bytes)})`,
  );
  const diff = [...new Set([...a.keys(), ...b.keys()])].map((kind) => {
    const [x, y] = [a.get(kind) ?? { count: 0, bytes: 0 }, b.get(kind) ?? { count: 0, bytes: 0 }];
    return { kind, count: y.count, countAdded: y.count - x.count, kb: kb(y.bytes), kbAdded: kb(y.bytes - x.bytes) };
  });
  for (const [title, key] of [
    ['grew most by size (KB)', 'kbAdded'],
    ['grew most by count', 'countAdded'],
  ] as const) {
    console.log(`\n${title}`);
    console.table(diff.sort((p, q) => q[key] - p[key]).slice(0, rows));
  }
}

const kb = (bytes: number): number => Math.round(bytes / 1024);

main();
