/**
 * The Skills extension (SEP-2640), as the server (features/skills, features/upstreams), its client (client/skills) and
 * the explorer page (transports) name it: one definition, in core, which all of them may import.
 */

/** Id of the Skills extension in `capabilities.extensions`. @publicApi */
export const MCP_SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** The URI scheme skills are served under: `skill://<name>/SKILL.md`, `skill://<name>/<path>`. @publicApi */
export const MCP_SKILL_URI_SCHEME = 'skill://';

/**
 * Per-skill limits a host must accept (SEP-2640): a skill over them fails the boot or its registration here, and the
 * client refuses it. @publicApi
 */
export const MCP_SKILL_LIMITS = Object.freeze({ files: 512, bytes: 16 * 1024 * 1024 });
