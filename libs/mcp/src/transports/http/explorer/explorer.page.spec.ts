import { createHash } from 'node:crypto';
import { McpHttpHeader } from '../../../core/mcp-http-headers.js';
import { MCP_UI_EXTENSION } from '../../../core/mcp-ui-extension.js';
import { renderExplorerPage } from './explorer.page.js';
import { EXPLORER_SCRIPT } from './explorer.script.js';

const page = renderExplorerPage({
  title: 'Weather <b>',
  version: '1.0.0',
  explorerPath: '/mcp/explorer',
  endpointPath: '/mcp',
  protocolVersion: '2025-11-25',
});

describe('explorer page', () => {
  it('inlines exactly the script its Content-Security-Policy hashes', () => {
    const inline = /<script>([\s\S]*?)<\/script>/.exec(page.html)?.[1];
    expect(inline).toBe(EXPLORER_SCRIPT);
    const hash = createHash('sha256').update(EXPLORER_SCRIPT, 'utf8').digest('base64');
    expect(page.headers['Content-Security-Policy']).toContain(`script-src 'sha256-${hash}'`);
  });

  it('runs the typed client as a classic script, called with the constants of core/', () => {
    expect(() => new Function(EXPLORER_SCRIPT)).not.toThrow();
    expect(EXPLORER_SCRIPT).toMatch(/^\(function runExplorerClient\(shared\) \{/);
    expect(EXPLORER_SCRIPT).toContain(JSON.stringify(McpHttpHeader.sessionId));
    expect(EXPLORER_SCRIPT).toContain(JSON.stringify(MCP_UI_EXTENSION));
    // Nothing a bundler would have to resolve: the function can import nothing.
    expect(EXPLORER_SCRIPT).not.toMatch(/\bimport\b|\brequire\(|\bexports\b/);
  });

  it('escapes the settings it writes into the markup', () => {
    expect(page.html).toContain('<h1>Weather &#60;b&#62;</h1>');
    expect(page.html).not.toContain('<b>');
  });
});
