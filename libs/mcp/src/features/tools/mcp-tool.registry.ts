import { Inject, Injectable, Optional } from '@nestjs/common';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { McpListChanges } from '../../core/list-changes.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpToolDefinition, McpToolDescriptor } from './mcp-tool-definition.interface.js';
import type { McpToolHandle, McpToolRegistration } from './mcp-tool-registration.interface.js';
import { McpToolRuntimeMessages as Messages } from './mcp-tool-runtime.messages.js';
import { McpRuntimeToolBuilder } from './runtime-tool.builder.js';
import { McpComponentRegistry } from '../components/component.registry.js';
import { componentKey, McpRuntimeRegistrations } from '../components/runtime-registrations.js';
import type { McpComponent } from '../components/mcp-component-provider.interface.js';
import { isAppOnlyTool } from '../apps/tool-ui.js';

/** A tool whose visibility runs code for each caller. */
const isPerCaller = (tool: McpToolDefinition): boolean => tool.visibleTo !== undefined || tool.guardsAdmit !== undefined;

/** The default tool timeout when the registry is used without the module (unit specs). */
const FALLBACK_TIMEOUT_MS = 30_000;

/**
 * The tools of one module instance: filled at boot, changed at runtime through {@link register}, {@link replace} and
 * {@link remove}, each announcing `notifications/tools/list_changed` (needs `lists.listChanged: { tools: true }`).
 * @publicApi
 * @example
 * // McpModule.forRoot({ ..., lists: { listChanged: { tools: true } } })
 * constructor(private readonly tools: McpToolRegistry) {}
 * enablePlugin(plugin: Plugin) {
 *   const handle = this.tools.register({
 *     name: `plugin_${plugin.id}`,
 *     description: plugin.description,
 *     inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
 *     handler: (args: { query: string }) => plugin.run(args.query),
 *   });
 *   plugin.onUnload(() => handle.remove());
 * }
 */
@Injectable()
export class McpToolRegistry {
  private readonly tools: McpComponentRegistry<McpToolDefinition>;
  /** True when some tool requires scopes: when none does, listing skips filtering. @internal */
  hasScopes = false;
  /** True when some tool runs as a job. @internal */
  hasJobs = false;
  /** True when some tool is for MCP Apps only (listed only to clients that declared the extension). @internal */
  hasAppOnly = false;
  /** Whether any tool has a `visibleTo` or guards that listing runs: kept up to date so a page never scans them all. */
  private hasPerCallerTools = false;
  private readonly builder: McpRuntimeToolBuilder;
  private readonly runtime: McpRuntimeRegistrations<McpToolRegistration>;

  /** Nest injects it; its parameters are not part of the public API. @internal */
  constructor(
    @Optional() @Inject(MCP_RESOLVED_OPTIONS) private readonly options?: McpResolvedOptions,
    @Optional() private readonly changes?: McpListChanges,
  ) {
    this.builder = new McpRuntimeToolBuilder(options?.tools.timeoutMs ?? FALLBACK_TIMEOUT_MS);
    this.tools = new McpComponentRegistry({
      messages: { ...Messages, duplicate: McpMessages.duplicateToolName },
      changesAtRuntime: !options || options.lists.listChanged.tools,
      announce: () => {
        this.recount();
        this.changes?.changed('tools');
      },
    });
    this.runtime = new McpRuntimeRegistrations(this.builder, () => this.tools);
  }

  /** Adds one of the library's own tools (the job tools, tool search): its name is reserved first, so no source holds it. @internal */
  addOwn(tool: McpToolDefinition): void {
    this.reserve(tool.name);
    this.add(tool);
  }

  /** Adds a tool; a second tool with the same name is a boot error naming both sites. @internal */
  add(tool: McpToolDefinition): void {
    this.tools.add(tool.name, tool);
    if (tool.scopes.length > 0) this.hasScopes = true;
    if (tool.job) this.hasJobs = true;
    if (isPerCaller(tool)) this.hasPerCallerTools = true;
    if (isAppOnlyTool(tool.descriptor)) this.hasAppOnly = true;
  }

  /** Every scope some tool requires, sorted (RFC 9728 `scopes_supported`). @internal */
  requiredScopes(): string[] {
    if (!this.hasScopes) return [];
    return [...new Set([...this.tools.values()].flatMap((tool) => tool.scopes))].sort();
  }

  /**
   * Adds a tool at runtime, built and validated like an `@McpTool()` method; a bad definition or a name in use
   * throws an `McpConfigurationError`; a name an upstream's tool holds becomes yours (a warning). Sessions are told
   * with `notifications/tools/list_changed`.
   */
  register<Args = unknown>(registration: McpToolRegistration<Args>): McpToolHandle {
    return this.handle(this.runtime.apply('register', registration as McpToolRegistration));
  }

  /**
   * Builds, without adding, a tool the module itself serves (tool search's `search_tools`), checked like a runtime
   * one; the component loader adds it with {@link addOwn}.
   * @internal
   */
  buildOwn<Args = unknown>(registration: McpToolRegistration<Args>): McpToolDefinition {
    const site = this.builder.messages.site('register', this.builder.key(registration as McpToolRegistration));
    return this.builder.build(site, registration as McpToolRegistration).definition as McpToolDefinition;
  }

  /** Swaps a tool registered at runtime for a new definition (same place in `tools/list`). */
  replace<Args = unknown>(registration: McpToolRegistration<Args>): McpToolHandle {
    return this.handle(this.runtime.apply('replace', registration as McpToolRegistration));
  }

  /**
   * Adds, or swaps, a tool of `source` built elsewhere (an upstream server's, marked `runtime`), announcing the
   * change; false, with one warning, when another holds the name (the app's, the library's, another source's).
   * @internal
   */
  put(tool: McpToolDefinition, source: string): boolean {
    this.tools.checkRuntime(tool.site);
    return this.tools.putFrom(source, tool.name, tool);
  }

  /** Removes the tool `source` put under this name; nothing when the name is another's. @internal */
  withdraw(name: string, source: string): boolean {
    return this.tools.withdraw(source, name);
  }

  /** The source (`upstream "<name>"`) holding this name, if one does. @internal */
  sourceOf(name: string): string | undefined {
    return this.tools.sourceOf(name);
  }

  /**
   * Keeps a name for the library's own tools (tool search, job tools): no source may take it, and a source's tool
   * holding it now leaves with a warning. A tool of the app with the name is left for the caller to refuse.
   * @internal
   */
  reserve(name: string): void {
    this.tools.reserve(name);
  }

  /** Removes a tool registered at runtime; false when there is none of that name. Calls in flight finish. */
  remove(name: string): boolean {
    return this.runtime.remove(name, ['tool']);
  }

  /** Whether a tool of this name exists (for anyone: visibility is decided per caller). */
  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** @internal */
  get(name: string): McpToolDefinition | undefined {
    return this.tools.get(name);
  }

  /** True when `tools/list` may differ between callers (scopes, `visibleTo`, filters, guards). @internal */
  get listsPerCaller(): boolean {
    return this.hasScopes || this.hasPerCallerRules;
  }

  /** True when some tool's visibility runs code per caller (`visibleTo`, `tools.filters`, guards with `tools.hideGuarded`). @internal */
  get hasPerCallerRules(): boolean {
    return this.hasPerCallerTools || (this.options?.tools.filters.length ?? 0) > 0;
  }

  get size(): number {
    return this.tools.size;
  }

  /** Wire descriptors in registration order (the order `tools/list` pages through). */
  listDescriptors(): readonly McpToolDescriptor[] {
    return this.tools.descriptors();
  }

  /** The tools in registration order, index for index with {@link listDescriptors}. @internal */
  inOrder(): readonly McpToolDefinition[] {
    return this.tools.inOrder();
  }

  /** Checks each runtime tool's `ui.resourceUri` from now on (McpAppsExplorer, once the UI resources are known). @internal */
  checkRuntimeUi(check: (descriptor: McpToolDescriptor, site: string) => void): void {
    this.builder.checkUi = check;
  }

  private recount(): void {
    const tools = [...this.tools.values()];
    this.hasScopes = tools.some((tool) => tool.scopes.length > 0);
    this.hasPerCallerTools = tools.some(isPerCaller);
    this.hasAppOnly = tools.some((tool) => isAppOnlyTool(tool.descriptor));
  }

  private handle(component: McpComponent): McpToolHandle {
    const name = componentKey(component);
    return {
      name,
      replace: (registration) => this.replace({ ...registration, name }),
      remove: () => this.remove(name),
    };
  }
}
