import { createPublicKey } from 'node:crypto';
import type { McpAuthenticator } from '../mcp-authenticator.interface.js';
import type {
  McpApiKey,
  McpAuthOptions,
  McpJwtOptions,
  McpOAuthBridgeOptions,
  McpOAuthBridgeScopes,
  McpOAuthBridgeUpstreamOptions,
  McpOAuthIntrospectionOptions,
  McpOAuthOptions,
  McpResourceMetadataOptions,
} from '../mcp-auth-options.interface.js';
import { group, invalidOption, list, option, optional } from '../option.builder.js';
import { checkHttpUrl, checked, flag, given, nonNegativeInteger, positiveInteger, required } from '../option.values.js';

/** Defaults of the token-lifetime rules (the JWT verifier falls back on them too). */
export const JWT_LIFETIME_DEFAULTS = { requireExp: true, maxTokenLifetimeSec: 86_400, clockToleranceSec: 5 } as const;

/** A URL checked and kept as the user wrote it. */
const keptHttpUrl = <T extends string | undefined>() => option<string, T>((value, at) => (checkHttpUrl(value, at), value as T));

const requiredHttpUrl = (what: string) =>
  option<string, string>((url, at) => {
    if (!checkHttpUrl(url, at)) throw invalidOption(at, `is required: ${what}`);
    return url!;
  });

function isPublicKey(pem: string): boolean {
  try {
    return createPublicKey(pem) !== undefined;
  } catch {
    return false;
  }
}

/** `auth.jwt`: exactly one key source, no `none`, HMAC algorithms only with a secret; the lifetime rules defaulted. */
const JWT = group<McpJwtOptions>()(
  {
    secret: checked<string>(
      (secret) => typeof secret === 'string' && secret.length >= 32,
      'must be at least 32 characters (HS256 needs 256 bits of key)',
    ),
    publicKey: checked<string>(isPublicKey, 'is not a PEM public key'),
    jwksUrl: keptHttpUrl<string | undefined>(),
    algorithms: checked<string[]>((algorithms) => !algorithms.some((name) => name.toLowerCase() === 'none'), 'must not contain "none"'),
    issuer: given<string | string[]>(),
    audience: given<string | string[]>(),
    clockToleranceSec: nonNegativeInteger(JWT_LIFETIME_DEFAULTS.clockToleranceSec),
    requireExp: flag(JWT_LIFETIME_DEFAULTS.requireExp),
    maxTokenLifetimeSec: positiveInteger(JWT_LIFETIME_DEFAULTS.maxTokenLifetimeSec),
    tenantClaim: given<string>(),
  },
  {
    finish: (jwt, at) => {
      if ([jwt.secret, jwt.publicKey, jwt.jwksUrl].filter((source) => source !== undefined).length !== 1)
        throw invalidOption(at, 'needs exactly one of secret, publicKey or jwksUrl');
      if (jwt.secret !== undefined && jwt.algorithms?.some((algorithm) => !algorithm.startsWith('HS')))
        throw invalidOption(`${at}.algorithms`, 'must be HMAC algorithms (HS256...) with a secret');
      return jwt;
    },
  },
);

/** One `auth.apiKeys` entry: a key long enough not to be guessed, and the tenant it stands for. */
const API_KEY = group<McpApiKey>()({
  key: required<string>((key) => typeof key === 'string' && key.length >= 16, 'must be a string of at least 16 characters'),
  tenant: required<string>((tenant) => typeof tenant === 'string' && tenant !== '', 'must be a non-empty string'),
  scopes: given<string[]>(),
  subject: given<string>(),
});

/** `auth.resourceMetadata` (RFC 9728). */
const RESOURCE_METADATA = group<McpResourceMetadataOptions>()({
  resource: keptHttpUrl<string>(),
  authorizationServers: required<string[]>(
    (servers) => Array.isArray(servers) && servers.length > 0,
    'must list at least one authorization server',
  ),
  scopesSupported: given<string[]>(),
  resourceName: given<string>(),
});

/** Defaults of `auth.oauth` (the resource server falls back on them too). */
export const OAUTH_DEFAULTS = {
  tenantClaim: 'tenant_id',
  algorithms: ['RS256', 'ES256', 'PS256', 'EdDSA'],
  jwksCooldownMs: 30_000,
  timeoutMs: 5_000,
  cacheMaxMs: 60_000,
  cacheMaxEntries: 10_000,
  introspectionsPerMinute: 300,
  introspectionsInFlight: 10,
} as const;

const nonEmptyString = (what: string) =>
  required<string>((value) => typeof value === 'string' && value !== '', `must be a non-empty string (${what})`);

/** `auth.oauth.introspection`: the resource server's own client credentials at the authorization server. */
const INTROSPECTION = group<McpOAuthIntrospectionOptions>()({
  clientId: nonEmptyString('the client id this server introspects with'),
  clientSecret: nonEmptyString('the secret of that client'),
  cacheMaxMs: nonNegativeInteger(OAUTH_DEFAULTS.cacheMaxMs),
  cacheMaxEntries: positiveInteger(OAUTH_DEFAULTS.cacheMaxEntries),
  maxRequestsPerMinute: positiveInteger(OAUTH_DEFAULTS.introspectionsPerMinute),
  maxConcurrent: positiveInteger(OAUTH_DEFAULTS.introspectionsInFlight),
});

/** `auth.oauth`: an issuer URL and this server's resource (given here or in `resourceMetadata`). */
const OAUTH = group<McpOAuthOptions>()({
  issuer: requiredHttpUrl("the authorization server's issuer URL"),
  resource: keptHttpUrl<string | undefined>(),
  audience: checked<string | string[]>(
    (audience) =>
      Array.isArray(audience) ? audience.length > 0 && audience.every((item) => typeof item === 'string') : typeof audience === 'string',
    'must be a string or a non-empty array of strings',
  ),
  tenantClaim: given<string>(),
  algorithms: checked<string[]>(
    (algorithms) =>
      Array.isArray(algorithms) && algorithms.length > 0 && algorithms.every((name) => /^(RS|ES|PS)\d{3}$|^EdDSA$/.test(name)),
    'must list asymmetric algorithms (RS256, ES256, PS256, EdDSA...): an authorization server signs with a private key',
  ),
  jwksCooldownMs: nonNegativeInteger(OAUTH_DEFAULTS.jwksCooldownMs),
  timeoutMs: positiveInteger(OAUTH_DEFAULTS.timeoutMs),
  introspection: optional(INTROSPECTION, (introspection) => !introspection),
});

/** Defaults of `auth.bridge` (the bridge falls back on them too). */
export const OAUTH_BRIDGE_DEFAULTS = {
  upstreamScopes: ['openid', 'email'],
  upstreamTenantClaim: 'sub',
  accessTokenTtlMs: 3_600_000,
  refreshTokenTtlMs: 2_592_000_000,
  maxRequestsPerMinute: 60,
  maxRequestsPerMinuteTotal: 3_000,
  scopesFromClaim: 'groups',
  maxGrantsPerTenant: 100,
  timeoutMs: 5_000,
} as const;

/** `auth.bridge.upstream`: the OpenID provider and this server's confidential client there. */
const BRIDGE_UPSTREAM = group<McpOAuthBridgeUpstreamOptions>()(
  {
    issuer: requiredHttpUrl("the OpenID provider's issuer URL"),
    clientId: nonEmptyString("this server's client id at the provider"),
    clientSecret: nonEmptyString('the secret of that client'),
    scopes: checked<string[]>(
      (scopes) => Array.isArray(scopes) && scopes.includes('openid') && scopes.every((scope) => typeof scope === 'string'),
      'must be an array of strings holding "openid"',
    ),
    tenantClaim: given<string>(),
  },
  { object: '{ issuer, clientId, clientSecret }' },
);

const SCOPE_MAPPING_SHAPE = "{ fromClaim?: 'groups', map: { '<claim value>': ['<scope>', ...] } } or (claims) => string[]";

/**
 * `auth.bridge.scopes`: a function, or a mapping whose every value lists scopes. An array (0.x: the scopes anyone who
 * signed in got) is refused: it would grant every user every scope listed.
 */
function bridgeScopes(scopes: McpOAuthBridgeScopes | undefined, at: string): McpOAuthBridgeScopes | undefined {
  if (scopes === undefined || typeof scopes === 'function') return scopes;
  if (Array.isArray(scopes))
    throw invalidOption(
      at,
      `maps upstream claims to scopes now, ${SCOPE_MAPPING_SHAPE}; a list would grant every user who signs in every scope`,
    );
  if (scopes === null || typeof scopes !== 'object') throw invalidOption(at, `must be ${SCOPE_MAPPING_SHAPE}`);
  const unknown = Object.keys(scopes).filter((key) => key !== 'fromClaim' && key !== 'map');
  if (unknown.length > 0) throw invalidOption(at, `has unknown keys (${unknown.join(', ')}); it is ${SCOPE_MAPPING_SHAPE}`);
  if (scopes.fromClaim !== undefined && (typeof scopes.fromClaim !== 'string' || scopes.fromClaim === ''))
    throw invalidOption(`${at}.fromClaim`, 'must be a non-empty claim name');
  const map: unknown = scopes.map;
  if (map === null || typeof map !== 'object' || Array.isArray(map))
    throw invalidOption(`${at}.map`, `is required: ${SCOPE_MAPPING_SHAPE}`);
  for (const [value, granted] of Object.entries(map))
    if (!Array.isArray(granted) || !granted.every((scope) => typeof scope === 'string' && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope)))
      throw invalidOption(`${at}.map["${value}"]`, 'must be an array of scopes (RFC 6749 scope tokens: no space, quote or backslash)');
  return { fromClaim: scopes.fromClaim ?? OAUTH_BRIDGE_DEFAULTS.scopesFromClaim, map: { ...(map as Record<string, string[]>) } };
}

/** `auth.bridge`: an upstream, a signing secret long enough for HS256, and bounded lifetimes. */
const BRIDGE = group<McpOAuthBridgeOptions>()({
  upstream: BRIDGE_UPSTREAM,
  resource: keptHttpUrl<string | undefined>(),
  issuer: keptHttpUrl<string | undefined>(),
  signingSecret: required<string>(
    (secret) => typeof secret === 'string' && secret.length >= 32,
    'is required and must be at least 32 characters (HS256 needs 256 bits of key)',
  ),
  scopes: option<McpOAuthBridgeScopes, McpOAuthBridgeScopes | undefined>((scopes, at) => bridgeScopes(scopes, at)),
  accessTokenTtlMs: positiveInteger(OAUTH_BRIDGE_DEFAULTS.accessTokenTtlMs),
  refreshTokenTtlMs: positiveInteger(OAUTH_BRIDGE_DEFAULTS.refreshTokenTtlMs),
  clientIdMetadataDocuments: flag(true),
  allowHttpLoopbackClientIds: flag(false),
  maxRequestsPerMinute: positiveInteger(OAUTH_BRIDGE_DEFAULTS.maxRequestsPerMinute),
  maxRequestsPerMinuteTotal: positiveInteger(OAUTH_BRIDGE_DEFAULTS.maxRequestsPerMinuteTotal),
  maxGrantsPerTenant: positiveInteger(OAUTH_BRIDGE_DEFAULTS.maxGrantsPerTenant),
  timeoutMs: positiveInteger(OAUTH_BRIDGE_DEFAULTS.timeoutMs),
});

/** `auth`: checked for contradictions, so a half-configured server never starts open. */
export const MCP_AUTH_OPTIONS = group<McpAuthOptions>()(
  {
    jwt: optional(JWT, (jwt) => !jwt),
    oauth: optional(OAUTH, (oauth) => !oauth),
    bridge: optional(BRIDGE, (bridge) => !bridge),
    apiKeys: list(API_KEY, 'must be an array of { key, tenant, scopes?, subject? }', {
      check: (keys, at) => {
        if (new Set(keys.map((entry) => entry.key)).size !== keys.length) throw invalidOption(at, 'contains the same key twice');
      },
    }),
    // The user's own object: its members are its business.
    authenticator: given<McpAuthenticator>(),
    resourceMetadata: optional(RESOURCE_METADATA, (metadata) => !metadata),
  },
  {
    finish: (auth, at) => {
      if (auth.authenticator && (auth.jwt || auth.oauth || auth.bridge || auth.apiKeys?.length))
        throw invalidOption(`${at}.authenticator`, 'replaces jwt, oauth, bridge and apiKeys; configure one or the other');
      if (auth.oauth && auth.bridge)
        throw invalidOption(`${at}.bridge`, 'is an authorization server of its own; configure auth.oauth or auth.bridge, not both');
      if (auth.authenticator && typeof auth.authenticator.authenticate !== 'function')
        throw invalidOption(`${at}.authenticator`, 'must have an authenticate(credentials) method');
      return withBridgeResource(withOAuthResource(auth, at), at);
    },
  },
);

/** With `oauth`, the resource defaults to the metadata's and the RFC 9728 document lists the issuer. */
function withOAuthResource<T extends McpAuthOptions>(auth: T, at: string): T {
  const oauth = auth.oauth;
  if (!oauth) return auth;
  const resource = resourceOf(oauth.resource, auth, `${at}.oauth.resource`);
  return { ...auth, oauth: { ...oauth, resource }, resourceMetadata: listing(auth.resourceMetadata, resource, oauth.issuer) };
}

/** With `bridge`, the resource and issuer are settled and the RFC 9728 document names the bridge. */
function withBridgeResource<T extends McpAuthOptions>(auth: T, at: string): T {
  const bridge = auth.bridge;
  if (!bridge) return auth;
  const resource = resourceOf(bridge.resource, auth, `${at}.bridge.resource`);
  const issuer = (bridge.issuer ?? new URL(resource).origin).replace(/\/+$/, '');
  return { ...auth, bridge: { ...bridge, resource, issuer }, resourceMetadata: listing(auth.resourceMetadata, resource, issuer) };
}

function resourceOf(own: string | undefined, auth: McpAuthOptions, at: string): string {
  const resource = own ?? auth.resourceMetadata?.resource;
  if (!resource)
    throw invalidOption(
      at,
      "is required (this server's MCP URL, e.g. https://mcp.example.com/mcp) unless auth.resourceMetadata.resource gives it",
    );
  return resource;
}

/** The RFC 9728 document listing `issuer` (built from it alone when `resourceMetadata` is not given). */
function listing(metadata: McpResourceMetadataOptions | undefined, resource: string, issuer: string): McpResourceMetadataOptions {
  const listed = metadata ?? { resource, authorizationServers: [] };
  const servers = listed.authorizationServers;
  return { ...listed, authorizationServers: servers.includes(issuer) ? servers : [issuer, ...servers] };
}
