import type { McpLogLevel } from '../core/mcp-tool-context.interface.js';

/** What is kept about a session between requests (in the store, so any instance can serve it). */
export interface McpSessionRecord {
  id: string;
  /** Principal that created the session; requests from anyone else do not see it (404). */
  owner: string;
  /** The owner's tenant, whose quotas the session counts against. */
  tenant: string;
  transport: 'streamable-http' | 'sse';
  /** The instance holding a 2024-11-05 HTTP+SSE session's stream (its lease tells the others whether it lives). */
  instance?: string;
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo?: Record<string, unknown>;
  logLevel?: McpLogLevel;
  createdAt: number;
}
