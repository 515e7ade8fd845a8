import type { McpBootErrorDetail } from '../../core/errors/boot-errors.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { closestName } from '../../options/closest-name.js';
import type { McpComponentEntry, McpComponentRegistry } from './component.registry.js';
import type { McpComponent } from './mcp-component-provider.interface.js';

/** The messages the shared checks need (`runtimeRegistrationErrors` gives every kind's messages file them). */
interface McpRuntimeMessages {
  notAnObject(method: string): McpBootErrorDetail;
  unknownKey(site: string, key: string, closest: string | undefined): McpBootErrorDetail;
  site(method: string, key: unknown): string;
}

/** How one kind of runtime registration becomes a component, by the rules of its decorator. */
export interface McpRuntimeBuilder<R> {
  readonly messages: McpRuntimeMessages;
  /** The name or URI the site shows (unchecked: it may be anything). */
  key(registration: R): unknown;
  /** The keys a registration may have (a resource's depend on `uri` or `uriTemplate`, checked here first). */
  keys(site: string, registration: R): readonly string[];
  /** The decorator's checks, then the component, flagged `runtime`. */
  build(site: string, registration: R): McpComponent;
}

/** The key a component is registered under: a tool's or prompt's name, a resource's URI, a template's URI template. */
export function componentKey(component: McpComponent): string {
  switch (component.kind) {
    case 'resource':
      return component.definition.uri;
    case 'resourceTemplate':
      return component.definition.uriTemplate;
    default:
      return component.definition.name;
  }
}

/**
 * The one runtime path of tools, resources and prompts: a registration is checked (an object with known keys),
 * built by its kind's {@link McpRuntimeBuilder} into the `McpComponent` a provider yields at boot, and put in the
 * registry of its kind, which refuses it while that list may not change and announces `list_changed`.
 */
export class McpRuntimeRegistrations<R> {
  constructor(
    private readonly builder: McpRuntimeBuilder<R>,
    private readonly registryOf: (kind: McpComponent['kind']) => McpComponentRegistry<McpComponentEntry>,
  ) {}

  /** Adds a runtime component, or (`replace`) swaps the runtime one with its key for it, keeping its place in the list. */
  apply(method: 'register' | 'replace', registration: R): McpComponent {
    const component = this.build(method, registration);
    this.registryOf(component.kind)[method](componentKey(component), component.definition);
    return component;
  }

  /** Removes the runtime component with this key from the first of `kinds` that has it; false when none does. */
  remove(key: string, kinds: readonly McpComponent['kind'][]): boolean {
    const kind = kinds.find((candidate) => this.registryOf(candidate).has(key)) ?? kinds[0];
    return this.registryOf(kind).remove(key, this.builder.messages.site('remove', key));
  }

  /**
   * Adds, or swaps, a component of `source` (an upstream's) built like a runtime registration, with the source's
   * `scopes`; undefined when its key is another's (see {@link McpComponentRegistry.putFrom}).
   */
  put(registration: R, source: string, scopes: readonly string[]): McpComponent | undefined {
    const component = this.build('register', registration);
    const definition = scopes.length > 0 ? { ...component.definition, scopes } : component.definition;
    return this.registryOf(component.kind).putFrom(source, componentKey(component), definition) ? component : undefined;
  }

  /** Removes the component `source` put under this key, from whichever of `kinds` it holds it in. */
  withdraw(key: string, kinds: readonly McpComponent['kind'][], source: string): boolean {
    return kinds.some((kind) => this.registryOf(kind).withdraw(source, key));
  }

  private build(method: string, registration: R): McpComponent {
    const { messages } = this.builder;
    if (typeof registration !== 'object' || registration === null) throw new McpConfigurationError(messages.notAnObject(method));
    const site = messages.site(method, this.builder.key(registration));
    const keys = this.builder.keys(site, registration);
    for (const key of Object.keys(registration)) {
      if (!keys.includes(key)) throw new McpConfigurationError(messages.unknownKey(site, key, closestName(key, keys)));
    }
    const component = this.builder.build(site, registration);
    this.registryOf(component.kind).checkRuntime(site);
    return component;
  }
}
