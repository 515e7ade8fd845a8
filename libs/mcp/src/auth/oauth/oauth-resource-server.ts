import { decodeJwt, type JWTPayload } from 'jose';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { OAUTH_DEFAULTS } from '../../options/declarations/auth.options.js';
import { JwtVerifier } from '../jwt.verifier.js';
import type { McpOAuthOptions } from '../../options/mcp-auth-options.interface.js';
import { McpAuthError } from '../mcp-auth.error.js';
import { principalFromClaims } from '../principal-claims.js';
import { discoverAuthorizationServer } from './authorization-server.metadata.js';
import { McpOAuthMessages as Messages } from './oauth.messages.js';
import { TokenIntrospector } from './token-introspector.js';

/** `Retry-After` of a 503 while the authorization server is down. */
const OUTAGE_RETRY_AFTER_MS = 5_000;

/**
 * This server as an OAuth 2.1 resource server of one authorization server: metadata discovered at boot, JWT access
 * tokens verified with its JWKS, opaque ones introspected; `iss` must be the issuer and `aud` must name this resource.
 */
export class OAuthResourceServer {
  private jwt?: JwtVerifier;
  private introspector?: TokenIntrospector;
  private readonly audiences: () => string[];

  /** `servedResource` maps the configured resource to the URL clients reach (under the app's global prefix). */
  constructor(
    private readonly options: McpOAuthOptions,
    servedResource: (resource: string) => string,
  ) {
    let audiences: string[] | undefined;
    // Computed at the first token, once the app's global prefix is settled.
    this.audiences = () =>
      (audiences ??= options.audience !== undefined ? [options.audience].flat() : [servedResource(String(options.resource))]);
  }

  /** Discovers the authorization server; throws a coded boot error when it cannot be used. */
  async start(): Promise<void> {
    const { issuer, introspection } = this.options;
    const timeoutMs = this.options.timeoutMs ?? OAUTH_DEFAULTS.timeoutMs;
    const metadata = await discoverAuthorizationServer(issuer, timeoutMs);
    if (metadata.jwks_uri)
      this.jwt = new JwtVerifier(
        {
          jwksUrl: metadata.jwks_uri,
          issuer,
          audience: this.audiences(),
          algorithms: this.options.algorithms ?? [...OAUTH_DEFAULTS.algorithms],
        },
        {
          cooldownMs: this.options.jwksCooldownMs ?? OAUTH_DEFAULTS.jwksCooldownMs,
          timeoutMs,
          outage: { message: Messages.unavailable, retryAfterMs: OUTAGE_RETRY_AFTER_MS },
          toPrincipal: (claims) => this.principalOf(claims),
        },
      );
    if (introspection) {
      const endpoint = metadata.introspection_endpoint;
      if (!endpoint)
        throw new McpConfigurationError(
          Messages.metadataUnusable(
            issuer,
            'lists no introspection_endpoint; remove auth.oauth.introspection or enable introspection there',
          ),
        );
      const methods = metadata.introspection_endpoint_auth_methods_supported;
      this.introspector = new TokenIntrospector({
        endpoint,
        clientAuth: methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post') ? 'post' : 'basic',
        clientId: introspection.clientId,
        clientSecret: introspection.clientSecret,
        issuer,
        audiences: this.audiences,
        toPrincipal: (claims) => this.principalOf(claims),
        cacheMaxMs: introspection.cacheMaxMs ?? OAUTH_DEFAULTS.cacheMaxMs,
        cacheMaxEntries: introspection.cacheMaxEntries ?? OAUTH_DEFAULTS.cacheMaxEntries,
        timeoutMs,
        retryAfterMs: OUTAGE_RETRY_AFTER_MS,
        maxRequestsPerMinute: introspection.maxRequestsPerMinute ?? OAUTH_DEFAULTS.introspectionsPerMinute,
        maxConcurrent: introspection.maxConcurrent ?? OAUTH_DEFAULTS.introspectionsInFlight,
      });
    }
    if (!this.jwt && !this.introspector)
      throw new McpConfigurationError(
        Messages.metadataUnusable(issuer, 'lists no jwks_uri; configure auth.oauth.introspection for its opaque tokens'),
      );
  }

  /** Whether a JWT-shaped token claims to come from this issuer (unverified: it only picks the verifier). */
  issued(token: string): boolean {
    try {
      return decodeJwt(token).iss === this.options.issuer;
    } catch {
      return false;
    }
  }

  get introspects(): boolean {
    return this.introspector !== undefined;
  }

  /** A JWT access token: with the JWKS, or introspected when the metadata lists no `jwks_uri`. */
  async verifyJwt(token: string, address?: string): Promise<McpPrincipal> {
    if (this.jwt) return this.jwt.verify(token);
    return this.introspect(token, address);
  }

  /** An opaque token, introspected on the budget of the caller's `address`. */
  async introspect(token: string, address?: string): Promise<McpPrincipal> {
    if (!this.introspector) throw new McpAuthError('INVALID_TOKEN', 'The access token is invalid');
    return this.introspector.verify(token, address);
  }

  /** A client-credentials token may carry no `sub`: its client is the subject then (RFC 9068 §2.2). */
  private principalOf(claims: JWTPayload): McpPrincipal {
    const withSubject = claims.sub === undefined && typeof claims.client_id === 'string' ? { ...claims, sub: claims.client_id } : claims;
    return principalFromClaims(withSubject, this.options.tenantClaim ?? OAUTH_DEFAULTS.tenantClaim);
  }
}
