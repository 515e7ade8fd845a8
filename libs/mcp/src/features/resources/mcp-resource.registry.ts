import { Inject, Injectable, Optional } from '@nestjs/common';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { McpListChanges } from '../../core/list-changes.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpResourceHandle, McpResourceRegistration } from './mcp-resource-registration.interface.js';
import { McpResourceRuntimeMessages as Messages } from './mcp-resource-runtime.messages.js';
import { McpResourceSubscriptions } from './resource-subscriptions.js';
import { buildRuntimeResource, type McpRuntimeResource } from './runtime-resource.builder.js';
import type {
  McpResourceDefinition,
  McpResourceDescriptor,
  McpResourceMatch,
  McpResourceTemplateDefinition,
  McpResourceTemplateDescriptor,
} from './mcp-resource-definition.interface.js';

/**
 * The resources and resource templates of one application: filled at boot by the explorer, and changed at
 * runtime through {@link register}, {@link replace} and {@link remove}, each of which announces
 * `notifications/resources/list_changed` to every session on every instance (it needs the module option
 * `listChanged: { resources: true }`). One instance per module instance: two apps in one process never share
 * resources.
 * @publicApi
 * @example
 * // McpModule.forRoot({ ..., listChanged: { resources: true } })
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
  private readonly resources = new Map<string, McpResourceDefinition>();
  /** Kept in registration order: the order templates are tried in, and listed in. */
  private readonly templates = new Map<string, McpResourceTemplateDefinition>();
  private resourceDescriptors: McpResourceDescriptor[] = [];
  private templateDescriptors: McpResourceTemplateDescriptor[] = [];

  constructor(
    @Optional() @Inject(MCP_RESOLVED_OPTIONS) private readonly options?: McpResolvedOptions,
    @Optional() private readonly changes?: McpListChanges,
    @Optional() private readonly subscriptions?: McpResourceSubscriptions,
  ) {}

  /**
   * Adds a fixed resource; a second one with the same URI is a boot error naming both sites.
   * @internal
   */
  addResource(resource: McpResourceDefinition): void {
    const existing = this.resources.get(resource.uri);
    if (existing) throw new McpConfigurationError(McpMessages.duplicateResourceUri(resource.uri, existing.site, resource.site));
    this.resources.set(resource.uri, resource);
    this.resourceDescriptors = [...this.resourceDescriptors, resource.descriptor];
  }

  /**
   * Adds a template; the same template twice is a boot error naming both sites.
   * @internal
   */
  addTemplate(template: McpResourceTemplateDefinition): void {
    const existing = this.templates.get(template.uriTemplate);
    if (existing)
      throw new McpConfigurationError(McpMessages.duplicateResourceTemplate(template.uriTemplate, existing.site, template.site));
    this.templates.set(template.uriTemplate, template);
    this.templateDescriptors = [...this.templateDescriptors, template.descriptor];
  }

  /**
   * Adds a resource (`uri`) or a template (`uriTemplate`) at runtime, checked like an `@McpResource()` /
   * `@McpResourceTemplate()` method; a bad definition or a URI in use throws an `McpConfigurationError`.
   * Sessions are told with `notifications/resources/list_changed`.
   */
  register(registration: McpResourceRegistration): McpResourceHandle {
    const built = this.build('register', registration);
    const existing = this.existing(built);
    if (existing)
      throw new McpConfigurationError(Messages.taken(built.definition.site, built.kind === 'resource' ? 'uri' : 'uriTemplate', existing));
    if (built.kind === 'resource') this.addResource(built.definition);
    else this.addTemplate(built.definition);
    this.changes?.changed('resources');
    return this.handle(built);
  }

  /** Swaps a resource or template registered at runtime for a new definition (same place in its list). */
  replace(registration: McpResourceRegistration): McpResourceHandle {
    const built = this.build('replace', registration);
    const { site } = built.definition;
    if (built.kind === 'resource') {
      const { definition } = built;
      this.runtimeEntry(this.resources.get(definition.uri), site);
      this.resources.set(definition.uri, definition);
      this.resourceDescriptors = this.resourceDescriptors.map((entry) => (entry.uri === definition.uri ? definition.descriptor : entry));
    } else {
      const { definition } = built;
      this.runtimeEntry(this.templates.get(definition.uriTemplate), site);
      this.templates.set(definition.uriTemplate, definition);
      this.templateDescriptors = this.templateDescriptors.map((entry) =>
        entry.uriTemplate === definition.uriTemplate ? definition.descriptor : entry,
      );
    }
    this.changes?.changed('resources');
    return this.handle(built);
  }

  /**
   * Removes the runtime resource with this `uri`, or else the runtime template with this `uriTemplate`; false
   * when there is neither. Subscriptions to URIs nothing serves any more are dropped; reads in flight finish.
   */
  remove(uriOrTemplate: string): boolean {
    const site = Messages.site('remove', uriOrTemplate);
    if (this.resources.has(uriOrTemplate)) {
      this.runtimeEntry(this.resources.get(uriOrTemplate), site);
      this.resources.delete(uriOrTemplate);
      this.resourceDescriptors = this.resourceDescriptors.filter((entry) => entry.uri !== uriOrTemplate);
    } else if (this.templates.has(uriOrTemplate)) {
      this.runtimeEntry(this.templates.get(uriOrTemplate), site);
      this.templates.delete(uriOrTemplate);
      this.templateDescriptors = this.templateDescriptors.filter((entry) => entry.uriTemplate !== uriOrTemplate);
    } else return false;
    // A URI another resource or template still serves keeps its watchers.
    this.subscriptions?.dropUnserved((uri) => this.resolve(uri) !== undefined);
    this.changes?.changed('resources');
    return true;
  }

  /**
   * What serves `uri`: a fixed resource first, then the first template (in registration order) that matches.
   * @internal
   */
  resolve(uri: string): McpResourceMatch | undefined {
    const resource = this.resources.get(uri);
    if (resource) {
      const { site, handler, descriptor } = resource;
      return { site, handler, name: descriptor.name, mimeType: descriptor.mimeType, variables: {} };
    }
    for (const template of this.templates.values()) {
      const variables = template.matcher.match(uri);
      if (!variables) continue;
      const { site, handler, descriptor } = template;
      return { site, handler, name: descriptor.name, mimeType: descriptor.mimeType, uriTemplate: template.uriTemplate, variables };
    }
    return undefined;
  }

  /** @internal */
  getResource(uri: string): McpResourceDefinition | undefined {
    return this.resources.get(uri);
  }

  /**
   * The template registered with exactly this `uriTemplate`.
   * @internal
   */
  getTemplate(uriTemplate: string): McpResourceTemplateDefinition | undefined {
    return this.templates.get(uriTemplate);
  }

  /**
   * `resources/list` entries in registration order.
   * @internal
   */
  listResources(): readonly McpResourceDescriptor[] {
    return this.resourceDescriptors;
  }

  /**
   * `resources/templates/list` entries in registration order.
   * @internal
   */
  listTemplates(): readonly McpResourceTemplateDescriptor[] {
    return this.templateDescriptors;
  }

  get isEmpty(): boolean {
    return this.resources.size === 0 && this.templates.size === 0;
  }

  get hasTemplates(): boolean {
    return this.templates.size > 0;
  }

  /** Whether resources may be registered at runtime (`listChanged: { resources: true }`). */
  get changesAtRuntime(): boolean {
    return this.options?.listChanged.resources === true;
  }

  /** Whether the `resources/*` methods and capability are served: something to serve now, or at runtime. */
  get served(): boolean {
    return !this.isEmpty || this.changesAtRuntime;
  }

  private build(method: string, registration: McpResourceRegistration): McpRuntimeResource {
    const built = buildRuntimeResource(method, registration);
    // Without the option, clients were told the list is fixed: a change they never hear of is a bug, so refuse.
    if (this.options && !this.changesAtRuntime) throw new McpConfigurationError(Messages.listChangedOff(built.definition.site));
    return built;
  }

  /** The site of what already holds the built entry's URI or template, if anything does. */
  private existing(built: McpRuntimeResource): string | undefined {
    return built.kind === 'resource'
      ? this.resources.get(built.definition.uri)?.site
      : this.templates.get(built.definition.uriTemplate)?.site;
  }

  /** Checks that `entry` exists and was registered at runtime; otherwise an error naming `site`. */
  private runtimeEntry(entry: { readonly site: string; readonly runtime?: boolean } | undefined, site: string): void {
    if (!entry) throw new McpConfigurationError(Messages.notRegistered(site));
    if (!entry.runtime) throw new McpConfigurationError(Messages.decorated(site, entry.site));
  }

  private handle(built: McpRuntimeResource): McpResourceHandle {
    const key = built.kind === 'resource' ? built.definition.uri : built.definition.uriTemplate;
    return {
      key,
      kind: built.kind,
      replace: (registration) =>
        this.replace(
          (built.kind === 'resource' ? { ...registration, uri: key } : { ...registration, uriTemplate: key }) as McpResourceRegistration,
        ),
      remove: () => this.remove(key),
    };
  }
}
