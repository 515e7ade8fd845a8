import type { McpPromptDefinition } from '../prompts/mcp-prompt-definition.interface.js';
import type { McpResourceDefinition, McpResourceTemplateDefinition } from '../resources/mcp-resource-definition.interface.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';

/**
 * One tool, fixed resource, resource template or prompt, built and checked, as a provider yields it. A tool marked
 * `own` is the library's (the job tools): its name is reserved (no source may take it) and `tools.transforms` leave
 * it as it is, since the library names it in its own answers and docs.
 */
export type McpComponent =
  | { readonly kind: 'tool'; readonly definition: McpToolDefinition; readonly own?: boolean }
  | { readonly kind: 'resource'; readonly definition: McpResourceDefinition }
  | { readonly kind: 'resourceTemplate'; readonly definition: McpResourceTemplateDefinition }
  | { readonly kind: 'prompt'; readonly definition: McpPromptDefinition };

/**
 * A source of components (decorated methods, controller routes, OpenAPI documents, upstream servers, the job tools). The loader
 * asks each for its components once at boot, in the order of {@link MCP_COMPONENT_PROVIDERS}, into the registry of
 * their kind; a source that changes later goes through the registries' `register` / `replace` / `remove`.
 */
export interface McpComponentProvider {
  /** Asynchronous work before any provider's {@link components}: load what building them needs (a schema converter). */
  prepare?(): Promise<void>;
  /**
   * Everything this source serves at boot; a misconfigured component throws an McpConfigurationError naming its site.
   * `earlier`: the tools of the providers before this one, as they yielded them (a source derived from them, such as
   * the job tools, reads it).
   */
  components(earlier: readonly McpToolDefinition[]): Iterable<McpComponent>;
  /** Called once every provider's components are registered: declare capabilities, check cross-references. */
  loaded?(): void;
}

/** The component providers of one module instance, in load order (the order their components are listed in). */
export const MCP_COMPONENT_PROVIDERS = Symbol('MCP_COMPONENT_PROVIDERS');
