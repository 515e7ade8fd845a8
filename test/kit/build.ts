import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is `test/kit/build.ts`). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The built weather server, as `npm start` runs it. */
export const WEATHER_MAIN = join(REPO_ROOT, 'dist/apps/weather-server/main.js');

/** The built helpdesk sample (`node dist/apps/helpdesk-api/main.js`). */
export const HELPDESK_MAIN = join(REPO_ROOT, 'dist/apps/helpdesk-api/main.js');

/** The built gateway sample (`node dist/apps/mcp-gateway/main.js`). */
export const GATEWAY_MAIN = join(REPO_ROOT, 'dist/apps/mcp-gateway/main.js');

/** Where the fixture server is compiled for the spawned-stdio tests (ignored by git with node_modules). */
export const FIXTURE_OUT_DIR = join(REPO_ROOT, 'node_modules/.cache/nest-mcp-transport-e2e');
export const FIXTURE_STDIO_MAIN = join(FIXTURE_OUT_DIR, 'stdio-fixture.main.js');

const LOCK_DIR = join(REPO_ROOT, 'node_modules/.cache/nest-mcp-transport-e2e.lock');

function newestMtime(dir: string, accept: (path: string) => boolean): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path, accept));
    else if (accept(path)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

const isSource = (path: string) => path.endsWith('.ts') && !path.endsWith('.spec.ts');

/** What one build reads and writes: stale when an output is missing or older than any input. */
export interface BuildInputs {
  /** Files the build emits; all must exist. */
  outputs: string[];
  /** Folders whose `.ts` sources (specs excepted) the build reads. */
  sourceDirs: string[];
  /** Single files the build reads (tsconfigs). */
  files: string[];
}

/** The library and the weather server, as `npm run build` compiles them. */
export const WEATHER_BUILD: BuildInputs = {
  outputs: [WEATHER_MAIN, 'libs/mcp/dist/index.js', 'libs/mcp/dist/.tsbuildinfo', 'dist/apps/weather-server/.tsbuildinfo'].map((path) =>
    resolve(REPO_ROOT, path),
  ),
  sourceDirs: ['libs/mcp/src', 'apps/weather-server/src'].map((path) => join(REPO_ROOT, path)),
  files: ['tsconfig.base.json', 'libs/mcp/tsconfig.lib.json', 'apps/weather-server/tsconfig.app.json'].map((path) => join(REPO_ROOT, path)),
};

/** True when an output of `build` is missing or older than any of its sources (or tsconfigs). */
export function buildIsStale(build: BuildInputs = WEATHER_BUILD): boolean {
  const built = Math.min(...build.outputs.map(mtimeOf));
  if (built === 0) return true;
  const sources = Math.max(...build.sourceDirs.map((dir) => newestMtime(dir, isSource)), ...build.files.map(mtimeOf));
  return sources > built;
}

/** Runs `fn` holding a cross-process lock (jest runs spec files in parallel workers). */
async function withLock<T>(fn: () => T | Promise<T>): Promise<T> {
  const deadline = Date.now() + 180_000;
  mkdirSync(dirname(LOCK_DIR), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      break;
    } catch {
      // A lock older than 3 minutes belongs to a dead process.
      if (Date.now() - mtimeOf(LOCK_DIR) > 180_000) rmSync(LOCK_DIR, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`could not take the build lock ${LOCK_DIR}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

let built: Promise<void> | undefined;

/**
 * Runs `compile` under the build lock when `build` is stale (checked again once the lock is held, as another worker
 * may have just built it). The one build lock of the tests: every suite that runs `dist/` goes through it.
 */
export function buildIfStale(build: BuildInputs, compile: () => void): Promise<boolean> {
  return withLock(() => {
    if (!buildIsStale(build)) return false;
    compile();
    return true;
  });
}

/** `npm run build` (tsc -b of the library and the weather server) when `dist/` is missing or stale; once per worker. */
export function ensureBuilt(): Promise<void> {
  built ??= buildIfStale(WEATHER_BUILD, () => {
    try {
      execFileSync(
        process.execPath,
        [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'libs/mcp/tsconfig.lib.json', 'apps/weather-server/tsconfig.app.json'],
        { cwd: REPO_ROOT, stdio: 'pipe', timeout: 170_000 },
      );
    } catch (error) {
      const output = error as { stdout?: Buffer; stderr?: Buffer; message: string };
      const report = `npm run build failed:\n${output.stdout?.toString() ?? ''}${output.stderr?.toString() ?? ''}${output.message}`;
      // tsc -b still emits when only type errors are found; without an entry point there is nothing to run.
      if (mtimeOf(WEATHER_MAIN) === 0 || mtimeOf(join(REPO_ROOT, 'libs/mcp/dist/index.js')) === 0)
        throw new Error(report, { cause: error });
      console.warn(`${report}\n(the emitted dist/ is used anyway)`);
    }
  }).then(() => undefined);
  return built;
}

/** The library and the helpdesk sample, as `npm run build` compiles them. */
const HELPDESK_BUILD: BuildInputs = {
  outputs: [HELPDESK_MAIN, 'libs/mcp/dist/index.js', 'dist/apps/helpdesk-api/.tsbuildinfo'].map((path) => resolve(REPO_ROOT, path)),
  sourceDirs: ['libs/mcp/src', 'apps/helpdesk-api/src'].map((path) => join(REPO_ROOT, path)),
  files: ['tsconfig.base.json', 'libs/mcp/tsconfig.lib.json', 'apps/helpdesk-api/tsconfig.app.json'].map((path) => join(REPO_ROOT, path)),
};

let helpdeskBuilt: Promise<void> | undefined;

/** Compiles the library and the helpdesk sample when `dist/` is missing or stale; once per worker. */
export function ensureHelpdeskBuilt(): Promise<void> {
  helpdeskBuilt ??= buildIfStale(HELPDESK_BUILD, () => {
    execFileSync(
      process.execPath,
      [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'libs/mcp/tsconfig.lib.json', 'apps/helpdesk-api/tsconfig.app.json'],
      { cwd: REPO_ROOT, stdio: 'pipe', timeout: 170_000 },
    );
  }).then(() => undefined);
  return helpdeskBuilt;
}

/** The library and the gateway sample, as `npm run build` compiles them. */
const GATEWAY_BUILD: BuildInputs = {
  outputs: [GATEWAY_MAIN, 'libs/mcp/dist/index.js', 'dist/apps/mcp-gateway/.tsbuildinfo'].map((path) => resolve(REPO_ROOT, path)),
  sourceDirs: ['libs/mcp/src', 'apps/mcp-gateway/src'].map((path) => join(REPO_ROOT, path)),
  files: ['tsconfig.base.json', 'libs/mcp/tsconfig.lib.json', 'apps/mcp-gateway/tsconfig.app.json'].map((path) => join(REPO_ROOT, path)),
};

let gatewayBuilt: Promise<void> | undefined;

/** Compiles the library and the gateway sample when `dist/` is missing or stale; once per worker. */
export function ensureGatewayBuilt(): Promise<void> {
  gatewayBuilt ??= buildIfStale(GATEWAY_BUILD, () => {
    execFileSync(
      process.execPath,
      [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'libs/mcp/tsconfig.lib.json', 'apps/mcp-gateway/tsconfig.app.json'],
      { cwd: REPO_ROOT, stdio: 'pipe', timeout: 170_000 },
    );
  }).then(() => undefined);
  return gatewayBuilt;
}

let fixtureCompiled: Promise<string> | undefined;

/**
 * Compiles the fixture server (`streaming-tools.module.ts` and `stdio-fixture.main.ts`) to ESM JavaScript that
 * imports the built library (`@nest-mcp/core` → `libs/mcp/dist`), so tests can spawn it as a real stdio server.
 * Returns the path of the entry point.
 */
export function ensureFixtureCompiled(): Promise<string> {
  fixtureCompiled ??= compileFixtures(['test/fixtures/streaming-tools.module.ts', 'test/fixtures/stdio-fixture.main.ts']).then(
    () => FIXTURE_STDIO_MAIN,
  );
  return fixtureCompiled;
}

/**
 * Compiles one self-contained fixture main (a repository path, `.ts`) like {@link ensureFixtureCompiled}'s: for apps
 * that need Node's own module loader, such as CommonJS packages requiring ESM-only Nest 12 (`@nestjs/throttler`),
 * which jest's loader cannot run. Returns the path of the compiled file.
 */
export async function ensureFixtureMainCompiled(source: string): Promise<string> {
  await compileFixtures([source]);
  return join(FIXTURE_OUT_DIR, source.split('/').pop()!.replace(/\.ts$/, '.js'));
}

/** Transpiles `sources` (repository paths) into {@link FIXTURE_OUT_DIR} as ESM, after building the library. */
async function compileFixtures(sources: readonly string[]): Promise<void> {
  await ensureBuilt();
  const ts = (await import('typescript')).default;
  await withLock(() => {
    mkdirSync(FIXTURE_OUT_DIR, { recursive: true });
    writeFileSync(join(FIXTURE_OUT_DIR, 'package.json'), '{ "type": "module" }\n');
    for (const source of sources) {
      const output = ts.transpileModule(readFileSync(join(REPO_ROOT, source), 'utf8'), {
        fileName: source,
        compilerOptions: {
          target: ts.ScriptTarget.ES2023,
          module: ts.ModuleKind.ES2022,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          sourceMap: false,
        },
      });
      writeFileSync(join(FIXTURE_OUT_DIR, source.split('/').pop()!.replace(/\.ts$/, '.js')), output.outputText);
    }
  });
}
