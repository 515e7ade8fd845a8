import type { McpResolvedOptions } from './mcp-module-options.interface.js';
import { USER_AUTH_ROUTE } from '../core/upstream-user-auth.port.js';

/** A route a server maps and the option that puts it there (named in the collision error). */
export interface McpServerRoute {
  /** `/sse`, `/mcp/jobs/:jobId`: `:name` segments match any value. */
  readonly route: string;
  readonly option:
    | 'path'
    | 'ssePath'
    | 'messagesPath'
    | 'explorer.path'
    | 'wellKnownRoot'
    | 'observability.metrics.path'
    | 'sources.upstreams[].auth.authorizationCode';
}

/** Where the protected-resource metadata of RFC 9728 lives (root, and with the resource's path after it). */
const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';
const SERVER_CARD_WELL_KNOWN_PATH = '/.well-known/mcp/server-card.json';

/**
 * Every route one server maps, any method (two servers share none), without the global prefix every server gets alike.
 * `upstreamAuth`: it maps the sign-in routes of per-user upstream authorization (at the host's root, one per app).
 */
export function serverRoutes(options: McpResolvedOptions, upstreamAuth = false): McpServerRoute[] {
  const { path, ssePath, messagesPath, explorerPath } = options;
  const routes: McpServerRoute[] = [
    { route: path, option: 'path' },
    { route: `${path}/jobs/:jobId`, option: 'path' },
    { route: `${path}/server-card`, option: 'path' },
    { route: `${PROTECTED_RESOURCE_PATH}${path}`, option: 'path' },
  ];
  if (ssePath !== false) routes.push({ route: ssePath, option: 'ssePath' }, { route: messagesPath, option: 'messagesPath' });
  if (explorerPath !== false)
    routes.push({ route: explorerPath, option: 'explorer.path' }, { route: `${explorerPath}/app-frame`, option: 'explorer.path' });
  if (options.wellKnownRoot)
    routes.push(
      { route: PROTECTED_RESOURCE_PATH, option: 'wellKnownRoot' },
      { route: SERVER_CARD_WELL_KNOWN_PATH, option: 'wellKnownRoot' },
    );
  if (upstreamAuth)
    for (const step of ['start', 'callback'])
      routes.push({ route: `/${USER_AUTH_ROUTE}/:upstream/${step}`, option: 'sources.upstreams[].auth.authorizationCode' });
  const { metrics } = options.observability;
  if (metrics.enabled && metrics.path !== undefined) routes.push({ route: metrics.path, option: 'observability.metrics.path' });
  return routes;
}

/** Whether one request path could match both routes: as many segments, each equal or a `:param` on either side. */
export function routesOverlap(a: string, b: string): boolean {
  const left = a.split('/');
  const right = b.split('/');
  return (
    left.length === right.length && left.every((segment, index) => segment === right[index] || isParam(segment) || isParam(right[index]))
  );
}

function isParam(segment: string): boolean {
  return segment.startsWith(':');
}
