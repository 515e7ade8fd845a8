import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { isPlainObject } from '../../core/plain-object.js';
import { McpClientError } from '../mcp-client.error.js';
import type { McpRemoteSkill, McpSkillFile } from './skill.types.js';
import { MCP_SKILL_LIMITS } from '../../core/mcp-skills.constants.js';
import { checkSkillEntry, sameUriKey, skillRootOf } from './skill-entry.js';
import { frontmatterDifferences, splitSkillMarkdown } from './skill-frontmatter.js';
import { McpSkillVerificationError } from './skill-verification.error.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** `resources/read` of one URI, answered with the server's `contents`. */
export type McpResourceReader = (uri: string) => Promise<{ contents: Record<string, unknown>[] }>;

/**
 * Reads one file of `skill` and verifies it against the entry: `ref` is a path under the skill's folder
 * (`references/FORMS.md`) or a URI, `SKILL.md` by default. A file the entry does not list is refused before any
 * request; the bytes read must weigh the entry's `size` and hash to its `digest`; the skill's own `SKILL.md` must
 * carry the entry's frontmatter. A `"dynamic"` skill has no digests: only the frontmatter is checked, and a file
 * over the skill's byte limit is refused.
 */
export async function readSkillFile(read: McpResourceReader, skill: McpRemoteSkill, ref = 'SKILL.md'): Promise<McpSkillFile> {
  const checked = checkSkillEntry(skill, 'given');
  if (checked instanceof McpSkillVerificationError) throw checked;
  const wanted = resolveSkillRef(skill.uri, ref);
  const listed = skill.resources === 'dynamic' ? undefined : skill.resources.find((file) => sameUriKey(file.uri) === sameUriKey(wanted));
  if (skill.resources !== 'dynamic' && !listed)
    throw new McpSkillVerificationError('unlisted', wanted, `${wanted} is not a file of the skill ${skill.uri}`);
  const uri = listed?.uri ?? wanted;
  const content = contentOf(uri, (await read(uri)).contents);
  const bytes = bytesOf(uri, content);
  if (listed) {
    if (bytes.length !== listed.size)
      throw new McpSkillVerificationError('size', uri, `${uri} weighs ${bytes.length} bytes; the skill's entry says ${listed.size}`);
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    if (digest !== listed.digest)
      throw new McpSkillVerificationError('digest', uri, `${uri} hashes to ${digest}; the skill's entry says ${listed.digest}`);
  } else if (bytes.length > MCP_SKILL_LIMITS.bytes) {
    throw new McpSkillVerificationError(
      'limits',
      uri,
      `${uri} weighs ${bytes.length} bytes (a skill holds at most ${MCP_SKILL_LIMITS.bytes})`,
    );
  }
  const file: McpSkillFile = {
    uri,
    ...(typeof content.mimeType === 'string' && { mimeType: content.mimeType }),
    bytes,
    ...(typeof content.text === 'string' && { text: content.text }),
    verified: listed !== undefined,
  };
  return sameUriKey(uri) === sameUriKey(skill.uri) ? withFrontmatter(skill, file) : file;
}

/** The skill's own SKILL.md, refused unless its frontmatter equals the entry's. */
function withFrontmatter(skill: McpRemoteSkill, file: McpSkillFile): McpSkillFile {
  const split = splitSkillMarkdown(file.text ?? Buffer.from(file.bytes).toString('utf8'));
  if (!split) throw new McpSkillVerificationError('frontmatter', file.uri, `${file.uri} has no YAML frontmatter`);
  const differences = frontmatterDifferences(split.frontmatter, skill.frontmatter);
  if (differences.length > 0)
    throw new McpSkillVerificationError(
      'frontmatter',
      file.uri,
      `${file.uri} has another frontmatter than the skill's entry: ${differences.join('; ')}`,
      differences,
    );
  return { ...file, frontmatter: split.frontmatter, body: split.body };
}

/** A reference of the skill resolved against its folder (a fragment dropped); `..` may not climb out of it. */
export function resolveSkillRef(skillUri: string, ref: string): string {
  const path = ref.split('#')[0];
  if (path.includes('://')) return path;
  const normalized = posix.normalize(path.replace(/^\/+/, ''));
  const root = skillRootOf(skillUri);
  if (normalized === '..' || normalized.startsWith('../'))
    throw new McpSkillVerificationError('unlisted', `${root}/${path}`, `${path} climbs out of the skill ${skillUri}`);
  return `${root}/${normalized}`;
}

/** The content of `uri` in a `resources/read` result (the only one when the server spelled the URI otherwise). */
function contentOf(uri: string, contents: unknown): Record<string, unknown> {
  const list = Array.isArray(contents) ? contents.filter(isPlainObject) : [];
  const found = list.find((content) => content.uri === uri) ?? (list.length === 1 ? list[0] : undefined);
  if (!found) throw new McpClientError('PROTOCOL', `resources/read answered no content for ${uri}`);
  return found;
}

/** The raw bytes of a content: its text as UTF-8, or its base64 blob decoded. */
function bytesOf(uri: string, content: Record<string, unknown>): Uint8Array {
  if (typeof content.text === 'string') return new Uint8Array(Buffer.from(content.text, 'utf8'));
  if (typeof content.blob === 'string' && BASE64.test(content.blob)) return new Uint8Array(Buffer.from(content.blob, 'base64'));
  throw new McpClientError('PROTOCOL', `resources/read answered ${uri} with neither text nor a base64 blob`);
}
