import { Injectable } from '@nestjs/common';
import { McpCapabilities } from '../../core/mcp-capabilities.js';
import type { McpResourceContext } from './mcp-resource-context.interface.js';
import type { McpResourceDefinition, McpResourceTemplateDefinition } from './mcp-resource-definition.interface.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from './mcp-resource-options.interface.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { McpProviderMethods, type ProviderMethod } from '../provider-methods.js';
import type { McpComponent, McpComponentProvider } from '../components/mcp-component-provider.interface.js';
import { fixedResourceDescriptor, resourceTemplateDescriptor } from './resource-descriptors.js';
import { MCP_METADATA } from '../mcp-metadata.accessor.js';

/**
 * The resources and templates of `@McpResource()` and `@McpResourceTemplate()` methods (a component provider) and,
 * once loaded, when there is at least one or resources may be registered at runtime (`lists.listChanged: { resources: true }`), declares
 * the `resources` capability (the resources method handlers then answer `isServed()` with true).
 * Misconfiguration throws here, so `app.init()` fails with a message naming the method.
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
      const resource = accessor.get(MCP_METADATA.resource, method.method);
      if (resource) yield { kind: 'resource', definition: this.describeResource(method, resource) };
      const template = accessor.get(MCP_METADATA.resourceTemplate, method.method);
      if (template) yield { kind: 'resourceTemplate', definition: this.describeTemplate(method, template) };
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

  private describeResource(method: ProviderMethod, options: McpResourceOptions): McpResourceDefinition {
    const { site } = method;
    const descriptor = fixedResourceDescriptor(site, '@McpResource()', options);
    return {
      uri: options.uri,
      site,
      descriptor,
      handler: this.providerMethods.handlerOf<McpResourceContext>(method),
    };
  }

  private describeTemplate(method: ProviderMethod, options: McpResourceTemplateOptions): McpResourceTemplateDefinition {
    const { site } = method;
    const { matcher, descriptor } = resourceTemplateDescriptor(site, '@McpResourceTemplate()', options);
    return {
      uriTemplate: options.uriTemplate,
      site,
      matcher,
      descriptor,
      handler: this.providerMethods.handlerOf<McpResourceContext>(method),
    };
  }
}
