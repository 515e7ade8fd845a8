import { Inject, Injectable } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpCall } from '../../core/method-handler.interface.js';
import { McpMethodHandlerProvider } from '../../core/method-handler.decorator.js';
import { listPage } from '../../core/pagination-cursor.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { McpResourceMethodHandler } from './resource-method.handler.js';

/** A `resources/*` list, a page at a time (`pageSize`). */
@Injectable()
abstract class McpResourceListHandler extends McpResourceMethodHandler {
  constructor(
    registry: McpResourceRegistry,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {
    super(registry);
  }

  /** The result's key and the whole list. */
  protected abstract list(): [key: string, items: readonly unknown[]];

  handle({ params }: McpCall): Record<string, unknown> {
    const [key, items] = this.list();
    return listPage(key, items, params.cursor, this.options.pageSize);
  }
}

/** `resources/list`: the fixed resources (templates have their own list). */
@McpMethodHandlerProvider()
@Injectable()
export class ResourcesListHandler extends McpResourceListHandler {
  readonly method = 'resources/list';

  protected list(): [string, readonly unknown[]] {
    return ['resources', this.registry.listResources()];
  }
}

/** `resources/templates/list`: the resource templates. */
@McpMethodHandlerProvider()
@Injectable()
export class ResourcesTemplatesListHandler extends McpResourceListHandler {
  readonly method = 'resources/templates/list';

  protected list(): [string, readonly unknown[]] {
    return ['resourceTemplates', this.registry.listTemplates()];
  }
}
