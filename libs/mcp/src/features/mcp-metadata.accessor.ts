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
} from '../core/mcp.constants.js';
import type { McpRouteOptions } from './routes/mcp-route-options.interface.js';
import { MCP_UI_RESOURCE_METADATA } from './apps/mcp-apps.constants.js';
import type { McpUiResourceOptions } from './apps/mcp-ui-options.interface.js';
import type { McpCompletionOptions } from './completions/mcp-completion-options.interface.js';
import type { McpPromptOptions } from './prompts/mcp-prompt-options.interface.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from './resources/mcp-resource-options.interface.js';
import { MCP_TASK_SUPPORT_METADATA, type McpTaskSupportOptions } from './tasks/mcp-task-support.decorator.js';
import { McpParamType } from '../execution/mcp-params.factory.js';
import { findParamIndex } from './tools/mcp-param.decorators.js';
import type { McpToolOptions } from './tools/mcp-tool-options.interface.js';

/** A decorator's metadata key, typed by what the decorator records. */
export type McpMetadataKey<T> = string & { readonly records?: T };
const key = <T>(name: string) => name as McpMetadataKey<T>;

/** The keys of every decorator the explorers read, typed: the one table that knows them. */
export const MCP_METADATA = {
  tool: key<McpToolOptions>(MCP_TOOL_METADATA),
  resource: key<McpResourceOptions>(MCP_RESOURCE_METADATA),
  resourceTemplate: key<McpResourceTemplateOptions>(MCP_RESOURCE_TEMPLATE_METADATA),
  prompt: key<McpPromptOptions>(MCP_PROMPT_METADATA),
  /** Every `@McpCompletion()` on the method (one per completed argument). */
  completions: key<readonly McpCompletionOptions[]>(MCP_COMPLETION_METADATA),
  uiResource: key<McpUiResourceOptions>(MCP_UI_RESOURCE_METADATA),
  taskSupport: key<McpTaskSupportOptions>(MCP_TASK_SUPPORT_METADATA),
  /** `@McpRoute()` options of a controller handler or of a controller class. */
  route: key<McpRouteOptions>(MCP_ROUTE_METADATA),
  /** `@McpExcludeRoute()`: the handler is no tool. */
  routeExcluded: key<boolean>(MCP_ROUTE_EXCLUDE_METADATA),
  /** `@ApiOperation()` of a handler (`@nestjs/swagger`, read by key: the library does not depend on it). */
  apiOperation: key<{ summary?: unknown; description?: unknown }>(SWAGGER_API_OPERATION),
} as const;

/** Reads what the decorators recorded, by the keys of {@link MCP_METADATA}; `get` takes a method function or a class. */
@Injectable()
export class McpMetadataAccessor {
  get<T>(key: McpMetadataKey<T>, target: unknown): T | undefined {
    return typeof target === 'function' ? (Reflect.getMetadata(key, target) as T | undefined) : undefined;
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
