import { Inject, Injectable } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpCall } from '../../core/method-handler.interface.js';
import { McpMethodHandlerProvider } from '../../core/method-handler.decorator.js';
import { listPage } from '../../core/pagination-cursor.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { McpResourceMethodHandler } from './resource-method.handler.js';

/** `resources/templates/list`: the resource templates, a page at a time. */
@McpMethodHandlerProvider()
@Injectable()
export class ResourcesTemplatesListHandler extends McpResourceMethodHandler {
  readonly method = 'resources/templates/list';

  constructor(
    registry: McpResourceRegistry,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {
    super(registry);
  }

  handle({ params }: McpCall): Record<string, unknown> {
    return listPage('resourceTemplates', this.registry.listTemplates(), params.cursor, this.options.pageSize);
  }
}
