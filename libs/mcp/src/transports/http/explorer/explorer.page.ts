import { createHash } from 'node:crypto';
import { appFrameHeaders } from './explorer-app-frame.js';
import { EXPLORER_SCRIPT } from './explorer.script.js';
import { EXPLORER_STYLES } from './explorer.styles.js';

/** What the explorer page needs to know about the server it explores (paths include the global prefix). */
export interface McpExplorerPageSettings {
  title: string;
  /** Shown beside the heading and sent as the page's clientInfo version. */
  version: string;
  explorerPath: string;
  endpointPath: string;
  /** The revision the page's `initialize` asks for. */
  protocolVersion: string;
}

/** The page and the headers it must be served with. */
export interface McpExplorerPage {
  readonly html: string;
  readonly headers: Readonly<Record<string, string>>;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * Only the inline script and stylesheet (by hash) and this origin: a tool's output cannot exfiltrate the credentials
 * typed into the page. `img-src data:` for the favicon, `frame-src 'self'` for the MCP Apps sandbox proxy.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${sha256(EXPLORER_SCRIPT)}`,
  `style-src ${sha256(EXPLORER_STYLES)}`,
  "connect-src 'self'",
  "frame-src 'self'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS: Readonly<Record<string, string>> = {
  ...appFrameHeaders(CONTENT_SECURITY_POLICY),
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** `&`, `<`, `>`, `"` and `'` as entities, for text and attribute values of the markup. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The endpoint relative to the page (`/mcp/explorer` → `../mcp`), so a global prefix in front of both is kept. */
export function endpointRelativeTo(explorerPath: string, endpointPath: string): string {
  const depth = explorerPath.split('/').filter(Boolean).length - 1;
  return `${depth === 0 ? './' : '../'.repeat(depth)}${endpointPath.replace(/^\/+/, '')}`;
}

/** One self-contained HTML document; its settings travel in a JSON data block, `<` escaped so no value can close it. */
export function renderExplorerPage(settings: McpExplorerPageSettings): McpExplorerPage {
  const config = JSON.stringify({
    endpoint: endpointRelativeTo(settings.explorerPath, settings.endpointPath),
    protocolVersion: settings.protocolVersion,
    version: settings.version,
  }).replace(/</g, '\\u003c');
  const title = escapeHtml(settings.title);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · MCP explorer</title>
<link rel="icon" href="data:,">
<style>${EXPLORER_STYLES}</style>
</head>
<body>
<header>
  <h1>${title}</h1>
  <span class="meta">MCP explorer · v${escapeHtml(settings.version)} · endpoint ${escapeHtml(settings.endpointPath)} · ${escapeHtml(settings.protocolVersion)}</span>
  <form id="auth" autocomplete="off">
    <select id="auth-kind" aria-label="Credential type">
      <option value="bearer">Bearer token</option>
      <option value="apikey">API key</option>
    </select>
    <input id="auth-value" type="password" aria-label="Credential" placeholder="token or key (optional)">
    <button type="submit" class="secondary">Connect</button>
  </form>
  <span id="connection" role="status" aria-live="polite"></span>
</header>
<div class="layout">
  <nav aria-label="Catalogue">
    <h2>Tools <span id="tool-count"></span></h2>
    <ul id="tool-list"></ul>
    <h2>Resources <span id="resource-count"></span></h2>
    <ul id="resource-list"></ul>
    <h2>Prompts <span id="prompt-count"></span></h2>
    <ul id="prompt-list"></ul>
  </nav>
  <main id="detail"><p class="placeholder">Connecting…</p></main>
</div>
<script type="application/json" id="mcp-explorer-config">${config}</script>
<script>${EXPLORER_SCRIPT}</script>
</body>
</html>
`;
  return { html, headers: HEADERS };
}
