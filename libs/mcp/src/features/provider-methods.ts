import { Inject, Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { McpArgs } from './tools/mcp-param.decorators.js';
import { McpMetadataAccessor, type McpMetadataKey } from './mcp-metadata.accessor.js';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import { McpServersMessages } from '../options/mcp-servers.messages.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { McpToolHandlerFactory } from '../execution/tool-handler.factory.js';
import type { McpToolContext } from '../core/mcp-tool-context.interface.js';
import type { McpFeatureHandler } from './feature-handler.js';
import type { McpHandlerContext } from './mcp-handler-context.interface.js';

/** One method of one provider, as the feature explorers scan them. */
export interface ProviderMethod {
  readonly wrapper: InstanceWrapper;
  readonly prototype: object;
  readonly methodName: string;
  /** The function the decorators recorded their metadata on. */
  readonly method: unknown;
  /** `ClassName#method`, for messages. */
  readonly site: string;
}

/**
 * Every method of every provider this server serves (the app's, or the `include`d modules'), walked once at boot for all
 * the explorers: aliases skipped, static providers through their instance, scoped ones through their class.
 */
@Injectable()
export class McpProviderMethods {
  private methods?: readonly ProviderMethod[];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    /** The one reader of every MCP decorator's metadata, for the explorers that scan these methods. */
    readonly accessor: McpMetadataAccessor,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: Pick<McpResolvedOptions, 'name' | 'path' | 'include'>,
    private readonly handlers: McpToolHandlerFactory,
  ) {}

  /** The list, built on first use (explorers run in onModuleInit, when every provider exists). */
  all(): readonly ProviderMethod[] {
    this.methods ??= this.scan();
    return this.methods;
  }

  /** The methods carrying the decorator of `key` (read through the one accessor), each with its options. */
  *decorated<T>(key: McpMetadataKey<T>): Generator<[ProviderMethod, T]> {
    for (const method of this.all()) {
      const options = this.accessor.get(key, method.method);
      if (options) yield [method, options];
    }
  }

  /**
   * Once any parameter carries an MCP decorator Nest passes only decorated ones, so an undecorated first parameter is
   * recorded as the payload. Call it before creating the handler (ExternalContextCreator reads the metadata then).
   */
  bindPayload({ prototype, methodName }: Pick<ProviderMethod, 'prototype' | 'methodName'>): void {
    const params = this.accessor.getParams(prototype, methodName);
    if (!params || Object.values(params).some((param) => param.index === 0)) return;
    McpArgs()(prototype, methodName, 0);
  }

  /**
   * The handler of a resource, prompt or completion method, through the tools' factory (guards, interceptors, filters,
   * request scope), which only hands the context to the params factory and guards: any with `principal` and `tenant` fits.
   */
  handlerOf<C extends McpHandlerContext>(method: ProviderMethod): McpFeatureHandler<C> {
    this.bindPayload(method);
    const handler = this.handlers.create(method.wrapper, method.methodName, method.site);
    return (payload, context) => handler(payload, context as unknown as McpToolContext);
  }

  private scan(): ProviderMethod[] {
    const methods: ProviderMethod[] = [];
    for (const wrapper of this.providers()) {
      if (wrapper.isAlias) continue;
      const prototype = prototypeOf(wrapper);
      if (!prototype) continue;
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        const site = `${prototype.constructor?.name ?? String(wrapper.name)}#${methodName}`;
        methods.push({ wrapper, prototype, methodName, method: (prototype as Record<string, unknown>)[methodName], site });
      }
    }
    return methods;
  }

  /** The providers this server serves, with Nest's `include` semantics: those of the listed modules, each of which must be in the app. */
  providers(): InstanceWrapper[] {
    const include = this.options.include;
    if (include === undefined) return this.discovery.getProviders();
    const providers = this.discovery.getProviders({ include: [...include] });
    // Every module of the app provides at least itself and its ModuleRef: a module without providers is not in it.
    const present = new Set(providers.map((wrapper) => wrapper.host?.metatype));
    const missing = include.find((module) => !present.has(module as never));
    if (missing !== undefined)
      throw new McpConfigurationError(McpServersMessages.includedModuleMissing(this.options, missing.name || String(missing)));
    return providers;
  }
}

function prototypeOf(wrapper: InstanceWrapper): object | undefined {
  const isStatic = wrapper.isDependencyTreeStatic() && !wrapper.isTransient;
  const source = isStatic ? wrapper.instance : (wrapper.metatype as { prototype?: unknown } | null)?.prototype;
  if (!source || typeof source !== 'object') return undefined;
  return isStatic ? (Object.getPrototypeOf(source) ?? undefined) : source;
}
