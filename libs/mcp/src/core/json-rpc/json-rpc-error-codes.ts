/** JSON-RPC and MCP protocol error codes (tool failures are envelopes, never these). */
export const JsonRpcErrorCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** Implementation-defined range: transport-level refusals (no session, bad header). */
  SERVER_ERROR: -32000,
  SESSION_NOT_FOUND: -32001,
  RESOURCE_NOT_FOUND: -32002,
} as const;
