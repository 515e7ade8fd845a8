import type { McpSessionOptions, McpStreamOptions } from '../mcp-module-options.interface.js';
import { group } from '../option.builder.js';
import { oneOf, positiveInteger } from '../option.values.js';

const MIB = 1024 * 1024;

/** `sessions`: Streamable HTTP sessions. */
export const MCP_SESSION_OPTIONS = group<McpSessionOptions>()({
  mode: oneOf(['optional', 'required', 'stateless'] as const, 'optional'),
  idleTtlMs: positiveInteger(30 * 60_000),
});

/** `http.streams`: SSE keep-alives, replay buffers and backpressure. */
export const MCP_STREAM_OPTIONS = group<McpStreamOptions>()({
  keepAliveMs: positiveInteger(15_000),
  maxEventsPerStream: positiveInteger(1_000),
  maxEventBytesPerStream: positiveInteger(8 * MIB),
  retryMs: positiveInteger(1_000),
  maxBufferedBytes: positiveInteger(4 * MIB),
});
