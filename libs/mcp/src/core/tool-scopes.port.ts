/** Every scope some tool requires (RFC 9728 `scopes_supported`): the port between features and transports. */
export const MCP_TOOL_SCOPES = Symbol('MCP_TOOL_SCOPES');

/** Reads the scopes at each call: tools registered at runtime count too. */
export type McpToolScopesSource = () => string[];
