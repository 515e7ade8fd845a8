/**
 * The port between the tool registry (features) and the RFC 9728 document (transports): every scope some tool
 * requires, for `scopes_supported`. Transports cannot import features, so both meet here.
 */
export const MCP_TOOL_SCOPES = Symbol('MCP_TOOL_SCOPES');

/** Reads the scopes at each call: tools registered at runtime count too. */
export type McpToolScopesSource = () => string[];
