#!/usr/bin/env node
// Compiles every TypeScript block of README.md and docs/**/*.md against the built library (libs/mcp/dist, what
// `npm pack` ships), with the tsconfig Getting started tells users to write, and parses every JSON block.
//
// A block is a whole example on its own unless the line before it names it:
//   <!-- snippet: fragment -->             a piece of code shown for its shape; not compiled
//   <!-- snippet: weather/src/app.ts -->   the file src/app.ts of the example "weather": all its blocks, on any
//                                          page, are written to one folder and compiled together (a file shown on
//                                          two pages must be the same code on both)
// Examples named vitest* need vitest from the registry: .ci/pack-check compiles and runs them (and jest/*).
// Usage: node .ci/docs-snippets.mjs [--list]   (builds the library first when libs/mcp/dist is missing)
//        node .ci/docs-snippets.mjs --write <example> <dir>   writes an example's files into dir (for .ci/pack-check)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(REPO, '.docs-snippets');
const MARKER = /^<!--\s*snippet:\s*(\S+)\s*-->$/;
/** Examples .ci/pack-check runs in a fresh folder with packages this repository does not install. */
const PACK_CHECK_ONLY = /^(vitest|jest)(\/|$)/;

/** The markdown files whose code is documentation: README.md and docs/, without build output or generated pages. */
export function documentationFiles(repo = REPO) {
  const files = ['README.md'];
  const walk = (dir) => {
    for (const entry of readdirSync(join(repo, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['.vitepress', 'api', 'node_modules'].includes(entry.name)) walk(path);
      } else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk('docs');
  return files;
}

/** Every fenced block of a markdown text: its language, code, 1-based line and the snippet marker before it. */
export function codeBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    while (++i < lines.length && !lines[i].startsWith('```'));
    let before = start - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const marker = before >= 0 ? MARKER.exec(lines[before].trim())?.[1] : undefined;
    blocks.push({ lang: open[1], code: lines.slice(start + 1, i).join('\n') + '\n', line: start + 1, marker });
  }
  return blocks;
}

/**
 * The examples to compile: folder name → { file path → { code, source } }. With `everything`, also the named blocks in
 * other languages and the examples only .ci/pack-check runs (what `--write` hands it).
 */
export function examples(repo = REPO, everything = false) {
  const result = new Map();
  const add = (name, path, code, source) => {
    if (!result.has(name)) result.set(name, new Map());
    const files = result.get(name);
    // The same file shown on two pages (the quick start in README.md and Getting started) must be the same code.
    const shown = files.get(path);
    if (shown && shown.code !== code) throw new Error(`${source}: ${name}/${path} differs from ${shown.source}`);
    if (!shown) files.set(path, { code, source });
  };
  for (const file of documentationFiles(repo)) {
    for (const block of codeBlocks(readFileSync(join(repo, file), 'utf8'))) {
      if (block.marker === 'fragment' || (!['ts', 'typescript'].includes(block.lang) && !(everything && block.marker))) continue;
      const source = `${file}:${block.line}`;
      if (block.marker) {
        const [name, ...path] = block.marker.split('/');
        if (path.length === 0) throw new Error(`${source}: snippet marker "${block.marker}" names no file (example/path.ts)`);
        if (everything || !PACK_CHECK_ONLY.test(block.marker)) add(name, path.join('/'), block.code, source);
      } else {
        add(`${file.replace(/[^\w]+/g, '-')}-L${block.line}`, 'main.ts', block.code, source);
      }
    }
  }
  return result;
}

/** The tarball `npm pack` writes is named by the package's version: every page that names it must name this one. */
function checkTarballNames(repo = REPO) {
  const { version } = JSON.parse(readFileSync(join(repo, 'libs/mcp/package.json'), 'utf8'));
  const stale = [];
  for (const file of documentationFiles(repo)) {
    for (const match of readFileSync(join(repo, file), 'utf8').matchAll(/nest-mcp-core-(\d+\.\d+\.\d+[^\s.]*)\.tgz/g)) {
      if (match[1] !== version) stale.push(`${file}: nest-mcp-core-${match[1]}.tgz`);
    }
  }
  if (stale.length > 0) throw new Error(`pages name a tarball of another version than libs/mcp (${version}):\n  ${stale.join('\n  ')}`);
}

/** Every JSON block (a host's config, an answer) is JSON a user can paste: it parses. */
function checkJsonBlocks(repo = REPO) {
  const broken = [];
  for (const file of documentationFiles(repo)) {
    for (const block of codeBlocks(readFileSync(join(repo, file), 'utf8'))) {
      if (block.lang !== 'json') continue;
      try {
        JSON.parse(block.code);
      } catch (error) {
        broken.push(`${file}:${block.line}: ${error.message}`);
      }
    }
  }
  if (broken.length > 0) throw new Error(`JSON blocks that do not parse:\n  ${broken.join('\n  ')}`);
}

function main() {
  const started = Date.now();
  const write = process.argv.indexOf('--write');
  if (write > 0) {
    const [name, dir] = process.argv.slice(write + 1);
    const files = examples(REPO, true).get(name);
    if (!files || !dir) throw new Error(`--write <example> <dir>: no example named ${name}`);
    for (const [path, { code }] of files) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), code);
    }
    console.log(`::: docs-snippets: example ${name} (${[...files.keys()].join(', ')}) written to ${dir}`);
    return;
  }
  checkTarballNames();
  checkJsonBlocks();
  const all = examples();
  if (process.argv.includes('--list')) {
    for (const [name, files] of all) for (const [path, { source }] of files) console.log(`${name}/${path}\t${source}`);
    return;
  }
  if (!existsSync(join(REPO, 'libs/mcp/dist/index.js'))) {
    console.log('::: docs-snippets: building the library');
    execFileSync(join(REPO, 'node_modules/.bin/tsc'), ['-b', 'libs/mcp/tsconfig.lib.json'], { cwd: REPO, stdio: 'inherit' });
  }
  rmSync(OUT, { recursive: true, force: true });
  const sources = new Map();
  for (const [name, files] of all) {
    for (const [path, { code, source }] of files) {
      const target = join(OUT, name, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, code);
      sources.set(relative(OUT, target), source);
    }
  }
  // The tsconfig of Getting started, without emit; every file a module of its own; jest's globals for specs.
  const tsconfig = {
    compilerOptions: {
      target: 'ES2023',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      strict: true,
      strictPropertyInitialization: false,
      skipLibCheck: true,
      types: ['node'],
      moduleDetection: 'force',
      noEmit: true,
    },
    include: ['**/*.ts'],
  };
  writeFileSync(join(OUT, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  const run = spawnSync(join(REPO, 'node_modules/.bin/tsc'), ['-p', join(OUT, 'tsconfig.json'), '--pretty', 'false'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  const output = (run.stdout + run.stderr).replace(/^\.docs-snippets\/([^(]+)\((\d+),(\d+)\)/gm, (whole, file, line) => {
    const source = sources.get(file);
    if (!source) return whole;
    const [md, start] = source.split(/:(?=\d+$)/);
    return `${md}:${Number(start) + Number(line)} (${file})`;
  });
  rmSync(OUT, { recursive: true, force: true });
  const count = [...all.values()].reduce((n, files) => n + files.size, 0);
  if (run.status !== 0) {
    process.stderr.write(output);
    console.error(`::: docs-snippets FAILED: ${count} blocks in ${all.size} examples do not all compile`);
    process.exit(1);
  }
  console.log(`::: docs-snippets: ${count} TypeScript blocks in ${all.size} examples compile (${Date.now() - started} ms)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
