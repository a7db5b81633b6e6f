// Where a server's CPU time went, from a V8 .cpuprofile: the graphql suite's three profile tables,
// each a share of samples: self time by package (node_modules/<name>), by the product's own files
// and by Node and V8 internals; time with each on the stack; and the heaviest functions.
import fs from 'node:fs';
import type { Table } from '../harness';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string }; children?: number[] };

function placeOf({ callFrame: { url, functionName } }: ProfileNode): string {
  if (!url) return functionName.startsWith('(') ? functionName : 'V8 / native';
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (module) return module[1];
  if (url.startsWith('node:')) return 'node (core)';
  const own = /dist-bench\/(src\/.+?)\.js/.exec(url);
  return own ? `product: ${own[1]}` : url;
}

const INTERNAL = new Set(['node (core)', 'V8 / native']);

/** The tables for `peer` on `operation` over a window of `operations`, each the `top` rows, largest first. */
export function profileTables(file: string, peer: string, operation: string, operations: number, top = 12): Table[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const places = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const functions = new Map<string, number>();
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const sample of profile.samples) {
    const node = byId.get(sample);
    if (!node) continue;
    const own = placeOf(node);
    add(functions, `${node.callFrame.functionName || '(anonymous)'} (${own})`);
    // Node's and V8's own time is charged to the nearest package or file that called it.
    let charged = own;
    const onStack = new Set<string>([own]);
    for (let id = parent.get(node.id); id !== undefined; id = parent.get(id)) {
      const place = placeOf(byId.get(id)!);
      onStack.add(place);
      if (INTERNAL.has(charged) && !INTERNAL.has(place) && !place.startsWith('(')) charged = `${place} (via Node/V8)`;
    }
    add(places, charged);
    for (const place of onStack) add(inclusive, place);
  }
  const total = profile.samples.length || 1;
  const table = (title: string, header: string, map: Map<string, number>): Table => ({
    title,
    header: [header, 'share of samples'],
    rows: [...map.entries()]
      .filter(([name]) => !name.startsWith('(idle)') && !name.startsWith('(root)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => [name, `${((hits / total) * 100).toFixed(1)}%`]),
  });
  return [
    table(
      `Where ${peer}'s CPU went on ${operation}, ${operations} operations after a steady warm-up (self time by package or file; Node's own charged to its caller)`,
      'where',
      places,
    ),
    table(`${peer} on ${operation}: time with each package or file on the stack`, 'package or file', inclusive),
    table(`${peer} on ${operation}: heaviest functions (self time)`, 'function', functions),
  ];
}
