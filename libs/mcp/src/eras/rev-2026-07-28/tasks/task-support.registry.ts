import { Injectable, type OnModuleInit } from '@nestjs/common';
import { McpConfigurationError } from '../../../core/errors/mcp-configuration.error.js';
import { McpProviderMethods } from '../../../features/provider-methods.js';
import { Rev20260728Messages } from '../rev-2026-07-28.messages.js';
import type { McpTaskSupportOptions } from '../../../features/tasks/mcp-task-support.decorator.js';
import { MCP_METADATA } from '../../../features/mcp-metadata.accessor.js';

/**
 * The `@McpTaskSupport()` declarations, by the method's site (kept when `tools.transforms` renames the tool),
 * collected at boot; one on a method that is not a job tool fails the boot.
 */
@Injectable()
export class McpTaskSupportRegistry implements OnModuleInit {
  private readonly byTool = new Map<string, Readonly<McpTaskSupportOptions>>();

  constructor(private readonly providerMethods: McpProviderMethods) {}

  onModuleInit(): void {
    const found = this.providerMethods.decorated(MCP_METADATA.taskSupport);
    for (const [method, support] of found) {
      const tool = this.providerMethods.accessor.get(MCP_METADATA.tool, method.method);
      if (!tool) throw new McpConfigurationError(Rev20260728Messages.taskSupportWithoutTool(method.site));
      if (!tool.job) throw new McpConfigurationError(Rev20260728Messages.taskSupportWithoutJob(method.site));
      this.byTool.set(method.site, Object.freeze({ ...support }));
    }
  }

  /** The declaration of a tool (empty for job tools declared without the decorator). */
  of(tool: { readonly site: string }): Readonly<McpTaskSupportOptions> {
    return this.byTool.get(tool.site) ?? {};
  }
}
