import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { MCP_PARAMS_METADATA, MCP_TOOL_METADATA } from '../mcp.constants.js';
import type { McpToolOptions } from './tools/mcp-tool-options.interface.js';

/** Reads the metadata our decorators record; the only place that knows the keys. */
@Injectable()
export class McpMetadataAccessor {
  constructor(private readonly reflector: Reflector) {}

  getToolOptions(target: unknown): McpToolOptions | undefined {
    if (typeof target !== 'function') return undefined;
    return this.reflector.get<McpToolOptions | undefined>(MCP_TOOL_METADATA, target);
  }

  getParams(prototype: object, methodName: string): Record<string, { index: number }> | undefined {
    return Reflect.getMetadata(MCP_PARAMS_METADATA, prototype.constructor, methodName);
  }

  getParamTypes(prototype: object, methodName: string): unknown[] {
    return (Reflect.getMetadata('design:paramtypes', prototype, methodName) as unknown[] | undefined) ?? [];
  }
}
