import { bootErrors } from '../core/errors/boot-errors.js';
import type { McpServerRoute } from './server-routes.js';

/** How to move each kind of route out of the other server's way. */
const ROUTE_FIXES: Readonly<Record<McpServerRoute['option'], string>> = {
  path: 'give each server its own path',
  ssePath: 'give one of them other ssePath and messagesPath values, or ssePath: false (no 2024-11-05 HTTP+SSE transport)',
  messagesPath: 'give one of them other ssePath and messagesPath values, or ssePath: false (no 2024-11-05 HTTP+SSE transport)',
  'explorer.path': 'give one of them another explorer.path',
  wellKnownRoot:
    'set wellKnownRoot: false on every server but one (each still serves /.well-known/oauth-protected-resource<path> and <path>/server-card)',
  'observability.metrics.path':
    'set observability.metrics.path on one server only (a registry shared by the servers holds the series of all of them)',
  'sources.upstreams[].auth.authorizationCode':
    'keep the upstreams with auth.authorizationCode on one server of the app (or run the other server in an app of its own): their sign-in routes sit at the host’s root',
};

/** A server as the messages name it: `"weather" at /mcp`. */
export interface McpServerLabel {
  readonly name: string;
  readonly path: string;
}

const label = (server: McpServerLabel) => `"${server.name}" at ${server.path}`;

/** The route docs/errors.md shows colliding: any will do, the message then names its fix. */
const ROUTE: McpServerRoute = { route: '<route>', option: 'path' };

/** The boot errors about several servers in one app (see `docs/errors.md`). */
export const McpServersMessages = bootErrors({
  routeCollision: {
    code: 'MCP_ERR_SERVER_ROUTE_COLLISION',
    message: (first: McpServerLabel, firstRoute: McpServerRoute, second: McpServerLabel, secondRoute: McpServerRoute) =>
      `Two McpModule servers map the same route: ${label(first)} maps ${firstRoute.route} (its ${firstRoute.option}) and ` +
      `${label(second)} maps ${secondRoute.route} (its ${secondRoute.option}). Each route belongs to one server: ` +
      `${ROUTE_FIXES[secondRoute.option]}.`,
    fix: "Move one server's route as the message says (`path`, `ssePath`/`messagesPath`, `explorer.path`, `wellKnownRoot: false`, `observability.metrics.path`). Per-user upstream authorization (`auth.authorizationCode`) maps its sign-in routes at the host's root (`/mcp-upstream-auth/<upstream>/start` and `/callback`): keep those upstreams on one server of the app, or run the other server in an app of its own.",
    shown: { first: { name: '<a>', path: '<path>' }, firstRoute: ROUTE, second: { name: '<b>', path: '<path>' }, secondRoute: ROUTE },
  },
  sharedKeySpace: {
    code: 'MCP_ERR_SERVER_KEY_SPACE_SHARED',
    message: (first: McpServerLabel, second: McpServerLabel, keyPrefix: string, redis: string) =>
      `Two McpModule servers share one Redis key space: ${label(first)} and ${label(second)} both use redis.keyPrefix ` +
      `"${keyPrefix}" on ${redis}, so a session of one would be accepted by the other. Give each its own redis.keyPrefix ` +
      '(or leave it unset: the default is per path).',
    fix: 'Give each server its own `redis.keyPrefix`, or leave it unset.',
    shown: { first: { name: '<a>', path: '<path>' }, second: { name: '<b>', path: '<path>' }, keyPrefix: 'prefix' },
  },
  includedModuleMissing: {
    code: 'MCP_ERR_SERVER_INCLUDED_MODULE_MISSING',
    message: (server: McpServerLabel, module: string) =>
      `McpModule option "include" of ${label(server)} lists ${module}, which this app does not contain: import it ` +
      '(in the module that imports McpModule or any other) or remove it from include.',
    fix: 'Import the module in the app, or remove it from `include`.',
    shown: { server: { name: '<name>', path: '<path>' } },
  },
});
