import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../kit/build.js';
import { StdioServerProcess } from '../kit/stdio.js';

/**
 * The README's stdio server, run as written (issue 21 item 10): the block marked
 * `<!-- snippet: readme-stdio/src/stdio.ts -->`, compiled with the README's decorator settings and run against the
 * built library. A host that launches it without MCP_TOKEN shows one line and exit code 1, never a stack trace;
 * with the token it serves its tool.
 */
const MARKER = '<!-- snippet: readme-stdio/src/stdio.ts -->';

function readmeStdioServer(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /^```ts\n([\s\S]*?)^```$/m.exec(readme.slice(readme.indexOf(MARKER) + MARKER.length));
  if (readme.indexOf(MARKER) < 0 || !block) throw new Error(`README.md has no TypeScript block after ${MARKER}`);
  const { outputText } = ts.transpileModule(block[1], {
    compilerOptions: {
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.ESNext,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
  });
  // Inside the repository, so `@nest-mcp/core` resolves to the workspace package (libs/mcp/dist, as npm pack ships it).
  const dir = join(REPO_ROOT, '.docs-snippets', `readme-stdio-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'stdio.mjs'), outputText);
  return join(dir, 'stdio.mjs');
}

describe("README's stdio server", () => {
  let script: string;
  beforeAll(() => {
    script = readmeStdioServer();
  });
  afterAll(() => rmSync(join(script, '..'), { recursive: true, force: true }));

  it('without MCP_TOKEN prints one line naming it on stderr and exits with code 1, without a stack', async () => {
    const server = new StdioServerProcess(script);
    const { code, timedOut } = await server.waitForExit(30_000);
    expect(timedOut).toBe(false);
    expect(code).toBe(1);
    const lines = server.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^clock: .*MCP_TOKEN/);
    expect(server.stderr).not.toMatch(/\n\s+at /);
    expect(server.stdout).toBe('');
  });

  it('with a wrong MCP_TOKEN does the same', async () => {
    const server = new StdioServerProcess(script, [], { MCP_TOKEN: 'not-a-key-of-this-server' });
    const { code } = await server.waitForExit(30_000);
    expect(code).toBe(1);
    expect(server.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^clock: .*MCP_TOKEN/)]);
  });

  it('with MCP_TOKEN serves its tool over stdin/stdout and exits 0 at the end of its input', async () => {
    const server = new StdioServerProcess(script, [], { MCP_TOKEN: 'local-key-0123456789' });
    server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'readme-spec', version: '1' } },
    });
    expect((await server.response(1, 30_000)).result.serverInfo.name).toBe('clock');
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'now', arguments: {} } });
    const { result } = await server.response(2);
    expect(result.structuredContent).toMatchObject({ status: 'success', data: { now: expect.any(String) } });
    server.endInput();
    expect((await server.waitForExit(15_000)).code).toBe(0);
  });
});
