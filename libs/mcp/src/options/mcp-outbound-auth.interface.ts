/**
 * This server as an OAuth client of an authorization server: where its token endpoint is (`issuer`, discovered by
 * RFC 8414 / OpenID discovery, or `tokenEndpoint`), how it signs in there, and what the token it asks for is for.
 * @publicApi
 */
export interface McpOAuthClientOptions {
  /** The authorization server's issuer URL; its metadata names the token endpoint. Give this or `tokenEndpoint`. */
  issuer?: string;
  /** The token endpoint itself. Give this or `issuer`. */
  tokenEndpoint?: string;
  /** This server's client id at the authorization server. */
  clientId: string;
  /** Its secret. */
  clientSecret: string;
  /** How the client authenticates at the token endpoint (`client_secret_basic`). */
  clientAuthMethod?: 'client_secret_basic' | 'client_secret_post';
  /** The target service's resource indicator (RFC 8707): the `aud` of the token asked for. */
  resource?: string;
  /** The target service's logical name (RFC 8693 `audience`), when the authorization server knows it so. */
  audience?: string;
  /** Scopes asked for. */
  scopes?: string[];
  /** Time one token request may take, in ms (5 000). */
  timeoutMs?: number;
  /** Tokens kept at once (1 000; for token exchange one per caller token), the least recently used dropped first. */
  maxCachedTokens?: number;
}

/**
 * The credential a call to another service carries (an upstream MCP server, an OpenAPI source's API). The caller's
 * own token is not passed on (its audience is this server): either
 * - `tokenExchange`: OAuth 2.0 Token Exchange (RFC 8693) on behalf of the caller: its access token is exchanged at
 *   the authorization server for one whose audience is the target service, cached per caller token until shortly
 *   before it expires; a caller without a token is refused;
 * - `clientCredentials`: this server's own identity (the OAuth client credentials grant), one token for every caller.
 *
 * Forwarding the caller's `Authorization` (`forwardAuthorization: true` beside `auth`) is only for one trust domain,
 * an API that accepts the very tokens this server does, and is refused at boot with `auth.oauth`.
 * @publicApi
 * @example
 * { name: 'crm', url: 'https://crm.internal/mcp', auth: { tokenExchange: { issuer: 'https://login.example.com',
 *   clientId: 'gateway', clientSecret: process.env.GATEWAY_SECRET!, resource: 'https://crm.internal/mcp' } } }
 */
export type McpOutboundAuth =
  | { tokenExchange: McpOAuthClientOptions }
  | { clientCredentials: McpOAuthClientOptions }
  | { authorizationCode: McpUserAuthorizationOptions };

/**
 * `confirmUser` of {@link McpUserAuthorizationOptions}: `'same-subject'`, `'unverified'`, or a function that accepts
 * the gateway user who started the flow given the verified ID token claims of the person who completed it.
 * @publicApi
 */
export type McpUpstreamUserConfirmation =
  | 'same-subject'
  | 'unverified'
  | ((user: { tenant?: string; subject: string }, claims: Record<string, unknown>) => boolean | Promise<boolean>);

/**
 * Per-user authorization of an upstream MCP server (`auth: { authorizationCode }`, upstreams only): each signed-in
 * user of this server connects their own account at the upstream's authorization server once (the authorization code
 * flow with PKCE and the upstream's resource indicator, run at this server's `/mcp-upstream-auth/*` routes); their
 * calls then carry their own upstream token, refreshed with its refresh token, kept per user (tenant and subject) in
 * the module's store sealed with `encryptionKey`. The first call of a user not connected yet answers
 * `UPSTREAM_AUTHORIZATION_REQUIRED` with the URL to open (a URL-mode elicitation for a 2026-07-28 client that
 * declared `elicitation.url`). The gateway's own connection (listing, pings) signs in with client credentials of
 * the same client. Needs inbound authentication (a user to connect).
 * @publicApi
 */
export interface McpUserAuthorizationOptions extends McpOAuthClientOptions {
  /**
   * How the gateway makes sure the person who completes the sign-in is the user the link was handed to (required):
   * otherwise a user could send their own link to someone else, whose account would then act for the sender.
   * - `'same-subject'`: the flow asks for `openid`, and the ID token's `sub` (issuer, audience, nonce and signature
   *   checked) must be the gateway user's subject: for a gateway and an upstream that share one identity provider;
   * - a function given the gateway user and the verified ID token's claims, true to accept: a mapping between two
   *   identity providers;
   * - `'unverified'`: nothing checked (a boot warning says so): whoever opens the link connects their account.
   */
  confirmUser: McpUpstreamUserConfirmation;
  /** The authorization server's issuer URL (its metadata names the authorization, token and revocation endpoints). */
  issuer: string;
  /** This server's public origin as the user's browser reaches it (`https://gateway.example.com`): the URL handed out and the redirect URI start there. */
  publicUrl: string;
  /** Seals each user's tokens (AES-256-GCM) before they reach the store: at least 32 characters, from a secret store. */
  encryptionKey: string;
  /** How long a URL handed out, and then the sign-in it starts, may take, in ms (10 min). */
  flowTtlMs?: number;
  /** How long a user's connection is kept without use, in ms (30 days; the refresh token may end it sooner). */
  connectionTtlMs?: number;
}
