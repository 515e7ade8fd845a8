import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import { tenantOf } from '../../core/tenant.js';
import type { McpSkillCaller } from './mcp-skill.interface.js';

/** The caller a skill provider is asked for: the request's tenant and principal. */
export function skillCaller(context: McpRequestContext): McpSkillCaller {
  return context.principal ? { tenant: tenantOf(context.principal), principal: context.principal } : { tenant: tenantOf(undefined) };
}
