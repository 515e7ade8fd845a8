import { McpClientError } from '../mcp-client.error.js';

/**
 * Why a skill was refused: `entry` (a malformed entry: no `SKILL.md` URI, a name that is not the URI's last
 * segment, a file outside the skill's folder or listed twice, a bad digest), `limits` (over 512 files or 16 MiB),
 * `unlisted` (a file the entry does not list), `size` and `digest` (the bytes read are not the ones listed),
 * `frontmatter` (the `SKILL.md` read says something else than the entry the caller holds).
 * @publicApi
 */
export type McpSkillVerificationReason = 'entry' | 'limits' | 'unlisted' | 'size' | 'digest' | 'frontmatter';

/**
 * A skill, or one of its files, failed verification (code `VERIFICATION`): the content must not be used, and a
 * refused `SKILL.md` means the skill must not be loaded. Stale content recovers by `getSkill(uri)` and a fresh
 * approval of the new file set.
 * @publicApi
 */
export class McpSkillVerificationError extends McpClientError {
  constructor(
    readonly reason: McpSkillVerificationReason,
    /** The skill's or the file's URI. */
    readonly uri: string,
    message: string,
    /** For `frontmatter`: one line per differing field. */
    readonly differences: readonly string[] = [],
  ) {
    super('VERIFICATION', message);
    this.name = 'McpSkillVerificationError';
  }
}
