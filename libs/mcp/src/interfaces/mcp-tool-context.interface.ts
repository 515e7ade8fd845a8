import type { JsonRpcId } from '../protocol/json-rpc.types.js';
import type { McpPrincipal } from './mcp-principal.interface.js';

/** RFC 5424 levels used by MCP logging. @publicApi */
export type McpLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/**
 * What a tool handler knows about the call it serves (inject it with `@McpContext()`).
 * @publicApi
 */
export interface McpToolContext {
  /** JSON-RPC id of the `tools/call` request. */
  readonly requestId: JsonRpcId;
  readonly toolName: string;
  readonly sessionId?: string;
  /** Protocol revision of this request. */
  readonly protocolVersion: string;
  readonly transport: 'http' | 'sse' | 'stdio';
  /** Set when authentication is configured. */
  readonly principal?: McpPrincipal;
  /** The caller's tenant (`principal.tenant`, or `default` without authentication). */
  readonly tenant: string;
  /** Aborted when the client cancels the call or the tool times out. */
  readonly signal: AbortSignal;
  /** Sends `notifications/progress` when the client asked for it (`_meta.progressToken`); otherwise does nothing. */
  reportProgress(progress: number, total?: number, message?: string): void;
  /** Sends `notifications/message` to the client when its level is at or above the session's level. */
  log(level: McpLogLevel, data: unknown, logger?: string): void;
}
