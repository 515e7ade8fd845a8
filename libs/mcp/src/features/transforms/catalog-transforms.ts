import type { FactoryProvider } from '@nestjs/common';
import { MCP_TOOL_CATALOG_TRANSFORMS, type McpToolCatalogTransform } from './mcp-tool-catalog-transform.interface.js';
import { McpToolSearchTransform } from './search/tool-search.transform.js';

/**
 * The catalogue transforms of one `McpModule`, in the order they apply; one left off by its option is not in the
 * list, so it costs a request nothing. A new one is one more entry here.
 */
export const MCP_TOOL_CATALOG_TRANSFORMS_PROVIDER: FactoryProvider<readonly McpToolCatalogTransform[]> = {
  provide: MCP_TOOL_CATALOG_TRANSFORMS,
  useFactory: (search: McpToolSearchTransform) => (search.enabled ? [search] : []),
  inject: [McpToolSearchTransform],
};
