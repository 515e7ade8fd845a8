/**
 * A minimal MCP Apps host for the browser tests, written by hand from the extension's host side (the
 * `app-bridge` of `@modelcontextprotocol/ext-apps` needs the SDK client, core and zod resolved in the page, a
 * bundle this test does not want): a page on its own loopback server renders a `ui://` resource's HTML in an
 * iframe with `sandbox="allow-scripts"` and `srcdoc` (an opaque origin, as the spec's host guidance asks), with a
 * CSP built from the resource's `_meta.ui.csp`, and speaks JSON-RPC over `postMessage` with it: answers
 * `ui/initialize`, and after `ui/notifications/initialized` sends `ui/notifications/tool-input` and
 * `ui/notifications/tool-result`. Every message either way is kept in `window.mcpHostLog` for assertions.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const HOST_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MCP Apps test host</title>
<style>body{margin:0;padding:16px;background:#e9edf2;font:14px system-ui} iframe{border:0;width:560px;height:120px;display:block;background:transparent}
.border{border:1px solid #c5ccd6;border-radius:16px;background:#fff;width:max-content}</style></head>
<body><div id="slot"></div>
<script>
  window.mcpHostLog = [];
  const log = (direction, message) => window.mcpHostLog.push({ direction, message });
  const cspOf = (csp = {}) => {
    const list = (domains) => (domains && domains.length ? ' ' + domains.join(' ') : '');
    return [
      "default-src 'none'",
      "script-src 'unsafe-inline'" + list(csp.resourceDomains),
      "style-src 'unsafe-inline'" + list(csp.resourceDomains),
      "img-src data:" + list(csp.resourceDomains),
      "font-src" + (list(csp.resourceDomains) || " 'none'"),
      "connect-src" + (list(csp.connectDomains) || " 'none'"),
      "frame-src" + (list(csp.frameDomains) || " 'none'"),
      "base-uri" + (list(csp.baseUriDomains) || " 'self'"),
    ].join('; ');
  };
  /** Mounts the app and plays one tool call into it; resolves once the tool result was delivered. */
  window.mountApp = ({ html, uiMeta, toolInput, toolResult, theme }) => new Promise((resolve) => {
    const slot = document.getElementById('slot');
    slot.className = uiMeta && uiMeta.prefersBorder ? 'border' : '';
    const frame = document.createElement('iframe');
    frame.id = 'app';
    frame.setAttribute('sandbox', 'allow-scripts');
    const meta = '<meta http-equiv="Content-Security-Policy" content="' + cspOf(uiMeta && uiMeta.csp) + '">';
    frame.srcdoc = html.replace(/<head>/i, '<head>' + meta);
    const post = (message) => { log('host→app', message); frame.contentWindow.postMessage(message, '*'); };
    window.addEventListener('message', (event) => {
      if (event.source !== frame.contentWindow) return;
      const message = event.data;
      log('app→host', message);
      if (message.method === 'ui/initialize') {
        post({ jsonrpc: '2.0', id: message.id, result: {
          protocolVersion: '2026-01-26',
          hostInfo: { name: 'nest-mcp-test-host', version: '1.0.0' },
          hostCapabilities: { serverResources: {}, logging: {} },
          hostContext: { theme: theme || 'light', displayMode: 'inline', availableDisplayModes: ['inline'], locale: 'en-US', platform: 'web' },
        } });
      } else if (message.method === 'ui/notifications/initialized') {
        post({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: toolInput } });
        if (toolResult !== undefined) post({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: toolResult });
        resolve();
      } else if (message.method === 'ui/notifications/size-changed') {
        frame.style.height = message.params.height + 'px';
      } else if (message.id !== undefined && message.method !== undefined) {
        post({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
      }
    });
    slot.append(frame);
  });
</script></body></html>`;

/** The host page on 127.0.0.1 (its own origin, apart from the MCP server's). */
export class McpAppsTestHost {
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<McpAppsTestHost> {
    const server = createServer((request, response) => {
      if (request.url !== '/') {
        // The browser's own favicon request: answered empty, so it logs no 404.
        response.writeHead(request.url === '/favicon.ico' ? 204 : 404).end();
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(HOST_PAGE);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new McpAppsTestHost(server, `http://127.0.0.1:${port}/`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
