import { Inject, Injectable } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpCall, McpMethodHandler } from '../../core/method-handler.interface.js';
import { listPage } from '../../core/pagination-cursor.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';

/** `resources/list`: the fixed resources (templates have their own list), a page at a time. */
@Injectable()
export class ResourcesListHandler implements McpMethodHandler {
  readonly method = 'resources/list';

  constructor(
    private readonly registry: McpResourceRegistry,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  handle({ params }: McpCall): Record<string, unknown> {
    return listPage('resources', this.registry.listResources(), params.cursor, this.options.pageSize);
  }
}
