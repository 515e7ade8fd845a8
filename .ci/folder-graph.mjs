#!/usr/bin/env node
// The folder graph of libs/mcp/src, from the code: every import between two top folders (type-only imports counted),
// then the strongly connected components. A component of more than one folder is a cycle.
// Usage: node .ci/folder-graph.mjs [--picture]   (runs dependency-cruiser with the project's config; --picture: each
// room, highest first, with the rooms it imports)
import { execFileSync } from 'node:child_process';

const LIB = 'libs/mcp/src/';
const cruise = () => {
  try {
    return execFileSync('npx', ['depcruise', LIB, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch (error) {
    return error.stdout; // a rule broken: the graph is still the graph
  }
};
const json = cruise();
const roomOf = (path) => {
  if (!path.startsWith(LIB)) return undefined;
  const rest = path.slice(LIB.length);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : undefined; // files at the top are the faces
};

const edges = new Map(); // "from>to" → { value, type }
for (const module of JSON.parse(json).modules) {
  if (module.source.endsWith('.spec.ts')) continue;
  const from = roomOf(module.source);
  if (!from) continue;
  for (const dep of module.dependencies) {
    const to = roomOf(dep.resolved);
    if (!to || to === from) continue;
    const key = `${from}>${to}`;
    const count = edges.get(key) ?? { value: 0, type: 0 };
    if (dep.dependencyTypes.includes('type-only')) count.type++;
    else count.value++;
    edges.set(key, count);
  }
}

// Tarjan's strongly connected components.
const next = new Map();
for (const key of edges.keys()) {
  const [from, to] = key.split('>');
  if (!next.has(from)) next.set(from, []);
  if (!next.has(to)) next.set(to, []);
  next.get(from).push(to);
}
const index = new Map();
const low = new Map();
const stack = [];
const components = [];
let counter = 0;
const visit = (node) => {
  index.set(node, counter);
  low.set(node, counter++);
  stack.push(node);
  for (const to of next.get(node)) {
    if (!index.has(to)) {
      visit(to);
      low.set(node, Math.min(low.get(node), low.get(to)));
    } else if (stack.includes(to)) low.set(node, Math.min(low.get(node), index.get(to)));
  }
  if (low.get(node) === index.get(node)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      component.push(member);
    } while (member !== node);
    components.push(component.sort());
  }
};
for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);

const sorted = [...edges.entries()].sort(([a], [b]) => a.localeCompare(b));
// The height of a room: 0 for one that imports no other, else one more than the highest room it imports.
const height = new Map();
const heightOf = (node, seen = new Set()) => {
  if (height.has(node)) return height.get(node);
  if (seen.has(node)) return 0; // a cycle: the listing below names it
  seen.add(node);
  const value = Math.max(-1, ...next.get(node).map((to) => heightOf(to, seen))) + 1;
  height.set(node, value);
  return value;
};
if (process.argv.includes('--picture')) {
  const rooms = [...next.keys()].sort((a, b) => heightOf(b) - heightOf(a) || a.localeCompare(b));
  const width = Math.max(...rooms.map((room) => room.length));
  for (const room of rooms) {
    const below = next.get(room).sort((a, b) => heightOf(b) - heightOf(a) || a.localeCompare(b));
    console.log(`${room.padEnd(width)}  ${below.length ? `→ ${below.join(', ')}` : ''}`.trimEnd());
  }
} else {
  for (const [key, { value, type }] of sorted) console.log(`${key.replace('>', ' -> ')}  value ${value}  type ${type}`);
  const cycles = components.filter((c) => c.length > 1);
  console.log(`\n${cycles.length} cycle(s) among ${next.size} folders`);
  for (const cycle of cycles) console.log(`  { ${cycle.join(', ')} }`);
}
process.exitCode = components.some((c) => c.length > 1) ? 1 : 0;
