import type { FactoryProvider } from '@nestjs/common';
import { McpAppsExplorer } from '../apps/mcp-apps.explorer.js';
import { McpPromptExplorer } from '../prompts/mcp-prompt.explorer.js';
import { McpResourceExplorer } from '../resources/mcp-resource.explorer.js';
import { McpToolExplorer } from '../tools/mcp-tool.explorer.js';
import { McpRouteExplorer } from '../routes/mcp-route.explorer.js';
import { McpOpenApiExplorer } from '../openapi/mcp-openapi.explorer.js';
import { McpUpstreamsProvider } from '../upstreams/mcp-upstreams.provider.js';
import { McpJobToolsProvider } from '../tasks/job-tools.provider.js';
import { MCP_COMPONENT_PROVIDERS, type McpComponentProvider } from './mcp-component-provider.interface.js';

/**
 * The component providers of one `McpModule`, in load order (upstream servers' components reach the registries at
 * runtime). Tool search is not a source but a catalogue transform (`transforms/catalog-transforms.ts`). A new
 * source is one more entry here; runtime registrations need none (`McpRuntimeRegistrations`).
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
    // Last: it serves the job tools when a tool before it runs as a job.
    McpJobToolsProvider,
  ],
};
