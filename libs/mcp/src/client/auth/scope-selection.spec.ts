import type { McpClientOAuthOptions } from './mcp-client-auth-options.interface.js';
import { requestedScopes, unionOfScopes } from './scope-selection.js';

const code: McpClientOAuthOptions = {
  grant: { type: 'authorization_code', redirectUri: 'http://127.0.0.1/cb', authorize: async (url) => url },
};
const machine: McpClientOAuthOptions = { grant: { type: 'client_credentials' }, client: { clientId: 'm' } };
const resource = { resource: 'https://s/mcp', authorizationServer: 'https://as', scopesSupported: ['r', 'w'], legacy: false };
const as = { issuer: 'https://as' };
const asOffline = { issuer: 'https://as', scopes_supported: ['r', 'offline_access'] };

describe('requestedScopes', () => {
  it('takes the configured scope, else the challenge, else scopes_supported, else none', () => {
    expect(requestedScopes({ ...code, scope: 'x' }, 'c', resource, as)).toBe('x');
    expect(requestedScopes(code, 'c', resource, as)).toBe('c');
    expect(requestedScopes(code, undefined, resource, as)).toBe('r w');
    expect(requestedScopes(code, undefined, { ...resource, scopesSupported: undefined }, as)).toBeUndefined();
  });

  it('adds offline_access only where the authorization server lists it, and only for a user sign-in', () => {
    expect(requestedScopes(code, 'c', resource, asOffline)).toBe('c offline_access');
    expect(requestedScopes({ ...code, offlineAccess: false }, 'c', resource, asOffline)).toBe('c');
    expect(requestedScopes(machine, 'c', resource, asOffline)).toBe('c');
    expect(requestedScopes({ ...code, scope: 'c offline_access' }, undefined, resource, as)).toBe('c');
  });
});

describe('unionOfScopes', () => {
  it('keeps what was asked before and adds the challenged scopes, once each', () => {
    expect(unionOfScopes('a b', 'b c')).toBe('a b c');
    expect(unionOfScopes(undefined, undefined)).toBeUndefined();
  });
});
