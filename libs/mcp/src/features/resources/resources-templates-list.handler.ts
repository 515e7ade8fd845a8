import { Inject, Injectable } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpCall, McpMethodHandler } from '../../core/method-handler.interface.js';
import { McpMethodHandlerProvider } from '../../core/method-handler.decorator.js';
import { listPage } from '../../core/pagination-cursor.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';

/** `resources/templates/list`: the resource templates, a page at a time. */
@McpMethodHandlerProvider()
@Injectable()
export class ResourcesTemplatesListHandler implements McpMethodHandler {
  readonly method = 'resources/templates/list';

  /** Served once something declares a resource or a template; otherwise the method stays unknown (-32601). */
  isServed(): boolean {
    return !this.registry.isEmpty;
  }

  constructor(
    private readonly registry: McpResourceRegistry,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  handle({ params }: McpCall): Record<string, unknown> {
    return listPage('resourceTemplates', this.registry.listTemplates(), params.cursor, this.options.pageSize);
  }
}
