import type { McpCall } from '../../core/method-handler.interface.js';
import type { SkillDirectoryChild } from './built-skill.js';
import type { McpSkillEntry } from './mcp-skill.interface.js';

/** The request a relayed skill is read for: its caller (credentials, tenant) and its cancellation. */
export type SkillRequest = Pick<McpCall, 'context' | 'signal'>;

/**
 * A skill another server serves, relayed under this server's URIs: its entry passed through (URIs re-prefixed,
 * digests as the other server sent them) and its files read only when someone reads one, never at list time.
 */
export interface RelayedSkill {
  /** The SKILL.md URI here (`skill://<upstream>/<name>/SKILL.md`). */
  readonly uri: string;
  /** The skill's folder here: every file of the skill is below it. */
  readonly root: string;
  /** Exactly what `skills/list` and `skills/get` send (any other field of the other server's entry kept). */
  readonly entry: Omit<McpSkillEntry, 'resources'> & { readonly resources: McpSkillEntry['resources'] | 'dynamic' };
  /** The `resources/read` result of one of its files, read from the other server and verified against the entry. */
  read(uri: string, request: SkillRequest): Promise<Record<string, unknown>>;
  /** Scopes a caller must hold to see it (a caller whose principal carries no scopes sees it, as for resources). */
  readonly scopes?: readonly string[];
  /** The direct children of one of its directories; undefined when the other server offers no directory reads. */
  directory?(uri: string, request: SkillRequest): Promise<readonly SkillDirectoryChild[]>;
}

/** A source of relayed skills (an upstream server): the entries it holds now, listed without reading any file. */
export interface SkillRelay {
  readonly skills: readonly RelayedSkill[];
}
