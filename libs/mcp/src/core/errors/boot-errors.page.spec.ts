import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MCP_BOOT_ERROR_CATALOGUE } from '../../boot-error.catalogue.js';
import type { AnyBootErrorBuilder, AnyBootErrorEntry } from './boot-errors.js';
import { bootErrorTables, parameterNames, shownMessage, withBootErrorTables } from './boot-errors.page.js';
import { MCP_ERROR_CODES } from './error-codes.js';

const LIBRARY = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PAGE = join(LIBRARY, '..', '..', '..', 'docs', 'errors.md');
const REFERENCE = readFileSync(PAGE, 'utf8');
const CODE_PATTERN = /^MCP_ERR_[A-Z0-9]+(_[A-Z0-9]+)+$/;
const WARNING_PATTERN = /^MCP_WARN_[A-Z0-9]+(_[A-Z0-9]+)+$/;
const CATALOGUE = MCP_BOOT_ERROR_CATALOGUE.flatMap((section) => section.errors);

/** Every library source file (specs aside), relative to libs/mcp/src. */
function sourceFiles(folder = LIBRARY): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [relative(LIBRARY, path)] : [];
  });
}

/** The boot error and warning builders each area's messages file declares: file, the name a throw site calls, builder. */
async function declaredBuilders(): Promise<Array<{ file: string; name: string; builder: AnyBootErrorBuilder }>> {
  const found: Array<{ file: string; name: string; builder: AnyBootErrorBuilder }> = [];
  for (const file of sourceFiles().filter((path) => path.endsWith('.messages.ts'))) {
    // Loaded by path, so that an area whose entries the catalogue forgot is found too.
    const module = (await import(pathToFileURL(join(LIBRARY, file)).href)) as Record<string, unknown>;
    for (const area of Object.values(module)) {
      if (typeof area !== 'object' || area === null) continue;
      for (const [name, builder] of Object.entries(area)) {
        if (
          typeof builder === 'function' &&
          typeof (builder as { code?: unknown }).code === 'string' &&
          !found.some((f) => f.builder === builder)
        ) {
          found.push({ file, name, builder: builder as AnyBootErrorBuilder });
        }
      }
    }
  }
  return found;
}

/**
 * What each `new McpConfigurationError(…)` of a source is given, at its own level: the text of nested calls and of
 * string literals left out, so `Area.entry(site, 'x')` reads `Area.entry()` and a bare `'text'` reads `''`.
 */
function thrownDetails(source: string): string[] {
  const details: string[] = [];
  for (let at = source.indexOf('new McpConfigurationError('); at >= 0; at = source.indexOf('new McpConfigurationError(', at + 1)) {
    let depth = 0;
    let quote: string | undefined;
    let outer = '';
    for (let i = at + 'new McpConfigurationError('.length; i < source.length; i++) {
      const char = source[i];
      if (quote) {
        if (char === '\\') i++;
        else if (char === quote) quote = undefined;
        if (!quote && depth === 0) outer += char;
        continue;
      }
      if (char === "'" || char === '"' || char === '`') {
        quote = char;
        if (depth === 0) outer += char;
        continue;
      }
      if ('([{'.includes(char)) depth++;
      if (')]}'.includes(char)) depth--;
      if (depth < 0) break;
      if (depth === 0 || (depth === 1 && '([{'.includes(char))) outer += char;
    }
    details.push(outer.trim());
  }
  return details;
}

describe('the boot error catalogue', () => {
  it('gives every entry its own well-formed code, a fix and a message the page can show', async () => {
    const declared = await declaredBuilders();
    expect(declared.length).toBeGreaterThan(80);
    expect(declared.filter(({ builder }) => !CODE_PATTERN.test(builder.code) && !WARNING_PATTERN.test(builder.code))).toEqual([]);
    const seen = new Set<string>();
    expect(
      declared.filter(({ builder }) => seen.has(builder.code) || !seen.add(builder.code)).map(({ file, builder }) => [file, builder.code]),
    ).toEqual([]);
    for (const { entry } of CATALOGUE) {
      expect([entry.code, entry.fix.trim().length > 0]).toEqual([entry.code, true]);
      const shown = shownMessage(entry);
      expect([entry.code, /undefined|\[object /.test(shown)]).toEqual([entry.code, false]);
      // a name `shown` gives for an argument the builder no longer has would go unseen
      const names = Object.keys(entry.shown ?? {});
      expect([entry.code, names.filter((name) => !parameterNames(entry).includes(name))]).toEqual([entry.code, []]);
    }
  });

  it("shows each argument by its parameter's name, a default only where `shown` names it, and refuses what has no name", () => {
    const entry = (message: AnyBootErrorEntry['message'], shown?: Record<string, unknown>): AnyBootErrorEntry => ({
      code: 'MCP_ERR_X_Y',
      message,
      fix: 'x',
      shown,
    });
    const taken = (site: string, existing: string, what = 'tool name') => `${site}: the ${what} is taken by ${existing}.`;
    expect(shownMessage(entry(taken))).toBe('<site>: the tool name is taken by <existing>.');
    expect(shownMessage(entry(taken, { what: 'uri', existing: 'a <b>' }))).toBe('<site>: the <uri> is taken by a <b>.');
    expect(shownMessage(entry(() => 'No arguments.'))).toBe('No arguments.');
    const list = (names: readonly string[], at?: string) => `${at ?? 'anywhere'}: ${names.join(' and ')}.`;
    expect(shownMessage(entry(list, { names: ['<a>', '<b>'], at: undefined }))).toBe('anywhere: <a> and <b>.');
    expect(() => parameterNames(entry(({ site }: { site: string }) => site))).toThrow(
      'MCP_ERR_X_Y: the message builder must be an arrow function with plain parameters (no destructuring or rest)',
    );
    expect(() => parameterNames(entry((...names: string[]) => names.join()))).toThrow('no destructuring or rest');
  });

  it('holds every boot error and warning an area declares, once', async () => {
    const listed = new Set(CATALOGUE);
    expect(CATALOGUE.length).toBe(listed.size);
    const declared = await declaredBuilders();
    expect(declared.filter(({ builder }) => !listed.has(builder)).map(({ file, builder }) => `${file}: ${builder.code}`)).toEqual([]);
  });

  it('is what docs/errors.md shows: the Boot errors and warnings tables are generated from it (npm run docs:errors)', () => {
    expect(bootErrorTables(MCP_BOOT_ERROR_CATALOGUE)).toContain('| `MCP_ERR_TOOL_NAME_DUPLICATE` | `Tool name "<name>" is declared twice');
    expect(bootErrorTables(MCP_BOOT_ERROR_CATALOGUE)).toContain('| `MCP_WARN_DTO_WITHOUT_RULES` | `<Class>#<method>: the tool');
    expect(REFERENCE).toBe(withBootErrorTables(REFERENCE, MCP_BOOT_ERROR_CATALOGUE));
  });

  it('lists on the page every warning code the areas declare, and no code the library lost', async () => {
    const declared = new Set((await declaredBuilders()).map(({ builder }) => builder.code as string));
    const listed = new Set(REFERENCE.match(/MCP_(ERR|WARN)_[A-Z0-9_]+/g));
    expect([...declared].filter((code) => !listed.has(code))).toEqual([]);
    expect([...listed].filter((code) => !declared.has(code))).toEqual([]);
  });

  it('lists every wire code of MCP_ERROR_CODES in docs/errors.md', () => {
    expect(Object.keys(MCP_ERROR_CODES).filter((code) => !REFERENCE.includes(`| \`${code}\` |`))).toEqual([]);
  });

  it('is how the library throws: every McpConfigurationError is built by an entry of the catalogue', async () => {
    const listed = new Set<AnyBootErrorBuilder>(CATALOGUE);
    const names = new Set((await declaredBuilders()).filter(({ builder }) => listed.has(builder)).map(({ name }) => name));
    const thrown = sourceFiles().map((file) => ({
      file,
      details: thrownDetails(readFileSync(join(LIBRARY, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')), // doc comments aside
    }));
    expect(thrown.flatMap(({ details }) => details).length).toBeGreaterThan(100);
    const offending = thrown.flatMap(({ file, details }) =>
      details
        .filter((detail) => {
          const calls = detail.match(/[\w$]+(\.[\w$]+)+\(\)/g) ?? [];
          const bare = /^['"`{]/.test(detail) || calls.length === 0;
          return bare || calls.some((call) => !names.has(call.slice(call.lastIndexOf('.') + 1, -2)));
        })
        .map((detail) => `${file}: new McpConfigurationError(${detail})`),
    );
    expect(offending).toEqual([]);
  });

  it('finds a throw with bare text, a hand-built detail or a builder the catalogue does not hold', () => {
    const source = [
      'throw new McpConfigurationError(McpMessages.invalidToolName(site, `${name}`));',
      "throw new McpConfigurationError(ok ? Messages.a(x) : Messages.b('y'));",
      "throw new McpConfigurationError('REDIS_URL is not set');",
      "throw new McpConfigurationError({ code: 'MCP_ERR_X_Y', message: 'text' });",
    ].join('\n');
    expect(thrownDetails(source)).toEqual(['McpMessages.invalidToolName()', 'ok ? Messages.a() : Messages.b()', "''", '{}']);
  });
});
