import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { perUserUpstreamIndex, resolveMcpOptions, resolvePaths, type McpResolvedPaths } from './options/mcp-options.resolver.js';
import { isMcpAuthorizationCodeAuth } from './options/authorization-code-auth.js';
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
} from './options/mcp-module-options.interface.js';
import { MCP_STORE } from './stores/key-value.store.js';
import { MCP_BUS } from './core/message-bus.interface.js';
import { McpDispatcher } from './core/mcp.dispatcher.js';
import { McpClientInput } from './core/mcp-client-input.service.js';
import { McpListChangedNotifier } from './core/list-changed.notifier.js';
import { McpToolRegistry } from './features/tools/mcp-tool.registry.js';
import { McpResourceRegistry } from './features/resources/mcp-resource.registry.js';
import { McpResourceNotifier } from './features/resources/mcp-resource.notifier.js';
import { McpPromptRegistry } from './features/prompts/mcp-prompt.registry.js';
import { McpSkillRegistry } from './features/skills/mcp-skill.registry.js';
import { McpHealthIndicator } from './observability/health/mcp.health-indicator.js';
import { McpUpstreamsHealthIndicator } from './features/upstreams/mcp-upstreams.health-indicator.js';
import { McpServersModule } from './mcp-servers.module.js';
import { McpServerDirectory } from './options/mcp-server.directory.js';
import { MCP_CORE_PROVIDERS } from './core/core.providers.js';
import { MCP_OPTIONS_PROVIDERS } from './options/options.providers.js';
import { MCP_STORE_PROVIDERS } from './stores/stores.providers.js';
import { MCP_SESSION_PROVIDERS } from './sessions/sessions.providers.js';
import { MCP_AUTH_PROVIDERS } from './auth/auth.providers.js';
import { MCP_JOB_PROVIDERS } from './jobs/jobs.providers.js';
import { MCP_OBSERVABILITY_PROVIDERS } from './observability/observability.providers.js';
import { MCP_EXECUTION_PROVIDERS } from './execution/execution.providers.js';
import { MCP_FEATURE_PROVIDERS } from './features/features.providers.js';
import { MCP_ERA_PROVIDERS } from './eras/mcp-eras.providers.js';
import { MCP_TRANSPORT_PROVIDERS } from './transports/transports.providers.js';
import { createMcpControllers } from './transports/http/mcp-http.controller.js';
import { createMcpExplorerController } from './transports/http/explorer/explorer.controller.js';
import { createProtectedResourceController } from './transports/http/auth/protected-resource.controller.js';
import { createOAuthBridgeController } from './transports/http/auth/oauth-bridge.controller.js';
import { createUpstreamAuthController } from './transports/http/upstream-auth.controller.js';
import { createServerCardController } from './transports/http/server-card.controller.js';

/**
 * The module's providers, room by room from the bottom up (the order of `ROOMS` in `.dependency-cruiser.cjs`). Nest
 * runs each lifecycle hook level by level of the injection graph, a provider after all it injects; this order only
 * decides which hooks of one level start first. The boot order and why it matters: docs/architecture.md.
 */
const MCP_PROVIDERS: Provider[] = [
  ...MCP_CORE_PROVIDERS,
  ...MCP_OPTIONS_PROVIDERS,
  ...MCP_STORE_PROVIDERS,
  ...MCP_SESSION_PROVIDERS,
  ...MCP_AUTH_PROVIDERS,
  ...MCP_JOB_PROVIDERS,
  ...MCP_OBSERVABILITY_PROVIDERS,
  ...MCP_EXECUTION_PROVIDERS,
  ...MCP_FEATURE_PROVIDERS,
  ...MCP_ERA_PROVIDERS,
  ...MCP_TRANSPORT_PROVIDERS,
];

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
  providers: MCP_PROVIDERS,
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
  return Array.isArray(upstreams) && upstreams.some((upstream) => isMcpAuthorizationCodeAuth(upstream?.auth));
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
