import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { McpToolHandlerFactory } from '../../execution/tool-handler.factory.js';
import { MCP_RESOURCE_METADATA, MCP_RESOURCE_TEMPLATE_METADATA } from '../../mcp.constants.js';
import { McpCapabilities } from '../../core/mcp-capabilities.js';
import { createFeatureHandler } from '../feature-handler.js';
import type { McpResourceContext } from './mcp-resource-context.interface.js';
import type { McpResourceDefinition, McpResourceTemplateDefinition } from './mcp-resource-definition.interface.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from './mcp-resource-options.interface.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { bindPayloadParam, McpProviderMethods, type ProviderMethod } from '../provider-methods.js';
import { fixedResourceDescriptor, resourceTemplateDescriptor } from './resource-descriptors.js';

/**
 * Walks every provider once at boot, registers `@McpResource()` and `@McpResourceTemplate()` methods, and, when
 * there is at least one or resources may be registered at runtime (`listChanged: { resources: true }`), declares
 * the `resources` capability (the resources method handlers then answer `isServed()` with true).
 * Misconfiguration throws here, so `app.init()` fails with a message naming the method.
 */
@Injectable()
export class McpResourceExplorer implements OnModuleInit {
  constructor(
    private readonly providerMethods: McpProviderMethods,
    private readonly reflector: Reflector,
    private readonly registry: McpResourceRegistry,
    private readonly handlers: McpToolHandlerFactory,
    private readonly capabilities: McpCapabilities,
  ) {}

  onModuleInit(): void {
    for (const method of this.providerMethods.all()) {
      if (typeof method.method !== 'function') continue;
      const resource = this.reflector.get<McpResourceOptions | undefined>(MCP_RESOURCE_METADATA, method.method);
      if (resource) this.registry.addResource(this.describeResource(method, resource));
      const template = this.reflector.get<McpResourceTemplateOptions | undefined>(MCP_RESOURCE_TEMPLATE_METADATA, method.method);
      if (template) this.registry.addTemplate(this.describeTemplate(method, template));
    }
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
    bindPayloadParam(method.prototype, method.methodName);
    return {
      uri: options.uri,
      site,
      descriptor,
      handler: createFeatureHandler<McpResourceContext>(this.handlers, method.wrapper, method.methodName, site),
    };
  }

  private describeTemplate(method: ProviderMethod, options: McpResourceTemplateOptions): McpResourceTemplateDefinition {
    const { site } = method;
    const { matcher, descriptor } = resourceTemplateDescriptor(site, '@McpResourceTemplate()', options);
    bindPayloadParam(method.prototype, method.methodName);
    return {
      uriTemplate: options.uriTemplate,
      site,
      matcher,
      descriptor,
      handler: createFeatureHandler<McpResourceContext>(this.handlers, method.wrapper, method.methodName, site),
    };
  }
}
