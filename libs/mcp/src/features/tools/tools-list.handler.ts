import { Inject, Injectable } from '@nestjs/common';
import { McpToolVisibility } from './mcp-tool.visibility.js';
import { McpToolSearch } from './search/tool-search.js';
import { listPage } from '../../core/pagination-cursor.js';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpCall, McpMethodHandler } from '../../core/method-handler.interface.js';
import { McpMethodHandlerProvider } from '../../core/method-handler.decorator.js';

/** `tools/list`: serialises descriptors built at boot, a page at a time. */
@McpMethodHandlerProvider()
@Injectable()
export class ToolsListHandler implements McpMethodHandler {
  readonly method = 'tools/list';

  constructor(
    private readonly visibility: McpToolVisibility,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly search: McpToolSearch,
  ) {}

  async handle({ id, params, context }: McpCall): Promise<Record<string, unknown>> {
    // Tool search in `replace` mode: the search tools stand for the catalog (every tool stays callable by name).
    if (this.search.replacesList) return listPage('tools', this.search.listed(), params.cursor, this.options.pageSize);
    // A caller only sees the tools it may call and that exist for it (scopes, visibility, MCP Apps app-only tools).
    return this.visibility.visiblePage(context, params.cursor, this.options.pageSize, id);
  }
}
