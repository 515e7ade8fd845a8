import type { ExecutionContext } from '@nestjs/common';
import type { McpToolContext } from '../core/mcp-tool-context.interface.js';
import { MCP_CONTEXT_TYPE } from '../core/mcp.constants.js';

/**
 * Reads the MCP call out of a Nest `ExecutionContext`, for guards and interceptors on tools
 * (`context.getType() === 'mcp'`).
 * @publicApi
 * @example
 * canActivate(context: ExecutionContext) {
 *   const call = McpExecutionContext.from(context);
 *   return call.toolContext.tenant !== 'blocked';
 * }
 */
export class McpExecutionContext {
  private constructor(
    /**
     * For a tool's guards, the arguments as sent (guards run before validation, as Nest's run before pipes); for its
     * interceptors, the validated ones (the DTO instance); `{}` for tools without arguments.
     */
    readonly args: unknown,
    readonly toolContext: McpToolContext,
  ) {}

  static from(context: ExecutionContext): McpExecutionContext {
    if (context.getType<string>() !== MCP_CONTEXT_TYPE) {
      throw new Error(`McpExecutionContext.from() needs an MCP context, got "${context.getType()}"`);
    }
    return new McpExecutionContext(context.getArgByIndex(0), context.getArgByIndex(1));
  }
}
