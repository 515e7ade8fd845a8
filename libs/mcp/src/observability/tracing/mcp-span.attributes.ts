/** Attribute names of the OpenTelemetry semantic conventions for MCP and GenAI tool execution, as these spans set them. */
export const MCP_SPAN_ATTRIBUTES = {
  METHOD_NAME: 'mcp.method.name',
  SESSION_ID: 'mcp.session.id',
  PROTOCOL_VERSION: 'mcp.protocol.version',
  RESOURCE_URI: 'mcp.resource.uri',
  JSONRPC_REQUEST_ID: 'jsonrpc.request.id',
  RPC_RESPONSE_STATUS_CODE: 'rpc.response.status_code',
  ERROR_TYPE: 'error.type',
  OPERATION_NAME: 'gen_ai.operation.name',
  TOOL_NAME: 'gen_ai.tool.name',
  PROMPT_NAME: 'gen_ai.prompt.name',
  NETWORK_TRANSPORT: 'network.transport',
  NETWORK_PROTOCOL_NAME: 'network.protocol.name',
  /** This library's own: the upstream server (option `upstreams`) a tool relays to. */
  UPSTREAM_NAME: 'mcp.upstream.name',
} as const;

/** `gen_ai.operation.name` of a tool call (the only GenAI operation an MCP server performs). */
export const EXECUTE_TOOL = 'execute_tool';

/** `error.type` of a `tools/call` answered with `isError: true` (the conventions' value for the request span). */
export const TOOL_ERROR = 'tool_error';

/** The conventions' fallback value: an `error.type` nothing more specific names, the span name of an unknown method. */
export const OTHER = '_OTHER';
