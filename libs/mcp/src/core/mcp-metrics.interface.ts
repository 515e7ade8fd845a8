import type { McpRequestContext } from './mcp-request-context.interface.js';

/** How a JSON-RPC request ended: a result, an error response, or no answer (cancelled by the client). */
export type McpRequestOutcome = 'success' | 'error' | 'cancelled';

/** The envelope status of a finished `tools/call` (`pending`: a job was accepted). */
export type McpToolCallStatus = 'success' | 'error' | 'pending';

/** One finished tool run, as the call pipeline reports it. */
export interface McpMeteredToolCall {
  readonly tool: string;
  readonly tenant: string;
  readonly status: McpToolCallStatus;
  /** The envelope's error code when `status` is `error`. */
  readonly code?: string;
  readonly seconds: number;
  /** The upstream server (option `upstreams`) the tool relays to. */
  readonly upstream?: string;
}

/**
 * The metrics port of the request path, implemented in `observability/metrics/` ({@link NOOP_MCP_METRICS} without
 * the option). Every method returns at once and never throws.
 */
export interface McpMetrics {
  /** `method` is undefined for a method no handler serves (counted as `other`: label values stay bounded). */
  request(method: string | undefined, outcome: McpRequestOutcome, context: McpRequestContext): void;
  toolCall(call: McpMeteredToolCall): void;
  sessionOpened(sessionId: string): void;
  /** A session was used (its idle TTL starts again). */
  sessionSeen(sessionId: string): void;
  sessionEnded(sessionId: string): void;
  streamOpened(): void;
  streamClosed(): void;
}

/** Injection token of the {@link McpMetrics} (optional: absent means {@link NOOP_MCP_METRICS}). */
export const MCP_METRICS = Symbol('MCP_METRICS');

const nothing = (): void => undefined;

/** Counts nothing: the request path as it is without metrics. */
export const NOOP_MCP_METRICS: McpMetrics = {
  request: nothing,
  toolCall: nothing,
  sessionOpened: nothing,
  sessionSeen: nothing,
  sessionEnded: nothing,
  streamOpened: nothing,
  streamClosed: nothing,
};
