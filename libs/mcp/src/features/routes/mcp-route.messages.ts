import { bootErrors } from '../../core/errors/boot-errors.js';

/** Boot errors of controller routes served as tools: each names the handler and the fix (codes in `docs/errors.md`). */
export const McpRouteMessages = bootErrors({
  unsupported: {
    code: 'MCP_ERR_ROUTE_UNSUPPORTED',
    message: (site: string, reason: string): string =>
      `${site} cannot be an MCP tool: it ${reason}. Exclude it with @McpExcludeRoute(), or drop @McpRoute() from it.`,
    fix: 'Put `@McpExcludeRoute()` on the handler, or stop listing it.',
    variants:
      '(reasons: writes its own response (`@Res()`), `@Next()`, file uploads, `@RawBody()`, `@Sse()`, `@Render()`, `@Redirect()`, a verb other than GET, POST, PUT, PATCH, DELETE)',
  },
  argumentClash: {
    code: 'MCP_ERR_ROUTE_ARGUMENT_CLASH',
    message: (site: string, name: string, first: string, second: string): string =>
      `${site}: the tool argument "${name}" would be both the ${first} and the ${second}; its arguments are the path ` +
      `parameters, query and body properties in one object. Rename one of them, or exclude the route with @McpExcludeRoute().`,
    fix: 'Rename the path parameter, query or body property so each name is used once.',
    shown: { first: 'path parameter / query parameter / body property', second: '…' },
  },
  middleware: {
    code: 'MCP_ERR_ROUTE_MIDDLEWARE',
    message: (site: string, route: string, middleware: string): string =>
      `${site} (${route}) cannot be an MCP tool: the Nest middleware ${middleware} applies to it (MiddlewareConsumer), and ` +
      `a tool call does not pass through Nest's middleware, so it would skip what the middleware checks. Exclude the ` +
      `route with @McpExcludeRoute(), or exclude it from the middleware with .exclude() and check in a guard instead.`,
    fix: 'Put `@McpExcludeRoute()` on the handler, or `.exclude()` the route from the middleware (`forRoutes`) and move the check to a guard, which runs on tools. See [controller routes](guide/controller-routes.md#middleware).',
    shown: { route: '<VERB> <path>', middleware: 'names' },
  },
  classOptions: {
    code: 'MCP_ERR_ROUTE_CLASS_OPTIONS',
    message: (controller: string, option: string): string =>
      `@McpRoute({ ${option} }) on the class ${controller} would give every handler the same ${option}; put it on each handler.`,
    fix: 'Move `name`, `description` or `title` to the handlers.',
  },
  notAController: {
    code: 'MCP_ERR_ROUTE_NOT_A_CONTROLLER',
    message: (name: string): string =>
      `The option sources.routes lists ${name}, which is neither a controller nor a module with controllers that this server serves (its include). List controller or module classes of this server.`,
    fix: 'List controllers or modules (with controllers) that this server serves (`include`).',
  },
});
