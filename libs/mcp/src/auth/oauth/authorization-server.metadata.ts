import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpOAuthMessages as Messages } from './oauth.messages.js';

/** The members of RFC 8414 / OpenID discovery metadata this resource server uses. */
export interface AuthorizationServerMetadata {
  issuer: string;
  jwks_uri?: string;
  introspection_endpoint?: string;
  introspection_endpoint_auth_methods_supported?: string[];
}

/**
 * Where the metadata of `issuer` may be, in the order MCP clients try them (spec 2025-11-25): RFC 8414 with the
 * issuer's path after the well-known segment, OpenID discovery inserted the same way, OpenID discovery appended.
 */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  const urls = [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${url.origin}/.well-known/openid-configuration${path}`];
  if (path) urls.push(`${url.origin}${path}/.well-known/openid-configuration`);
  return urls;
}

/**
 * Reads the authorization server's metadata at boot. Unreachable or unusable → a boot error: a server that started
 * anyway would refuse every caller, and the commonest cause is a wrong issuer URL, which no retry fixes; an
 * orchestrator restarting the process retries an outage for free.
 */
export async function discoverAuthorizationServer(issuer: string, timeoutMs: number): Promise<AuthorizationServerMetadata> {
  const metadata = await fetchMetadata<AuthorizationServerMetadata>(metadataUrls(issuer), timeoutMs);
  if (typeof metadata === 'string') throw new McpConfigurationError(Messages.discoveryFailed(issuer, metadata));
  return checked(issuer, metadata);
}

/** The first metadata document `urls` answer with, tried in order; else what each answered, as one line. */
export async function fetchMetadata<T>(urls: readonly string[], timeoutMs: number): Promise<Partial<T> | string> {
  const problems: string[] = [];
  for (const url of urls) {
    try {
      const response = await fetch(url, {
        headers: { Accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
      if (response.ok) return (await response.json()) as Partial<T>;
      problems.push(`${url}: HTTP ${response.status}`);
    } catch (error) {
      problems.push(`${url}: ${(error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (error as Error).message}`);
    }
  }
  return problems.join('; ');
}

function checked(issuer: string, metadata: Partial<AuthorizationServerMetadata>): AuthorizationServerMetadata {
  // RFC 8414 §3.3: the issuer in the document must be the one it was fetched for, or the document is not to be used.
  if (metadata.issuer !== issuer)
    throw new McpConfigurationError(
      Messages.metadataUnusable(issuer, `names the issuer "${String(metadata.issuer)}"; set auth.oauth.issuer to exactly that value`),
    );
  for (const key of ['jwks_uri', 'introspection_endpoint'] as const) {
    const value = metadata[key];
    if (value !== undefined && (typeof value !== 'string' || !/^https?:\/\//.test(value)))
      throw new McpConfigurationError(Messages.metadataUnusable(issuer, `has a ${key} that is not an http(s) URL`));
  }
  return metadata as AuthorizationServerMetadata;
}
