import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// Transports frame bytes and hand the era router an era-neutral channel: no file of theirs names an era, in its path,
// its exported names or its code. (The dependency rule `transports-enter-eras-by-the-router` keeps them out of eras/rev-*.)
const here = dirname(fileURLToPath(import.meta.url));
const files = (readdirSync(here, { recursive: true }) as string[]).filter((path) => path.endsWith('.ts') && !path.endsWith('.spec.ts'));
/** A revision date (`2026-07-28`), an era's folder (`rev-2025-…`) or an era's identifier (`Rev20260728…`). */
const ERA = /\d{4}-\d{2}-\d{2}|rev-\d|Rev\d{8}/i;

describe('transports are era-blind', () => {
  it('finds the transport files', () => {
    expect(files).toEqual(expect.arrayContaining(['http/mcp-http.transport.ts', 'stdio/stdio.transport.ts', 'sse/http-sse.transport.ts']));
  });

  it('no transport file has an era in its path', () => {
    expect(files.filter((path) => ERA.test(path))).toEqual([]);
  });

  it('no transport file names an era or imports from an era, in its code or its comments', () => {
    const naming = files
      .map((path) => ({ path: relative(here, join(here, path)), match: ERA.exec(readFileSync(join(here, path), 'utf8'))?.[0] }))
      .filter(({ match }) => match !== undefined);
    expect(naming).toEqual([]);
  });
});
