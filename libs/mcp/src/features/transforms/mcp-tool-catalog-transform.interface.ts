import type { McpToolDefinition, McpToolDescriptor } from '../tools/mcp-tool-definition.interface.js';

/**
 * Shapes the tool catalogue as a whole, after every provider's tools and the per-tool `tools.transforms`: adds the
 * tools it serves, may show callers another list than the catalogue, and may make one call stand for another. All of
 * it is decided at boot (the request path reads fields); tool search is one (`search/tool-search.transform.ts`).
 */
export interface McpToolCatalogTransform {
  /** Names the library keeps for this transform, served as tools or not: no source may take them. */
  readonly reserved: readonly string[];
  /** At load: the tools it adds to `catalogue` (the tools as registered so far); a clash with one fails the boot. */
  tools(catalogue: readonly McpToolDefinition[]): readonly McpToolDefinition[];
  /** What `tools/list` shows instead of the catalogue, the same to every caller; absent: the catalogue. */
  readonly listed?: readonly McpToolDescriptor[];
  /** A `tools/call`'s params as those of the call they stand for; the same object when they stand for none. */
  aliased?(params: Record<string, unknown>): Record<string, unknown>;
}

/** The catalogue transforms of one module instance, in the order they apply (after `tools.transforms`). */
export const MCP_TOOL_CATALOG_TRANSFORMS = Symbol('MCP_TOOL_CATALOG_TRANSFORMS');
