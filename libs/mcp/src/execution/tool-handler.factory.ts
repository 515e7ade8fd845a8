import { HttpException, Injectable, Logger, type Type } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants.js';
import { ApplicationConfig, ContextIdFactory, ExternalContextCreator, ModuleRef, Reflector } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { MCP_CONTEXT_TYPE, MCP_PARAMS_METADATA } from '../core/mcp.constants.js';
import { McpMessages } from '../core/errors/mcp.messages.js';
import type { McpToolGuards, McpToolHandler } from './mcp-callable-tool.interface.js';
import type { McpToolContext } from '../core/mcp-tool-context.interface.js';
import { McpToolError } from '../core/errors/mcp-tool.error.js';
import { McpParamsFactory } from './mcp-params.factory.js';
import { GUARDS_ADMITTED, toolCallback, toolGuardsCallback } from './tool-filters.js';
import { withToolHttpSide } from './tool-http-exchange.js';

type Instance = Record<string, (...args: unknown[]) => unknown>;
type ContextId = ReturnType<typeof ContextIdFactory.create>;

const CONTEXT_OPTIONS = { guards: true, interceptors: true, filters: true };
/** A tool's guards run on their own, before limits, validation and idempotency; its filters see their refusals. */
const TOOL_GUARDS = { guards: true, interceptors: false, filters: true };
/** A tool's interceptors, pipes and method run after idempotency; its guards already ran. */
const TOOL_METHOD = { guards: false, interceptors: true, filters: true };
const GUARDS_ONLY = { guards: true, interceptors: false, filters: false };
const REFUSED_STATUSES = new Set([401, 403]);
const REFUSED_CODES = new Set(['FORBIDDEN', 'UNAUTHORIZED']);

/** A guard refuses by returning false (Nest throws 403) or by throwing a 401/403 or an MCP FORBIDDEN/UNAUTHORIZED. */
function isRefusal(error: unknown): boolean {
  if (error instanceof HttpException) return REFUSED_STATUSES.has(error.getStatus());
  return error instanceof McpToolError && REFUSED_CODES.has(error.code);
}

/**
 * Calls provider methods through Nest's ExternalContextCreator, so guards, interceptors, pipes and filters work as on
 * controllers: in one piece ({@link create}), or in two for tools, whose guards the pipeline runs first ({@link createTool}).
 */
@Injectable()
export class McpToolHandlerFactory {
  private readonly logger = new Logger('McpModule');
  private readonly paramsFactory = new McpParamsFactory();

  /** Nest's creator, its guards' and interceptors' contexts given an HTTP side (`switchToHttp()`: the MCP request). */
  private readonly creator: ExternalContextCreator;

  /** A request-scoped tool's instance of one call, shared by its guards and its method (the same DI context). */
  private readonly scoped = new WeakMap<McpToolContext, Promise<{ instance: Instance; contextId: ContextId }>>();

  constructor(
    externalContextCreator: ExternalContextCreator,
    private readonly moduleRef: ModuleRef,
    private readonly reflector: Reflector,
    private readonly config: ApplicationConfig,
  ) {
    this.creator = withToolHttpSide(externalContextCreator);
  }

  /** The method behind its guards (unless `options` say otherwise), interceptors, pipes and filters. */
  create(wrapper: InstanceWrapper, methodName: string, site: string, options = CONTEXT_OPTIONS): McpToolHandler {
    return this.handlerOf(wrapper, site, (instance, contextId) => this.wrap(instance, methodName, options, contextId));
  }

  /**
   * A tool's two stages: `guards` with the raw arguments (Nest runs guards before pipes), `handler` (interceptors, pipes,
   * method) with the validated ones; both through the tool's exception filters, so they still see a guard's refusal.
   */
  createTool(wrapper: InstanceWrapper, methodName: string, site: string): { handler: McpToolHandler; guards: McpToolGuards } {
    const handler = this.create(wrapper, methodName, site, TOOL_METHOD);
    const guarded = this.handlerOf(wrapper, site, (instance, contextId) => this.wrap(instance, methodName, TOOL_GUARDS, contextId, true));
    let none: boolean | undefined;
    const guards = async (args: unknown, context: McpToolContext) => {
      const outcome = await guarded(args, context);
      return outcome === GUARDS_ADMITTED ? undefined : { answered: outcome };
    };
    // Decided on the first call, as the guards' context is: global guards (`useGlobalGuards`, APP_GUARD) are known then.
    return { handler, guards: Object.assign(guards, { none: () => (none ??= !this.hasGuards(wrapper, methodName)) }) };
  }

  /** Whether any guard applies to the method: on its class, on the method, or global (Nest's own sources of guards). */
  private hasGuards(wrapper: InstanceWrapper, methodName: string): boolean {
    const type = wrapper.metatype as Type<unknown> | undefined;
    const method = type?.prototype?.[methodName] as ((...args: unknown[]) => unknown) | undefined;
    const declared = (target: Type<unknown> | ((...args: unknown[]) => unknown) | undefined) =>
      target ? ((this.reflector.get(GUARDS_METADATA, target) as unknown[] | undefined)?.length ?? 0) : 0;
    return (
      declared(type) > 0 ||
      declared(method) > 0 ||
      this.config.getGlobalGuards().length > 0 ||
      this.config.getGlobalRequestGuards().length > 0
    );
  }

  /**
   * Calls `build`'s function on the provider's instance: made once for a static provider; for a request-scoped (or
   * transient) one, per call on a fresh instance, as it would be per HTTP request.
   */
  private handlerOf(
    wrapper: InstanceWrapper,
    site: string,
    build: (instance: Instance, contextId?: ContextId) => (...args: unknown[]) => Promise<unknown>,
  ): McpToolHandler {
    if (wrapper.isDependencyTreeStatic() && !wrapper.isTransient) {
      // Built on the first call: Nest's execution context of a method (guards, interceptors, pipes, filters) holds
      // a few KiB, which a catalog of thousands of tools, most of them never called, should not pay for at boot.
      let call: ((...args: unknown[]) => Promise<unknown>) | undefined;
      return (args, context) => (call ??= build(wrapper.instance as Instance))(args, context);
    }
    this.logger.debug(McpMessages.requestScopedTool(site));
    return async (args, context) => {
      const { instance, contextId } = await this.instanceOf(wrapper, context);
      return build(instance, contextId)(args, context);
    };
  }

  /** The call's instance of a request-scoped provider: resolved once per call context, for its guards and its method. */
  private instanceOf(wrapper: InstanceWrapper, context: McpToolContext): Promise<{ instance: Instance; contextId: ContextId }> {
    let resolved = this.scoped.get(context);
    if (!resolved) {
      const contextId = ContextIdFactory.create();
      this.moduleRef.registerRequestByContextId({ mcp: context }, contextId);
      resolved = this.moduleRef
        .resolve<Instance>(wrapper.token, contextId, { strict: false })
        .then((instance) => ({ instance, contextId }));
      this.scoped.set(context, resolved);
    }
    return resolved;
  }

  /**
   * Runs the tool's guards as `tools/list` sees it (`tools.hideGuarded`): false when they refuse; a guard that fails
   * otherwise leaves the tool visible. Undefined for request-scoped providers (an instance per listing).
   */
  guardsAdmit(
    wrapper: InstanceWrapper,
    methodName: string,
  ): ((context: McpToolContext, args: Record<string, unknown>) => Promise<boolean>) | undefined {
    if (!wrapper.isDependencyTreeStatic() || wrapper.isTransient) return undefined;
    const instance = wrapper.instance as Instance;
    // Built on the first listing that reaches the tool (a page only probes its own tools).
    let guarded: ((...args: unknown[]) => Promise<unknown>) | undefined;
    return async (context, args) => {
      guarded ??= this.wrap(instance, methodName, GUARDS_ONLY, undefined, true);
      try {
        await guarded(args, context);
        return true;
      } catch (error) {
        return !isRefusal(error);
      }
    };
  }

  /**
   * The method on `instance` through ExternalContextCreator; `guardsOnly`: the guards' stage, which sees the raw
   * arguments (no parameter decorators or pipes run).
   */
  private wrap(instance: Instance, methodName: string, options: typeof CONTEXT_OPTIONS, contextId?: ContextId, guardsOnly = false) {
    const method = instance[methodName];
    return this.creator.create(
      instance,
      guardsOnly ? toolGuardsCallback(method, instance.constructor) : toolCallback(method, instance.constructor),
      methodName,
      guardsOnly ? undefined : MCP_PARAMS_METADATA,
      guardsOnly ? undefined : this.paramsFactory,
      contextId,
      undefined,
      options,
      MCP_CONTEXT_TYPE,
    );
  }
}
