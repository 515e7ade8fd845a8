import type * as oauth from 'oauth4webapi';
import type { McpClientOAuthOptions } from './mcp-client-auth-options.interface.js';
import type { McpProtectedResource } from './oauth-discovery.js';

/**
 * The scopes of an authorization request (MCP "scope selection strategy"): the configured ones, else the
 * challenge's `scope`, else every scope the server's metadata lists, else none (the parameter is omitted). With
 * the authorization code grant, `offline_access` is added when the authorization server lists it (a refresh token,
 * SEP-2207) and never otherwise.
 */
export function requestedScopes(
  options: McpClientOAuthOptions,
  challenged: string | undefined,
  resource: McpProtectedResource,
  as: oauth.AuthorizationServer,
): string | undefined {
  const chosen = options.scope ?? challenged ?? resource.scopesSupported?.join(' ');
  const scopes = new Set((chosen ?? '').split(' ').filter(Boolean));
  const offered = as.scopes_supported?.includes('offline_access') === true;
  if (options.grant.type === 'authorization_code' && options.offlineAccess !== false && offered) scopes.add('offline_access');
  if (!offered) scopes.delete('offline_access');
  return scopes.size > 0 ? [...scopes].join(' ') : undefined;
}

/** The scopes of a step-up: those asked for before and the challenged ones (SEP-2350), so none is lost. */
export function unionOfScopes(previous: string | undefined, next: string | undefined): string | undefined {
  const scopes = new Set([...(previous ?? '').split(' '), ...(next ?? '').split(' ')].filter(Boolean));
  return scopes.size > 0 ? [...scopes].join(' ') : undefined;
}
