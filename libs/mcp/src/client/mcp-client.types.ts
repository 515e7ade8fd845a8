import type { McpCallToolResult } from '../core/results/content.types.js';

/** What `initialize` told about the server. @publicApi */
export interface McpServerSummary {
  /** The negotiated revision (the newest both sides speak, up to 2025-11-25). */
  readonly protocolVersion: string;
  readonly serverInfo: { name: string; version: string; title?: string };
  readonly capabilities: Record<string, unknown>;
  readonly instructions?: string;
  /** `streamable-http`, `http-sse` (the 2024-11-05 fallback) or `stdio`. */
  readonly transport: 'streamable-http' | 'http-sse' | 'stdio';
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
