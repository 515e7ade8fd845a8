import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import type { McpResourceDescriptor, McpResourceTemplateDescriptor } from './mcp-resource-definition.interface.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from './mcp-resource-options.interface.js';
import { isAbsoluteUri } from './resource-uri.js';
import { compileUriTemplate, UriTemplateError, type CompiledUriTemplate } from './uri-template.js';

/**
 * The checks and `resources/list` entry of a fixed resource, shared by `@McpResource()` (the explorer) and
 * `McpResourceRegistry.register()`: a bad option throws an `McpConfigurationError` naming `site`.
 * `declaredBy` names the API in messages (`@McpResource()`).
 */
export function fixedResourceDescriptor(site: string, declaredBy: string, options: McpResourceOptions): McpResourceDescriptor {
  checkResourceName(site, declaredBy, options.name);
  if (typeof options.uri === 'string' && /[{}]/.test(options.uri))
    throw new McpConfigurationError(McpMessages.resourceUriLooksLikeTemplate(site, options.uri));
  if (!isAbsoluteUri(options.uri)) throw new McpConfigurationError(McpMessages.invalidResourceUri(site, options.uri));
  if (options.size !== undefined && (!Number.isInteger(options.size) || options.size < 0)) {
    throw new McpConfigurationError(McpMessages.invalidResourceSize(site, options.size));
  }
  return {
    uri: options.uri,
    name: options.name,
    ...(options.title !== undefined && { title: options.title }),
    ...(options.description !== undefined && { description: options.description }),
    ...(options.mimeType !== undefined && { mimeType: options.mimeType }),
    ...(options.size !== undefined && { size: options.size }),
    ...(options.annotations !== undefined && { annotations: { ...options.annotations } }),
  };
}

/**
 * The checks, compiled matcher and `resources/templates/list` entry of a resource template, shared by
 * `@McpResourceTemplate()` and `McpResourceRegistry.register()`.
 */
export function resourceTemplateDescriptor(
  site: string,
  declaredBy: string,
  options: McpResourceTemplateOptions,
): { matcher: CompiledUriTemplate; descriptor: McpResourceTemplateDescriptor } {
  checkResourceName(site, declaredBy, options.name);
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
  return {
    matcher,
    descriptor: {
      uriTemplate,
      name: options.name,
      ...(options.title !== undefined && { title: options.title }),
      ...(options.description !== undefined && { description: options.description }),
      ...(options.mimeType !== undefined && { mimeType: options.mimeType }),
      ...(options.annotations !== undefined && { annotations: { ...options.annotations } }),
    },
  };
}

function checkResourceName(site: string, declaredBy: string, name: unknown): void {
  if (typeof name !== 'string' || name.trim() === '') throw new McpConfigurationError(McpMessages.resourceMissingName(site, declaredBy));
}
