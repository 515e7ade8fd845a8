import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { methodNameToToolName } from '../../features/tools/tool-name.js';
import type { McpToolOptions } from '../../features/tools/mcp-tool-options.interface.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { MCP_TOOL_METADATA } from '../../mcp.constants.js';
import { McpProviderMethods } from '../../features/provider-methods.js';
import { Rev20260728Messages } from '../../eras/rev-2026-07-28/rev-2026-07-28.messages.js';
import { MCP_TASK_SUPPORT_METADATA, type McpTaskSupportOptions } from '../mcp-task-support.decorator.js';

/**
 * The `@McpTaskSupport()` declarations of one application, by tool name, collected once at boot. A declaration
 * on a method that is not a job tool fails the boot, naming the method.
 */
@Injectable()
export class McpTaskSupportRegistry implements OnModuleInit {
  private readonly byTool = new Map<string, Readonly<McpTaskSupportOptions>>();

  constructor(
    private readonly providerMethods: McpProviderMethods,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    for (const method of this.providerMethods.all()) {
      if (typeof method.method !== 'function') continue;
      const support = this.reflector.get<McpTaskSupportOptions | undefined>(MCP_TASK_SUPPORT_METADATA, method.method);
      if (!support) continue;
      const tool = this.reflector.get<McpToolOptions | undefined>(MCP_TOOL_METADATA, method.method);
      if (!tool) throw new McpConfigurationError(Rev20260728Messages.taskSupportWithoutTool(method.site));
      if (!tool.job) throw new McpConfigurationError(Rev20260728Messages.taskSupportWithoutJob(method.site));
      this.byTool.set(tool.name ?? methodNameToToolName(method.methodName), Object.freeze({ ...support }));
    }
  }

  /** The declaration of a tool (empty for job tools declared without the decorator). */
  of(toolName: string): Readonly<McpTaskSupportOptions> {
    return this.byTool.get(toolName) ?? {};
  }
}
