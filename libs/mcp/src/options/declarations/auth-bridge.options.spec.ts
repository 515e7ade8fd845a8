import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { resolveMcpOptions, resolvePaths } from '../mcp-options.resolver.js';
import type { McpModuleOptions } from '../mcp-module-options.interface.js';

const resolve = (auth: object) => resolveMcpOptions({ name: 'bridge', version: '1.0.0', auth } as McpModuleOptions, resolvePaths({}));
const upstream = { issuer: 'https://accounts.example.com', clientId: 'mcp', clientSecret: 'upstream-secret' };
const bridge = { resource: 'https://mcp.example.com/mcp', upstream, signingSecret: 's'.repeat(32) };

/** The problem text of the boot error `resolve(auth)` throws. */
function problem(auth: object): string {
  try {
    resolve(auth);
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as McpConfigurationError).code).toBe('MCP_ERR_OPTION_INVALID');
    return (error as Error).message;
  }
  throw new Error('no boot error');
}

describe('auth.bridge options', () => {
  it('settle the issuer (the origin of resource) and name it in the RFC 9728 document', () => {
    const auth = resolve({ bridge }).auth;
    expect(auth.bridge).toMatchObject({ issuer: 'https://mcp.example.com', resource: bridge.resource });
    expect(auth.resourceMetadata).toEqual({ resource: bridge.resource, authorizationServers: ['https://mcp.example.com'] });
  });

  it('refuse a missing or short signing secret, a missing upstream or resource, and auth.oauth beside it', () => {
    expect(problem({ bridge: { ...bridge, signingSecret: undefined } })).toContain('auth.bridge.signingSecret');
    expect(problem({ bridge: { ...bridge, signingSecret: 'short' } })).toContain('at least 32 characters');
    expect(problem({ bridge: { ...bridge, upstream: undefined } })).toContain('auth.bridge.upstream.issuer');
    expect(problem({ bridge: { ...bridge, upstream: { ...upstream, clientSecret: '' } } })).toContain('auth.bridge.upstream.clientSecret');
    expect(problem({ bridge: { ...bridge, resource: undefined } })).toContain('auth.bridge.resource');
    expect(problem({ bridge, oauth: { issuer: 'https://idp.example.com' } })).toContain('not both');
  });

  it('take a scope mapping (fromClaim defaulting to groups) or a function, and refuse a list or a malformed mapping', () => {
    const map = { admins: ['admin'] };
    expect(resolve({ bridge: { ...bridge, scopes: { map } } }).auth.bridge?.scopes).toEqual({ fromClaim: 'groups', map });
    const byClaims = () => ['a'];
    expect(resolve({ bridge: { ...bridge, scopes: byClaims } }).auth.bridge?.scopes).toBe(byClaims);
    expect(resolve({ bridge }).auth.bridge?.scopes).toBeUndefined();
    expect(problem({ bridge: { ...bridge, scopes: ['admin'] } })).toContain('would grant every user who signs in every scope');
    expect(problem({ bridge: { ...bridge, scopes: { map, form: 'groups' } } })).toContain('unknown keys (form)');
    expect(problem({ bridge: { ...bridge, scopes: { fromClaim: 'groups' } } })).toContain('auth.bridge.scopes.map');
    expect(problem({ bridge: { ...bridge, scopes: { map: { admins: 'admin' } } } })).toContain('auth.bridge.scopes.map["admins"]');
    expect(problem({ bridge: { ...bridge, scopes: { map: { admins: ['a b'] } } } })).toContain('scope tokens');
  });
});
