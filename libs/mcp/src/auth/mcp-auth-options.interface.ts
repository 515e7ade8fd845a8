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
  /**
   * Longest accepted token lifetime, in seconds (86 400, one day): a token whose `exp` lies further than this
   * beyond now, or beyond its `iat` when present, is refused (as is an `iat` in the future).
   */
  maxTokenLifetimeSec?: number;
  /** Claim holding the tenant (`tenant_id`, falling back to `sub`). */
  tenantClaim?: string;
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

/**
 * Authentication of every MCP route. Without any of `jwt`, `apiKeys` or `authenticator`, access is open
 * (tenant `default`) and a warning is logged at boot.
 * @publicApi
 */
export interface McpAuthOptions {
  jwt?: McpJwtOptions;
  apiKeys?: McpApiKey[];
  /** Your own authenticator; it replaces `jwt` and `apiKeys`. */
  authenticator?: McpAuthenticator;
  resourceMetadata?: McpResourceMetadataOptions;
}
