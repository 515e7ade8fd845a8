import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { McpToolHandlerFactory } from '../../execution/tool-handler.factory.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { MCP_RESOURCE_METADATA, MCP_RESOURCE_TEMPLATE_METADATA } from '../../mcp.constants.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { McpCapabilities } from '../../core/mcp-capabilities.js';
import { createFeatureHandler } from '../feature-handler.js';
import type { McpResourceContext } from './mcp-resource-context.interface.js';
import type { McpResourceDefinition, McpResourceTemplateDefinition } from './mcp-resource-definition.interface.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from './mcp-resource-options.interface.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { bindPayloadParam, McpProviderMethods, type ProviderMethod } from '../provider-methods.js';
import { isAbsoluteUri } from './resource-uri.js';
import { compileUriTemplate, UriTemplateError } from './uri-template.js';

/**
 * Walks every provider once at boot, registers `@McpResource()` and `@McpResourceTemplate()` methods, and, when
 * there is at least one, declares the `resources` capability (the resources method handlers then answer
 * `isServed()` with true).
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
    if (this.registry.isEmpty) return; // nothing to serve: no capability, and the methods stay -32601
    // Subscriptions work for every URI we serve, so `subscribe` is always true; `listChanged` is not declared
    // because the list is fixed at boot.
    this.capabilities.declare('resources', { subscribe: true });
    // Template variables can be completed (`ref/resource`), answered with no values when nobody completes them.
    if (this.registry.hasTemplates) this.capabilities.declare('completions');
  }

  private describeResource(method: ProviderMethod, options: McpResourceOptions): McpResourceDefinition {
    const { site } = method;
    checkName(site, '@McpResource()', options.name);
    if (typeof options.uri === 'string' && /[{}]/.test(options.uri))
      throw new McpConfigurationError(McpMessages.resourceUriLooksLikeTemplate(site, options.uri));
    if (!isAbsoluteUri(options.uri)) throw new McpConfigurationError(McpMessages.invalidResourceUri(site, options.uri));
    if (options.size !== undefined && (!Number.isInteger(options.size) || options.size < 0)) {
      throw new McpConfigurationError(McpMessages.invalidResourceSize(site, options.size));
    }
    bindPayloadParam(method.prototype, method.methodName);
    return {
      uri: options.uri,
      site,
      descriptor: {
        uri: options.uri,
        name: options.name,
        ...(options.title !== undefined && { title: options.title }),
        ...(options.description !== undefined && { description: options.description }),
        ...(options.mimeType !== undefined && { mimeType: options.mimeType }),
        ...(options.size !== undefined && { size: options.size }),
        ...(options.annotations !== undefined && { annotations: { ...options.annotations } }),
      },
      handler: createFeatureHandler<McpResourceContext>(this.handlers, method.wrapper, method.methodName, site),
    };
  }

  private describeTemplate(method: ProviderMethod, options: McpResourceTemplateOptions): McpResourceTemplateDefinition {
    const { site } = method;
    checkName(site, '@McpResourceTemplate()', options.name);
    const { uriTemplate } = options;
    if (typeof uriTemplate !== 'string')
      throw new McpConfigurationError(McpMessages.invalidResourceTemplate(site, uriTemplate, 'it must be a string'));
    let matcher;
    try {
      matcher = compileUriTemplate(uriTemplate);
    } catch (error) {
      if (error instanceof UriTemplateError)
        throw new McpConfigurationError(McpMessages.invalidResourceTemplate(site, uriTemplate, error.message));
      throw error;
    }
    if (!isAbsoluteUri(matcher.expand('x'))) {
      throw new McpConfigurationError(
        McpMessages.invalidResourceTemplate(
          site,
          uriTemplate,
          "it does not expand to an absolute URI; start it with a scheme, e.g. 'app://items/{id}'",
        ),
      );
    }
    bindPayloadParam(method.prototype, method.methodName);
    return {
      uriTemplate,
      site,
      matcher,
      descriptor: {
        uriTemplate,
        name: options.name,
        ...(options.title !== undefined && { title: options.title }),
        ...(options.description !== undefined && { description: options.description }),
        ...(options.mimeType !== undefined && { mimeType: options.mimeType }),
        ...(options.annotations !== undefined && { annotations: { ...options.annotations } }),
      },
      handler: createFeatureHandler<McpResourceContext>(this.handlers, method.wrapper, method.methodName, site),
    };
  }
}

function checkName(site: string, decorator: string, name: unknown): void {
  if (typeof name !== 'string' || name.trim() === '') throw new McpConfigurationError(McpMessages.resourceMissingName(site, decorator));
}
