import type { McpCallToolResult } from '../core/results/content.types.js';
import type { McpPrincipal } from '../core/mcp-principal.interface.js';
import type { McpRequestContext } from '../core/mcp-request-context.interface.js';

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
  /** The raw arguments that validation accepted with the call: the worker does not validate them again. */
  args: Record<string, unknown>;
  principal?: McpPrincipal;
  protocolVersion: string;
  /** The transport of the call that started it: the job's handler sees it as a call's would. */
  transport: McpRequestContext['transport'];
  /** Set for a task of the 2026-07-28 tasks extension: its answers, progress and failure go to the task state. */
  task?: McpTaskRunSpec;
}

/** What a worker needs to run a 2026-07-28 task that the request carried (JSON, like the rest of the submission). */
export interface McpTaskRunSpec {
  /** The JSON-RPC id of the `tools/call` that created the task (the handler's `requestId`). */
  requestId: string | number;
  /** The request's `clientCapabilities`: input requests need them, as in the request itself. */
  clientCapabilities: Record<string, unknown>;
  /** Answers an `inputFirst` task collected in its request's rounds, by input key: the worker's run reuses them. */
  answers?: Record<string, unknown>;
}

export const isFinal = (status: McpJobStatus): boolean => status !== 'pending';
