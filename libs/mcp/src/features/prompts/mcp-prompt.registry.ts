import { Injectable } from '@nestjs/common';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import type { McpPromptDefinition, McpPromptDescriptor } from './mcp-prompt-definition.interface.js';

/**
 * The prompts of one application, filled once at boot by the explorer; the request path only reads it.
 * One instance per module instance: two apps in one process never share prompts.
 */
@Injectable()
export class McpPromptRegistry {
  private readonly prompts = new Map<string, McpPromptDefinition>();
  private descriptors: McpPromptDescriptor[] = [];

  /** Adds a prompt; a second prompt with the same name is a boot error naming both sites. */
  add(prompt: McpPromptDefinition): void {
    const existing = this.prompts.get(prompt.name);
    if (existing) throw new McpConfigurationError(McpMessages.duplicatePromptName(prompt.name, existing.site, prompt.site));
    this.prompts.set(prompt.name, prompt);
    this.descriptors = [...this.descriptors, prompt.descriptor];
  }

  get(name: string): McpPromptDefinition | undefined {
    return this.prompts.get(name);
  }

  get size(): number {
    return this.prompts.size;
  }

  /** `prompts/list` entries in registration order. */
  listDescriptors(): readonly McpPromptDescriptor[] {
    return this.descriptors;
  }
}
