import type { McpSkillEntry } from './mcp-skill.interface.js';
import type { SkillFrontmatter } from './skill-frontmatter.js';

/** One file of a built skill: what its entry says, and how to read its bytes. */
export interface BuiltSkillFile {
  /** Path under the skill's folder, `/`-separated. */
  readonly path: string;
  readonly uri: string;
  readonly digest: string;
  readonly size: number;
  readonly mimeType: string;
  /** The bytes the digest covers; rejects if they changed since the skill was built. */
  read(): Promise<Uint8Array>;
}

/** A child of a skill directory as `resources/directory/read` lists it. */
export interface SkillDirectoryChild {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  readonly size?: number;
}

/** A checked skill with its digests, built once: served as is until it is replaced. */
export interface BuiltSkill {
  readonly name: string;
  /** `skill://<name>/SKILL.md`. */
  readonly uri: string;
  /** `skill://<name>`: the skill's folder. */
  readonly root: string;
  readonly frontmatter: SkillFrontmatter;
  /** Where it came from (a folder, a provider), for errors. */
  readonly site: string;
  /** Exactly what `skills/list` and `skills/get` send. */
  readonly entry: McpSkillEntry;
  readonly files: ReadonlyMap<string, BuiltSkillFile>;
  /** The direct children of each directory of the skill, by the directory's URI. */
  readonly directories: ReadonlyMap<string, readonly SkillDirectoryChild[]>;
}
