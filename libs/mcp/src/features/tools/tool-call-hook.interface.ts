import type { McpCall } from '../../core/method-handler.interface.js';
import type { McpPipelineCall } from '../../execution/mcp-call.pipeline.js';
import type { McpToolDefinition } from './mcp-tool-definition.interface.js';

/**
 * What an era adds to the shared `tools/call` once the tool is found for this caller: its own checks and, for some
 * calls, its own way of running them. The 2026-07-28 responder hands one per request; the 2025-11-25 era one for all.
 */
export interface McpToolCallHook {
  /** Throws to refuse the call (2026-07-28 `Mcp-Param-*` headers), before the caller's scopes are checked. */
  check?(tool: McpToolDefinition, call: McpCall): void;
  /** The answer when the era runs the call itself (2026-07-28 task-augmented calls); undefined: the call pipeline runs it. */
  run?(tool: McpToolDefinition, call: McpCall): Promise<Record<string, unknown>> | undefined;
  /** How the pipeline answers an accepted job (2025-11-25 task-augmented calls); undefined: as any call. May throw to refuse. */
  accepting?(tool: McpToolDefinition, call: McpCall): Pick<McpPipelineCall, 'accepted' | 'idempotent'> | undefined;
}
