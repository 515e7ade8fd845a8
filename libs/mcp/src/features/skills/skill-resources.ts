import type { McpSkillRegistry } from './mcp-skill.registry.js';
import type { McpSkillCaller } from './mcp-skill.interface.js';
import { decodeUtf8 } from './skill.builder.js';
import type { SkillRequest } from './skill-relay.interface.js';
import { MCP_SKILL_URI_SCHEME } from '../../core/mcp-skills.constants.js';

/** The `resources/list` entry of each SKILL.md a caller sees: named and described by its frontmatter. */
export async function skillManifestResources(registry: McpSkillRegistry, caller: McpSkillCaller): Promise<Record<string, unknown>[]> {
  if (!registry.served) return [];
  return (await registry.listed(caller)).map(({ uri, entry }) => ({
    uri,
    name: entry.frontmatter.name,
    description: entry.frontmatter.description,
    mimeType: 'text/markdown',
    size: entry.resources === 'dynamic' ? undefined : entry.resources.find((file) => file.uri === uri)?.size,
  }));
}

/**
 * The `resources/read` result of a skill file `caller` sees (text when UTF-8 text, else a base64 blob), or of a
 * relayed skill's file read for `request`; undefined if none.
 */
export async function readSkillFile(
  registry: McpSkillRegistry,
  uri: string,
  caller: McpSkillCaller,
  request?: SkillRequest,
): Promise<Record<string, unknown> | undefined> {
  if (!registry.served || !uri.startsWith(MCP_SKILL_URI_SCHEME)) return undefined;
  const file = await registry.file(uri, caller);
  if (!file) return request && registry.readRelayed(uri, request);
  const bytes = await file.read();
  const text = isTextual(file.mimeType) ? decodeUtf8(bytes) : undefined;
  const content =
    text !== undefined
      ? { uri, mimeType: file.mimeType, text }
      : { uri, mimeType: file.mimeType, blob: Buffer.from(bytes).toString('base64') };
  return { contents: [content] };
}

function isTextual(mimeType: string): boolean {
  return mimeType.startsWith('text/') || /(json|yaml|xml|javascript)$/.test(mimeType);
}
