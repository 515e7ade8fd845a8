import { Inject, Injectable, Optional } from '@nestjs/common';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { McpListChanges } from '../../core/list-changes.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpPromptDefinition, McpPromptDescriptor } from './mcp-prompt-definition.interface.js';
import type { McpPromptHandle, McpPromptRegistration } from './mcp-prompt-registration.interface.js';
import { McpPromptRuntimeMessages as Messages } from './mcp-prompt-runtime.messages.js';
import { McpRuntimePromptBuilder } from './runtime-prompt.builder.js';
import { McpComponentRegistry } from '../components/component.registry.js';
import { componentKey, McpRuntimeRegistrations } from '../components/runtime-registrations.js';
import type { McpComponent } from '../components/mcp-component-provider.interface.js';

/**
 * The prompts of one module instance: filled at boot, changed at runtime through {@link register}, {@link replace}
 * and {@link remove}, each announcing `notifications/prompts/list_changed` (needs `lists.listChanged: { prompts: true }`).
 * @publicApi
 * @example
 * // McpModule.forRoot({ ..., lists: { listChanged: { prompts: true } } })
 * constructor(private readonly prompts: McpPromptRegistry) {}
 * addTemplate(template: SavedTemplate) {
 *   this.prompts.register({
 *     name: template.slug,
 *     description: template.summary,
 *     arguments: [{ name: 'topic', required: true }],
 *     handler: ({ topic }) => template.render(topic),
 *   });
 * }
 */
@Injectable()
export class McpPromptRegistry {
  private readonly prompts: McpComponentRegistry<McpPromptDefinition>;
  private readonly runtime: McpRuntimeRegistrations<McpPromptRegistration>;

  /** Nest injects it; its parameters are not part of the public API. @internal */
  constructor(
    @Optional() @Inject(MCP_RESOLVED_OPTIONS) private readonly options?: McpResolvedOptions,
    @Optional() private readonly changes?: McpListChanges,
  ) {
    this.prompts = new McpComponentRegistry({
      messages: { ...Messages, duplicate: McpMessages.duplicatePromptName },
      changesAtRuntime: !options || this.changesAtRuntime,
      announce: () => this.changes?.changed('prompts'),
    });
    this.runtime = new McpRuntimeRegistrations(new McpRuntimePromptBuilder(), () => this.prompts);
  }

  /** Adds a prompt; a second prompt with the same name is a boot error naming both sites. @internal */
  add(prompt: McpPromptDefinition): void {
    this.prompts.add(prompt.name, prompt);
  }

  /**
   * Adds a prompt at runtime, checked like an `@McpPrompt()` method; a bad definition or a name in use throws an
   * `McpConfigurationError`; a name an upstream's prompt holds becomes yours (a warning). Sessions are told with
   * `notifications/prompts/list_changed`.
   */
  register<Args = Record<string, string>>(registration: McpPromptRegistration<Args>): McpPromptHandle {
    return this.handle(this.runtime.apply('register', registration as unknown as McpPromptRegistration));
  }

  /** Swaps a prompt registered at runtime for a new definition (same place in `prompts/list`). */
  replace<Args = Record<string, string>>(registration: McpPromptRegistration<Args>): McpPromptHandle {
    return this.handle(this.runtime.apply('replace', registration as unknown as McpPromptRegistration));
  }

  /** Removes a prompt registered at runtime; false when there is none of that name. Gets in flight finish. */
  remove(name: string): boolean {
    return this.runtime.remove(name, ['prompt']);
  }

  /**
   * Adds, or swaps, a prompt of `source` (an upstream's), seen and used only by callers holding `scopes`; false,
   * with one warning, when the name is another's.
   * @internal
   */
  put(registration: McpPromptRegistration, source: string, scopes: readonly string[]): boolean {
    return this.runtime.put(registration, source, scopes) !== undefined;
  }

  /** Removes the prompt `source` put under this name; nothing when the name is another's. @internal */
  withdraw(name: string, source: string): boolean {
    return this.runtime.withdraw(name, ['prompt'], source);
  }

  /** The source holding this name, if one does. @internal */
  sourceOf(name: string): string | undefined {
    return this.prompts.sourceOf(name);
  }

  /** Whether a prompt of this name exists. */
  has(name: string): boolean {
    return this.prompts.has(name);
  }

  /** @internal */
  get(name: string): McpPromptDefinition | undefined {
    return this.prompts.get(name);
  }

  get size(): number {
    return this.prompts.size;
  }

  /** Whether prompts may be registered at runtime (`lists.listChanged: { prompts: true }`). */
  get changesAtRuntime(): boolean {
    return this.options?.lists.listChanged.prompts === true;
  }

  /** Whether the `prompts/*` methods and capability are served: something to serve now, or at runtime. */
  get served(): boolean {
    return this.prompts.size > 0 || this.changesAtRuntime;
  }

  /** `prompts/list` entries in registration order. @internal */
  listDescriptors(): readonly McpPromptDescriptor[] {
    return this.prompts.descriptors();
  }

  /** The prompts a caller holding `scopes` may see (undefined: no scopes known, all of them). @internal */
  listFor(scopes: readonly string[] | undefined): readonly McpPromptDescriptor[] {
    return this.prompts.descriptorsFor(scopes);
  }

  private handle(component: McpComponent): McpPromptHandle {
    const name = componentKey(component);
    return {
      name,
      replace: (registration) => this.replace({ ...registration, name } as McpPromptRegistration),
      remove: () => this.remove(name),
    };
  }
}
