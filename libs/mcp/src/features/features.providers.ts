import type { Provider } from '@nestjs/common';
import { MCP_TOOL_SCOPES } from '../core/tool-scopes.port.js';
import { MCP_UPSTREAM_USER_AUTH } from '../core/upstream-user-auth.port.js';
import { MCP_JOB_WORKER } from '../jobs/job-worker.interface.js';
import { McpAppsExplorer } from './apps/mcp-apps.explorer.js';
import { McpCompletionExplorer } from './completions/mcp-completion.explorer.js';
import { McpCompletionRegistry } from './completions/mcp-completion.registry.js';
import { McpCompletionTargets } from './completions/completion-targets.js';
import { CompletionCompleteHandler } from './completions/completion-complete.handler.js';
import { MCP_COMPONENT_PROVIDERS_PROVIDER } from './components/component-providers.js';
import { McpComponentLoader } from './components/component.loader.js';
import { McpComponentSummary } from './components/component.summary.js';
import { McpMetadataAccessor } from './mcp-metadata.accessor.js';
import { McpOpenApiExplorer } from './openapi/mcp-openapi.explorer.js';
import { McpPromptExplorer } from './prompts/mcp-prompt.explorer.js';
import { McpPromptRegistry } from './prompts/mcp-prompt.registry.js';
import { PromptsHandlers } from './prompts/prompts.handlers.js';
import { McpProviderMethods } from './provider-methods.js';
import { McpResourceExplorer } from './resources/mcp-resource.explorer.js';
import { McpResourceNotifier } from './resources/mcp-resource.notifier.js';
import { McpResourceRegistry } from './resources/mcp-resource.registry.js';
import { McpResourceSubscriptions } from './resources/resource-subscriptions.js';
import { ResourcesListHandlers } from './resources/resources-list.handlers.js';
import { ResourcesReadHandler } from './resources/resources-read.handler.js';
import { ResourcesSubscriptionHandlers } from './resources/resources-subscription.handlers.js';
import { McpStoredResourceSubscriptions } from './resources/stored-resource-subscriptions.js';
import { McpRouteExplorer } from './routes/mcp-route.explorer.js';
import { McpRouteHandlerFactory } from './routes/route-handler.factory.js';
import { McpSkillExplorer } from './skills/mcp-skill.explorer.js';
import { McpSkillRegistry } from './skills/mcp-skill.registry.js';
import { SkillsHandlers } from './skills/skills.handlers.js';
import { McpTasksService } from './tasks/mcp-tasks.service.js';
import { McpTaskWorker } from './tasks/task-worker.js';
import { McpToolExplorer } from './tools/mcp-tool.explorer.js';
import { McpToolRegistry } from './tools/mcp-tool.registry.js';
import { McpToolVisibility } from './tools/mcp-tool.visibility.js';
import { ToolsHandlers } from './tools/tools.handlers.js';
import { McpUpstreamsHealthIndicator } from './upstreams/mcp-upstreams.health-indicator.js';
import { McpUpstreamsProvider } from './upstreams/mcp-upstreams.provider.js';
import { McpToolSearchTransform } from './transforms/search/tool-search.transform.js';
import { MCP_TOOL_CATALOG_TRANSFORMS_PROVIDER } from './transforms/catalog-transforms.js';
import { McpJobToolsProvider } from './tasks/job-tools.provider.js';

/** The features, one line per kind: registries and handlers, the component providers and their loader, tasks, upstreams. */
export const MCP_FEATURE_PROVIDERS: Provider[] = [
  // Reading decorators: one accessor, one discovery pass over the app's providers.
  McpMetadataAccessor,
  McpProviderMethods,
  // Tools; the RFC 9728 document's scopes_supported, read from the tools through a core port.
  McpToolRegistry,
  { provide: MCP_TOOL_SCOPES, useFactory: (tools: McpToolRegistry) => () => tools.requiredScopes(), inject: [McpToolRegistry] },
  McpToolVisibility,
  // Catalogue transforms (tool search), applied after tools.transforms.
  McpToolSearchTransform,
  MCP_TOOL_CATALOG_TRANSFORMS_PROVIDER,
  ToolsHandlers,
  // Resources and their subscriptions.
  McpResourceRegistry,
  McpResourceSubscriptions,
  McpStoredResourceSubscriptions,
  McpResourceNotifier,
  ResourcesListHandlers,
  ResourcesReadHandler,
  ResourcesSubscriptionHandlers,
  // Prompts.
  McpPromptRegistry,
  PromptsHandlers,
  // Completions: the explorer checks at bootstrap that each completer's prompt or template exists.
  McpCompletionRegistry,
  McpCompletionExplorer,
  McpCompletionTargets,
  CompletionCompleteHandler,
  // Agent Skills (SEP-2640): `sources.skills` folders and `@McpSkillProvider()` classes, read as resources.
  McpSkillRegistry,
  McpSkillExplorer,
  SkillsHandlers,
  // Component providers (their load order is component-providers.ts'), the loader that fills the registries, the summary.
  McpToolExplorer,
  McpRouteExplorer,
  McpRouteHandlerFactory,
  McpOpenApiExplorer,
  McpResourceExplorer,
  McpAppsExplorer,
  McpPromptExplorer,
  McpUpstreamsProvider,
  MCP_COMPONENT_PROVIDERS_PROVIDER,
  McpComponentLoader,
  McpComponentSummary,
  // Upstream MCP servers' health; the per-user authorization routes (transports/http) reach them through a core port.
  McpUpstreamsHealthIndicator,
  { provide: MCP_UPSTREAM_USER_AUTH, useExisting: McpUpstreamsProvider },
  // Tasks: the worker the job queue hands jobs to, the job tools.
  McpTaskWorker,
  { provide: MCP_JOB_WORKER, useExisting: McpTaskWorker },
  McpTasksService,
  McpJobToolsProvider,
];
