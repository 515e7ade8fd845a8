#!/usr/bin/env node
// `node bench/ab-in-process.mjs <before-tree> <after-tree> [--pairs 10] [--variants one,dto8]`
// Same-machine A/B of the in-process pipeline: CPU per `tools/call` through McpTestClient (no socket), in alternating
// child processes of two built checkouts (`npm run build` in each), the order swapped every pair. Each process gives
// its fastest sample (noise only adds), each pair a ratio; the median ratio and its range are printed.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : fallback);
const [before, after] = argv.filter((arg, i) => !arg.startsWith('--') && !argv[i - 1]?.startsWith('--')).map((tree) => path.resolve(tree));
if (!before || !after) throw new Error('usage: node bench/ab-in-process.mjs <before-tree> <after-tree> [--pairs N] [--variants one,dto8]');
const pairs = Number(option('pairs', 10));
const variants = option('variants', 'one,dto8').split(',');

// The harness must resolve the tree's own packages: it runs from the tree's node_modules/.cache.
const harness = fileURLToPath(new URL('./in-process.mjs', import.meta.url));
const placed = (tree) => path.join(tree, 'node_modules/.cache/nest-mcp-in-process.mjs');
for (const tree of [before, after]) {
  mkdirSync(path.dirname(placed(tree)), { recursive: true });
  copyFileSync(harness, placed(tree));
}
const fastest = (tree, variant) =>
  Math.min(...JSON.parse(execFileSync(process.execPath, [placed(tree), variant, '9', '2000'], { encoding: 'utf8' })).samples);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

for (const variant of variants) {
  const rows = [];
  for (let pair = 0; pair < pairs; pair++) {
    const first = pair % 2 ? after : before;
    const a = fastest(first, variant);
    const b = fastest(first === before ? after : before, variant);
    rows.push(first === before ? { before: a, after: b } : { before: b, after: a });
  }
  const ratios = rows.map((row) => row.after / row.before).sort((a, b) => a - b);
  console.log(
    `${variant.padEnd(5)} µs of CPU per call: before ${median(rows.map((r) => r.before)).toFixed(2)}, after ${median(rows.map((r) => r.after)).toFixed(2)}` +
      ` | after ÷ before: median ${median(ratios).toFixed(3)}, range ${ratios[0].toFixed(3)}–${ratios.at(-1).toFixed(3)} (${pairs} pairs)`,
  );
}
