import { Injectable } from '@nestjs/common';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import type { McpToolDefinition, McpToolDescriptor } from './mcp-tool-definition.interface.js';

/**
 * The tools of one application, filled once at boot by the explorer; the request path only reads it.
 * One instance per module instance: two apps in one process never share tools.
 * @publicApi
 */
@Injectable()
export class McpToolRegistry {
  private readonly tools = new Map<string, McpToolDefinition>();
  private descriptors: McpToolDescriptor[] = [];
  /** Whether any tool requires scopes: when none does, listing skips filtering. */
  private hasScopedTools = false;
  private hasJobTools = false;

  /**
   * Adds a tool; a second tool with the same name is a boot error naming both sites.
   * @internal
   */
  add(tool: McpToolDefinition): void {
    const existing = this.tools.get(tool.name);
    if (existing) throw new McpConfigurationError(McpMessages.duplicateToolName(tool.name, existing.site, tool.site));
    this.tools.set(tool.name, tool);
    this.descriptors = [...this.descriptors, tool.descriptor];
    if (tool.scopes.length > 0) this.hasScopedTools = true;
    if (tool.job) this.hasJobTools = true;
  }

  /** @internal */
  get(name: string): McpToolDefinition | undefined {
    return this.tools.get(name);
  }

  /** True when some tool runs as a job. */
  get hasJobs(): boolean {
    return this.hasJobTools;
  }

  get size(): number {
    return this.tools.size;
  }

  /** Wire descriptors in registration order (the order `tools/list` pages through). */
  listDescriptors(): readonly McpToolDescriptor[] {
    return this.descriptors;
  }

  /** The descriptors of the tools a caller holding `scopes` may call (all of them when `scopes` is undefined). */
  visibleDescriptors(scopes: readonly string[] | undefined): readonly McpToolDescriptor[] {
    if (scopes === undefined || !this.hasScopedTools) return this.descriptors;
    const held = new Set(scopes);
    return this.descriptors.filter((descriptor) => this.tools.get(descriptor.name)!.scopes.every((scope) => held.has(scope)));
  }
}
