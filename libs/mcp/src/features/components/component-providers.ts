import type { FactoryProvider } from '@nestjs/common';
import { McpAppsExplorer } from '../apps/mcp-apps.explorer.js';
import { McpPromptExplorer } from '../prompts/mcp-prompt.explorer.js';
import { McpResourceExplorer } from '../resources/mcp-resource.explorer.js';
import { McpToolExplorer } from '../tools/mcp-tool.explorer.js';
import { McpRouteExplorer } from '../routes/mcp-route.explorer.js';
import { McpOpenApiExplorer } from '../openapi/mcp-openapi.explorer.js';
import { McpUpstreamsProvider } from '../upstreams/mcp-upstreams.provider.js';
import { MCP_COMPONENT_PROVIDERS, type McpComponentProvider } from './mcp-component-provider.interface.js';

/**
 * The component providers of one `McpModule`, in load order: `@McpTool()` methods, controller routes, OpenAPI
 * documents, then the other decorated provider methods (resources, MCP Apps UI resources, prompts), then upstream
 * MCP servers (option `sources.upstreams`, whose components reach the registries at runtime). A new source is one more entry
 * here. Runtime registrations (`McpToolRegistry.register` …) need no entry: they build the same components through
 * `McpRuntimeRegistrations` and reach the same registries after boot.
 */
export const MCP_COMPONENT_PROVIDERS_PROVIDER: FactoryProvider<readonly McpComponentProvider[]> = {
  provide: MCP_COMPONENT_PROVIDERS,
  useFactory: (...providers: McpComponentProvider[]) => providers,
  inject: [
    McpToolExplorer,
    McpRouteExplorer,
    McpOpenApiExplorer,
    McpResourceExplorer,
    McpAppsExplorer,
    McpPromptExplorer,
    McpUpstreamsProvider,
  ],
};
