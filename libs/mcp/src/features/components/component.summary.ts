import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { McpPromptRegistry } from '../prompts/mcp-prompt.registry.js';
import { McpResourceRegistry } from '../resources/mcp-resource.registry.js';
import { McpToolRegistry } from '../tools/mcp-tool.registry.js';

/**
 * One boot line per server with what it serves: `weather-server (/mcp): 8 tools, 2 resources, 2 prompts`, or
 * `(stdio)` in an application context without HTTP (`serveMcpOverStdio` serves it there).
 */
@Injectable()
export class McpComponentSummary implements OnApplicationBootstrap {
  private readonly logger = new Logger('McpModule');

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly tools: McpToolRegistry,
    private readonly resources: McpResourceRegistry,
    private readonly prompts: McpPromptRegistry,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    const where = this.adapterHost?.httpAdapter ? this.options.path : 'stdio';
    this.logger.log(`${this.options.name} (${where}): ${this.describe()}`);
  }

  /** `8 tools, 2 resources, 1 resource template, 2 prompts` (templates only when there are some). */
  describe(): string {
    const templates = this.resources.listTemplates().length;
    return [
      count(this.tools.size, 'tool'),
      count(this.resources.listResources().length, 'resource'),
      ...(templates > 0 ? [count(templates, 'resource template')] : []),
      count(this.prompts.size, 'prompt'),
    ].join(', ');
  }
}

function count(size: number, noun: string): string {
  return `${size} ${noun}${size === 1 ? '' : 's'}`;
}
