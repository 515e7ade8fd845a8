import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, DiscoveryModule } from '@nestjs/core';
import { McpMetadataAccessor } from './discovery/mcp-metadata.accessor.js';
import { McpToolExplorer } from './discovery/mcp-tool.explorer.js';
import { McpProviderMethods } from './discovery/provider-methods.js';
import { McpToolRegistry } from './discovery/mcp-tool.registry.js';
import { McpToolCallRunner } from './execution/tool-call.runner.js';
import { McpToolHandlerFactory } from './execution/tool-handler.factory.js';
import { resolveMcpOptions, resolvePaths } from './mcp-options.resolver.js';
import { ASYNC_OPTIONS_TYPE, ConfigurableModuleClass, MCP_MODULE_OPTIONS, MCP_RESOLVED_OPTIONS, OPTIONS_TYPE } from './mcp.module-definition.js';
import type { McpModuleExtras, McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
import { InitializeHandler } from './protocol/handlers/initialize.handler.js';
import { PingHandler } from './protocol/handlers/ping.handler.js';
import { ToolsCallHandler } from './protocol/handlers/tools-call.handler.js';
import { ToolsListHandler } from './protocol/handlers/tools-list.handler.js';
import { McpDispatcher } from './protocol/mcp.dispatcher.js';
import { McpCapabilities } from './protocol/mcp-capabilities.js';
import { McpClientRequests } from './protocol/client-requests.js';
import { McpIdempotency } from './execution/idempotency.service.js';
import { McpJobStore } from './jobs/mcp-job.store.js';
import { McpJobSlots } from './jobs/job-slots.js';
import { McpJobExecutor } from './jobs/mcp-job.executor.js';
import { McpJobService } from './jobs/mcp-job.service.js';
import { McpJobTools } from './jobs/mcp-job.tools.js';
import { MCP_JOB_QUEUE } from './jobs/job-queue.interface.js';
import { createMcpJobQueue } from './jobs/job-queue.factory.js';
import { McpTaskHandlers } from './protocol/handlers/tasks.handlers.js';
import { McpBodyParserErrorFilter } from './transports/http/body-parser-error.filter.js';
import { createMcpControllers } from './transports/http/mcp-http.controller.js';
import { McpLegacySseTransport } from './transports/sse/legacy-sse.transport.js';
import { McpStreamHub } from './transports/streams/stream-hub.js';
import { McpInstanceRouter } from './transports/routing/mcp-instance.router.js';
import { McpStdioTransport } from './transports/stdio/stdio.transport.js';
import { SseEventStore } from './transports/streams/sse-event.store.js';
import { McpSessionService } from './sessions/mcp-session.service.js';
import { McpAuthService } from './auth/mcp-auth.service.js';
import { McpAuthGuard } from './auth/mcp-auth.guard.js';
import { createProtectedResourceController } from './auth/protected-resource.controller.js';
import { McpOriginGuard } from './transports/http/origin.guard.js';
import { McpTenantLimiter } from './execution/tenant-limiter.js';
import { LoggingSetLevelHandler } from './protocol/handlers/logging-set-level.handler.js';
import { MCP_STORE } from './stores/key-value.store.js';
import { MCP_BUS } from './stores/message-bus.js';
import { createMcpBus, createMcpStore } from './stores/store.factory.js';
import { McpStoreLifecycle } from './stores/store.lifecycle.js';
import { McpTenantQuotas } from './stores/tenant-quotas.js';
import { McpHttpTransport } from './transports/http/mcp-http.transport.js';

import { McpResourceRegistry } from './resources/mcp-resource.registry.js';
import { McpResourceExplorer } from './resources/mcp-resource.explorer.js';
import { McpResourceSubscriptions } from './resources/resource-subscriptions.js';
import { McpResourceNotifier } from './resources/mcp-resource.notifier.js';
import { ResourcesListHandler } from './resources/resources-list.handler.js';
import { ResourcesTemplatesListHandler } from './resources/resources-templates-list.handler.js';
import { ResourcesReadHandler } from './resources/resources-read.handler.js';
import { ResourcesSubscribeHandler } from './resources/resources-subscribe.handler.js';
import { ResourcesUnsubscribeHandler } from './resources/resources-unsubscribe.handler.js';
import { McpPromptRegistry } from './prompts/mcp-prompt.registry.js';
import { McpPromptExplorer } from './prompts/mcp-prompt.explorer.js';
import { PromptsListHandler } from './prompts/prompts-list.handler.js';
import { PromptsGetHandler } from './prompts/prompts-get.handler.js';
import { McpCompletionRegistry } from './completions/mcp-completion.registry.js';
import { McpCompletionExplorer } from './completions/mcp-completion.explorer.js';
import { McpCompletionSources } from './completions/completion-sources.js';
import { CompletionCompleteHandler } from './completions/completion-complete.handler.js';
import { MCP_MODERN_PROVIDERS } from './modern/modern.providers.js';
import { McpListChangedNotifier } from './modern/subscriptions/mcp-list-changed.notifier.js';
import { McpClientInput } from './modern/mrtr/mcp-client-input.service.js';

/**
 * Turns `@McpTool()` methods of any provider into an MCP server served over Streamable HTTP.
 * @publicApi
 * @example
 * @Module({ imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0' })], providers: [WeatherTools] })
 * export class AppModule {}
 */
@Module({
  imports: [DiscoveryModule],
  providers: [
    McpMetadataAccessor,
    McpToolRegistry,
    McpProviderMethods,
    McpToolExplorer,
    McpToolHandlerFactory,
    McpToolCallRunner,
    McpTenantLimiter,
    McpAuthService,
    McpAuthGuard,
    McpOriginGuard,
    InitializeHandler,
    PingHandler,
    ToolsListHandler,
    ToolsCallHandler,
    LoggingSetLevelHandler,
    McpDispatcher,
    McpCapabilities,
    McpClientRequests,
    McpIdempotency,
    McpJobStore,
    McpJobSlots,
    McpJobExecutor,
    McpJobService,
    McpJobTools,
    McpTaskHandlers,
    McpSessionService,
    McpTenantQuotas,
    SseEventStore,
    McpStreamHub,
    McpInstanceRouter,
    McpHttpTransport,
    McpLegacySseTransport,
    McpStdioTransport,
    { provide: APP_FILTER, useClass: McpBodyParserErrorFilter },
    McpResourceRegistry,
    McpResourceExplorer,
    McpResourceSubscriptions,
    McpResourceNotifier,
    ResourcesListHandler,
    ResourcesTemplatesListHandler,
    ResourcesReadHandler,
    ResourcesSubscribeHandler,
    ResourcesUnsubscribeHandler,
    McpPromptRegistry,
    McpPromptExplorer,
    PromptsListHandler,
    PromptsGetHandler,
    McpCompletionRegistry,
    McpCompletionExplorer,
    McpCompletionSources,
    CompletionCompleteHandler,
    // Protocol revision 2026-07-28 (modern/): era routing, discover, MRTR, listen, tasks extension.
    ...MCP_MODERN_PROVIDERS,
  ],
  exports: [McpDispatcher, McpToolRegistry, McpResourceNotifier, McpListChangedNotifier, McpClientInput],
})
export class McpModule extends ConfigurableModuleClass {
  static override forRoot(options: typeof OPTIONS_TYPE): DynamicModule {
    return McpModule.withEndpoints(super.forRoot(options), options);
  }

  static override forRootAsync(options: typeof ASYNC_OPTIONS_TYPE): DynamicModule {
    return McpModule.withEndpoints(super.forRootAsync(options), options);
  }

  /** Adds what depends on the paths (known now, even for async options): controllers and resolved options. */
  private static withEndpoints(definition: DynamicModule, extras: McpModuleExtras): DynamicModule {
    const paths = resolvePaths(extras);
    return {
      ...definition,
      controllers: [...(definition.controllers ?? []), ...createMcpControllers(paths), createProtectedResourceController(paths.path)],
      providers: [
        ...(definition.providers ?? []),
        { provide: MCP_RESOLVED_OPTIONS, useFactory: (options: McpModuleOptions) => resolveMcpOptions(options, paths), inject: [MCP_MODULE_OPTIONS] },
        { provide: MCP_STORE, useFactory: createMcpStore, inject: [MCP_RESOLVED_OPTIONS] },
        { provide: MCP_BUS, useFactory: createMcpBus, inject: [MCP_RESOLVED_OPTIONS] },
        { provide: MCP_JOB_QUEUE, useFactory: createMcpJobQueue, inject: [MCP_RESOLVED_OPTIONS, McpJobExecutor, McpJobStore, MCP_BUS] },
        McpStoreLifecycle,
      ],
      exports: [...(definition.exports ?? []), MCP_RESOLVED_OPTIONS, MCP_STORE, MCP_BUS],
    };
  }
}
