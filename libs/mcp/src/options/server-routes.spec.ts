import { resolveMcpOptions, resolvePaths } from './mcp-options.resolver.js';
import { routesOverlap, serverRoutes } from './server-routes.js';
import type { McpModuleForRootOptions } from './mcp-module-options.interface.js';

const routesOf = ({ path, ssePath, messagesPath, explorer, wellKnownRoot, ...options }: Partial<McpModuleForRootOptions>) =>
  serverRoutes(
    resolveMcpOptions(
      { name: 'routes', version: '1.0.0', ...options },
      resolvePaths({ path, ssePath, messagesPath, explorer, wellKnownRoot }),
    ),
  ).map(({ route }) => route);

describe('serverRoutes', () => {
  it('lists every route a default server maps', () => {
    expect(routesOf({})).toEqual([
      '/mcp',
      '/mcp/jobs/:jobId',
      '/mcp/server-card',
      '/.well-known/oauth-protected-resource/mcp',
      '/sse',
      '/messages',
      '/.well-known/oauth-protected-resource',
      '/.well-known/mcp/server-card.json',
    ]);
  });

  it('leaves out what is off, and adds the explorer page and the metrics endpoint when on', () => {
    expect(routesOf({ path: '/admin/mcp', ssePath: false, wellKnownRoot: false })).toEqual([
      '/admin/mcp',
      '/admin/mcp/jobs/:jobId',
      '/admin/mcp/server-card',
      '/.well-known/oauth-protected-resource/admin/mcp',
    ]);
    expect(routesOf({ explorer: { enabled: true }, observability: { metrics: { path: '/metrics' } } })).toEqual(
      expect.arrayContaining(['/mcp/explorer', '/mcp/explorer/app-frame', '/metrics']),
    );
  });

  it('adds the per-user upstream sign-in routes, at the host’s root, when the server maps them', () => {
    const resolved = resolveMcpOptions({ name: 'routes', version: '1.0.0' }, resolvePaths({ path: '/admin/mcp', ssePath: false }));
    const added = (upstreamAuth: boolean) => serverRoutes(resolved, upstreamAuth).map(({ route }) => route);
    expect(added(true)).toEqual([...added(false), '/mcp-upstream-auth/:upstream/start', '/mcp-upstream-auth/:upstream/callback']);
  });
});

describe('routesOverlap', () => {
  it.each([
    ['/sse', '/sse', true],
    ['/mcp/jobs/:jobId', '/mcp/jobs/server-card', true],
    ['/mcp/jobs/:jobId', '/mcp/jobs', false],
    ['/mcp', '/mcp/jobs/:jobId', false],
    ['/public', '/admin', false],
  ])('%s and %s: %s', (a, b, expected) => {
    expect(routesOverlap(a, b)).toBe(expected);
    expect(routesOverlap(b, a)).toBe(expected);
  });
});
