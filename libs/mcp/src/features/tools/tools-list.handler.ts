import { Inject, Injectable } from '@nestjs/common';
import { McpToolRegistry } from './mcp-tool.registry.js';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { listPage } from '../../core/pagination-cursor.js';
import type { McpCall, McpMethodHandler } from '../../core/method-handler.interface.js';
import { McpMethodHandlerProvider } from '../../core/method-handler.decorator.js';

/** `tools/list`: serialises descriptors built at boot, a page at a time. */
@McpMethodHandlerProvider()
@Injectable()
export class ToolsListHandler implements McpMethodHandler {
  readonly method = 'tools/list';

  constructor(
    private readonly registry: McpToolRegistry,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  handle({ params, context }: McpCall): Record<string, unknown> {
    // A caller only sees the tools it may call.
    return listPage('tools', this.registry.visibleDescriptors(context.principal?.scopes), params.cursor, this.options.pageSize);
  }
}
