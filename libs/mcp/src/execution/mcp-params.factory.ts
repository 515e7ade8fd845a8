import type { ParamsFactory } from '@nestjs/core/helpers/external-context-creator.js';
import type { McpToolContext } from '../core/mcp-tool-context.interface.js';

/** What a tool parameter receives; numeric because Nest's ExternalContextCreator keys params by number. */
export enum McpParamType {
  ARGS = 0,
  CONTEXT = 1,
  PRINCIPAL = 2,
  TENANT = 3,
}

/**
 * Maps our parameter decorators to values. Every tool is called with the argument list
 * `[validatedArgs, toolContext]`, which is also what guards and interceptors see.
 */
export class McpParamsFactory implements ParamsFactory {
  exchangeKeyForValue(type: number, _data: unknown, args: unknown[]): unknown {
    const context = args[1] as McpToolContext | undefined;
    switch (type as McpParamType) {
      case McpParamType.ARGS:
        return args[0];
      case McpParamType.CONTEXT:
        return context;
      case McpParamType.PRINCIPAL:
        return context?.principal;
      case McpParamType.TENANT:
        return context?.tenant;
      default:
        return undefined;
    }
  }
}
