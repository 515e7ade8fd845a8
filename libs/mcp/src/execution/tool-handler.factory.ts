import { HttpException, Injectable, Logger } from '@nestjs/common';
import { ContextIdFactory, ExternalContextCreator, ModuleRef } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { MCP_CONTEXT_TYPE, MCP_PARAMS_METADATA } from '../mcp.constants.js';
import { McpMessages } from '../core/errors/mcp.messages.js';
import type { McpToolHandler } from '../features/tools/mcp-tool-definition.interface.js';
import type { McpToolContext } from '../core/mcp-tool-context.interface.js';
import { McpToolError } from '../core/errors/mcp-tool.error.js';
import { McpParamsFactory } from './mcp-params.factory.js';
import { toolCallback } from './tool-filters.js';

const CONTEXT_OPTIONS = { guards: true, interceptors: true, filters: true };
const GUARDS_ONLY = { guards: true, interceptors: false, filters: false };
const REFUSED_STATUSES = new Set([401, 403]);
const REFUSED_CODES = new Set(['FORBIDDEN', 'UNAUTHORIZED']);

/** A guard refuses by returning false (Nest throws 403) or by throwing a 401/403 or an MCP FORBIDDEN/UNAUTHORIZED. */
function isRefusal(error: unknown): boolean {
  if (error instanceof HttpException) return REFUSED_STATUSES.has(error.getStatus());
  return error instanceof McpToolError && REFUSED_CODES.has(error.code);
}

/**
 * Builds the function that calls a tool method through Nest's ExternalContextCreator, so `@UseGuards`,
 * `@UseInterceptors`, pipes and exception filters on tools work as on controllers.
 */
@Injectable()
export class McpToolHandlerFactory {
  private readonly logger = new Logger('McpModule');
  private readonly paramsFactory = new McpParamsFactory();

  constructor(
    private readonly externalContextCreator: ExternalContextCreator,
    private readonly moduleRef: ModuleRef,
  ) {}

  create(wrapper: InstanceWrapper, methodName: string, site: string): McpToolHandler {
    if (wrapper.isDependencyTreeStatic() && !wrapper.isTransient) {
      const instance = wrapper.instance as Record<string, (...args: unknown[]) => unknown>;
      const call = this.wrap(instance, methodName);
      return (args, context) => call(args, context);
    }
    // Request-scoped (or transient) providers get a fresh instance per call, as they would per HTTP request.
    this.logger.debug(McpMessages.requestScopedTool(site));
    return async (args, context) => {
      const contextId = ContextIdFactory.create();
      this.moduleRef.registerRequestByContextId({ mcp: context }, contextId);
      const instance = await this.moduleRef.resolve<Record<string, (...a: unknown[]) => unknown>>(wrapper.token, contextId, {
        strict: false,
      });
      return this.wrap(instance, methodName, contextId)(args, context);
    };
  }

  /**
   * Runs the method's and class's guards as `tools/list` sees the tool (arguments `{}`), for `hideGuardedTools`:
   * false when they refuse. A guard that fails otherwise (it needs arguments) leaves the tool visible, and the call
   * decides. Undefined for request-scoped providers: their guards would need an instance per listing.
   */
  guardsAdmit(wrapper: InstanceWrapper, methodName: string): ((context: McpToolContext) => Promise<boolean>) | undefined {
    if (!wrapper.isDependencyTreeStatic() || wrapper.isTransient) return undefined;
    const instance = wrapper.instance as Record<string, (...args: unknown[]) => unknown>;
    const method = instance[methodName];
    const probe = function (this: unknown) {
      return true;
    };
    for (const key of Reflect.getOwnMetadataKeys(method)) Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, method), probe);
    Object.defineProperty(probe, 'name', { value: method.name });
    const guarded = this.externalContextCreator.create(
      instance,
      probe,
      methodName,
      undefined,
      undefined,
      undefined,
      undefined,
      GUARDS_ONLY,
      MCP_CONTEXT_TYPE,
    );
    return async (context) => {
      try {
        await guarded({}, context);
        return true;
      } catch (error) {
        return !isRefusal(error);
      }
    };
  }

  private wrap(
    instance: Record<string, (...args: unknown[]) => unknown>,
    methodName: string,
    contextId?: ReturnType<typeof ContextIdFactory.create>,
  ) {
    return this.externalContextCreator.create(
      instance,
      toolCallback(instance[methodName], instance.constructor),
      methodName,
      MCP_PARAMS_METADATA,
      this.paramsFactory,
      contextId,
      undefined,
      CONTEXT_OPTIONS,
      MCP_CONTEXT_TYPE,
    );
  }
}
