import { createHash } from 'node:crypto';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { MCP_SKILL_LIMITS, MCP_SKILL_URI_SCHEME } from '../../core/mcp-skills.constants.js';
import type { BuiltSkill, BuiltSkillFile, SkillDirectoryChild } from './built-skill.js';
import { skillFrontmatter } from './skill-frontmatter.js';
import { skillFileMimeType } from './skill-mime-types.js';
import { McpSkillMessages as Messages } from './skill.messages.js';

/** The media type of a directory resource. */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/** `sha256:` and the lowercase hex SHA-256 of `bytes`. */
export const skillDigest = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** One file as the builder takes it: its bytes, and how to read them when served (the bytes themselves by default). */
export interface SkillSourceFile {
  readonly bytes: Uint8Array;
  readonly read?: () => Promise<Uint8Array>;
}

/**
 * Checks one skill's files and computes what its entry carries: the paths stay inside the skill (no `..`, `.`,
 * empty or absolute segment, no backslash), at most 512 files and 16 MiB, a SKILL.md whose frontmatter is valid
 * and whose name equals `folderName` when the skill has a folder. Throws a coded McpConfigurationError.
 */
export function buildSkill(site: string, files: ReadonlyMap<string, SkillSourceFile>, folderName?: string): BuiltSkill {
  if (files.size > MCP_SKILL_LIMITS.files)
    throw new McpConfigurationError(Messages.limit(site, `${files.size} files`, `${MCP_SKILL_LIMITS.files} files`));
  let total = 0;
  for (const [path, file] of files) {
    checkSkillPath(site, path);
    total += file.bytes.byteLength;
  }
  if (total > MCP_SKILL_LIMITS.bytes)
    throw new McpConfigurationError(Messages.limit(site, `${total} bytes`, `${MCP_SKILL_LIMITS.bytes} bytes (16 MiB)`));
  const manifest = files.get('SKILL.md');
  if (!manifest) throw new McpConfigurationError(Messages.frontmatter(site, 'is missing (every skill has a SKILL.md at its root)'));
  const frontmatter = skillFrontmatter(site, decodeUtf8(manifest.bytes) ?? '');
  const name = frontmatter.name;
  if (folderName !== undefined && folderName !== name)
    throw new McpConfigurationError(Messages.name(site, `is named "${name}" in its SKILL.md but lives in the folder "${folderName}"`));
  const root = `${MCP_SKILL_URI_SCHEME}${name}`;
  const built = new Map<string, BuiltSkillFile>();
  // SKILL.md first, then the other files by path: a stable order for the entry.
  for (const path of [...files.keys()].sort((a, b) => (a === 'SKILL.md' ? -1 : b === 'SKILL.md' ? 1 : a < b ? -1 : a > b ? 1 : 0))) {
    const file = files.get(path)!;
    const uri = `${root}/${path}`;
    const { bytes } = file;
    built.set(uri, {
      path,
      uri,
      digest: skillDigest(bytes),
      size: bytes.byteLength,
      mimeType: skillFileMimeType(path),
      read: file.read ?? (async () => bytes),
    });
  }
  const resources = [...built.values()].map(({ uri, digest, size }) => Object.freeze({ uri, digest, size }));
  const uri = `${root}/SKILL.md`;
  return {
    name,
    uri,
    root,
    frontmatter,
    site,
    entry: Object.freeze({ uri, frontmatter, resources: Object.freeze(resources) }),
    files: built,
    directories: directoriesOf(root, built),
  };
}

/** The text of `bytes` when they are UTF-8, else undefined. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A relative, `/`-separated path that cannot leave the skill: any other is a boot error. */
function checkSkillPath(site: string, path: string): void {
  const refuse = (reason: string) => new McpConfigurationError(Messages.path(site, path, reason));
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) throw refuse('the path is absolute');
  if (path.includes('\\') || path.includes('\0')) throw refuse('the path holds a backslash or a NUL character');
  for (const segment of path.split('/')) {
    if (segment === '..') throw refuse('the path climbs out of the skill (..)');
    if (segment === '' || segment === '.') throw refuse('the path has an empty or "." segment');
  }
}

/** Every directory of the skill (its root included) with its direct children, subdirectories first. */
function directoriesOf(root: string, files: ReadonlyMap<string, BuiltSkillFile>): Map<string, SkillDirectoryChild[]> {
  const children = new Map<string, Map<string, SkillDirectoryChild>>([[root, new Map()]]);
  const childrenOf = (dir: string) => {
    let map = children.get(dir);
    if (!map) children.set(dir, (map = new Map()));
    return map;
  };
  for (const file of files.values()) {
    const segments = file.path.split('/');
    let dir = root;
    for (const segment of segments.slice(0, -1)) {
      const sub = `${dir}/${segment}`;
      childrenOf(dir).set(sub, { uri: sub, name: segment, mimeType: DIRECTORY_MIME_TYPE });
      childrenOf(sub);
      dir = sub;
    }
    childrenOf(dir).set(file.uri, { uri: file.uri, name: segments.at(-1)!, mimeType: file.mimeType, size: file.size });
  }
  const sorted = new Map<string, SkillDirectoryChild[]>();
  for (const [dir, map] of children) {
    const list = [...map.values()];
    list.sort(
      (a, b) => Number(b.mimeType === DIRECTORY_MIME_TYPE) - Number(a.mimeType === DIRECTORY_MIME_TYPE) || (a.uri < b.uri ? -1 : 1),
    );
    sorted.set(dir, list);
  }
  return sorted;
}
