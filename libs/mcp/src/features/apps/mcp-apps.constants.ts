/** Id of the MCP Apps extension (SEP-1865) in `capabilities.extensions`. @publicApi */
export const MCP_UI_EXTENSION = 'io.modelcontextprotocol/ui';

/** MIME type of an MCP App's HTML (`resources/read` of a `ui://` resource). @publicApi */
export const MCP_UI_MIME_TYPE = 'text/html;profile=mcp-app';

/** Reflect metadata key of `@McpUiResource()`. */
export const MCP_UI_RESOURCE_METADATA = 'mcp:ui-resource';

/**
 * The deprecated flat key (`_meta["ui/resourceUri"]`) early hosts read; the extension's own server helper
 * (`registerAppTool`) still writes it beside `_meta.ui.resourceUri`, and so do we.
 */
export const MCP_UI_LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';
