import type { DiscoveryService } from '@nestjs/core';
import { McpConfigurationError } from './errors/mcp-configuration.error.js';
import { McpMessages } from './errors/mcp.messages.js';
import { MCP_METHOD_HANDLER_METADATA } from './method-handler.decorator.js';
import type { McpMethodHandler, McpMethodHandlerGroup } from './method-handler.interface.js';
import type { McpClassRef } from './class-ref.js';

/** A contributed handler and the provider it came from (named in boot errors). */
export interface McpContributedHandler {
  readonly handler: McpMethodHandler;
  readonly site: string;
}

/**
 * Every handler of the providers marked `@McpMethodHandlerProvider()` (a handler, or a group of them; collect step, at `onModuleInit`). A request-scoped one is
 * refused: the dispatcher holds handlers for the application's lifetime. With `owner` (the dispatcher), the handlers
 * of the other instances of its module are left out: each MCP server of an app (an `McpModule` import) has its own.
 */
export function collectMethodHandlers(discovery: DiscoveryService, owner?: object): McpContributedHandler[] {
  const found: McpContributedHandler[] = [];
  const providers = discovery.getProviders();
  const host = owner === undefined ? undefined : providers.find((wrapper) => wrapper.instance === owner)?.host;
  for (const wrapper of providers) {
    if (wrapper.isAlias) continue; // useExisting: the same instance listed twice
    if (host !== undefined && wrapper.host !== host && wrapper.host?.metatype === host.metatype) continue;
    const type = typeOf(wrapper.instance) ?? wrapper.metatype;
    if (typeof type !== 'function' || !Reflect.getMetadata(MCP_METHOD_HANDLER_METADATA, type)) continue;
    const site = type.name || String(wrapper.name);
    if (!wrapper.isDependencyTreeStatic() || !wrapper.instance)
      throw new McpConfigurationError(McpMessages.requestScopedMethodHandler(site));
    const instance = wrapper.instance as McpMethodHandler | McpMethodHandlerGroup;
    for (const handler of 'handlers' in instance ? instance.handlers : [instance]) found.push({ handler, site });
  }
  return found;
}

/** The method table (at `onApplicationBootstrap`): served handlers; two for one method are a boot error. */
export function servedMethods(contributed: readonly McpContributedHandler[]): Map<string, McpMethodHandler> {
  const table = new Map<string, McpMethodHandler>();
  const sites = new Map<string, string>();
  for (const { handler, site } of contributed) {
    if (handler.isServed && !handler.isServed()) continue;
    const first = sites.get(handler.method);
    if (first !== undefined) throw new McpConfigurationError(McpMessages.duplicateMethodHandler(handler.method, first, site));
    table.set(handler.method, handler);
    sites.set(handler.method, site);
  }
  return table;
}

function typeOf(instance: unknown): McpClassRef | undefined {
  if (typeof instance !== 'object' || instance === null) return undefined;
  const prototype = Object.getPrototypeOf(instance) as { constructor?: unknown } | null;
  return typeof prototype?.constructor === 'function' ? (prototype.constructor as McpClassRef) : undefined;
}
