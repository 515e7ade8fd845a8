import type { McpResourceOptions, McpResourceTemplateOptions } from './mcp-resource-options.interface.js';
import type { McpFeatureHandler } from '../feature-handler.js';
import type { McpResourceContext } from './mcp-resource-context.interface.js';
import type { CompiledUriTemplate } from './uri-template.js';
import type { McpComponentEntry } from '../components/component.registry.js';

/** A resource as `resources/list` sends it: exactly what `@McpResource()` declared. */
export type McpResourceDescriptor = McpResourceOptions;

/** A resource template as `resources/templates/list` sends it: exactly what `@McpResourceTemplate()` declared. */
export type McpResourceTemplateDescriptor = McpResourceTemplateOptions;

/** Everything `resources/read` needs about a fixed resource, computed once at boot. */
export interface McpResourceDefinition extends McpComponentEntry<McpResourceDescriptor> {
  readonly uri: string;
  readonly handler: McpFeatureHandler<McpResourceContext>;
}

/** Everything `resources/read` needs about a resource template, its matcher compiled at boot. */
export interface McpResourceTemplateDefinition extends McpComponentEntry<McpResourceTemplateDescriptor> {
  readonly uriTemplate: string;
  readonly matcher: CompiledUriTemplate;
  readonly handler: McpFeatureHandler<McpResourceContext>;
}

/** A URI resolved to what serves it, with the template's variables (`{}` for a fixed resource). */
export interface McpResourceMatch {
  readonly site: string;
  readonly name: string;
  readonly mimeType?: string;
  readonly uriTemplate?: string;
  readonly variables: Record<string, string>;
  readonly handler: McpFeatureHandler<McpResourceContext>;
  /** Scopes a caller must hold to read or watch it (a scoped upstream's). */
  readonly scopes?: readonly string[];
}
