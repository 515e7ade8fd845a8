import { Inject, Injectable, Optional } from '@nestjs/common';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { McpListChanges } from '../../core/list-changes.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpResourceHandle, McpResourceRegistration } from './mcp-resource-registration.interface.js';
import { McpResourceRuntimeMessages as Messages } from './mcp-resource-runtime.messages.js';
import { McpResourceSubscriptions } from './resource-subscriptions.js';
import { runtimeResourceBuilder } from './runtime-resource.builder.js';
import { McpComponentRegistry, type McpComponentMessages } from '../components/component.registry.js';
import { componentKey, McpRuntimeRegistrations } from '../components/runtime-registrations.js';
import type { McpComponent } from '../components/mcp-component-provider.interface.js';
import type {
  McpResourceDefinition,
  McpResourceDescriptor,
  McpResourceMatch,
  McpResourceTemplateDefinition,
  McpResourceTemplateDescriptor,
} from './mcp-resource-definition.interface.js';

/**
 * The resources and templates of one module instance: filled at boot, changed at runtime through {@link register},
 * {@link replace} and {@link remove}, each announcing `notifications/resources/list_changed` (needs
 * `lists.listChanged: { resources: true }`).
 * @publicApi
 * @example
 * // McpModule.forRoot({ ..., lists: { listChanged: { resources: true } } })
 * constructor(private readonly resources: McpResourceRegistry) {}
 * openProject(project: Project) {
 *   const handle = this.resources.register({
 *     uriTemplate: `project://${project.id}/files/{+path}`,
 *     name: `${project.name} files`,
 *     mimeType: 'text/plain',
 *     handler: ({ path }) => project.read(path),
 *   });
 *   project.onClose(() => handle.remove());
 * }
 */
@Injectable()
export class McpResourceRegistry {
  private readonly resources: McpComponentRegistry<McpResourceDefinition>;
  /** Kept in registration order: the order templates are tried in, and listed in. */
  private readonly templates: McpComponentRegistry<McpResourceTemplateDefinition>;
  private readonly runtime: McpRuntimeRegistrations<McpResourceRegistration>;

  /** Nest injects it; its parameters are not part of the public API. @internal */
  constructor(
    @Optional() @Inject(MCP_RESOLVED_OPTIONS) private readonly options?: McpResolvedOptions,
    @Optional() private readonly changes?: McpListChanges,
    @Optional() private readonly subscriptions?: McpResourceSubscriptions,
  ) {
    const kind = (what: string, duplicate: McpComponentMessages['duplicate']) => ({
      messages: { ...Messages, duplicate, taken: (site: string, existing: string) => Messages.taken(site, existing, what) },
      changesAtRuntime: !options || this.changesAtRuntime,
      announce: () => this.changes?.changed('resources'),
    });
    this.resources = new McpComponentRegistry(kind('uri', McpMessages.duplicateResourceUri));
    this.templates = new McpComponentRegistry(kind('uriTemplate', McpMessages.duplicateResourceTemplate));
    this.runtime = new McpRuntimeRegistrations(runtimeResourceBuilder, (of) => (of === 'resource' ? this.resources : this.templates));
  }

  /** Adds a fixed resource; a second one with the same URI is a boot error naming both sites. @internal */
  addResource(resource: McpResourceDefinition): void {
    this.resources.add(resource.uri, resource);
  }

  /** Adds a template; the same template twice is a boot error naming both sites. @internal */
  addTemplate(template: McpResourceTemplateDefinition): void {
    this.templates.add(template.uriTemplate, template);
  }

  /**
   * Adds a resource (`uri`) or a template (`uriTemplate`) at runtime, checked like an `@McpResource()` /
   * `@McpResourceTemplate()` method; a bad definition or a URI in use throws an `McpConfigurationError`;
   * a URI an upstream's resource holds becomes yours (a warning). Sessions are told with
   * `notifications/resources/list_changed`.
   */
  register(registration: McpResourceRegistration): McpResourceHandle {
    return this.handle(this.runtime.apply('register', registration));
  }

  /** Swaps a resource or template registered at runtime for a new definition (same place in its list). */
  replace(registration: McpResourceRegistration): McpResourceHandle {
    return this.handle(this.runtime.apply('replace', registration));
  }

  /**
   * Removes the runtime resource with this `uri`, or else the runtime template with this `uriTemplate`; false
   * when there is neither. Subscriptions to URIs nothing serves any more are dropped; reads in flight finish.
   */
  remove(uriOrTemplate: string): boolean {
    const removed = this.runtime.remove(uriOrTemplate, ['resource', 'resourceTemplate']);
    // A URI another resource or template still serves keeps its watchers.
    if (removed) this.subscriptions?.dropUnserved((uri) => this.resolve(uri) !== undefined);
    return removed;
  }

  /**
   * Adds, or swaps, a resource or template of `source` (an upstream's), seen, read and watched only by callers holding
   * `scopes`; false, with one warning, when the URI or template is another's.
   * @internal
   */
  put(registration: McpResourceRegistration, source: string, scopes: readonly string[]): boolean {
    return this.runtime.put(registration, source, scopes) !== undefined;
  }

  /** Removes the resource or template `source` put under this key; nothing when it is another's. @internal */
  withdraw(uriOrTemplate: string, source: string): boolean {
    const removed = this.runtime.withdraw(uriOrTemplate, ['resource', 'resourceTemplate'], source);
    if (removed) this.subscriptions?.dropUnserved((uri) => this.resolve(uri) !== undefined);
    return removed;
  }

  /** The source holding this URI or template, if one does. @internal */
  sourceOf(uriOrTemplate: string): string | undefined {
    return this.resources.sourceOf(uriOrTemplate) ?? this.templates.sourceOf(uriOrTemplate);
  }

  /** What serves `uri`: a fixed resource first, then the first template (in registration order) that matches. @internal */
  resolve(uri: string): McpResourceMatch | undefined {
    const resource = this.resources.get(uri);
    if (resource) {
      const { site, handler, descriptor, scopes } = resource;
      return { site, handler, name: descriptor.name, mimeType: descriptor.mimeType, variables: {}, scopes };
    }
    for (const template of this.templates.values()) {
      const variables = template.matcher.match(uri);
      if (!variables) continue;
      const { site, handler, descriptor, scopes } = template;
      return { site, handler, name: descriptor.name, mimeType: descriptor.mimeType, uriTemplate: template.uriTemplate, variables, scopes };
    }
    return undefined;
  }

  /** The template registered with exactly this `uriTemplate`. @internal */
  getTemplate(uriTemplate: string): McpResourceTemplateDefinition | undefined {
    return this.templates.get(uriTemplate);
  }

  /** `resources/list` entries in registration order. @internal */
  listResources(): readonly McpResourceDescriptor[] {
    return this.resources.descriptors();
  }

  /** `resources/templates/list` entries in registration order. @internal */
  listTemplates(): readonly McpResourceTemplateDescriptor[] {
    return this.templates.descriptors();
  }

  /** The fixed resources a caller holding `scopes` may see (undefined: no scopes known, all of them). @internal */
  listResourcesFor(scopes: readonly string[] | undefined): readonly McpResourceDescriptor[] {
    return this.resources.descriptorsFor(scopes);
  }

  /** The templates a caller holding `scopes` may see. @internal */
  listTemplatesFor(scopes: readonly string[] | undefined): readonly McpResourceTemplateDescriptor[] {
    return this.templates.descriptorsFor(scopes);
  }

  get isEmpty(): boolean {
    return this.resources.size === 0 && this.templates.size === 0;
  }

  get hasTemplates(): boolean {
    return this.templates.size > 0;
  }

  /** Whether resources may be registered at runtime (`lists.listChanged: { resources: true }`). */
  get changesAtRuntime(): boolean {
    return this.options?.lists.listChanged.resources === true;
  }

  /** Whether the `resources/*` methods and capability are served: something to serve now, or at runtime. */
  get served(): boolean {
    return !this.isEmpty || this.changesAtRuntime;
  }

  private handle(component: McpComponent): McpResourceHandle {
    const key = componentKey(component);
    const fixed = component.kind === 'resource';
    return {
      key,
      kind: fixed ? 'resource' : 'template',
      replace: (registration) =>
        this.replace((fixed ? { ...registration, uri: key } : { ...registration, uriTemplate: key }) as McpResourceRegistration),
      remove: () => this.remove(key),
    };
  }
}
