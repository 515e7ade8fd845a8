import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { McpPromptRegistry } from '../prompts/mcp-prompt.registry.js';
import { McpResourceRegistry } from '../resources/mcp-resource.registry.js';
import { McpToolRegistry } from '../tools/mcp-tool.registry.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import { applyToolTransformations } from '../transforms/tool-transformations.applier.js';
import type { McpToolSelector } from '../../options/mcp-tool-transformation.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { MCP_TOOL_CATALOG_TRANSFORMS, type McpToolCatalogTransform } from '../transforms/mcp-tool-catalog-transform.interface.js';
import { MCP_COMPONENT_PROVIDERS, type McpComponent, type McpComponentProvider } from './mcp-component-provider.interface.js';

/**
 * Fills the registries at `onModuleInit`: every component provider's components, in provider order (tools shaped by
 * the `tools.transforms` option, except the library's own), then what the catalogue transforms add (tool search),
 * then each provider's `loaded()` hook. The request path only reads the registries.
 */
@Injectable()
export class McpComponentLoader implements OnModuleInit {
  constructor(
    @Inject(MCP_COMPONENT_PROVIDERS) private readonly providers: readonly McpComponentProvider[],
    private readonly tools: McpToolRegistry,
    private readonly resources: McpResourceRegistry,
    private readonly prompts: McpPromptRegistry,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: Pick<McpResolvedOptions, 'tools' | 'sources'>,
    @Inject(MCP_TOOL_CATALOG_TRANSFORMS) private readonly catalogTransforms: readonly McpToolCatalogTransform[],
  ) {}

  async onModuleInit(): Promise<void> {
    await Promise.all(this.providers.map((provider) => provider.prepare?.()));
    const tools: McpToolDefinition[] = [];
    const own: McpToolDefinition[] = [];
    for (const provider of this.providers) {
      for (const component of provider.components(tools.slice())) {
        if (component.kind !== 'tool') this.add(component);
        else (component.own ? own : tools).push(component.definition);
      }
    }
    // The transforms see every tool at once: their selectors, and the names they leave, span the providers. An
    // upstream's tools get them as they come (`McpUpstreamsProvider`): a selector naming one may pick none here.
    const upstreams = this.options.sources.upstreams.map((upstream) => `${upstream.name}_`);
    const namesUpstreamTool = (selector: McpToolSelector) =>
      typeof selector === 'string' && upstreams.some((prefix) => selector.includes(prefix));
    for (const tool of applyToolTransformations(tools, this.options.tools.transforms, 'tools.transforms', namesUpstreamTool))
      this.tools.add(tool);
    for (const tool of own) this.tools.addOwn(tool);
    for (const transform of this.catalogTransforms) {
      const added = transform.tools(this.tools.inOrder());
      for (const name of transform.reserved) this.tools.reserve(name);
      for (const tool of added) this.tools.addOwn(tool);
    }
    for (const provider of this.providers) provider.loaded?.();
  }

  private add(component: Exclude<McpComponent, { kind: 'tool' }>): void {
    switch (component.kind) {
      case 'resource':
        return this.resources.addResource(component.definition);
      case 'resourceTemplate':
        return this.resources.addTemplate(component.definition);
      case 'prompt':
        return this.prompts.add(component.definition);
    }
  }
}
