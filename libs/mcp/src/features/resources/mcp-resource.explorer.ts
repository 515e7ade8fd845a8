import { Injectable } from '@nestjs/common';
import { McpCapabilities } from '../../core/mcp-capabilities.js';
import type { McpResourceContext } from './mcp-resource-context.interface.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { McpProviderMethods, type ProviderMethod } from '../provider-methods.js';
import type { McpComponent, McpComponentProvider } from '../components/mcp-component-provider.interface.js';
import { fixedResourceDescriptor, resourceTemplateDescriptor } from './resource-descriptors.js';
import { MCP_METADATA } from '../mcp-metadata.accessor.js';

/**
 * The resources and templates of `@McpResource()` and `@McpResourceTemplate()` methods (a component provider); once
 * loaded, declares `resources` when the registry is served. Misconfiguration fails `app.init()` naming the method.
 */
@Injectable()
export class McpResourceExplorer implements McpComponentProvider {
  constructor(
    private readonly providerMethods: McpProviderMethods,
    private readonly registry: McpResourceRegistry,
    private readonly capabilities: McpCapabilities,
  ) {}

  *components(): Iterable<McpComponent> {
    const { accessor } = this.providerMethods;
    for (const method of this.providerMethods.all()) {
      const { site } = method;
      const resource = accessor.get(MCP_METADATA.resource, method.method);
      if (resource) {
        const descriptor = fixedResourceDescriptor(site, '@McpResource()', resource);
        yield { kind: 'resource', definition: { uri: resource.uri, site, descriptor, handler: this.handlerOf(method) } };
      }
      const template = accessor.get(MCP_METADATA.resourceTemplate, method.method);
      if (template) {
        const { matcher, descriptor } = resourceTemplateDescriptor(site, '@McpResourceTemplate()', template);
        const definition = { uriTemplate: template.uriTemplate, site, matcher, descriptor, handler: this.handlerOf(method) };
        yield { kind: 'resourceTemplate', definition };
      }
    }
  }

  loaded(): void {
    // Nothing to serve, now or at runtime: no capability, and the methods stay -32601.
    if (!this.registry.served) return;
    // Subscriptions work for every URI we serve, so `subscribe` is always true; `listChanged` is declared by the
    // list-changed notifier when the module option asks for it (the list then may change at runtime).
    this.capabilities.declare('resources', { subscribe: true });
    // Template variables can be completed (`ref/resource`), answered with no values when nobody completes them;
    // templates registered at runtime can be completed too.
    if (this.registry.hasTemplates || this.registry.changesAtRuntime) this.capabilities.declare('completions');
  }

  private handlerOf(method: ProviderMethod) {
    return this.providerMethods.handlerOf<McpResourceContext>(method);
  }
}
