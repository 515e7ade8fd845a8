import { Inject, Injectable } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpCall, McpMethodHandler } from '../../core/method-handler.interface.js';
import { McpMethodHandlerProvider } from '../../core/method-handler.decorator.js';
import { listPage } from '../../core/pagination-cursor.js';
import { McpPromptRegistry } from './mcp-prompt.registry.js';

/** `prompts/list`: serialises descriptors built at boot, a page at a time. */
@McpMethodHandlerProvider()
@Injectable()
export class PromptsListHandler implements McpMethodHandler {
  readonly method = 'prompts/list';

  /**
   * Served once something declares a prompt, or when prompts may be registered at runtime
   * (`listChanged: { prompts: true }`); otherwise the method stays unknown (-32601).
   */
  isServed(): boolean {
    return this.registry.served;
  }

  constructor(
    private readonly registry: McpPromptRegistry,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  handle({ params }: McpCall): Record<string, unknown> {
    return listPage('prompts', this.registry.listDescriptors(), params.cursor, this.options.pageSize);
  }
}
