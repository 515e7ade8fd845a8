import type { McpPrincipal } from '../core/mcp-principal.interface.js';
import type { McpToolDescriptor } from '../core/mcp-tool-descriptor.interface.js';

/**
 * Decides per caller whether a tool exists for them. A hidden tool is absent from `tools/list` and calling it
 * answers "Unknown tool" (-32602), exactly like a name that does not exist.
 * @publicApi
 */
export type McpToolVisibleTo = (principal: McpPrincipal | undefined) => boolean | Promise<boolean>;

/**
 * A provider that hides tools per caller, listed in the module option `tools.filters` (declare it as a provider in
 * your own module: it gets its dependencies injected). Every filter must let a tool through for it to be visible.
 * `principal` is undefined without authentication (stdio without `MCP_API_KEY`, or no `auth` option).
 * @publicApi
 * @example
 * @Injectable()
 * export class BetaToolsFilter implements McpToolFilter {
 *   isVisible(tool: McpToolDescriptor, principal?: McpPrincipal) {
 *     return !tool.name.startsWith('beta_') || principal?.tenant === 'acme';
 *   }
 * }
 * // McpModule.forRoot({ ..., tools: { filters: [BetaToolsFilter] } })
 */
export interface McpToolFilter {
  isVisible(tool: McpToolDescriptor, principal: McpPrincipal | undefined): boolean | Promise<boolean>;
}
