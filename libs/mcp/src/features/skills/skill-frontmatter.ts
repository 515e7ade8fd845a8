import { isPlainObject } from '../../core/plain-object.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpSkillMessages as Messages } from './skill.messages.js';

/** The part of the `yaml` package used here. */
type YamlParse = (text: string, options: Record<string, unknown>) => unknown;

/** `yaml`'s parse, once {@link loadSkillYaml} found the package. */
let parseYaml: YamlParse | undefined;

/**
 * Imports `yaml` (an optional peer dependency, needed only to serve skills); true when it is there. Called at boot
 * by the skills explorer, so a server without skills never needs the package. `load` is the import, for specs.
 */
export async function loadSkillYaml(load: (specifier: string) => Promise<unknown> = (specifier) => import(specifier)): Promise<boolean> {
  if (parseYaml) return true;
  try {
    parseYaml = ((await load('yaml')) as { parse: YamlParse }).parse;
    return true;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return false;
    throw error;
  }
}

/** The leading `---` block of a SKILL.md (a BOM and CRLF line ends allowed), as hosts find it. */
const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** The Agent Skills naming rule: 1-64 lowercase letters, digits and single inner hyphens. */
export const SKILL_NAME_PATTERN = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;

/** Keys of `metadata` reserved for MCP extensions. */
const RESERVED_METADATA_PREFIX = 'io.modelcontextprotocol/';

/** The Agent Skills limit on a description. */
const MAX_DESCRIPTION = 1024;

export type SkillFrontmatter = Record<string, unknown> & { name: string; description: string };

/**
 * The frontmatter of `SKILL.md` as JSON, checked: name and description present and well formed, no reserved
 * metadata key. `skill` names the skill in errors. YAML 1.2 core schema, so values stay JSON (no dates), the
 * same object a host gets when it parses the file and compares.
 */
export function skillFrontmatter(skill: string, text: string): SkillFrontmatter {
  const block = FRONTMATTER.exec(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (!block) throw new McpConfigurationError(Messages.frontmatter(skill, 'has no leading --- frontmatter block'));
  if (!parseYaml) throw new McpConfigurationError(Messages.yamlMissing());
  let value: unknown;
  try {
    value = parseYaml(block[1], { schema: 'core', uniqueKeys: true, maxAliasCount: 0 });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new McpConfigurationError(Messages.frontmatter(skill, `has frontmatter that is not valid YAML (${reason})`));
  }
  if (!isPlainObject(value)) throw new McpConfigurationError(Messages.frontmatter(skill, 'has frontmatter that is not a mapping'));
  const { name, description, metadata } = value;
  if (typeof name !== 'string' || name.length === 0)
    throw new McpConfigurationError(Messages.frontmatter(skill, 'has no name (a non-empty string)'));
  if (typeof description !== 'string' || description.trim().length === 0 || description.length > MAX_DESCRIPTION)
    throw new McpConfigurationError(
      Messages.frontmatter(skill, `has no description (a non-empty string of at most ${MAX_DESCRIPTION} characters)`),
    );
  if (!SKILL_NAME_PATTERN.test(name)) throw new McpConfigurationError(Messages.name(skill, `is named "${name}"`));
  if (metadata !== undefined && !isPlainObject(metadata))
    throw new McpConfigurationError(Messages.frontmatter(skill, 'has a metadata value that is not a mapping'));
  for (const key of Object.keys(metadata ?? {}))
    if (key.startsWith(RESERVED_METADATA_PREFIX)) throw new McpConfigurationError(Messages.reservedMetadata(skill, key));
  return value as SkillFrontmatter;
}
