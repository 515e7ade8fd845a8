/** Id of the MCP Apps extension (SEP-1865) in `capabilities.extensions`. @publicApi */
export const MCP_UI_EXTENSION = 'io.modelcontextprotocol/ui';

/** MIME type of an MCP App's HTML (`resources/read` of a `ui://` resource). @publicApi */
export const MCP_UI_MIME_TYPE = 'text/html;profile=mcp-app';

/** The revision of the extension's own postMessage protocol (`ui/initialize`) a host answers with. */
export const MCP_UI_PROTOCOL_VERSION = '2026-01-26';
