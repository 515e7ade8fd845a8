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
  return { uri: options.uri, ...listed(options, options.size) };
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
  const invalid = (reason: string) => new McpConfigurationError(McpMessages.invalidResourceTemplate(site, uriTemplate, reason));
  if (typeof uriTemplate !== 'string') throw invalid('it must be a string');
  let matcher;
  try {
    matcher = compileUriTemplate(uriTemplate);
  } catch (error) {
    throw error instanceof UriTemplateError ? invalid(error.message) : error;
  }
  if (!isAbsoluteUri(matcher.expand('x'))) {
    throw invalid("it does not expand to an absolute URI; start it with a scheme, e.g. 'app://items/{id}'");
  }
  return { matcher, descriptor: { uriTemplate, ...listed(options) } };
}

function checkResourceName(site: string, declaredBy: string, name: unknown): void {
  if (typeof name !== 'string' || name.trim() === '') throw new McpConfigurationError(McpMessages.resourceMissingName(site, declaredBy));
}

/** What both lists show of a resource or template besides its URI (a fixed resource's `size` too), in the wire order. */
function listed(options: McpResourceTemplateOptions | McpResourceOptions, size?: number) {
  return {
    name: options.name,
    ...(options.title !== undefined && { title: options.title }),
    ...(options.description !== undefined && { description: options.description }),
    ...(options.mimeType !== undefined && { mimeType: options.mimeType }),
    ...(size !== undefined && { size }),
    ...(options.annotations !== undefined && { annotations: { ...options.annotations } }),
  };
}
