import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { McpPromptRegistry } from '../prompts/mcp-prompt.registry.js';
import { McpResourceRegistry } from '../resources/mcp-resource.registry.js';
import { McpToolRegistry } from '../tools/mcp-tool.registry.js';
import { MCP_COMPONENT_PROVIDERS, type McpComponent, type McpComponentProvider } from './mcp-component-provider.interface.js';

/**
 * Fills the registries at `onModuleInit`: every component provider's components, in provider order, then each
 * provider's `loaded()` hook. The request path only reads the registries.
 */
@Injectable()
export class McpComponentLoader implements OnModuleInit {
  constructor(
    @Inject(MCP_COMPONENT_PROVIDERS) private readonly providers: readonly McpComponentProvider[],
    private readonly tools: McpToolRegistry,
    private readonly resources: McpResourceRegistry,
    private readonly prompts: McpPromptRegistry,
  ) {}

  async onModuleInit(): Promise<void> {
    await Promise.all(this.providers.map((provider) => provider.prepare?.()));
    for (const provider of this.providers) for (const component of provider.components()) this.add(component);
    for (const provider of this.providers) provider.loaded?.();
  }

  private add(component: McpComponent): void {
    switch (component.kind) {
      case 'tool':
        return this.tools.add(component.definition);
      case 'resource':
        return this.resources.addResource(component.definition);
      case 'resourceTemplate':
        return this.resources.addTemplate(component.definition);
      case 'prompt':
        return this.prompts.add(component.definition);
    }
  }
}
