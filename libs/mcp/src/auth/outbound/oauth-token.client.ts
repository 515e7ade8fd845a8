import * as oauth from 'oauth4webapi';
import type { McpOAuthClientOptions } from '../../options/mcp-outbound-auth.interface.js';
import { insecure, refusalCode, sendGrant, tokensOf, withSecret } from '../../client/auth/oauth-grant.js';
import type { McpOAuthClientIdentity, McpTokenGrant } from '../../client/auth/oauth-grant.js';
import type { CachedToken } from './outbound-token.cache.js';
import { OutboundTokenError } from './outbound-token.error.js';

/** A token is dropped this long before it expires (a call started just before must still be accepted). */
const EXPIRY_MARGIN_MS = 30_000;
/** Without `expires_in`, a token is used this long. */
const UNSTATED_LIFETIME_MS = 60_000;
const DEFAULT_TIMEOUT_MS = 5_000;

/** One OAuth client of this server at one authorization server: token exchange and client credentials requests. */
export class OAuthTokenClient {
  private server?: (signal: AbortSignal) => Promise<oauth.AuthorizationServer>;
  private readonly identity: McpOAuthClientIdentity;

  constructor(private readonly options: McpOAuthClientOptions) {
    this.identity = withSecret({ client_id: options.clientId }, options.clientSecret, options.clientAuthMethod ?? 'client_secret_basic');
  }

  /** Exchanges the caller's access token for one aimed at the target (RFC 8693). */
  exchange(subjectToken: string): Promise<CachedToken> {
    return this.request({ type: 'token_exchange', subjectToken });
  }

  /** This server's own token for the target (the client credentials grant). */
  clientCredentials(): Promise<CachedToken> {
    return this.request({ type: 'client_credentials' });
  }

  private target(): Record<string, string> {
    const { resource, audience, scopes } = this.options;
    return {
      ...(resource !== undefined && { resource }),
      ...(audience !== undefined && { audience }),
      ...(scopes?.length && { scope: scopes.join(' ') }),
    };
  }

  private async request(grant: McpTokenGrant): Promise<CachedToken> {
    const signal = AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let answer: oauth.TokenEndpointResponse;
    try {
      const server = await this.metadata(signal);
      const response = await sendGrant(server, this.identity, grant, this.target(), { signal, ...insecure(server.token_endpoint) });
      answer = await tokensOf(server, this.identity.client, grant.type, response);
    } catch (error) {
      throw described(error);
    }
    return { token: answer.access_token, until: usedUntil(answer) };
  }

  /** The token endpoint: given, or read once from the issuer's metadata (read again after a failure). */
  private metadata(signal: AbortSignal): Promise<oauth.AuthorizationServer> {
    const { issuer, tokenEndpoint } = this.options;
    if (tokenEndpoint !== undefined)
      return Promise.resolve({ issuer: issuer ?? new URL(tokenEndpoint).origin, token_endpoint: tokenEndpoint });
    return (this.server ??= discovered(issuer!, DEFAULT_TIMEOUT_MS))(signal);
  }
}

/** When a token stops being used: a short-lived one is still used once (until 0), the margin never makes it unusable at birth. */
export function usedUntil(answer: oauth.TokenEndpointResponse): number {
  const lifetimeMs = answer.expires_in !== undefined ? answer.expires_in * 1_000 : UNSTATED_LIFETIME_MS;
  return Date.now() + Math.max(0, lifetimeMs - Math.min(EXPIRY_MARGIN_MS, lifetimeMs / 2));
}

/** The issuer's metadata, read once (again after a failure); it must name a token endpoint. */
export function discovered(issuer: string, timeoutMs: number): (signal?: AbortSignal) => Promise<oauth.AuthorizationServer> {
  let server: Promise<oauth.AuthorizationServer> | undefined;
  return (signal = AbortSignal.timeout(timeoutMs)) =>
    (server ??= discover(new URL(issuer), signal).catch((error: unknown) => ((server = undefined), Promise.reject(error))));
}

async function discover(issuer: URL, signal: AbortSignal): Promise<oauth.AuthorizationServer> {
  const response = await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', signal, ...insecure(issuer.href) });
  const server = await oauth.processDiscoveryResponse(issuer, response);
  if (server.token_endpoint === undefined) throw new OutboundTokenError('unreachable', 'the authorization server names no token endpoint');
  return server;
}

/** The authorization server's refusal (`invalid_grant`...) or the failure to reach it, without its body or any token. */
export function described(error: unknown): OutboundTokenError {
  if (error instanceof OutboundTokenError) return error;
  if (error instanceof oauth.ResponseBodyError)
    return new OutboundTokenError('refused', `the authorization server refused (${refusalCode(error)})`);
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return new OutboundTokenError('unreachable', 'the authorization server did not answer in time');
  return new OutboundTokenError('unreachable', 'the authorization server could not be reached');
}
