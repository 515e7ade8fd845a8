import { bootErrors } from '../../core/errors/boot-errors.js';

/** Boot errors of Agent Skills (SEP-2640): each names the skill folder or file and the fix (codes in `docs/errors.md`). */
export const McpSkillMessages = bootErrors({
  folder: {
    code: 'MCP_ERR_SKILL_FOLDER',
    message: (folder: string, reason: string): string =>
      `The skills folder ${folder} cannot be served: ${reason}. Give sources.skills folders that hold one folder per skill.`,
  },
  path: {
    code: 'MCP_ERR_SKILL_PATH',
    message: (skill: string, path: string, reason: string): string =>
      `The skill ${skill} cannot serve "${path}": ${reason}. Keep every file of a skill inside its folder, as a regular file.`,
  },
  limit: {
    code: 'MCP_ERR_SKILL_LIMIT',
    message: (skill: string, what: string, limit: string): string =>
      `The skill ${skill} has ${what}, over the ${limit} a host must accept (SEP-2640). Split it, or move large data behind a tool.`,
  },
  frontmatter: {
    code: 'MCP_ERR_SKILL_FRONTMATTER',
    message: (skill: string, reason: string): string =>
      `The SKILL.md of ${skill} ${reason}. It must begin with YAML frontmatter between --- lines holding at least ` +
      `name and description (strings).`,
  },
  name: {
    code: 'MCP_ERR_SKILL_NAME',
    message: (skill: string, reason: string): string =>
      `The skill ${skill} ${reason}. A skill name is 1 to 64 lowercase letters, digits and single hyphens, not ` +
      `starting or ending with one, and equals its folder's name.`,
  },
  reservedMetadata: {
    code: 'MCP_ERR_SKILL_RESERVED_METADATA',
    message: (skill: string, key: string): string =>
      `The SKILL.md of ${skill} uses the metadata key "${key}": keys under io.modelcontextprotocol/ are reserved for ` +
      `MCP extensions, which define none. Rename the key.`,
  },
  yamlMissing: {
    code: 'MCP_ERR_SKILL_YAML_MISSING',
    message: (): string =>
      'Serving Agent Skills needs the package yaml to read SKILL.md frontmatter: npm i yaml (an optional peer dependency of @nest-mcp/core).',
  },
  duplicate: {
    code: 'MCP_ERR_SKILL_DUPLICATE',
    message: (uri: string, first: string, second: string): string =>
      `Two skills are served at ${uri}: ${first} and ${second}. Rename one of them.`,
  },
});
