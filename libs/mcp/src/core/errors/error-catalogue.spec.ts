import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bootErrors, type McpBootErrorCode } from './boot-errors.js';
import { MCP_ERROR_CODES } from './error-codes.js';
import { McpConfigurationError } from './mcp-configuration.error.js';

const LIBRARY = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REFERENCE = readFileSync(join(LIBRARY, '..', '..', '..', 'docs', 'errors.md'), 'utf8');
const CODE_PATTERN = /^MCP_ERR_[A-Z0-9]+(_[A-Z0-9]+)+$/;
const WARNING_PATTERN = /^MCP_WARN_[A-Z0-9]+(_[A-Z0-9]+)+$/;

/** Every library source file (specs aside), relative to libs/mcp/src. */
function sourceFiles(folder = LIBRARY): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [relative(LIBRARY, path)] : [];
  });
}

/** The boot error and boot warning entries each area's messages file declares: [file, code]. */
async function declaredCodes(): Promise<Array<[string, string]>> {
  const files = sourceFiles().filter((file) => file.endsWith('.messages.ts'));
  const found: Array<[string, string]> = [];
  for (const file of files) {
    // Loaded by path: the layering rules keep core from importing the areas, and each area owns its file.
    const module = (await import(pathToFileURL(join(LIBRARY, file)).href)) as Record<string, unknown>;
    for (const catalogue of Object.values(module)) {
      if (typeof catalogue !== 'object' || catalogue === null) continue;
      for (const entry of Object.values(catalogue)) {
        const code = typeof entry === 'function' ? (entry as { code?: unknown }).code : undefined;
        if (typeof code === 'string') found.push([file, code]);
      }
    }
  }
  return found;
}

describe('McpConfigurationError', () => {
  const { duplicate } = bootErrors({
    duplicate: { code: 'MCP_ERR_TEST_DUPLICATE', message: (name: string) => `Tool name "${name}" is declared twice.` },
  });

  it('carries the code, keeps the message as written and shows the code first in the stack and String(error)', () => {
    const error = new McpConfigurationError(duplicate('echo'));
    expect(duplicate.code).toBe('MCP_ERR_TEST_DUPLICATE');
    expect(error).toMatchObject({ name: 'McpConfigurationError', code: 'MCP_ERR_TEST_DUPLICATE' });
    expect(error.message).toBe('Tool name "echo" is declared twice.');
    expect(error.stack?.split('\n')[0]).toBe('McpConfigurationError [MCP_ERR_TEST_DUPLICATE]: Tool name "echo" is declared twice.');
    expect(String(error)).toBe('McpConfigurationError [MCP_ERR_TEST_DUPLICATE]: Tool name "echo" is declared twice.');
  });

  it('built from a bare message (an app of its own), has no code', () => {
    const error = new McpConfigurationError('REDIS_URL and REDIS_CLUSTER_NODES are both set');
    expect(error.code).toBeUndefined();
    expect(String(error)).toBe('McpConfigurationError: REDIS_URL and REDIS_CLUSTER_NODES are both set');
  });
});

describe('the boot error catalogue', () => {
  it('gives every entry its own well-formed code', async () => {
    const declared = await declaredCodes();
    expect(declared.length).toBeGreaterThan(80);
    const malformed = declared.filter(([, code]) => !CODE_PATTERN.test(code) && !WARNING_PATTERN.test(code));
    expect(malformed).toEqual([]);
    const seen = new Map<string, string>();
    const twice = declared.filter(([file, code]) => seen.has(code) || !seen.set(code, file));
    expect(twice).toEqual([]);
  });

  it('is what docs/errors.md lists: every code there, and no code there that the library lost', async () => {
    const declared = new Set((await declaredCodes()).map(([, code]) => code));
    const listed = new Set(REFERENCE.match(/MCP_(ERR|WARN)_[A-Z0-9_]+/g));
    expect([...declared].filter((code) => !listed.has(code))).toEqual([]);
    expect([...listed].filter((code) => !declared.has(code as McpBootErrorCode))).toEqual([]);
  });

  it('lists every wire code of MCP_ERROR_CODES in docs/errors.md', () => {
    expect(Object.keys(MCP_ERROR_CODES).filter((code) => !REFERENCE.includes(`| \`${code}\` |`))).toEqual([]);
  });

  it('is how the library throws: no McpConfigurationError is built from bare text', () => {
    const bare = sourceFiles().filter((file) => /new McpConfigurationError\(\s*['"`]/.test(readFileSync(join(LIBRARY, file), 'utf8')));
    expect(bare).toEqual([]);
  });
});
