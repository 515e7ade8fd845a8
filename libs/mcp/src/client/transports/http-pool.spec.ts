import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The pool is undici's: the repository's root installs undici 8 (Node ≥ 22.19) for its tools, the library depends on
 * undici 7 (Node 20). What this folder resolves, as the built `dist` beside it does, must be the library's own.
 */
describe('the undici the HTTP pool runs on', () => {
  it("is the library's dependency (undici 7, which runs on Node 20), not the repository root's", () => {
    const resolved = createRequire(join(here, 'http-pool.ts')).resolve('undici/package.json');
    const version = (JSON.parse(readFileSync(resolved, 'utf8')) as { version: string }).version;
    const wanted = (JSON.parse(readFileSync(join(here, '../../../package.json'), 'utf8')) as { dependencies: Record<string, string> })
      .dependencies.undici;
    expect(wanted).toMatch(/^\^7\./);
    expect(version.split('.')[0]).toBe('7');
  });
});
