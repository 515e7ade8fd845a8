import { mkdtempSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIfStale, buildIsStale, WEATHER_BUILD, type BuildInputs } from './build.js';

/**
 * The one build lock of the e2e suites rebuilds a stale dist/: before it, the security suite had its own lock that
 * only checked that dist/ existed, so it could run a build older than the sources under test.
 */
describe('the build lock of the e2e suites', () => {
  let dir: string;
  let build: BuildInputs;
  const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'nest-mcp-build-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src/a.ts'), 'export const a = 1;\n');
    writeFileSync(join(dir, 'src/a.spec.ts'), 'it("x", () => undefined);\n');
    writeFileSync(join(dir, 'tsconfig.json'), '{}\n');
    writeFileSync(join(dir, 'out.js'), '');
    build = { outputs: [join(dir, 'out.js')], sourceDirs: [join(dir, 'src')], files: [join(dir, 'tsconfig.json')] };
    for (const path of ['src/a.ts', 'src/a.spec.ts', 'tsconfig.json']) at(join(dir, path), 1_000);
    at(join(dir, 'out.js'), 2_000);
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves a build newer than its sources alone', async () => {
    let compiled = 0;
    expect(buildIsStale(build)).toBe(false);
    expect(await buildIfStale(build, () => compiled++)).toBe(false);
    expect(compiled).toBe(0);
  });

  it('rebuilds when a source or a tsconfig is newer than the build, but not for a spec', async () => {
    at(join(dir, 'src/a.spec.ts'), 3_000);
    expect(buildIsStale(build)).toBe(false);
    at(join(dir, 'src/a.ts'), 3_000);
    let compiled = 0;
    expect(await buildIfStale(build, () => compiled++)).toBe(true);
    expect(compiled).toBe(1);
    at(join(dir, 'src/a.ts'), 1_000);
    at(join(dir, 'tsconfig.json'), 3_000);
    expect(buildIsStale(build)).toBe(true);
  });

  it('rebuilds when an output is missing', () => {
    rmSync(join(dir, 'out.js'));
    expect(buildIsStale(build)).toBe(true);
  });

  it('checks the library and the weather server sources against the built weather server', () => {
    expect(
      WEATHER_BUILD.sourceDirs.map((path) => path.slice(path.indexOf('/libs/') >= 0 ? path.indexOf('/libs/') : path.indexOf('/apps/'))),
    ).toEqual(['/libs/mcp/src', '/apps/weather-server/src']);
    expect(WEATHER_BUILD.outputs.some((path) => path.endsWith('dist/apps/weather-server/main.js'))).toBe(true);
  });
});
