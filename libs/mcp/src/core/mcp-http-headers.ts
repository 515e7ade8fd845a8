/** Streamable HTTP's request headers (and the API key's), lower-case as Node exposes them (names are case-insensitive). */
export const McpHttpHeader = {
  sessionId: 'mcp-session-id',
  protocolVersion: 'mcp-protocol-version',
  apiKey: 'x-api-key',
} as const;
