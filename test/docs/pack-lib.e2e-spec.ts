import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../kit/build.js';

const run = promisify(execFile);

/**
 * `npm pack` of the library builds it first (issue 41 item 1): without a build, npm wrote a 3-file tarball with no
 * code. The library's package.json and tsconfig are copied with a one-line source into a scratch monorepo (its
 * node_modules linked to the repository's), so the check never writes to the real libs/mcp/dist.
 */
describe('npm pack of libs/mcp', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'nest-mcp-pack-'));
    mkdirSync(join(root, 'libs/mcp/src/testing'), { recursive: true });
    copyFileSync(join(REPO_ROOT, 'tsconfig.base.json'), join(root, 'tsconfig.base.json'));
    for (const file of ['package.json', 'tsconfig.lib.json']) {
      copyFileSync(join(REPO_ROOT, 'libs/mcp', file), join(root, 'libs/mcp', file));
    }
    writeFileSync(join(root, 'libs/mcp/src/index.ts'), 'export const greeting = "hello";\n');
    writeFileSync(join(root, 'libs/mcp/src/testing/index.ts'), 'export const testing = true;\n');
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('builds dist/ before packing, so the tarball always carries the code', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], {
      cwd: join(root, 'libs/mcp'),
    });
    const [{ files }] = JSON.parse(stdout) as [{ files: { path: string }[] }];
    expect(files.map((file) => file.path).sort()).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/testing/index.js', 'dist/testing/index.d.ts']),
    );
  }, 60_000);
});
