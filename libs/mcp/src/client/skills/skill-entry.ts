import { isPlainObject } from '../../core/plain-object.js';
import { MCP_SKILL_LIMITS, MCP_SKILLS_EXTENSION } from '../../core/mcp-skills.constants.js';
import type { McpRemoteSkill, McpRemoteSkillResource } from './skill.types.js';
import { McpSkillVerificationError } from './skill-verification.error.js';

const SKILL_MD = '/SKILL.md';
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** The skill's folder: its `SKILL.md` URI without `/SKILL.md`. */
export const skillRootOf = (skillUri: string): string => skillUri.slice(0, -SKILL_MD.length);

/** A URI with its percent-escapes decoded, so two spellings of one file compare equal. */
export function sameUriKey(uri: string): string {
  try {
    return decodeURI(uri);
  } catch {
    return uri;
  }
}

/**
 * The entry as a checked {@link McpRemoteSkill}, or a `McpSkillVerificationError` (`entry`, `limits`) saying what
 * is wrong. Every check needs the entry alone, so a skill is refused before any of its files is read.
 */
export function checkSkillEntry(value: unknown, where: string): McpRemoteSkill | McpSkillVerificationError {
  const refuse = (reason: 'entry' | 'limits', uri: string, why: string) =>
    new McpSkillVerificationError(reason, uri, `The skill ${uri} ${why}`);
  if (!isPlainObject(value)) return refuse('entry', where, 'is not an object');
  const { uri, frontmatter, resources } = value;
  if (typeof uri !== 'string' || !uri.includes('://') || !uri.endsWith(SKILL_MD)) return refuse('entry', where, 'has no SKILL.md uri');
  if (!isPlainObject(frontmatter) || typeof frontmatter.name !== 'string' || typeof frontmatter.description !== 'string')
    return refuse('entry', uri, 'has no frontmatter with a name and a description');
  const root = skillRootOf(uri);
  const name = root.slice(root.lastIndexOf('/') + 1);
  if (name !== frontmatter.name || root.endsWith('://'))
    return refuse('entry', uri, `is named "${frontmatter.name}", not after its folder "${name}"`);
  if (resources === 'dynamic') return value as McpRemoteSkill;
  if (!Array.isArray(resources)) return refuse('entry', uri, 'has resources that are neither a list nor "dynamic"');
  if (resources.length > MCP_SKILL_LIMITS.files)
    return refuse('limits', uri, `has ${resources.length} files (at most ${MCP_SKILL_LIMITS.files})`);
  const seen = new Set<string>();
  let bytes = 0;
  for (const file of resources as unknown[]) {
    const problem = fileProblem(file, root, seen);
    if (problem) return refuse('entry', uri, problem);
    bytes += (file as McpRemoteSkillResource).size;
  }
  if (!seen.has(sameUriKey(uri))) return refuse('entry', uri, 'does not list its own SKILL.md');
  if (bytes > MCP_SKILL_LIMITS.bytes) return refuse('limits', uri, `weighs ${bytes} bytes (at most ${MCP_SKILL_LIMITS.bytes})`);
  return value as McpRemoteSkill;
}

/** What is wrong with one listed file, if anything; adds its URI to `seen`. */
function fileProblem(file: unknown, root: string, seen: Set<string>): string | undefined {
  if (!isPlainObject(file) || typeof file.uri !== 'string') return 'lists a file without a uri';
  const key = sameUriKey(file.uri);
  if (!key.startsWith(`${sameUriKey(root)}/`) || key.split('/').some((segment) => segment === '..' || segment === '.'))
    return `lists ${file.uri}, outside its folder`;
  if (seen.has(key)) return `lists ${file.uri} twice`;
  seen.add(key);
  if (typeof file.digest !== 'string' || !DIGEST.test(file.digest)) return `lists ${file.uri} without a sha256 digest`;
  if (typeof file.size !== 'number' || !Number.isSafeInteger(file.size) || file.size < 0) return `lists ${file.uri} without a size`;
  return undefined;
}

/** The Skills extension as the server declared it, or undefined when it did not. */
export function skillsCapabilityOf(capabilities: Record<string, unknown>): Record<string, unknown> | undefined {
  const extensions = capabilities.extensions;
  const declared = isPlainObject(extensions) ? extensions[MCP_SKILLS_EXTENSION] : undefined;
  return isPlainObject(declared) ? declared : undefined;
}

/**
 * The entries of a listing, checked one by one: the valid ones, and the refused ones with why. Every copy of a
 * URI listed more than once is refused (which one the server meant cannot be told).
 */
export function checkSkillListing(values: readonly unknown[]): { skills: McpRemoteSkill[]; refused: McpSkillVerificationError[] } {
  const checked = values.map((value, index) => checkSkillEntry(value, `skills[${index}]`));
  const counts = new Map<string, number>();
  for (const one of checked) if (!(one instanceof McpSkillVerificationError)) counts.set(one.uri, (counts.get(one.uri) ?? 0) + 1);
  const skills: McpRemoteSkill[] = [];
  const refused: McpSkillVerificationError[] = [];
  for (const one of checked) {
    if (one instanceof McpSkillVerificationError) refused.push(one);
    else if (counts.get(one.uri)! > 1)
      refused.push(new McpSkillVerificationError('entry', one.uri, `The skill ${one.uri} is listed twice`));
    else skills.push(one);
  }
  return { skills, refused };
}
