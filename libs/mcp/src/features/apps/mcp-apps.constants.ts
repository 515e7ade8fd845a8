// The extension's wire constants live in core/, where the explorer page (a transport) reads them too.
export { MCP_UI_EXTENSION, MCP_UI_MIME_TYPE } from '../../core/mcp-ui-extension.js';

/** Reflect metadata key of `@McpUiResource()`. */
export const MCP_UI_RESOURCE_METADATA = 'mcp:ui-resource';

/**
 * The deprecated flat key (`_meta["ui/resourceUri"]`) early hosts read; the extension's own server helper
 * (`registerAppTool`) still writes it beside `_meta.ui.resourceUri`, and so do we.
 */
export const MCP_UI_LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';
