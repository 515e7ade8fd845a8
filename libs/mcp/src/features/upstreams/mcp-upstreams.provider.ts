import { Inject, Injectable, Logger, Optional, type OnModuleDestroy } from '@nestjs/common';
import { McpBootNotices } from '../../core/boot-notices.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import { McpCapabilities } from '../../core/mcp-capabilities.js';
import { MCP_SKILLS_EXTENSION } from '../../core/mcp-skills.constants.js';
import { McpSkillRegistry } from '../skills/mcp-skill.registry.js';
import type { RelayedSkill } from '../skills/skill-relay.interface.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpComponent, McpComponentProvider } from '../components/mcp-component-provider.interface.js';
import { McpPromptRegistry } from '../prompts/mcp-prompt.registry.js';
import { McpResourceNotifier } from '../resources/mcp-resource.notifier.js';
import { McpResourceRegistry } from '../resources/mcp-resource.registry.js';
import { McpResourceSubscriptions } from '../resources/resource-subscriptions.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import { McpToolRegistry } from '../tools/mcp-tool.registry.js';
import { applyToolTransformations } from '../transforms/tool-transformations.applier.js';
import { McpUpstream, type UpstreamListKind, type UpstreamStatus } from './mcp-upstream.js';
import { RawSchemaCompiler } from '../tools/schema/raw-schema.compiler.js';
import { upstreamPrompt, upstreamResource, upstreamResourceTemplate, upstreamTool } from './upstream-components.js';
import { toolDescriptorProblem } from './upstream-descriptors.js';
import { isServableToolName, isSkillUri, originalUri, upstreamUri } from './upstream-names.js';
import { relayedSkill } from './upstream-skills.js';
import { MCP_STORE, type McpKeyValueStore } from '../../stores/key-value.store.js';
import { disconnectTool } from './user-auth/disconnect-tool.js';
import type { UpstreamUserAuthorization } from './user-auth/upstream-user-authorization.js';
import { UserAuthorizationWarnings } from './user-auth/user-authorization.messages.js';
import type { McpUpstreamUserAuthRoutes, McpUserAuthReply } from '../../core/upstream-user-auth.port.js';

/** How long the boot waits for each upstream (in parallel); one slower or down is reached later by its reconnect loop. */
const BOOT_BUDGET_MS = 5_000;

/** What this server serves of one upstream now: keys, with what each was built from (to skip unchanged ones). */
interface Served {
  tools: Map<string, string>;
  prompts: Map<string, string>;
  resources: Map<string, string>;
  /** Tools left out for their descriptor, with the descriptor warned about (one warning until it changes). */
  unservable: Map<string, string>;
}

/** How the registries name an upstream as the source of its components. */
const sourceOf = (upstream: McpUpstream) => `upstream "${upstream.name}"`;

/**
 * Upstream MCP servers as a component provider (module option `sources.upstreams`). `prepare()` connects to each and
 * reads its lists within the boot budget; `loaded()` puts their components in the registries, and every later
 * change (an upstream's `list_changed`, a reconnection) is applied there as the upstream's own (`put` / `withdraw`),
 * which announces our own `list_changed`. An upstream that is down keeps the components last listed: its tools answer
 * `UNAVAILABLE` until it is back. A name or URI the app or the library holds stays theirs, whichever came first (one
 * warning): an upstream swaps and withdraws only what it put there itself.
 */
@Injectable()
export class McpUpstreamsProvider implements McpComponentProvider, McpUpstreamUserAuthRoutes, OnModuleDestroy {
  private readonly logger = new Logger('McpUpstreams');
  private readonly upstreams: McpUpstream[];
  private readonly served = new Map<string, Served>();
  /** Each upstream's skills as relayed now (with the listing they were built from), for the upstreams that serve skills. */
  private readonly skillsOf = new Map<string, { listed: string; skills: RelayedSkill[] }>();

  private readonly transforms: McpResolvedOptions['tools']['transforms'];
  /** Compiles the upstream tools' input schemas (on a tool's first call). */
  private readonly compiler = new RawSchemaCompiler();

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) options: Pick<McpResolvedOptions, 'sources' | 'tools'>,
    private readonly tools: McpToolRegistry,
    private readonly prompts: McpPromptRegistry,
    private readonly resources: McpResourceRegistry,
    private readonly subscriptions: McpResourceSubscriptions,
    private readonly notifier: McpResourceNotifier,
    private readonly skills: McpSkillRegistry,
    private readonly capabilities: McpCapabilities,
    @Inject(MCP_STORE) store: McpKeyValueStore,
    @Optional() private readonly notices: McpBootNotices = new McpBootNotices(),
  ) {
    this.upstreams = options.sources.upstreams.map((upstream) => new McpUpstream(upstream, options.tools.timeoutMs, store));
    this.transforms = options.tools.transforms;
  }

  async prepare(): Promise<void> {
    // Said at init (the app's logger is in place by then), not when the upstreams are built.
    for (const upstream of this.upstreams)
      if (upstream.users?.unverified) this.notices.warn('McpUpstreams', UserAuthorizationWarnings.unverified(upstream.name));
    await Promise.all(this.upstreams.map((upstream) => upstream.start(BOOT_BUDGET_MS)));
  }

  components(): Iterable<McpComponent> {
    return []; // put in the registries by loaded(), as later changes are: they may be replaced or removed
  }

  loaded(): void {
    for (const upstream of this.upstreams) {
      this.served.set(upstream.name, { tools: new Map(), prompts: new Map(), resources: new Map(), unservable: new Map() });
      upstream.onLists = (kind) => this.sync(upstream, kind);
      upstream.onResourceUpdated = (uri) => this.updated(upstream, uri);
      if (upstream.users) this.tools.put(disconnectTool(upstream.name, upstream.users, upstream.timeoutMs), sourceOf(upstream));
      for (const kind of ['tools', 'prompts', 'resources'] as const) this.sync(upstream, kind);
    }
    if (this.upstreams.length > 0) this.subscriptions.onWatchChange((uri, watched) => this.watchChanged(uri, watched));
  }

  /** Each upstream's state, by name (for `/health`). */
  statuses(): Record<string, UpstreamStatus> {
    return Object.fromEntries(this.upstreams.map((upstream) => [upstream.name, upstream.status()]));
  }

  start(name: string, ticket: string | null): Promise<McpUserAuthReply> | undefined {
    return this.users(name)?.start(ticket);
  }

  callback(name: string, url: URL): Promise<McpUserAuthReply> | undefined {
    return this.users(name)?.callback(url);
  }

  /** The per-user authorization of the upstream `name` (`auth.authorizationCode`). */
  private users(name: string): UpstreamUserAuthorization | undefined {
    return this.upstreams.find((upstream) => upstream.name === name)?.users;
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.upstreams.map((upstream) => upstream.close()));
  }

  private sync(upstream: McpUpstream, kind: UpstreamListKind): void {
    const served = this.served.get(upstream.name)!;
    const source = sourceOf(upstream);
    const wanted = new Set<string>();
    if (kind === 'tools') {
      for (const remote of upstream.lists.tools) {
        if (!this.servable(upstream, served.unservable, remote)) continue;
        const tool = this.transformed(upstream, remote.name, upstreamTool(upstream, remote, this.compiler));
        if (!tool) continue;
        if (!isServableToolName(tool.name) || wanted.has(tool.name)) {
          const why = wanted.has(tool.name) ? 'another of its tools has that name' : 'no valid tool name';
          this.logger.warn(`Upstream "${upstream.name}": the tool "${remote.name}" is not served (${tool.name}: ${why})`);
          continue;
        }
        wanted.add(tool.name);
        this.apply(served.tools, tool.name, remote, this.tools.sourceOf(tool.name) === source, () => this.tools.put(tool, source));
      }
      // Only what it lists now: an upstream renaming its broken tools at every list would grow the map without end.
      const listed = new Set(upstream.lists.tools.map((remote) => remote.name));
      for (const name of served.unservable.keys()) if (!listed.has(name)) served.unservable.delete(name);
      return this.drop(served.tools, wanted, (name) => this.tools.withdraw(name, source));
    }
    if (kind === 'prompts') {
      for (const remote of upstream.lists.prompts) {
        const prompt = upstreamPrompt(upstream, remote);
        wanted.add(prompt.name);
        const held = this.prompts.sourceOf(prompt.name) === source;
        this.apply(served.prompts, prompt.name, remote, held, () => this.prompts.put(prompt, source, upstream.scopes));
      }
      return this.drop(served.prompts, wanted, (name) => this.prompts.withdraw(name, source));
    }
    this.syncSkills(upstream);
    const skills = upstream.servesSkills;
    const listed = [
      ...upstream.lists.resources.map((remote) => [remote.uri, remote, upstreamResource(upstream, remote)] as const),
      ...upstream.lists.resourceTemplates.map(
        (remote) => [remote.uriTemplate, remote, upstreamResourceTemplate(upstream, remote)] as const,
      ),
    ];
    for (const [uri, remote, registration] of listed) {
      // Its skill files are relayed as its skills (entries verified, read on demand), not as plain resources too.
      if (skills && isSkillUri(uri)) continue;
      const key = upstreamUri(upstream.name, uri);
      wanted.add(key);
      const held = this.resources.sourceOf(key) === source;
      this.apply(served.resources, key, remote, held, () => this.resources.put(registration, source, upstream.scopes));
    }
    this.drop(served.resources, wanted, (key) => this.resources.withdraw(key, source));
  }

  /**
   * Relays the upstream's skills (SEP-2640) under `skill://<upstream>/…` once it declares the extension: the first
   * time, the skills registry gets it as a relay and this server declares the extension; a changed listing is
   * announced as a resources list change (skills are resources). No file is read here.
   */
  private syncSkills(upstream: McpUpstream): void {
    const current = this.skillsOf.get(upstream.name);
    if (!current && !upstream.servesSkills) return;
    const listed = JSON.stringify(upstream.lists.skills);
    if (current?.listed === listed) return;
    const skills = upstream.lists.skills.map((remote) => relayedSkill(upstream, remote));
    this.skillsOf.set(upstream.name, { listed, skills });
    if (current) return this.skills.changed();
    const relayed = this.skillsOf;
    this.skills.addRelay({
      get skills() {
        return relayed.get(upstream.name)?.skills ?? [];
      },
    });
    // Skill files are read with resources/read; our own directory reads answer for the upstreams' that offer them.
    this.capabilities.declare('resources');
    this.capabilities.declare('extensions', { [MCP_SKILLS_EXTENSION]: { directoryRead: true } });
  }

  /** Whether the upstream's tool descriptor can be served; one that cannot is warned of once (until it changes). */
  private servable(upstream: McpUpstream, unservable: Map<string, string>, remote: McpUpstream['lists']['tools'][number]): boolean {
    const problem = toolDescriptorProblem(remote);
    if (!problem) {
      unservable.delete(remote.name);
      return true;
    }
    const source = JSON.stringify(remote);
    if (unservable.get(remote.name) !== source) {
      unservable.set(remote.name, source);
      this.logger.warn(`Upstream "${upstream.name}": the tool "${remote.name}" is not served: ${problem}`);
    }
    return false;
  }

  /**
   * One upstream tool shaped by the `tools.transforms` option, as every other tool is (each on its own: a selector may
   * pick none of an upstream's tools, which come and go); a transformation that cannot apply is a warning.
   */
  private transformed(upstream: McpUpstream, remote: string, tool: McpToolDefinition): McpToolDefinition | undefined {
    if (this.transforms.length === 0) return tool;
    try {
      return applyToolTransformations([tool], this.transforms, 'tools.transforms', () => true)[0];
    } catch (error) {
      this.logger.warn(
        `Upstream "${upstream.name}": the tool "${remote}" is not served: ${error instanceof Error ? error.message : String(error)}`,
      );
      return undefined;
    }
  }

  /**
   * One upstream subscription per URI while any caller of ours watches it: our first subscriber subscribes
   * upstream, our last one gone (unsubscribed, session ended) unsubscribes.
   */
  private watchChanged(uri: string, watched: boolean): void {
    for (const upstream of this.upstreams) {
      const original = originalUri(upstream.name, uri);
      if (original !== undefined) void (watched ? upstream.watch(original) : upstream.unwatch(original));
    }
  }

  /** The upstream's change announced as ours, under our URI. */
  private updated(upstream: McpUpstream, uri: string): void {
    const ours = upstreamUri(upstream.name, uri);
    this.notifier.resourceUpdated(ours);
    if (!this.subscriptions.watched(ours)) void upstream.unwatch(uri);
  }

  /**
   * Puts one component unless it is unchanged and still the upstream's. One the app or the library holds is tried
   * again on each list (the registry warns once), so the upstream's comes back once the name is free.
   */
  private apply(served: Map<string, string>, key: string, remote: unknown, held: boolean, put: () => boolean): void {
    const source = JSON.stringify(remote);
    if (held && served.get(key) === source) return;
    try {
      if (put()) served.set(key, source);
      else served.delete(key);
    } catch (error) {
      served.delete(key);
      this.logger.warn(`${key} is not served: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Withdraws what the upstream no longer lists (only what it holds: the registry leaves anyone else's). */
  private drop(served: Map<string, string>, wanted: ReadonlySet<string>, withdraw: (key: string) => unknown): void {
    for (const key of [...served.keys()]) {
      if (wanted.has(key)) continue;
      served.delete(key);
      withdraw(key);
    }
  }
}
