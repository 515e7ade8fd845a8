import { Injectable, Logger, Optional } from '@nestjs/common';
import { McpListChanges } from '../../core/list-changes.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import type { BuiltSkill, BuiltSkillFile, SkillDirectoryChild } from './built-skill.js';
import type { McpSkillCaller, McpSkillDefinition, McpSkillSource } from './mcp-skill.interface.js';
import { buildSkill } from './skill.builder.js';
import { McpSkillMessages as Messages } from './skill.messages.js';
import type { RelayedSkill, SkillRelay, SkillRequest } from './skill-relay.interface.js';
import { MCP_SKILL_URI_SCHEME } from '../../core/mcp-skills.constants.js';

/** A skill as `skills/list`, `skills/get` and `resources/list` show it: one of this server's, or a relayed one. */
export type ListedSkill = Pick<RelayedSkill, 'uri' | 'entry'>;

/** A skill registered at run time: remove it to stop serving it. @publicApi */
export interface McpSkillHandle {
  /** `skill://<name>/SKILL.md`. */
  readonly uri: string;
  remove(): boolean;
}

/**
 * The skills of one module instance: those of `sources.skills` folders (built at boot), those registered at run time
 * with {@link register}, and those `@McpSkillProvider()` classes give each caller. A change is announced with
 * `notifications/resources/list_changed` (skills are resources; needs `lists.listChanged: { resources: true }`).
 * @publicApi
 */
@Injectable()
export class McpSkillRegistry {
  private readonly logger = new Logger('McpModule');
  private readonly fixed = new Map<string, BuiltSkill>();
  private providers: readonly { readonly site: string; readonly provider: McpSkillSource }[] = [];
  /** Digests of a provider's definition are computed once per definition object. */
  private readonly built = new WeakMap<McpSkillDefinition, BuiltSkill | Error>();
  private configured = false;
  /** Other servers' skills relayed here (the upstreams'): entries only, files read when asked. */
  private readonly relays: SkillRelay[] = [];

  /** Nest injects it; its parameters are not part of the public API. @internal */
  constructor(@Optional() private readonly changes?: McpListChanges) {}

  /** Skills of the folders, checked at boot (two at one URI: a boot error). @internal */
  addFolderSkills(skills: readonly BuiltSkill[]): void {
    this.configured = true;
    for (const skill of skills) this.add(skill);
  }

  /** The `@McpSkillProvider()` classes, found at boot. @internal */
  setProviders(providers: readonly { readonly site: string; readonly provider: McpSkillSource }[]): void {
    this.providers = providers;
    if (providers.length > 0) this.configured = true;
  }

  /** Serves another server's skills beside this server's own (an upstream's, under its namespace). @internal */
  addRelay(relay: SkillRelay): void {
    this.relays.push(relay);
    this.configured = true;
  }

  /** Whether skills are served (and the extension declared): a skills folder or a skill provider is configured. */
  get served(): boolean {
    return this.configured || this.fixed.size > 0;
  }

  /**
   * Serves a skill given as its files until the handle's `remove()`; checked as a folder skill is (a coded
   * McpConfigurationError), digests computed now. Clients are told the resource list changed.
   */
  register(definition: McpSkillDefinition): McpSkillHandle {
    const skill = buildSkill('McpSkillRegistry.register()', toSourceFiles(definition));
    this.add(skill);
    this.changed();
    return { uri: skill.uri, remove: () => this.remove(skill.uri) };
  }

  /** Stops serving a skill registered at run time or loaded from a folder; false when none is at `uri`. */
  remove(uri: string): boolean {
    const removed = this.fixed.delete(uri);
    if (removed) this.changed();
    return removed;
  }

  /** Tells clients the skills changed: call it when what an `@McpSkillProvider()` returns changes. */
  changed(): void {
    this.changes?.changed('resources');
  }

  /** The skills `caller` sees, fixed ones first (a provider's skill at a taken URI is left out), by URI. @internal */
  async visible(caller: McpSkillCaller): Promise<BuiltSkill[]> {
    const seen = new Map(this.fixed);
    for (const { site, provider } of this.providers) {
      for (const definition of await provider.skills(caller)) {
        const skill = this.build(site, definition);
        if (skill && !seen.has(skill.uri)) seen.set(skill.uri, skill);
      }
    }
    return [...seen.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  }

  /** The skills `caller` sees, this server's own and the relayed ones (one at a URI taken is left out), by URI. @internal */
  async listed(caller: McpSkillCaller): Promise<ListedSkill[]> {
    const own: ListedSkill[] = await this.visible(caller);
    if (this.relays.length === 0) return own;
    const taken = new Set(own.map((skill) => skill.uri));
    const relayed = this.relayed().filter((skill) => !taken.has(skill.uri) && mayRead(skill, caller));
    return [...own, ...relayed].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  }

  /** The entry of the skill whose SKILL.md is at `uri`, if `caller` sees one (its own or a relayed one). @internal */
  async entry(uri: string, caller: McpSkillCaller): Promise<ListedSkill['entry'] | undefined> {
    const own = await this.skill(uri, caller);
    if (own) return own.entry;
    const relayed = this.relayed().find((skill) => skill.uri === uri);
    return relayed && mayRead(relayed, caller) ? relayed.entry : undefined;
  }

  /** The `resources/read` result of a relayed skill's file, read for `request`; undefined when no relayed skill holds `uri`. @internal */
  async readRelayed(uri: string, request: SkillRequest): Promise<Record<string, unknown> | undefined> {
    return this.relayedAt(uri)?.read(uri, request);
  }

  /** The skill whose SKILL.md is at `uri`, if `caller` sees one. @internal */
  async skill(uri: string, caller: McpSkillCaller): Promise<BuiltSkill | undefined> {
    return this.fixed.get(uri) ?? (await this.visible(caller)).find((skill) => skill.uri === uri);
  }

  /** The skill file at `uri`, if `caller` sees its skill. @internal */
  async file(uri: string, caller: McpSkillCaller): Promise<BuiltSkillFile | undefined> {
    return this.lookup(uri, caller, (skill) => skill.files.get(uri));
  }

  /** The direct children of the skill directory at `uri`, if `caller` sees its skill (a relayed one: read for `request`). @internal */
  async directory(uri: string, caller: McpSkillCaller, request?: SkillRequest): Promise<readonly SkillDirectoryChild[] | undefined> {
    const children = await this.lookup(uri, caller, (skill) => skill.directories.get(uri));
    return children ?? (request && this.relayedAt(uri)?.directory?.(uri, request));
  }

  /** Every relayed skill now, the first relay's first at a URI two relays hold. */
  private relayed(): RelayedSkill[] {
    const seen = new Map<string, RelayedSkill>();
    for (const relay of this.relays) for (const skill of relay.skills) if (!seen.has(skill.uri)) seen.set(skill.uri, skill);
    return [...seen.values()];
  }

  /** The relayed skill whose folder is `uri` or holds it (matched on the whole root: a relayed skill's URI has more segments). */
  private relayedAt(uri: string): RelayedSkill | undefined {
    if (this.relays.length === 0) return undefined;
    return this.relayed().find((skill) => uri === skill.root || uri.startsWith(`${skill.root}/`));
  }

  /** What `pick` finds in the skills `caller` sees: the fixed skill of the URI's name first (no provider asked), then all. */
  private async lookup<T>(uri: string, caller: McpSkillCaller, pick: (skill: BuiltSkill) => T | undefined): Promise<T | undefined> {
    const name = uri.startsWith(MCP_SKILL_URI_SCHEME) ? uri.slice(MCP_SKILL_URI_SCHEME.length).split('/')[0] : undefined;
    const found = [...this.fixed.values()]
      .filter((skill) => skill.name === name)
      .map(pick)
      .find((value) => value !== undefined);
    if (found !== undefined || this.providers.length === 0) return found;
    return (await this.visible(caller)).map(pick).find((value) => value !== undefined);
  }

  private add(skill: BuiltSkill): void {
    const existing = this.fixed.get(skill.uri);
    if (existing) throw new McpConfigurationError(Messages.duplicate(skill.uri, existing.site, skill.site));
    this.fixed.set(skill.uri, skill);
  }

  /** A provider's definition built once; a bad one is logged once and left out. */
  private build(site: string, definition: McpSkillDefinition): BuiltSkill | undefined {
    let built = this.built.get(definition);
    if (!built) {
      try {
        built = buildSkill(site, toSourceFiles(definition));
      } catch (error) {
        built = error instanceof Error ? error : new Error(String(error));
        this.logger.error(built.message);
      }
      this.built.set(definition, built);
    }
    return built instanceof Error ? undefined : built;
  }
}

/** Whether `caller` holds the scopes a relayed skill asks for (a principal without scopes: no check, as for resources). */
function mayRead(skill: RelayedSkill, caller: McpSkillCaller): boolean {
  const held = caller.principal?.scopes;
  return held === undefined || (skill.scopes ?? []).every((scope) => held.includes(scope));
}

/** A definition's files as bytes (text as UTF-8). */
function toSourceFiles(definition: McpSkillDefinition): Map<string, { bytes: Uint8Array }> {
  const encoder = new TextEncoder();
  return new Map(
    Object.entries(definition.files).map(([path, content]) => [
      path,
      { bytes: typeof content === 'string' ? encoder.encode(content) : content },
    ]),
  );
}
