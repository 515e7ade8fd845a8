import type { McpPrincipal } from '../../core/mcp-principal.interface.js';

/**
 * A skill given as its files (paths under the skill's folder, `/`-separated, `SKILL.md` among them): what an
 * {@link McpSkillSource} returns and `McpSkillRegistry.register()` takes. Its name is the frontmatter's.
 * @publicApi
 */
export interface McpSkillDefinition {
  readonly files: Readonly<Record<string, string | Uint8Array>>;
}

/** One file of a skill as `skills/list` and `skills/get` carry it. @publicApi */
export interface McpSkillResourceEntry {
  readonly uri: string;
  /** `sha256:` and 64 lowercase hex digits of the raw bytes. */
  readonly digest: string;
  readonly size: number;
}

/** One skill entry of `skills/list` / `skills/get`. @publicApi */
export interface McpSkillEntry {
  /** `skill://<name>/SKILL.md`. */
  readonly uri: string;
  /** The SKILL.md frontmatter as JSON, verbatim. */
  readonly frontmatter: Readonly<Record<string, unknown>> & { readonly name: string; readonly description: string };
  readonly resources: readonly McpSkillResourceEntry[];
}

/** Who asks for skills: a provider answers per tenant or principal. @publicApi */
export interface McpSkillCaller {
  /** The principal's tenant, or `default` when unauthenticated or tenant-less. */
  readonly tenant: string;
  readonly principal?: McpPrincipal;
}

/**
 * Skills built at run time (per tenant, from a database...): a provider class marked `@McpSkillProvider()` and
 * listed in a module's providers. Asked on every `skills/list`, `skills/get` and skill file read; return the same
 * definition objects while they do not change (their digests are computed once per object).
 * Announce a change with `McpSkillRegistry.changed()`.
 * @publicApi
 * @example
 * @McpSkillProvider()
 * @Injectable()
 * export class TenantSkills implements McpSkillSource {
 *   skills(caller: McpSkillCaller) { return this.store.skillsOf(caller.tenant); }
 * }
 */
export interface McpSkillSource {
  skills(caller: McpSkillCaller): Promise<readonly McpSkillDefinition[]> | readonly McpSkillDefinition[];
}
