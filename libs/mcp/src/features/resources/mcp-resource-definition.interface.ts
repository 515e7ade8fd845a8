import type { McpResourceOptions, McpResourceTemplateOptions } from './mcp-resource-options.interface.js';
import type { McpFeatureHandler } from '../feature-handler.js';
import type { McpResourceContext } from './mcp-resource-context.interface.js';
import type { CompiledUriTemplate } from './uri-template.js';

/** A resource as `resources/list` sends it: exactly what `@McpResource()` declared. */
export type McpResourceDescriptor = McpResourceOptions;

/** A resource template as `resources/templates/list` sends it: exactly what `@McpResourceTemplate()` declared. */
export type McpResourceTemplateDescriptor = McpResourceTemplateOptions;

/** Everything `resources/read` needs about a fixed resource, computed once at boot. */
export interface McpResourceDefinition {
  readonly uri: string;
  /** `ClassName#method`, for messages. */
  readonly site: string;
  readonly descriptor: McpResourceDescriptor;
  readonly handler: McpFeatureHandler<McpResourceContext>;
  /** Registered with `McpResourceRegistry.register()` (only those can be replaced or removed). */
  readonly runtime?: boolean;
  /** Scopes a caller must hold to see, read or watch it (a scoped upstream's). */
  readonly scopes?: readonly string[];
}

/** Everything `resources/read` needs about a resource template, its matcher compiled at boot. */
export interface McpResourceTemplateDefinition {
  readonly uriTemplate: string;
  readonly site: string;
  readonly descriptor: McpResourceTemplateDescriptor;
  readonly matcher: CompiledUriTemplate;
  readonly handler: McpFeatureHandler<McpResourceContext>;
  /** Registered with `McpResourceRegistry.register()` (only those can be replaced or removed). */
  readonly runtime?: boolean;
  /** Scopes a caller must hold to see, read or watch it (a scoped upstream's). */
  readonly scopes?: readonly string[];
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
