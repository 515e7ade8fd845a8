import type { McpAuthenticator } from './mcp-authenticator.interface.js';

/** JWT Bearer verification (jose). Exactly one key source: `secret`, `publicKey` or `jwksUrl`. @publicApi */
export interface McpJwtOptions {
  /** HS256 shared secret (at least 32 characters). */
  secret?: string;
  /** PEM public key (SPKI) for RS256/ES256. */
  publicKey?: string;
  /** JWKS URL; keys are cached and refreshed when an unknown `kid` appears. */
  jwksUrl?: string;
  /** Accepted algorithms; defaults: HS256 for a secret, RS256 and ES256 for public keys. `none` is never accepted. */
  algorithms?: string[];
  issuer?: string | string[];
  /** Expected `aud`: this server's resource URL (tokens for other resources are rejected). */
  audience?: string | string[];
  /** Leeway for `exp`/`nbf`/`iat`, in seconds (5). */
  clockToleranceSec?: number;
  /** Refuse tokens without an `exp` claim (true): such a token, once leaked, would work forever. */
  requireExp?: boolean;
  /** Longest accepted lifetime in seconds (86 400): `exp` further beyond now (or `iat`) is refused, as is a future `iat`. */
  maxTokenLifetimeSec?: number;
  /** Claim holding the tenant (`tenant_id`, falling back to `sub`). */
  tenantClaim?: string;
}

/** RFC 7662 introspection of opaque access tokens, as a confidential client of the authorization server. @publicApi */
export interface McpOAuthIntrospectionOptions {
  clientId: string;
  clientSecret: string;
  /** How long an introspection answer is reused (60 000 ms, never past `exp`): a revoked token works at most this long. */
  cacheMaxMs?: number;
  /** Most answers kept (10 000), and as many refusals (each kept 30 s); the oldest goes first. */
  cacheMaxEntries?: number;
  /** Introspection requests one caller address may cause per minute (300); beyond, 429 with `Retry-After`. */
  maxRequestsPerMinute?: number;
  /** Introspection requests of one caller address in flight at once (10); beyond, 503 with `Retry-After`. */
  maxConcurrent?: number;
}

/**
 * A real OAuth 2.1 authorization server (Keycloak, Auth0, Entra ID, oidc-provider...): its metadata is discovered
 * at boot (RFC 8414, else OpenID discovery), JWT access tokens are verified with its `jwks_uri`, opaque ones through
 * introspection (RFC 7662). A token must come from `issuer` and name this server's resource in `aud` (RFC 8707).
 * @publicApi
 */
export interface McpOAuthOptions {
  /** The authorization server's issuer identifier, exactly as its metadata's `issuer` (e.g. `https://idp.example.com/realms/acme`). */
  issuer: string;
  /** This server's MCP URL (`https://mcp.example.com/mcp`): RFC 9728 `resource`, default audience; else `resourceMetadata`'s. */
  resource?: string;
  /** Accepted `aud` values (default: `resource`); a token naming none of them is refused. */
  audience?: string | string[];
  /** Claim holding the tenant (`tenant_id`, falling back to `sub`). */
  tenantClaim?: string;
  /** Accepted JWT algorithms (RS256, ES256, PS256, EdDSA). */
  algorithms?: string[];
  /** Least time between two JWKS downloads on an unknown `kid`, in ms (30 000): the refresh is rate-limited. */
  jwksCooldownMs?: number;
  /** Time allowed to the metadata, JWKS and introspection requests, in ms (5 000). */
  timeoutMs?: number;
  /** Turns on opaque tokens. */
  introspection?: McpOAuthIntrospectionOptions;
}

/** The OpenID provider users sign in with through the bridge, and this server's confidential client there. @publicApi */
export interface McpOAuthBridgeUpstreamOptions {
  /** The provider's issuer, exactly as its OpenID discovery document's `issuer` (e.g. `https://accounts.google.com`). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Scopes asked of the provider (`openid email`). */
  scopes?: string[];
  /** Claim of the signed-in user that holds the tenant (`sub`: one tenant per user). */
  tenantClaim?: string;
}

/**
 * Which scopes a user signed in through the bridge may be granted, from their claims at the upstream provider (the
 * ID token's, completed by userinfo): each value of the claim `fromClaim` (`groups` by default; a string or an array
 * of strings) maps to scopes in `map`. A value `map` does not name grants nothing.
 * @publicApi
 * @example { fromClaim: 'groups', map: { 'weather-admins': ['weather:read', 'admin'], staff: ['weather:read'] } }
 */
export interface McpOAuthBridgeScopeMapping {
  fromClaim?: string;
  map: Record<string, string[]>;
}

/**
 * The scopes a signed-in user may be granted: a mapping of one claim's values, or a function of all their claims.
 * @publicApi
 */
export type McpOAuthBridgeScopes =
  McpOAuthBridgeScopeMapping | ((claims: Readonly<Record<string, unknown>>) => readonly string[] | Promise<readonly string[]>);

/**
 * The library as the authorization server MCP clients see (RFC 8414 metadata, dynamic client registration, PKCE,
 * consent, token, refresh and revocation), signing users in at an upstream OpenID provider that offers no client
 * registration (Google, Entra ID, many Keycloaks). It issues its own access tokens, bound to this server's resource.
 * @publicApi
 */
export interface McpOAuthBridgeOptions {
  upstream: McpOAuthBridgeUpstreamOptions;
  /** This server's MCP URL (`https://mcp.example.com/mcp`), the tokens' audience; else `auth.resourceMetadata.resource`. */
  resource?: string;
  /** This authorization server's issuer: the origin of `resource` by default (its endpoints live under `/oauth/`). */
  issuer?: string;
  /** HS256 key of the access tokens it issues (at least 32 characters). Keep it secret; rotating it signs everyone out. */
  signingSecret: string;
  /**
   * The scopes a signed-in user may be granted, from their upstream claims (none by default: a user may call the
   * tools that require no scope). A client gets those it asks for among them, or all of them when it asks for none.
   */
  scopes?: McpOAuthBridgeScopes;
  /** Access-token lifetime, ms (3 600 000). */
  accessTokenTtlMs?: number;
  /** Refresh-token (grant) lifetime, ms (2 592 000 000, 30 days); each refresh rotates the token. */
  refreshTokenTtlMs?: number;
  /** Accept https `client_id` URLs whose metadata document (5 KiB, no redirect) lists the redirect URI (true). */
  clientIdMetadataDocuments?: boolean;
  /**
   * Also accept `http://127.0.0.1/...` (loopback) client ID URLs and fetch client documents from loopback addresses
   * (false): for tests and local development only. Private, link-local and other non-public addresses are refused always.
   */
  allowHttpLoopbackClientIds?: boolean;
  /** Registrations, authorization starts and client-document fetches per minute, each, per caller address and per client (60). */
  maxRequestsPerMinute?: number;
  /** The same, for all callers together (3 000): what one instance of this server serves at most. */
  maxRequestsPerMinuteTotal?: number;
  /** Live grants per tenant (100); a new one beyond is refused until one ends. */
  maxGrantsPerTenant?: number;
  /** Time allowed to requests to the upstream provider, in ms (5 000). */
  timeoutMs?: number;
}

/** One API key and who it stands for. @publicApi */
export interface McpApiKey {
  key: string;
  tenant: string;
  scopes?: string[];
  /** Subject of the principal (defaults to `api-key:<tenant>:<index>`). */
  subject?: string;
}

/** OAuth 2.1 resource-server metadata (RFC 9728), served at `/.well-known/oauth-protected-resource`. @publicApi */
export interface McpResourceMetadataOptions {
  /** This server's resource identifier, e.g. `https://mcp.example.com/mcp`. */
  resource: string;
  authorizationServers: string[];
  scopesSupported?: string[];
  resourceName?: string;
}

/** Authentication of every MCP route; without any, access is open (tenant `default`) with a boot warning. @publicApi */
export interface McpAuthOptions {
  jwt?: McpJwtOptions;
  /** An OAuth 2.1 authorization server; may sit beside `jwt` (tokens are told apart by `iss`) and `apiKeys`. */
  oauth?: McpOAuthOptions;
  /** The authorization-server bridge to an OpenID provider without client registration (not beside `oauth`). */
  bridge?: McpOAuthBridgeOptions;
  apiKeys?: McpApiKey[];
  /** Your own authenticator; it replaces `jwt`, `oauth` and `apiKeys`. */
  authenticator?: McpAuthenticator;
  resourceMetadata?: McpResourceMetadataOptions;
}
