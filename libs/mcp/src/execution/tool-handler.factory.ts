import { Injectable, Logger } from '@nestjs/common';
import { ContextIdFactory, ExternalContextCreator, ModuleRef } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { MCP_CONTEXT_TYPE, MCP_PARAMS_METADATA } from '../mcp.constants.js';
import { McpMessages } from '../core/errors/mcp.messages.js';
import type { McpToolHandler } from '../features/tools/mcp-tool-definition.interface.js';
import { McpParamsFactory } from './mcp-params.factory.js';
import { toolCallback } from './tool-filters.js';

const CONTEXT_OPTIONS = { guards: true, interceptors: true, filters: true };

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
