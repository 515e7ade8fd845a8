import { resolveMcpOptions, resolvePaths } from '../mcp-options.resolver.js';
import type { McpModuleOptions } from '../mcp-module-options.interface.js';

const resolve = (upstreams: unknown) =>
  resolveMcpOptions({ name: 'gateway', version: '1.0.0', sources: { upstreams } } as McpModuleOptions, resolvePaths({}));

describe('module option sources.upstreams', () => {
  it('defaults to none and leaves lists.listChanged as given', () => {
    const options = resolveMcpOptions({ name: 'gateway', version: '1.0.0' }, resolvePaths({}));
    expect(options.sources.upstreams).toEqual([]);
    expect(options.lists.listChanged).toEqual({ tools: false, prompts: false, resources: false });
  });

  it('accepts url and command entries, and turns lists.listChanged on for the three lists', () => {
    const options = resolve([
      { name: 'weather', url: 'http://127.0.0.1:3000/mcp', headers: { 'x-api-key': 'k' }, scopes: ['weather'] },
      { name: 'everything', command: 'node', args: ['server.js'], env: { A: '1' } },
    ]);
    expect(options.sources.upstreams.map((upstream) => upstream.name)).toEqual(['weather', 'everything']);
    expect(options.lists.listChanged).toEqual({ tools: true, prompts: true, resources: true });
  });

  it.each([
    [{ url: 'http://x/mcp' }, 'upstreams[0].name'],
    [{ name: 'Weather', url: 'http://x/mcp' }, 'upstreams[0].name'],
    [{ name: 'w' }, 'needs exactly one of url and command'],
    [{ name: 'w', url: 'http://x/mcp', command: 'node' }, 'needs exactly one of url and command'],
    [{ name: 'w', url: 'ftp://x' }, 'upstreams[0].url'],
    [{ name: 'w', command: 'node', args: 'a b' }, 'upstreams[0].args'],
    [{ name: 'w', command: 'node', headers: { a: 'b' } }, 'upstreams[0].headers'],
    [{ name: 'w', url: 'http://x/mcp', maxSessions: 0 }, 'upstreams[0].maxSessions'],
    [{ name: 'w', url: 'http://x/mcp', header: {} }, 'upstreams[0].header'],
    [{ name: 'w', url: 'http://x/mcp', auth: { tokenExchange: { clientId: 'g', clientSecret: 's' } } }, 'needs exactly one of issuer'],
    [{ name: 'w', url: 'http://x/mcp', auth: { tokenExchange: { issuer: 'http://as', clientSecret: 's' } } }, 'tokenExchange.clientId'],
    [
      {
        name: 'w',
        url: 'http://x/mcp',
        auth: { clientCredentials: { tokenEndpoint: 'http://as/token', clientId: 'g', clientSecret: 's', aud: 'x' } },
      },
      'clientCredentials.aud',
    ],
    [{ name: 'w', url: 'http://x/mcp', auth: { tokenExchange: {}, clientCredentials: {} } }, 'upstreams[0].auth'],
    [
      {
        name: 'w',
        url: 'http://x/mcp',
        forwardAuthorization: true,
        auth: { clientCredentials: { issuer: 'http://as', clientId: 'g', clientSecret: 's' } },
      },
      'keep one',
    ],
    [
      { name: 'w', command: 'node', auth: { clientCredentials: { issuer: 'http://as', clientId: 'g', clientSecret: 's' } } },
      'upstreams[0].auth',
    ],
  ])('refuses %j naming %s', (entry, named) => {
    expect(() => resolve([entry])).toThrow(named);
  });

  it('refuses two upstreams of one name', () => {
    expect(() =>
      resolve([
        { name: 'w', url: 'http://a/mcp' },
        { name: 'w', command: 'node' },
      ]),
    ).toThrow('"w" names two upstreams');
  });

  it('refuses forwarding the caller’s token with auth.oauth (token passthrough), not with auth.jwt', () => {
    const forwarding = [{ name: 'w', url: 'http://x/mcp', forwardAuthorization: true }];
    const withAuth = (auth: object) =>
      resolveMcpOptions(
        { name: 'gateway', version: '1.0.0', auth, sources: { upstreams: forwarding } } as McpModuleOptions,
        resolvePaths({}),
      );
    expect(() => withAuth({ oauth: { issuer: 'http://as', resource: 'http://gw/mcp' } })).toThrow(
      expect.objectContaining({ code: 'MCP_ERR_TOKEN_PASSTHROUGH' }),
    );
    expect(withAuth({ jwt: { secret: 'a-shared-secret-of-at-least-32-chars' } }).sources.upstreams).toHaveLength(1);
  });
});
