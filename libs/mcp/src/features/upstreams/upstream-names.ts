import { MCP_SKILL_URI_SCHEME } from '../../core/mcp-skills.constants.js';
import { MCP_TOOL_NAME_PATTERN } from '../tools/tool-name.js';

/**
 * How an upstream's components are named here. Tools and prompts: `<upstream>_<name>` (`weather_get_forecast`).
 * Resources and templates: the upstream's URI behind `<upstream>+` (`everything+demo://resource/static/1`), a
 * scheme of its own per upstream that reads back without a table and keeps templates templates.
 */
export const upstreamToolName = (upstream: string, name: string) => `${upstream}_${name}`;

/** Whether a namespaced tool name is one MCP clients accept (an upstream may use characters ours refuse). */
export const isServableToolName = (name: string) => MCP_TOOL_NAME_PATTERN.test(name);

/** `everything+demo://x` for the upstream `everything`'s `demo://x` (a template is prefixed the same way). */
export const upstreamUri = (upstream: string, uri: string) => `${upstream}+${uri}`;

/** The upstream's own URI of one of ours, or undefined when it does not name this upstream. */
export function originalUri(upstream: string, uri: string): string | undefined {
  const prefix = `${upstream}+`;
  return uri.startsWith(prefix) ? uri.slice(prefix.length) : undefined;
}

/**
 * `skill://weather/weather-briefing/SKILL.md` for the upstream `weather`'s `skill://weather-briefing/SKILL.md`: its
 * skills in a folder of their own, each still named by its last segment (SEP-2640 allows a path before the name).
 */
export const relayedSkillUri = (upstream: string, uri: string) =>
  `${MCP_SKILL_URI_SCHEME}${upstream}/${uri.slice(MCP_SKILL_URI_SCHEME.length)}`;

/** The upstream's own URI of one of its relayed skill URIs, or undefined when it does not name this upstream. */
export function originalSkillUri(upstream: string, uri: string): string | undefined {
  const prefix = `${MCP_SKILL_URI_SCHEME}${upstream}/`;
  return uri.startsWith(prefix) ? `${MCP_SKILL_URI_SCHEME}${uri.slice(prefix.length)}` : undefined;
}

/** Whether an upstream URI (or template) is one of its skill files: relayed as a skill, not as a plain resource. */
export const isSkillUri = (uri: string) => uri.startsWith(MCP_SKILL_URI_SCHEME);
