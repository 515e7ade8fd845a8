/**
 * Who may call an MCP Apps tool: `model` (the agent sees and calls it), `app` (only the server's own app calls
 * it, through the host). @publicApi
 */
export type McpUiToolVisibility = 'model' | 'app';

/**
 * The `ui` option of `@McpTool()`: the tool's result is rendered by an MCP App (extension
 * `io.modelcontextprotocol/ui`). Becomes `_meta.ui` on the tool in `tools/list`.
 * @publicApi
 */
export interface McpToolUiOptions {
  /** A `ui://` URI served by an `@McpUiResource()` of this server. */
  resourceUri: string;
  /**
   * Default `['model', 'app']`. A tool for the app only (`['app']`) is not listed to clients that did not declare
   * the extension, since only an app can call it.
   */
  visibility?: McpUiToolVisibility[];
}

/** Origins an MCP App needs; the host turns them into its CSP (empty or omitted: none). @publicApi */
export interface McpUiResourceCsp {
  /** `connect-src`: fetch, XHR, WebSocket. */
  connectDomains?: string[];
  /** `img-src`, `script-src`, `style-src`, `font-src`, `media-src`. */
  resourceDomains?: string[];
  /** `frame-src`: nested iframes. */
  frameDomains?: string[];
  /** `base-uri`. */
  baseUriDomains?: string[];
}

/** Browser capabilities an MCP App asks for; hosts may grant them (iframe `allow`). @publicApi */
export interface McpUiResourcePermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** Options of `@McpUiResource()`. @publicApi */
export interface McpUiResourceOptions {
  /** `ui://…` URI the tools name in `ui.resourceUri`; unique among the server's resources. */
  uri: string;
  /** Programmatic name. Required. */
  name: string;
  title?: string;
  description?: string;
  /** Origins the app loads from or connects to; omitted: a fully self-contained app. */
  csp?: McpUiResourceCsp;
  permissions?: McpUiResourcePermissions;
  /** Dedicated sandbox origin; its format is host-specific. */
  domain?: string;
  /** `true`: the host draws a border and background; `false`: none; omitted: the host decides. */
  prefersBorder?: boolean;
}
