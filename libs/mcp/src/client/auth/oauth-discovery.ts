import * as oauth from 'oauth4webapi';
import { assertFetchable, authError, fetchMetadata } from './oauth-http.js';

/** What the client keeps of a protected MCP server's metadata (RFC 9728). */
export interface McpProtectedResource {
  /** The resource identifier exactly as the metadata published it: the `resource` of every token request. */
  readonly resource: string;
  readonly authorizationServer: string;
  readonly scopesSupported?: readonly string[];
  /** True when the server published no metadata and its origin stands in as the authorization server (2025-03-26). */
  readonly legacy: boolean;
}

/**
 * The server's protected-resource metadata: at the URL its challenge names, else the well-known URL built from
 * its path, else the root one. The `resource` it names must be this server (its origin, and a prefix of its path):
 * metadata for another resource fails with AUTH, since a token obtained for it would be sent to this server. A
 * 2024-11-05 SSE endpoint is one URL of a server whose resource is usually its MCP endpoint beside it: there the
 * resource may be any URL under the SSE endpoint's folder. No metadata at all: the 2025-03-26 rule, the server's
 * origin is its authorization server.
 */
export async function discoverProtectedResource(
  serverUrl: URL,
  resourceMetadata: string | undefined,
  timeoutMs: number,
  allowInsecureHttp: boolean,
  sseEndpoint = false,
): Promise<McpProtectedResource> {
  const path = serverUrl.pathname.replace(/\/$/, '');
  const candidates = resourceMetadata
    ? [new URL(resourceMetadata, serverUrl)]
    : [
        ...(path ? [new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl.origin)] : []),
        new URL('/.well-known/oauth-protected-resource', serverUrl.origin),
      ];
  for (const url of candidates) {
    assertFetchable(url, allowInsecureHttp, 'The protected-resource metadata');
    const found = await fetchMetadata(url, timeoutMs);
    if (!found) continue;
    const json = found.json as { resource?: unknown; authorization_servers?: unknown; scopes_supported?: unknown };
    if (typeof json?.resource !== 'string') throw authError('The protected-resource metadata names no resource');
    if (!identifies(json.resource, sseEndpoint ? new URL('./', serverUrl) : serverUrl, sseEndpoint)) {
      throw authError(`The protected-resource metadata is for ${safeOrigin(json.resource)}, not for ${serverUrl.origin}${path}`);
    }
    const servers = json.authorization_servers;
    if (!Array.isArray(servers) || typeof servers[0] !== 'string') {
      throw authError('The protected-resource metadata names no authorization server');
    }
    const scopes = Array.isArray(json.scopes_supported)
      ? json.scopes_supported.filter((s): s is string => typeof s === 'string')
      : undefined;
    return { resource: json.resource, authorizationServer: servers[0], scopesSupported: scopes, legacy: false };
  }
  return { resource: `${serverUrl.origin}${path}`, authorizationServer: serverUrl.origin, legacy: true };
}

/**
 * Whether a resource identifier names this server: same origin, and its path a prefix of the server's (MCP, RFC
 * 8707), or with `under`, its path under the server's (the folder of a 2024-11-05 SSE endpoint).
 */
function identifies(resource: string, serverUrl: URL, under = false): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== serverUrl.origin || url.hash || url.search) return false;
  const prefix = url.pathname.replace(/\/$/, '');
  const path = serverUrl.pathname.replace(/\/$/, '');
  return under ? prefix === path || prefix.startsWith(`${path}/`) : path === prefix || path.startsWith(`${prefix}/`);
}

function safeOrigin(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return 'an invalid URL';
  }
}

/**
 * The authorization server's metadata: RFC 8414 and OpenID discovery at the URLs the MCP authorization spec
 * orders (path inserted for both, then OpenID's path appended). The first document found must name the issuer it
 * was asked for (oauth4webapi's check): one naming another issuer fails with AUTH, it is not skipped. None found
 * for a server without metadata (2025-03-26): the default endpoints at its origin.
 */
export async function discoverAuthorizationServer(
  issuer: string,
  legacy: boolean,
  timeoutMs: number,
  allowInsecureHttp: boolean,
): Promise<oauth.AuthorizationServer> {
  const issuerUrl = new URL(issuer);
  assertFetchable(issuerUrl, allowInsecureHttp, 'The authorization server');
  const path = issuerUrl.pathname.replace(/\/$/, '');
  const candidates = path
    ? [
        `/.well-known/oauth-authorization-server${path}`,
        `/.well-known/openid-configuration${path}`,
        `${path}/.well-known/openid-configuration`,
      ]
    : ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];
  for (const candidate of candidates) {
    const found = await fetchMetadata(new URL(candidate, issuerUrl.origin), timeoutMs);
    if (!found) continue;
    try {
      return await oauth.processDiscoveryResponse(issuerUrl, found.response);
    } catch {
      throw authError(`The authorization server metadata of ${issuerUrl.origin} names another issuer or is malformed`);
    }
  }
  if (legacy) {
    return {
      issuer: issuerUrl.origin,
      authorization_endpoint: `${issuerUrl.origin}/authorize`,
      token_endpoint: `${issuerUrl.origin}/token`,
      registration_endpoint: `${issuerUrl.origin}/register`,
      code_challenge_methods_supported: ['S256'],
    };
  }
  throw authError(`No authorization server metadata at ${issuerUrl.origin}`);
}
