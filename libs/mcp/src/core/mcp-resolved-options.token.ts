/** Injection token of the options after defaults and checks (`McpResolvedOptions`, see `resolveMcpOptions`). */
export const MCP_RESOLVED_OPTIONS = Symbol('MCP_RESOLVED_OPTIONS');
