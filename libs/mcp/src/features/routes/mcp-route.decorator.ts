import { SetMetadata } from '@nestjs/common';
import { MCP_ROUTE_EXCLUDE_METADATA, MCP_ROUTE_METADATA } from '../../core/mcp.constants.js';
import type { McpRouteOptions } from './mcp-route-options.interface.js';

/**
 * Serves a controller handler (or, on the class, every handler of a controller) as an MCP tool. A call runs the
 * route's own Nest pipeline (guards, interceptors, pipes, exception filters, global ones included) with the MCP
 * caller's `Authorization` / `X-API-Key` headers, without an HTTP request. The arguments are the route's path
 * parameters, query and body properties at the top level.
 * @publicApi
 * @example
 * @McpRoute({ description: 'Open a support ticket' })
 * @Post()
 * create(@Body() dto: CreateTicketDto) { ... }
 */
export const McpRoute = (options: McpRouteOptions = {}): ClassDecorator & MethodDecorator => SetMetadata(MCP_ROUTE_METADATA, options);

/**
 * Keeps a handler of a controller served as tools (`@McpRoute()` on the class, or the module option `sources.routes`) out
 * of the tools: needed for a route that cannot be one (`@Res()`, file uploads, `@Sse()`).
 * @publicApi
 */
export const McpExcludeRoute = (): MethodDecorator => SetMetadata(MCP_ROUTE_EXCLUDE_METADATA, true);
