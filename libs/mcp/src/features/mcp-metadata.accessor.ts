import { Injectable } from '@nestjs/common';
import {
  MCP_COMPLETION_METADATA,
  MCP_PARAMS_METADATA,
  MCP_PROMPT_METADATA,
  MCP_RESOURCE_METADATA,
  MCP_RESOURCE_TEMPLATE_METADATA,
  MCP_ROUTE_EXCLUDE_METADATA,
  MCP_ROUTE_METADATA,
  MCP_TOOL_METADATA,
  SWAGGER_API_OPERATION,
} from '../mcp.constants.js';
import type { McpRouteOptions } from './routes/mcp-route-options.interface.js';
import { MCP_UI_RESOURCE_METADATA } from './apps/mcp-apps.constants.js';
import type { McpUiResourceOptions } from './apps/mcp-ui-options.interface.js';
import type { McpCompletionOptions } from './completions/mcp-completion-options.interface.js';
import type { McpPromptOptions } from './prompts/mcp-prompt-options.interface.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from './resources/mcp-resource-options.interface.js';
import { MCP_TASK_SUPPORT_METADATA, type McpTaskSupportOptions } from '../tasks/mcp-task-support.decorator.js';
import { McpParamType } from '../execution/mcp-params.factory.js';
import { findParamIndex } from './tools/mcp-param.decorators.js';
import type { McpToolOptions } from './tools/mcp-tool-options.interface.js';

/**
 * Reads what the method decorators recorded; the only place that knows their keys (explorers, the decorated
 * methods provider and the task-support registry all read through it). Each getter takes the method function
 * (`ProviderMethod.method`) and answers undefined for anything else.
 */
@Injectable()
export class McpMetadataAccessor {
  getToolOptions(method: unknown): McpToolOptions | undefined {
    return read(MCP_TOOL_METADATA, method);
  }

  getResourceOptions(method: unknown): McpResourceOptions | undefined {
    return read(MCP_RESOURCE_METADATA, method);
  }

  getResourceTemplateOptions(method: unknown): McpResourceTemplateOptions | undefined {
    return read(MCP_RESOURCE_TEMPLATE_METADATA, method);
  }

  getPromptOptions(method: unknown): McpPromptOptions | undefined {
    return read(MCP_PROMPT_METADATA, method);
  }

  /** Every `@McpCompletion()` on the method (one per completed argument). */
  getCompletionOptions(method: unknown): readonly McpCompletionOptions[] | undefined {
    return read(MCP_COMPLETION_METADATA, method);
  }

  getUiResourceOptions(method: unknown): McpUiResourceOptions | undefined {
    return read(MCP_UI_RESOURCE_METADATA, method);
  }

  getTaskSupportOptions(method: unknown): McpTaskSupportOptions | undefined {
    return read(MCP_TASK_SUPPORT_METADATA, method);
  }

  /** `@McpRoute()` options of a controller handler or of a controller class. */
  getRouteOptions(target: unknown): McpRouteOptions | undefined {
    return read(MCP_ROUTE_METADATA, target);
  }

  /** Whether `@McpExcludeRoute()` keeps a handler out of the tools. */
  isRouteExcluded(method: unknown): boolean {
    return read<boolean>(MCP_ROUTE_EXCLUDE_METADATA, method) === true;
  }

  /** `@ApiOperation()` of a handler (`@nestjs/swagger`, read by key: the library does not depend on it). */
  getApiOperation(method: unknown): { summary?: unknown; description?: unknown } | undefined {
    return read(SWAGGER_API_OPERATION, method);
  }

  /** The `@McpArgs()`, `@McpContext()`… parameters of a method, by their Nest param key. */
  getParams(prototype: object, methodName: string): Record<string, { index: number }> | undefined {
    return Reflect.getMetadata(MCP_PARAMS_METADATA, prototype.constructor, methodName);
  }

  /**
   * Where a method takes its arguments: the `@McpArgs()` parameter (`explicit`), else an undecorated first
   * parameter whose type is a class (the arguments are passed first either way); `dto` is that parameter's class
   * when it is one a DTO can be (not Object, String, …).
   */
  getArgsParam(prototype: object, methodName: string): { explicit: boolean; dto?: McpDtoClass } {
    const paramTypes = this.getParamTypes(prototype, methodName);
    const params = this.getParams(prototype, methodName);
    const index = findParamIndex(params, McpParamType.ARGS);
    const type = paramTypes[index ?? 0];
    const dto = typeof type === 'function' && !UNVALIDATABLE_TYPES.has(type) ? (type as McpDtoClass) : undefined;
    if (index !== undefined) return { explicit: true, dto };
    // A decorated first parameter (`@McpContext()`) is not the arguments.
    const firstDecorated = params !== undefined && Object.values(params).some((param) => param.index === 0);
    return { explicit: false, dto: firstDecorated ? undefined : dto };
  }

  /** The method's parameter types as TypeScript emitted them (`design:paramtypes`). */
  getParamTypes(prototype: object, methodName: string): unknown[] {
    return (Reflect.getMetadata('design:paramtypes', prototype, methodName) as unknown[] | undefined) ?? [];
  }
}

/** A class the arguments can be validated against (a DTO). */
export type McpDtoClass = new (...args: never[]) => object;

/** Types that say nothing about the arguments' shape (an interface or a `Record` compiles to Object). */
const UNVALIDATABLE_TYPES = new Set<unknown>([Object, String, Number, Boolean, Array, Function, Promise, Symbol, undefined]);

function read<T>(key: string, method: unknown): T | undefined {
  return typeof method === 'function' ? (Reflect.getMetadata(key, method) as T | undefined) : undefined;
}
