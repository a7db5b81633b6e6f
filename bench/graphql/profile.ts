// Where a server's CPU time went, from a V8 .cpuprofile (node --cpu-prof): self time summed by
// package (node_modules/<name>), by the product's own files, and by Node and V8 internals.
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

export interface ProfileSummary {
  /** [where, share of samples], largest first; Node's and V8's own time is charged to the nearest package or file that called it. */
  byPlace: [string, number][];
  /** [package or file, share of samples with it anywhere on the stack], largest first. */
  inclusive: [string, number][];
  /** [function (where), share], largest first. */
  byFunction: [string, number][];
}

function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : 'V8 / native';
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (module) return module[1];
  if (url.startsWith('node:')) return 'node (core)';
  const own = /dist-bench\/(src\/.+?)\.js/.exec(url);
  return own ? `product: ${own[1]}` : url;
}

const INTERNAL = new Set(['node (core)', 'V8 / native']);

export function summarizeProfile(file: string, top = 12): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const placeOfNode = (node: ProfileNode): string => placeOf(node.callFrame.url, node.callFrame.functionName);
  const places = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const functions = new Map<string, number>();
  const add = (map: Map<string, number>, key: string): void => {
    map.set(key, (map.get(key) ?? 0) + 1);
  };
  for (const sample of profile.samples) {
    const node = byId.get(sample);
    if (!node) continue;
    const own = placeOfNode(node);
    add(functions, `${node.callFrame.functionName || '(anonymous)'} (${own})`);
    let charged = own;
    const onStack = new Set<string>([own]);
    for (let id = parent.get(node.id); id !== undefined; id = parent.get(id)) {
      const place = placeOfNode(byId.get(id)!);
      onStack.add(place);
      if (INTERNAL.has(charged) && !INTERNAL.has(place) && !place.startsWith('(')) charged = `${place} (via Node/V8)`;
    }
    add(places, charged);
    for (const place of onStack) add(inclusive, place);
  }
  const total = profile.samples.length || 1;
  const ranked = (map: Map<string, number>): [string, number][] =>
    [...map.entries()]
      .filter(([name]) => !name.startsWith('(idle)') && !name.startsWith('(root)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => [name, hits / total]);
  return { byPlace: ranked(places), inclusive: ranked(inclusive), byFunction: ranked(functions) };
}
