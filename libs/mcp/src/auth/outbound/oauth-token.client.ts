import * as oauth from 'oauth4webapi';
import type { McpOAuthClientOptions } from '../../options/mcp-outbound-auth.interface.js';
import type { CachedToken } from './outbound-token.cache.js';
import { OutboundTokenError } from './outbound-token.error.js';

/** RFC 8693 §2.1 and §3. */
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/** A token is dropped this long before it expires (a call started just before must still be accepted). */
const EXPIRY_MARGIN_MS = 30_000;
/** Without `expires_in`, a token is used this long. */
const UNSTATED_LIFETIME_MS = 60_000;
const DEFAULT_TIMEOUT_MS = 5_000;

/** One OAuth client of this server at one authorization server: token exchange and client credentials requests. */
export class OAuthTokenClient {
  private server?: Promise<oauth.AuthorizationServer>;
  private readonly client: oauth.Client;
  private readonly auth: oauth.ClientAuth;

  constructor(private readonly options: McpOAuthClientOptions) {
    this.client = { client_id: options.clientId };
    this.auth =
      options.clientAuthMethod === 'client_secret_post'
        ? oauth.ClientSecretPost(options.clientSecret)
        : oauth.ClientSecretBasic(options.clientSecret);
  }

  /** Exchanges the caller's access token for one aimed at the target (RFC 8693). */
  exchange(subjectToken: string): Promise<CachedToken> {
    return this.request((server, signal) =>
      oauth.genericTokenEndpointRequest(
        server,
        this.client,
        this.auth,
        TOKEN_EXCHANGE_GRANT,
        { subject_token: subjectToken, subject_token_type: ACCESS_TOKEN_TYPE, requested_token_type: ACCESS_TOKEN_TYPE, ...this.target() },
        { signal, ...insecure(server.token_endpoint!) },
      ),
    );
  }

  /** This server's own token for the target (the client credentials grant). */
  clientCredentials(): Promise<CachedToken> {
    return this.request((server, signal) =>
      oauth.clientCredentialsGrantRequest(server, this.client, this.auth, this.target(), { signal, ...insecure(server.token_endpoint!) }),
    );
  }

  private target(): Record<string, string> {
    const { resource, audience, scopes } = this.options;
    return {
      ...(resource !== undefined && { resource }),
      ...(audience !== undefined && { audience }),
      ...(scopes?.length && { scope: scopes.join(' ') }),
    };
  }

  private async request(send: (server: oauth.AuthorizationServer, signal: AbortSignal) => Promise<Response>): Promise<CachedToken> {
    const signal = AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let answer: oauth.TokenEndpointResponse;
    try {
      const server = await this.metadata(signal);
      answer = await oauth.processGenericTokenEndpointResponse(server, this.client, await send(server, signal));
    } catch (error) {
      throw described(error);
    }
    const lifetimeMs = answer.expires_in !== undefined ? answer.expires_in * 1_000 : UNSTATED_LIFETIME_MS;
    // A short-lived token is still used once (until 0): the margin never makes it unusable at birth.
    return { token: answer.access_token, until: Date.now() + Math.max(0, lifetimeMs - Math.min(EXPIRY_MARGIN_MS, lifetimeMs / 2)) };
  }

  /** The token endpoint: given, or read once from the issuer's metadata (read again after a failure). */
  private metadata(signal: AbortSignal): Promise<oauth.AuthorizationServer> {
    const { issuer, tokenEndpoint } = this.options;
    if (tokenEndpoint !== undefined)
      return Promise.resolve({ issuer: issuer ?? new URL(tokenEndpoint).origin, token_endpoint: tokenEndpoint });
    this.server ??= discover(new URL(issuer!), signal).catch((error: unknown) => {
      this.server = undefined;
      throw error;
    });
    return this.server;
  }
}

export async function discover(issuer: URL, signal: AbortSignal): Promise<oauth.AuthorizationServer> {
  const response = await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', signal, ...insecure(issuer.href) });
  const server = await oauth.processDiscoveryResponse(issuer, response);
  if (server.token_endpoint === undefined) throw new OutboundTokenError('unreachable', 'the authorization server names no token endpoint');
  return server;
}

/** An `http:` URL was configured on purpose (a loopback or internal authorization server): oauth4webapi asks to be told. */
export function insecure(url: string): { [oauth.allowInsecureRequests]?: true } {
  return url.startsWith('http:') ? { [oauth.allowInsecureRequests]: true } : {};
}

/** The authorization server's refusal (`invalid_grant`...) or the failure to reach it, without its body or any token. */
export function described(error: unknown): OutboundTokenError {
  if (error instanceof OutboundTokenError) return error;
  if (error instanceof oauth.ResponseBodyError)
    return new OutboundTokenError('refused', `the authorization server refused (${safeCode(error.error)})`);
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return new OutboundTokenError('unreachable', 'the authorization server did not answer in time');
  return new OutboundTokenError('unreachable', 'the authorization server could not be reached');
}

/** An OAuth error code is `[\x20-\x21\x23-\x5B\x5D-\x7E]+` (RFC 6749 §5.2); anything else is not repeated. */
function safeCode(code: string): string {
  return /^[a-z_]{1,64}$/.test(code) ? code : 'error';
}
