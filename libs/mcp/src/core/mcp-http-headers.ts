/**
 * The HTTP request headers of MCP's Streamable HTTP transport (and the API key credential), lower-case as Node
 * exposes them; HTTP header names are case-insensitive, so clients may send them so too.
 */
export const McpHttpHeader = {
  sessionId: 'mcp-session-id',
  protocolVersion: 'mcp-protocol-version',
  apiKey: 'x-api-key',
} as const;
