import type { McpCallToolResult } from '../core/results/content.types.js';

/** What `initialize` (or, in the 2026-07-28 era, `server/discover`) told about the server. @publicApi */
export interface McpServerSummary {
  /**
   * The negotiated revision, the newest both sides speak: `2026-07-28` for the stateless era (no session, an
   * envelope on every request), else the revision `initialize` agreed (2025-11-25 … 2024-11-05).
   */
  readonly protocolVersion: string;
  readonly serverInfo: { name: string; version: string; title?: string };
  readonly capabilities: Record<string, unknown>;
  readonly instructions?: string;
  /** `streamable-http`, `http-sse` (the 2024-11-05 fallback), `stdio`, or `memory` (`createMcpTestClient` of `@nest-mcp/core/testing`). */
  readonly transport: 'streamable-http' | 'http-sse' | 'stdio' | 'memory';
}

/** A tool of the server as `tools/list` sent it. @publicApi */
export interface McpRemoteTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A prompt of the server as `prompts/list` sent it. @publicApi */
export interface McpRemotePrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
  [key: string]: unknown;
}

/** A resource of the server as `resources/list` sent it. @publicApi */
export interface McpRemoteResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  [key: string]: unknown;
}

/** A resource template of the server as `resources/templates/list` sent it. @publicApi */
export interface McpRemoteResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  [key: string]: unknown;
}

/** `tools/call`'s result. @publicApi */
export type McpRemoteToolResult = McpCallToolResult & Record<string, unknown>;

/** A notification the server sent (`notifications/tools/list_changed`, `notifications/message`, …). @publicApi */
export interface McpServerNotification {
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/** The connection state of a client. @publicApi */
export type McpClientState = 'idle' | 'connecting' | 'connected' | 'disconnected' | 'closed';
