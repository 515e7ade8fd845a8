import { SetMetadata } from '@nestjs/common';

/** Class metadata marking a provider as a source of skills built at run time. */
export const MCP_SKILL_PROVIDER_METADATA = 'mcp:skill-provider';

/**
 * Marks an `McpSkillSource` (a singleton provider of your module): its `skills(caller)` is asked for the
 * skills a caller sees, besides those of `sources.skills`.
 * @publicApi
 */
export const McpSkillProvider = (): ClassDecorator => SetMetadata(MCP_SKILL_PROVIDER_METADATA, true);
