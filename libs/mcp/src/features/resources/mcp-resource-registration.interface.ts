import type { McpResourceContext } from './mcp-resource-context.interface.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from './mcp-resource-options.interface.js';

/**
 * What a runtime resource handler receives and returns: the template's variables (`{}` for a fixed resource)
 * and the read's context; it returns what `@McpResource()` methods return (text, bytes, or `{ contents }`). Throwing `NotFoundException` answers -32002, as for decorated resources.
 * @publicApi
 */
export type McpResourceHandlerFunction = (variables: Record<string, string>, context: McpResourceContext) => unknown;

/**
 * A fixed resource added at runtime with `McpResourceRegistry.register()`: the options of `@McpResource()` plus
 * a handler, checked like a decorated one. Nest guards, interceptors and filters do not apply (there is no method).
 * @publicApi
 */
export interface McpFixedResourceRegistration extends McpResourceOptions {
  handler: McpResourceHandlerFunction;
}

/**
 * A resource template added at runtime with `McpResourceRegistry.register()`: the options of
 * `@McpResourceTemplate()` plus a handler receiving the matched variables.
 * @publicApi
 */
export interface McpResourceTemplateRegistration extends McpResourceTemplateOptions {
  handler: McpResourceHandlerFunction;
}

/** A runtime resource: a fixed one (`uri`) or a template (`uriTemplate`). @publicApi */
export type McpResourceRegistration = McpFixedResourceRegistration | McpResourceTemplateRegistration;

/** A resource or template registered at runtime: replace or remove it later. @publicApi */
export interface McpResourceHandle {
  /** The fixed resource's `uri`, or the template's `uriTemplate`. */
  readonly key: string;
  readonly kind: 'resource' | 'template';
  /** Swaps the definition (same URI or template), announcing `notifications/resources/list_changed`. */
  replace(
    registration: Omit<McpFixedResourceRegistration, 'uri'> | Omit<McpResourceTemplateRegistration, 'uriTemplate'>,
  ): McpResourceHandle;
  /** Removes it (and the subscriptions to URIs nothing serves any more); false when it was already gone. */
  remove(): boolean;
}
