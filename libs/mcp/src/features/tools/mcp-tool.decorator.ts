import { SetMetadata } from '@nestjs/common';
import { MCP_TOOL_METADATA } from '../../core/mcp.constants.js';
import type { McpToolOptions } from './mcp-tool-options.interface.js';

/**
 * Exposes a provider method as an MCP tool. Tools are discovered once at boot from every module.
 * @publicApi
 * @example
 * @McpTool({ description: 'Current weather for a city', annotations: { readOnlyHint: true } })
 * getWeather(@McpArgs() args: GetWeatherDto) { ... }
 */
export const McpTool = (options: McpToolOptions): MethodDecorator => SetMetadata(MCP_TOOL_METADATA, options);
