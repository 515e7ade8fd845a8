import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { MCP_SKILL_LIMITS } from '../../core/mcp-skills.constants.js';
import type { BuiltSkill } from './built-skill.js';
import { buildSkill, skillDigest, type SkillSourceFile } from './skill.builder.js';
import { McpSkillMessages as Messages } from './skill.messages.js';

/**
 * The skills of a folder of skill folders (`<folder>/<name>/SKILL.md` and its files), checked and digested once.
 * Sizes are read before any bytes, so a skill over 16 MiB is refused without being read; a symlink is followed
 * only to a regular file inside the same skill. Files are read again when served, and refused if their bytes no
 * longer match the digest published at boot.
 */
export async function loadSkillFolder(folder: string): Promise<BuiltSkill[]> {
  const base = resolve(folder);
  let entries;
  try {
    if (!(await stat(base)).isDirectory()) throw new McpConfigurationError(Messages.folder(folder, 'it is not a folder'));
    entries = await readdir(base, { withFileTypes: true });
  } catch (error) {
    if (error instanceof McpConfigurationError) throw error;
    throw new McpConfigurationError(Messages.folder(folder, `it cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`));
  }
  const skills: BuiltSkill[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith('.')) continue; // .git, .DS_Store
    const dir = join(base, entry.name);
    if (entry.isSymbolicLink()) throw new McpConfigurationError(Messages.path(dir, '.', 'a skill folder may not be a symlink'));
    if (!entry.isDirectory()) continue; // a README beside the skills
    skills.push(await loadSkill(dir, entry.name));
  }
  return skills;
}

/** One skill folder: its files (sizes first, then bytes), built and checked. */
async function loadSkill(dir: string, name: string): Promise<BuiltSkill> {
  const root = await realpath(dir);
  const paths: { path: string; real: string; size: number }[] = [];
  let total = 0;
  const walk = async (relativeDir: string): Promise<void> => {
    for (const entry of await readdir(join(root, relativeDir), { withFileTypes: true })) {
      const path = relativeDir ? `${relativeDir}/${entry.name}` : entry.name;
      const absolute = join(root, path);
      let real = absolute;
      if (entry.isSymbolicLink()) {
        real = await realpath(absolute).catch(() => {
          throw new McpConfigurationError(Messages.path(dir, path, 'it is a broken symlink'));
        });
        const inside = relative(root, real);
        if (inside === '' || inside.startsWith('..') || inside.startsWith(sep) || resolve(root, inside) !== real)
          throw new McpConfigurationError(Messages.path(dir, path, 'it is a symlink that leads out of the skill folder'));
      }
      const info = await lstat(real);
      if (info.isDirectory() && !entry.isSymbolicLink()) {
        await walk(path);
        continue;
      }
      if (!info.isFile()) throw new McpConfigurationError(Messages.path(dir, path, 'it is neither a regular file nor a folder'));
      total += info.size;
      paths.push({ path, real, size: info.size });
      if (paths.length > MCP_SKILL_LIMITS.files)
        throw new McpConfigurationError(
          Messages.limit(dir, `more than ${MCP_SKILL_LIMITS.files} files`, `${MCP_SKILL_LIMITS.files} files`),
        );
      if (total > MCP_SKILL_LIMITS.bytes)
        throw new McpConfigurationError(
          Messages.limit(dir, `more than ${MCP_SKILL_LIMITS.bytes} bytes`, `${MCP_SKILL_LIMITS.bytes} bytes (16 MiB)`),
        );
    }
  };
  await walk('');
  const files = new Map<string, SkillSourceFile>();
  for (const { path, real, size } of paths) {
    const bytes = new Uint8Array(await readFile(real));
    const digest = skillDigest(bytes);
    files.set(path, { bytes, read: () => readVerified(real, size, digest) });
  }
  const skill = buildSkill(dir, files, name);
  files.clear(); // the bytes were only needed for the digests: reads go to the disk
  return skill;
}

/** The file's bytes as published (size and digest), else an error: a changed file is never served unverified. */
async function readVerified(path: string, size: number, digest: string): Promise<Uint8Array> {
  const info = await lstat(path);
  if (!info.isFile() || info.size !== size) throw new Error(`skill file ${path} changed since boot`);
  const bytes = new Uint8Array(await readFile(path));
  if (bytes.byteLength !== size || skillDigest(bytes) !== digest) throw new Error(`skill file ${path} changed since boot`);
  return bytes;
}
