import { bootErrors } from '../../core/errors/boot-errors.js';

/** Boot errors of Agent Skills (SEP-2640): each names the skill folder or file and the fix (codes in `docs/errors.md`). */
export const McpSkillMessages = bootErrors({
  folder: {
    code: 'MCP_ERR_SKILL_FOLDER',
    message: (folder: string, reason: string): string =>
      `The skills folder ${folder} cannot be served: ${reason}. Give sources.skills folders that hold one folder per skill.`,
    fix: 'Point `sources.skills` at an existing folder of skill folders.',
    shown: { reason: 'it is not a folder / it cannot be read (ENOENT)' },
  },
  path: {
    code: 'MCP_ERR_SKILL_PATH',
    message: (folder: string, path: string, reason: string): string =>
      `The skill ${folder} cannot serve "${path}": ${reason}. Keep every file of a skill inside its folder, as a regular file.`,
    fix: "Copy the file into the skill's folder instead of linking it; use relative paths without `..`.",
    shown: {
      reason:
        'the path climbs out of the skill (..) / the path is absolute / it is a symlink that leads out of the skill folder / it is neither a regular file nor a folder / ...',
    },
  },
  limit: {
    code: 'MCP_ERR_SKILL_LIMIT',
    message: (folder: string, what: string, limit: string): string =>
      `The skill ${folder} has ${what}, over the ${limit} a host must accept (SEP-2640). Split it, or move large data behind a tool.`,
    fix: 'Keep each skill to 512 files and 16 MiB in all.',
    shown: { what: 'n files / n bytes', limit: '512 files / 16777216 bytes (16 MiB)' },
  },
  frontmatter: {
    code: 'MCP_ERR_SKILL_FRONTMATTER',
    message: (folder: string, reason: string): string =>
      `The SKILL.md of ${folder} ${reason}. It must begin with YAML frontmatter between --- lines holding at least ` +
      `name and description (strings).`,
    fix: 'Start `SKILL.md` with `---`, `name: ...`, `description: ...`, `---`.',
    shown: {
      reason:
        'has no leading --- frontmatter block / has frontmatter that is not valid YAML (...) / has no name / has no description / is missing',
    },
  },
  name: {
    code: 'MCP_ERR_SKILL_NAME',
    message: (folder: string, reason: string): string =>
      `The skill ${folder} ${reason}. A skill name is 1 to 64 lowercase letters, digits and single hyphens, not ` +
      `starting or ending with one, and equals its folder's name.`,
    fix: 'Rename the skill or its folder so both match the naming rule.',
    shown: { reason: '<is named "<name>" / is named "<name>" in its SKILL.md but lives in the folder "<folder>">' },
  },
  reservedMetadata: {
    code: 'MCP_ERR_SKILL_RESERVED_METADATA',
    message: (folder: string, key: string): string =>
      `The SKILL.md of ${folder} uses the metadata key "${key}": keys under io.modelcontextprotocol/ are reserved for ` +
      `MCP extensions, which define none. Rename the key.`,
    fix: 'Use a key of your own namespace under `metadata`.',
  },
  duplicate: {
    code: 'MCP_ERR_SKILL_DUPLICATE',
    message: (uri: string, first: string, second: string): string =>
      `Two skills are served at ${uri}: ${first} and ${second}. Rename one of them.`,
    fix: 'Give each skill of the server its own name.',
    shown: { uri: 'skill://<name>/SKILL.md' },
  },
});
