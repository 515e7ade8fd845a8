import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, DiscoveryModule } from '@nestjs/core';
import { McpMetadataAccessor } from './features/mcp-metadata.accessor.js';
import { McpToolExplorer } from './features/tools/mcp-tool.explorer.js';
import { McpOpenApiExplorer } from './features/openapi/mcp-openapi.explorer.js';
import { McpRouteExplorer } from './features/routes/mcp-route.explorer.js';
import { McpRouteHandlerFactory } from './features/routes/route-handler.factory.js';
import { MCP_COMPONENT_PROVIDERS_PROVIDER } from './features/components/component-providers.js';
import { McpToolSearchTransform } from './features/transforms/search/tool-search.transform.js';
import { MCP_TOOL_CATALOG_TRANSFORMS_PROVIDER } from './features/transforms/catalog-transforms.js';
import { McpJobToolsProvider } from './features/tasks/job-tools.provider.js';
import { McpComponentLoader } from './features/components/component.loader.js';
import { McpComponentSummary } from './features/components/component.summary.js';
import { McpProviderMethods } from './features/provider-methods.js';
import { McpToolRegistry } from './features/tools/mcp-tool.registry.js';
import { McpToolCallRunner } from './execution/tool-call.runner.js';
import { McpToolHandlerFactory } from './execution/tool-handler.factory.js';
import { perUserUpstreamIndex, resolveMcpOptions, resolvePaths, type McpResolvedPaths } from './options/mcp-options.resolver.js';
import { McpOutboundAuthMessages } from './options/outbound-auth.messages.js';
import { McpConfigurationError } from './core/errors/mcp-configuration.error.js';
import { McpOAuthBridgeMessages } from './auth/bridge/bridge.messages.js';
import { ConfigurableModuleClass, MCP_MODULE_OPTIONS } from './mcp.module-definition.js';
import { MCP_RESOLVED_OPTIONS } from './core/mcp-resolved-options.token.js';
import type {
  McpModuleAsyncOptions,
  McpModuleExtras,
  McpModuleForRootOptions,
  McpModuleOptions,
  McpResolvedOptions,
} from './options/mcp-module-options.interface.js';
import { McpBaseHandlers } from './core/handlers/base.handlers.js';
import { ToolsHandlers } from './features/tools/tools.handlers.js';
import { McpDispatcher } from './core/mcp.dispatcher.js';
import { McpCapabilities } from './core/mcp-capabilities.js';
import { McpListChanges } from './core/list-changes.js';
import { McpToolVisibility } from './features/tools/mcp-tool.visibility.js';
import { McpClientRequests } from './core/client-requests.js';
import { McpIdempotency } from './execution/idempotency.service.js';
import { McpJobStore } from './jobs/mcp-job.store.js';
import { McpJobSlots } from './jobs/job-slots.js';
import { McpCallPipeline } from './execution/mcp-call.pipeline.js';
import { McpInFlightCalls } from './execution/in-flight-calls.js';
import { McpJobService } from './jobs/mcp-job.service.js';
import { McpTaskWorker } from './features/tasks/task-worker.js';
import { McpTasksService } from './features/tasks/mcp-tasks.service.js';
import { MCP_JOB_QUEUE } from './jobs/job-queue.interface.js';
import { createMcpJobQueue } from './jobs/job-queue.factory.js';
import { MCP_JOB_WORKER } from './jobs/job-worker.interface.js';
import { McpTaskHandlers } from './features/tasks/rev-2025-11-25/rev-2025-11-25.tasks.handlers.js';
import { McpBodyParserErrorFilter } from './transports/http/body-parser-error.filter.js';
import { createMcpControllers } from './transports/http/mcp-http.controller.js';
import { createMcpExplorerController } from './transports/http/explorer/explorer.controller.js';
import { McpHttpSseTransport } from './transports/sse/http-sse.transport.js';
import { McpStreamHub } from './transports/streams/stream-hub.js';
import { MCP_SESSION_STREAMS } from './core/session-streams.interface.js';
import { McpInstanceRouter } from './transports/routing/mcp-instance.router.js';
import { McpStdioTransport } from './transports/stdio/stdio.transport.js';
import { SseEventStore } from './transports/streams/sse-event.store.js';
import { McpSessionService } from './sessions/mcp-session.service.js';
import { McpInstanceLease } from './sessions/mcp-instance-lease.service.js';
import { McpAuthService } from './auth/mcp-auth.service.js';
import { McpAuthGuard } from './transports/http/auth/mcp-auth.guard.js';
import { McpFastifyEarlyChecks } from './transports/http/fastify-early-checks.js';
import { MCP_TOOL_SCOPES } from './core/tool-scopes.port.js';
import { createProtectedResourceController } from './transports/http/auth/protected-resource.controller.js';
import { createOAuthBridgeController } from './transports/http/auth/oauth-bridge.controller.js';
import { createUpstreamAuthController } from './transports/http/upstream-auth.controller.js';
import { MCP_UPSTREAM_USER_AUTH } from './core/upstream-user-auth.port.js';
import { McpOAuthBridgeHost } from './auth/bridge/oauth-bridge.host.js';
import { McpOAuthBridgeFastifyForms } from './transports/http/auth/oauth-bridge.fastify-forms.js';
import { createServerCardController } from './transports/http/server-card.controller.js';
import { McpOriginGuard } from './transports/http/origin.guard.js';
import { McpTenantLimiter } from './execution/tenant-limiter.js';
import { MCP_STORE } from './stores/key-value.store.js';
import { MCP_BUS } from './core/message-bus.interface.js';
import { createMcpBus, createMcpStore } from './stores/store.factory.js';
import { McpStoreLifecycle } from './stores/store.lifecycle.js';
import { McpTenantQuotas } from './stores/tenant-quotas.js';
import { McpHttpTransport } from './transports/http/mcp-http.transport.js';
import { McpGlobalPrefix } from './options/mcp-global-prefix.js';
import { McpFastifyBodyLimitCheck } from './transports/http/fastify-body-limit.check.js';

import { McpResourceRegistry } from './features/resources/mcp-resource.registry.js';
import { McpResourceExplorer } from './features/resources/mcp-resource.explorer.js';
import { McpAppsExplorer } from './features/apps/mcp-apps.explorer.js';
import { McpResourceSubscriptions } from './features/resources/resource-subscriptions.js';
import { McpStoredResourceSubscriptions } from './features/resources/stored-resource-subscriptions.js';
import { McpResourceNotifier } from './features/resources/mcp-resource.notifier.js';
import { ResourcesListHandlers } from './features/resources/resources-list.handlers.js';
import { ResourcesReadHandler } from './features/resources/resources-read.handler.js';
import { McpSkillRegistry } from './features/skills/mcp-skill.registry.js';
import { McpSkillExplorer } from './features/skills/mcp-skill.explorer.js';
import { SkillsHandlers } from './features/skills/skills.handlers.js';
import { ResourcesSubscriptionHandlers } from './features/resources/resources-subscription.handlers.js';
import { McpPromptRegistry } from './features/prompts/mcp-prompt.registry.js';
import { McpPromptExplorer } from './features/prompts/mcp-prompt.explorer.js';
import { PromptsHandlers } from './features/prompts/prompts.handlers.js';
import { McpCompletionRegistry } from './features/completions/mcp-completion.registry.js';
import { McpCompletionExplorer } from './features/completions/mcp-completion.explorer.js';
import { McpCompletionTargets } from './features/completions/completion-targets.js';
import { CompletionCompleteHandler } from './features/completions/completion-complete.handler.js';
import { MCP_ERA_PROVIDERS } from './eras/mcp-eras.providers.js';
import { McpListChangedNotifier } from './eras/mcp-list-changed.notifier.js';
import { McpClientInput } from './core/mcp-client-input.service.js';
import { MCP_TRACING_PROVIDERS } from './observability/tracing/tracing.providers.js';
import { MCP_METRICS_PROVIDERS } from './observability/metrics/metrics.providers.js';
import { McpHealthIndicator } from './observability/health/mcp.health-indicator.js';
import { McpUpstreamsProvider } from './features/upstreams/mcp-upstreams.provider.js';
import { McpUpstreamsHealthIndicator } from './features/upstreams/mcp-upstreams.health-indicator.js';
import { McpServersModule } from './mcp-servers.module.js';
import { McpServerDirectory } from './options/mcp-server.directory.js';
import { McpIdleConnectionsCloser } from './transports/http/idle-connections.closer.js';

/**
 * Serves the `@McpTool()` methods of the app's providers (or `include`'s) as an MCP server. Each `forRoot` /
 * `forRootAsync` import is a server of its own, sharing no route and no Redis key space with the others.
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
    // The RFC 9728 document's scopes_supported, read from the tools through a core port.
    { provide: MCP_TOOL_SCOPES, useFactory: (tools: McpToolRegistry) => () => tools.requiredScopes(), inject: [McpToolRegistry] },
    McpProviderMethods,
    McpToolExplorer,
    McpRouteExplorer,
    McpRouteHandlerFactory,
    McpOpenApiExplorer,
    MCP_COMPONENT_PROVIDERS_PROVIDER,
    McpComponentLoader,
    McpToolHandlerFactory,
    McpToolCallRunner,
    McpTenantLimiter,
    McpAuthService,
    McpOAuthBridgeHost,
    McpOAuthBridgeFastifyForms,
    McpAuthGuard,
    McpFastifyEarlyChecks,
    McpOriginGuard,
    McpBaseHandlers,
    ToolsHandlers,
    McpDispatcher,
    McpCapabilities,
    McpListChanges,
    McpToolVisibility,
    McpToolSearchTransform,
    MCP_TOOL_CATALOG_TRANSFORMS_PROVIDER,
    McpClientRequests,
    McpIdempotency,
    McpJobStore,
    McpJobSlots,
    McpTaskWorker,
    { provide: MCP_JOB_WORKER, useExisting: McpTaskWorker },
    McpTasksService,
    McpJobToolsProvider,
    McpComponentSummary,
    McpJobService,
    McpCallPipeline,
    McpInFlightCalls,
    McpTaskHandlers,
    McpSessionService,
    McpInstanceLease,
    McpTenantQuotas,
    SseEventStore,
    McpStreamHub,
    // Features and eras reach session streams through this port, never the transports' hub itself.
    { provide: MCP_SESSION_STREAMS, useExisting: McpStreamHub },
    McpInstanceRouter,
    // The app's global prefix, for the URLs handed out (poll_url, endpoint event, resource_metadata, card, explorer).
    McpGlobalPrefix,
    McpFastifyBodyLimitCheck,
    McpIdleConnectionsCloser,
    McpHttpTransport,
    McpHttpSseTransport,
    McpStdioTransport,
    { provide: APP_FILTER, useClass: McpBodyParserErrorFilter },
    McpResourceRegistry,
    McpResourceExplorer,
    McpAppsExplorer,
    McpResourceSubscriptions,
    McpStoredResourceSubscriptions,
    McpResourceNotifier,
    ResourcesListHandlers,
    ResourcesReadHandler,
    ResourcesSubscriptionHandlers,
    // Agent Skills (SEP-2640): `sources.skills` folders and `@McpSkillProvider()` classes, read as resources.
    McpSkillRegistry,
    McpSkillExplorer,
    SkillsHandlers,
    McpPromptRegistry,
    McpPromptExplorer,
    PromptsHandlers,
    McpCompletionRegistry,
    McpCompletionExplorer,
    McpCompletionTargets,
    CompletionCompleteHandler,
    // The era router and one engine per era (eras/): 2025-11-25 sessions, batches, initialize; 2026-07-28 discover,
    // MRTR, listen, tasks extension.
    ...MCP_ERA_PROVIDERS,
    // OpenTelemetry spans per request and tool call (observability/tracing/), behind the core port MCP_TRACER.
    ...MCP_TRACING_PROVIDERS,
    // Prometheus metrics (observability/metrics/), behind the core port MCP_METRICS; the terminus health indicator.
    ...MCP_METRICS_PROVIDERS,
    McpHealthIndicator,
    // Upstream MCP servers (option `sources.upstreams`) and their health.
    McpUpstreamsProvider,
    // The browser routes of per-user upstream authorization (transports/http) reach the upstreams through this port.
    { provide: MCP_UPSTREAM_USER_AUTH, useExisting: McpUpstreamsProvider },
    McpUpstreamsHealthIndicator,
  ],
  exports: [
    McpDispatcher,
    McpToolRegistry,
    McpResourceRegistry,
    McpPromptRegistry,
    McpSkillRegistry,
    McpResourceNotifier,
    McpListChangedNotifier,
    McpClientInput,
    McpHealthIndicator,
    McpUpstreamsHealthIndicator,
  ],
})
export class McpModule extends ConfigurableModuleClass {
  static override forRoot(options: McpModuleForRootOptions): DynamicModule {
    return McpModule.withEndpoints(super.forRoot(options), options);
  }

  static override forRootAsync(options: McpModuleAsyncOptions): DynamicModule {
    return McpModule.withEndpoints(super.forRootAsync(options), options);
  }

  /** Adds what depends on the paths (known now, even for async options): controllers and resolved options. */
  private static withEndpoints(definition: DynamicModule, extras: McpModuleExtras): DynamicModule {
    const paths = resolvePaths(extras);
    const bridgeRoutes = bridgeRouted(extras, paths);
    const upstreamAuthRoutes = upstreamAuthRouted(extras, paths);
    return {
      ...definition,
      imports: [...(definition.imports ?? []), McpServersModule],
      controllers: [
        ...(definition.controllers ?? []),
        ...createMcpControllers(paths),
        ...(protectedResourceRouted(extras) ? [createProtectedResourceController(paths.path, paths.wellKnownRoot)] : []),
        ...(bridgeRoutes ? [createOAuthBridgeController()] : []),
        ...(upstreamAuthRoutes ? [createUpstreamAuthController()] : []),
        ...(serverCardRouted(extras) ? [createServerCardController(paths)] : []),
        ...(paths.explorerPath === false ? [] : [createMcpExplorerController(paths.explorerPath, paths.path)]),
      ],
      providers: [
        ...(definition.providers ?? []),
        {
          provide: MCP_RESOLVED_OPTIONS,
          // Every provider needs the options: the app's other servers are checked before anything connects or maps a route.
          useFactory: (options: McpModuleOptions, servers: McpServerDirectory) => {
            const resolved = resolveMcpOptions(options, paths);
            if (resolved.auth.bridge && !bridgeRoutes)
              throw new McpConfigurationError(McpOAuthBridgeMessages.routesNotMapped(bridgeUnmappedWhy(paths)));
            const perUser = perUserUpstreamIndex(resolved);
            if (perUser >= 0 && !upstreamAuthRoutes)
              throw new McpConfigurationError(McpOutboundAuthMessages.userAuthorizationRoutes(`sources.upstreams[${perUser}]`));
            servers.add(resolved, upstreamAuthRoutes);
            return resolved;
          },
          inject: [MCP_MODULE_OPTIONS, McpServerDirectory],
        },
        // Connections wait until every server of the app is known not to clash with this one.
        { provide: MCP_STORE, useFactory: afterServerChecks(createMcpStore), inject: [McpServerDirectory, MCP_RESOLVED_OPTIONS] },
        { provide: MCP_BUS, useFactory: afterServerChecks(createMcpBus), inject: [McpServerDirectory, MCP_RESOLVED_OPTIONS] },
        {
          provide: MCP_JOB_QUEUE,
          useFactory: afterServerChecks(createMcpJobQueue),
          inject: [McpServerDirectory, MCP_RESOLVED_OPTIONS, McpTaskWorker, McpJobStore],
        },
        McpStoreLifecycle,
      ],
      exports: [...(definition.exports ?? []), MCP_RESOLVED_OPTIONS, MCP_STORE, MCP_BUS],
    };
  }
}

/**
 * Whether to map the bridge's routes (`/oauth/*`, the RFC 8414 document), which sit at the host's root: on the
 * server that keeps `wellKnownRoot`, when `forRoot`'s options hold `auth.bridge` or `forRootAsync` asks with
 * `authBridgeRoutes` (its options come after routes are mapped). No other app gets routes it did not ask for.
 */
function bridgeRouted(extras: McpModuleExtras, paths: McpResolvedPaths): boolean {
  if (!paths.wellKnownRoot) return false;
  const auth = (extras as { auth?: { bridge?: unknown } }).auth;
  return paths.authBridgeRoutes || Boolean(auth?.bridge);
}

/**
 * Whether the RFC 9728 documents are mapped: with forRoot only when auth has one to publish (`resourceMetadata`,
 * `oauth` or `bridge`; without, the routes only answered 404); with forRootAsync, whose auth is not known yet, always.
 */
function protectedResourceRouted(extras: McpModuleExtras): boolean {
  if (isAsync(extras)) return true;
  const auth = (extras as { auth?: { resourceMetadata?: unknown; oauth?: unknown; bridge?: unknown } }).auth;
  return Boolean(auth?.resourceMetadata || auth?.oauth || auth?.bridge);
}

/** Whether the per-user upstream authorization routes are mapped: an upstream of forRoot uses it, or forRootAsync asks (`upstreamAuthRoutes`). */
function upstreamAuthRouted(extras: McpModuleExtras, paths: McpResolvedPaths): boolean {
  if (isAsync(extras)) return paths.upstreamAuthRoutes;
  const upstreams = (extras as { sources?: { upstreams?: { auth?: object }[] } }).sources?.upstreams;
  return Array.isArray(upstreams) && upstreams.some((upstream) => upstream?.auth !== undefined && 'authorizationCode' in upstream.auth);
}

/** Whether the Server Card routes are mapped: unless forRoot turns the card off (forRootAsync: always, 404 when off). */
function serverCardRouted(extras: McpModuleExtras): boolean {
  return isAsync(extras) || (extras as { serverCard?: { enabled?: boolean } }).serverCard?.enabled !== false;
}

/** forRootAsync's options: the module options arrive from a factory, after the routes are mapped. */
function isAsync(extras: McpModuleExtras): boolean {
  return ['useFactory', 'useClass', 'useExisting'].some((key) => key in extras);
}

/** Why an `auth.bridge` has no routes, and the fix. */
function bridgeUnmappedWhy(paths: McpResolvedPaths): string {
  return paths.wellKnownRoot
    ? 'with forRootAsync, pass authBridgeRoutes: true beside useFactory'
    : 'this server has wellKnownRoot: false; configure the bridge on the server that keeps the host-level documents';
}

/** `factory`, called once the app's servers are checked (only with `redis`: memory stores open no connection). */
function afterServerChecks<A extends [McpResolvedOptions, ...unknown[]], R>(
  factory: (...args: A) => R | Promise<R>,
): (servers: McpServerDirectory, ...args: A) => Promise<R> {
  return async (servers, ...args) => {
    if (args[0].redis) await servers.allAdded();
    return factory(...args);
  };
}
