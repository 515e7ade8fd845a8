import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

/**
 * A development authorization server (oidc-provider) at http://127.0.0.1:<port>: JWT access tokens for `resource`
 * carrying `scope`, by client credentials (client "machine") or authorization code + PKCE (public client "mcp-app",
 * any loopback redirect URI; its login page takes any name and no password).
 */
export function startAuthorizationServer(port: number, resource: string, scope: string): Server {
  const provider = new Provider(`http://127.0.0.1:${port}`, {
    clients: [
      { client_id: 'machine', client_secret: 'machine-secret', grant_types: ['client_credentials'], response_types: [], redirect_uris: [] },
      {
        client_id: 'mcp-app',
        token_endpoint_auth_method: 'none',
        application_type: 'native',
        redirect_uris: ['http://127.0.0.1/callback'],
      },
    ],
    scopes: ['openid', ...scope.split(' ')],
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    features: {
      devInteractions: { enabled: true }, // the login and consent pages: development only
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope, audience: resource, accessTokenFormat: 'jwt' }),
      },
    },
  });
  return createServer(provider.callback()).listen(port, '127.0.0.1');
}
