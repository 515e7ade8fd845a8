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

  describe('auth.authorizationCode (per-user authorization)', () => {
    const user = {
      issuer: 'http://as',
      clientId: 'gateway',
      clientSecret: 'secret',
      publicUrl: 'https://gateway.example.com',
      encryptionKey: 'k'.repeat(32),
      confirmUser: 'same-subject',
    };
    const withAuth = (authorizationCode: object, auth: object | null = { jwt: { secret: 'a-shared-secret-of-at-least-32-chars' } }) =>
      resolveMcpOptions(
        {
          name: 'gateway',
          version: '1.0.0',
          ...(auth && { auth }),
          sources: { upstreams: [{ name: 'notes', url: 'http://x/mcp', auth: { authorizationCode } }] },
        } as McpModuleOptions,
        resolvePaths({}),
      );

    it('accepts a complete entry behind inbound auth', () => {
      expect(withAuth(user).sources.upstreams[0].auth).toEqual({ authorizationCode: user });
    });

    it.each([
      [{ ...user, publicUrl: undefined }, 'authorizationCode.publicUrl'],
      [{ ...user, issuer: undefined, tokenEndpoint: 'http://as/token' }, 'authorizationCode.tokenEndpoint'],
      [{ ...user, flowTtlMs: 0 }, 'authorizationCode.flowTtlMs'],
      [{ ...user, clientSecret: undefined }, 'authorizationCode.clientSecret'],
      [{ ...user, confirmUser: 'same-email' }, "authorizationCode.confirmUser\" must be 'same-subject', 'unverified' or a function"],
    ])('refuses %j naming %s', (entry, named) => {
      expect(() => withAuth(entry)).toThrow(named);
    });

    it('refuses a missing or short encryption key, and a server that signs nobody in, with codes of their own', () => {
      const { encryptionKey: _key, ...keyless } = user;
      expect(() => withAuth(keyless)).toThrow(
        expect.objectContaining({
          code: 'MCP_ERR_UPSTREAM_USER_AUTH_KEY',
          message: expect.stringContaining('.encryptionKey" is required:'),
        }),
      );
      expect(() => withAuth({ ...user, encryptionKey: 'short' })).toThrow(
        expect.objectContaining({
          code: 'MCP_ERR_UPSTREAM_USER_AUTH_KEY',
          message: expect.stringContaining('.encryptionKey" is too short:'),
        }),
      );
      expect(() => withAuth(user, null)).toThrow(expect.objectContaining({ code: 'MCP_ERR_UPSTREAM_USER_AUTH_NO_USERS' }));
    });

    it('refuses an entry that does not say how the user who completes a sign-in is confirmed, naming the three choices', () => {
      const { confirmUser: _confirm, ...unconfirmed } = user;
      const thrown = (() => {
        try {
          withAuth(unconfirmed);
        } catch (error) {
          return error as { code?: string; message: string };
        }
      })();
      expect(thrown?.code).toBe('MCP_ERR_UPSTREAM_USER_AUTH_CONFIRM');
      expect(thrown?.message).toMatch(/authorizationCode\.confirmUser.*'same-subject'.*a function.*'unverified'/);
      for (const confirmUser of ['unverified', () => true]) expect(() => withAuth({ ...user, confirmUser })).not.toThrow();
    });

    it('is for upstreams only: an OpenAPI source refuses it', () => {
      expect(() =>
        resolveMcpOptions(
          {
            name: 'gateway',
            version: '1.0.0',
            sources: { openapi: [{ document: 'http://x/openapi.json', auth: { authorizationCode: user } }] },
          } as unknown as McpModuleOptions,
          resolvePaths({}),
        ),
      ).toThrow('sources.openapi[0].auth');
    });
  });
});
