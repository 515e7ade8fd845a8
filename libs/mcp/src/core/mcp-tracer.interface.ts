import type { JsonRpcRequest, JsonRpcResponse } from './json-rpc/json-rpc.types.js';
import type { McpRequestContext } from './mcp-request-context.interface.js';
import type { McpCallToolResult } from './results/content.types.js';

/** What the tool span needs to know about one `tools/call` (the pipeline's view, without its feature types). */
export interface McpTracedToolCall {
  readonly toolName: string;
  readonly sessionId?: string;
  /** The upstream server the tool relays to. */
  readonly upstream?: string;
}

/**
 * The tracing port of the request path: the dispatcher wraps each JSON-RPC request in {@link request}, the call
 * pipeline each tool run in {@link tool}. Core only knows this interface; `observability/tracing/` implements it
 * over `@opentelemetry/api`, and without it the no-op {@link NOOP_MCP_TRACER} runs.
 */
export interface McpTracer {
  /** Runs `answer` for `request` (served: a handler exists for its method) inside the request's span. */
  request(
    request: JsonRpcRequest,
    context: McpRequestContext,
    served: boolean,
    answer: () => Promise<JsonRpcResponse | undefined>,
  ): Promise<JsonRpcResponse | undefined>;
  /** Runs one tool call (validation, limits, handler or job acceptance) inside the tool's span. */
  tool(call: McpTracedToolCall, run: () => Promise<McpCallToolResult>): Promise<McpCallToolResult>;
}

/** Injection token of the {@link McpTracer} (optional: absent means {@link NOOP_MCP_TRACER}). */
export const MCP_TRACER = Symbol('MCP_TRACER');

/** Traces nothing and adds nothing: the request path as it is without tracing. */
export const NOOP_MCP_TRACER: McpTracer = {
  request: (_request, _context, _served, answer) => answer(),
  tool: (_call, run) => run(),
};
