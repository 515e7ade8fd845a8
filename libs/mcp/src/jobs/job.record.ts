import type { McpCallToolResult } from '../core/results/content.types.js';
import type { McpPrincipal } from '../core/mcp-principal.interface.js';

/** Where a job is in its life; `success`, `error` and `cancelled` are final. */
export type McpJobStatus = 'pending' | 'success' | 'error' | 'cancelled';

/** A job as stored (JSON), so any instance can report on it. */
export interface McpJobRecord {
  id: string;
  tenant: string;
  tool: string;
  status: McpJobStatus;
  createdAt: string;
  updatedAt: string;
  estimatedSeconds?: number;
  progress?: number;
  total?: number;
  message?: string;
  /** The final `tools/call` result (its envelope in `structuredContent`), once the job is over. */
  result?: McpCallToolResult;
  /** How long the record is kept, in ms (the MCP task `ttl`). */
  ttlMs: number;
}

/** What a worker needs to run a job, on whichever instance picks it up. */
export interface McpJobSubmission {
  jobId: string;
  tenant: string;
  tool: string;
  /** The raw arguments, already validated once when the job was accepted. */
  args: Record<string, unknown>;
  principal?: McpPrincipal;
  protocolVersion: string;
}

export const isFinal = (status: McpJobStatus): boolean => status !== 'pending';
