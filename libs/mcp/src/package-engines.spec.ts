import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = join(PACKAGE_DIR, '..', '..');

type Manifest = { engines?: { node?: string }; dependencies?: Record<string, string> };
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as unknown;

/** The lowest Node version a simple `engines.node` range admits (`>=22.12`, `^18.0.0`, `>= 14 || >= 16`); `0.0.0` when open. */
function lowestNode(range = '*'): number[] {
  const lows = range.split('||').map((alternative) => {
    const match = /(?:>=|\^|~)?\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(alternative.trim());
    return match ? [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] : [0, 0, 0];
  });
  return lows.sort(compare)[0];
}

function compare(a: number[], b: number[]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * The Node versions @nest-mcp/core declares are true of what it installs (issue 41 item 6: `eventsource-parser@4`
 * declares Node 22.12 while the library says 20.19): each runtime dependency, as the lockfile resolves it, runs on
 * the library's lowest Node.
 */
describe("the library's engines", () => {
  it('admit every runtime dependency the lockfile resolves', () => {
    const library = read(join(PACKAGE_DIR, 'package.json')) as Manifest;
    const lock = read(join(REPO, 'package-lock.json')) as { packages: Record<string, Manifest & { version: string }> };
    const lowest = lowestNode(library.engines?.node);
    const later = Object.keys(library.dependencies ?? {}).flatMap((name) => {
      const resolved = lock.packages[`libs/mcp/node_modules/${name}`] ?? lock.packages[`node_modules/${name}`];
      const needs = lowestNode(resolved?.engines?.node);
      return compare(needs, lowest) > 0 ? [`${name}@${resolved?.version} needs Node ${resolved?.engines?.node}`] : [];
    });
    expect(later).toEqual([]);
  });
});
