/**
 * The MCP Apps sandbox proxy of the explorer (`<explorer>/app-frame`): it writes the app's HTML it is posted into
 * itself, so the app runs under this response's policy. Not `srcdoc`: a `srcdoc`, `blob:` or `data:` iframe inherits
 * the page's strict policy (the page holds credentials), under which Chromium refuses the app's inline script.
 */

/** The `_meta.ui.csp` keys of the extension, mapped to the directives they open. */
export interface McpAppFrameCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

/** One CSP host source: no quote, semicolon, comma or space gets through, so no directive can be injected. */
const SOURCE = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::(?:\d{1,5}|\*))?(?:\/[^\s;,'"]*)?$/i;

/** Reads the frame's `?csp=` (the JSON of the resource's `_meta.ui.csp`); a string naming the problem when bad. */
export function parseAppFrameCsp(raw: unknown): McpAppFrameCsp | string {
  if (raw === undefined || raw === '') return {};
  if (typeof raw !== 'string') return 'csp must be given once';
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return 'csp is not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'csp must be a JSON object';
  const csp: McpAppFrameCsp = {};
  for (const [key, domains] of Object.entries(value)) {
    if (!(CSP_KEYS as readonly string[]).includes(key)) return `unknown csp key ${JSON.stringify(key)}`;
    if (!Array.isArray(domains) || domains.some((domain) => typeof domain !== 'string' || !SOURCE.test(domain)))
      return `csp.${key} must be a list of origins such as https://api.example.com`;
    csp[key as (typeof CSP_KEYS)[number]] = domains as string[];
  }
  return csp;
}

const sources = (domains: string[] | undefined, fallback: string) => (domains?.length ? domains.join(' ') : fallback);

/** The spec's default app policy widened by the resource's origins; `sandbox` keeps an opaque origin outside the iframe too. */
export function appFrameContentSecurityPolicy(csp: McpAppFrameCsp): string {
  const resources = csp.resourceDomains?.length ? ` ${csp.resourceDomains.join(' ')}` : '';
  return [
    'sandbox allow-scripts',
    "default-src 'none'",
    `script-src 'unsafe-inline'${resources}`,
    `style-src 'unsafe-inline'${resources}`,
    `img-src data:${resources}`,
    `media-src data:${resources}`,
    `font-src ${sources(csp.resourceDomains, "'none'")}`,
    `connect-src ${sources(csp.connectDomains, "'none'")}`,
    `frame-src ${sources(csp.frameDomains, "'none'")}`,
    `base-uri ${sources(csp.baseUriDomains, "'none'")}`,
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** Only its parent, on this origin, may hand it the HTML, once; `document.write` keeps this response's policy. */
const APP_FRAME_SCRIPT = `(function () {
  if (window.parent === window) return;
  var origin = new URL(location.href).origin;
  window.addEventListener('message', function onResource(event) {
    var message = event.data;
    if (event.source !== window.parent || event.origin !== origin) return;
    if (!message || message.method !== 'ui/notifications/sandbox-resource-ready' || !message.params || typeof message.params.html !== 'string') return;
    window.removeEventListener('message', onResource);
    document.open();
    document.write(message.params.html);
    document.close();
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, origin);
})();`;

/** The proxy document, before the app replaces it. */
export const APP_FRAME_HTML = `<!doctype html><html><head><meta charset="utf-8"></head><body><script>${APP_FRAME_SCRIPT}</script></body></html>`;

/** The headers of an explorer document under `policy`: HTML never cached, sniffed or sent as a referrer. */
export function appFrameHeaders(policy: string): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': policy,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}
