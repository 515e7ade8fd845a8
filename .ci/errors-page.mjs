#!/usr/bin/env node
// Writes the Boot errors and warnings tables of docs/errors.md (between its boot-errors markers) from the one catalogue,
// libs/mcp/src/boot-error.catalogue.ts, as built into libs/mcp/dist (built first: `tsc -b` only redoes what changed).
// Usage: node .ci/errors-page.mjs            rewrites the page
//        node .ci/errors-page.mjs --check    exits 1 when the page differs from what the catalogue gives
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = join(REPO, 'docs', 'errors.md');
const DIST = join(REPO, 'libs', 'mcp', 'dist');

execFileSync(join(REPO, 'node_modules', '.bin', 'tsc'), ['-b', 'libs/mcp/tsconfig.lib.json'], { cwd: REPO, stdio: 'inherit' });
const { MCP_BOOT_ERROR_CATALOGUE } = await import(pathToFileURL(join(DIST, 'boot-error.catalogue.js')).href);
const { withBootErrorTables } = await import(pathToFileURL(join(DIST, 'core', 'errors', 'boot-errors.page.js')).href);

const page = readFileSync(PAGE, 'utf8');
const generated = withBootErrorTables(page, MCP_BOOT_ERROR_CATALOGUE);
if (process.argv.includes('--check')) {
  if (generated !== page) {
    console.error('docs/errors.md: the Boot errors tables differ from the catalogue; run npm run docs:errors');
    process.exit(1);
  }
  console.log('docs/errors.md: the Boot errors tables are the catalogue');
} else if (generated !== page) {
  writeFileSync(PAGE, generated);
  console.log('docs/errors.md: Boot errors tables written from the catalogue');
} else console.log('docs/errors.md: already the catalogue');
