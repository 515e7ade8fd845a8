import type { JsonRpcId } from './json-rpc/json-rpc.types.js';
import type { McpPrincipal } from './mcp-principal.interface.js';

import type { McpLogLevel } from './mcp-log-level.js';

export type { McpLogLevel };

/** What a tool handler knows about the call it serves (inject it with `@McpContext()`). @publicApi */
export interface McpToolContext {
  /** JSON-RPC id of the `tools/call` request. */
  readonly requestId: JsonRpcId;
  readonly toolName: string;
  readonly sessionId?: string;
  /** Protocol revision of this request. */
  readonly protocolVersion: string;
  /** `memory` under `@nest-mcp/core/testing` (no socket). */
  readonly transport: 'http' | 'sse' | 'stdio' | 'memory';
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
  /** Asks the client's model (`sampling/createMessage`); needs `sampling`, a session and a streaming response, else `McpToolError`. */
  sample(params: McpSamplingRequest, options?: McpClientRequestOptions): Promise<McpSamplingResult>;
  /** Asks the user for input (`elicitation/create`); needs a client that declared `elicitation` (and the mode). */
  elicit(params: McpElicitationRequest, options?: McpClientRequestOptions): Promise<McpElicitationResult>;
  /** The client's roots (`roots/list`); needs a client that declared `roots`. */
  listRoots(options?: McpClientRequestOptions): Promise<{ roots: { uri: string; name?: string }[] }>;
  /** Closes this call's SSE connection after a `retry:` hint; the client resumes with `Last-Event-ID` (SEP-1699). No-op elsewhere. */
  closeSseStream(): void;
}

/** @publicApi */
export interface McpClientRequestOptions {
  /** How long to wait for the client's answer (5 minutes). */
  timeoutMs?: number;
}

/** `sampling/createMessage` params. @publicApi */
export interface McpSamplingRequest {
  messages: { role: 'user' | 'assistant'; content: Record<string, unknown> }[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

/** @publicApi */
export interface McpSamplingResult {
  role: 'user' | 'assistant';
  content: Record<string, unknown>;
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

/** `elicitation/create` params (form mode by default; `mode: 'url'` needs a client that declared it). @publicApi */
export interface McpElicitationRequest {
  message: string;
  requestedSchema?: Record<string, unknown>;
  mode?: 'form' | 'url';
  url?: string;
  elicitationId?: string;
  [key: string]: unknown;
}

/** @publicApi */
export interface McpElicitationResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
  [key: string]: unknown;
}
