import { createPublicKey, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { McpPrincipal } from '../core/mcp-principal.interface.js';
import type { McpJwtOptions } from '../options/mcp-auth-options.interface.js';
import { McpAuthError } from './mcp-auth.error.js';
import { JWT_LIFETIME_DEFAULTS } from '../options/declarations/auth.options.js';
import { principalFromClaims } from './principal-claims.js';
import { McpAuthUnavailableError } from './mcp-auth-unavailable.error.js';

/** How a JWKS is fetched, and what an outage of it becomes (by default: the token is refused, 401). */
export interface JwksTuning {
  cooldownMs?: number;
  timeoutMs?: number;
  /** When set, a JWKS that cannot be read is a 503 (`McpAuthUnavailableError`) with this message and hint. */
  outage?: { message: string; retryAfterMs: number };
  /** Claims → principal (default: `principalFromClaims` with the tenant claim). */
  toPrincipal?: (claims: JWTPayload) => McpPrincipal;
}

/** jose's errors that mean the key set could not be read, not that the token is bad. */
function isJwksOutage(error: unknown): boolean {
  if (!(error instanceof errors.JOSEError)) return true;
  return error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || error.code === 'ERR_JOSE_GENERIC';
}

/** Verifies JWT Bearer tokens with jose, then the lifetime rules jose leaves to us (`exp` required and bounded, no future `iat`). */
export class JwtVerifier {
  private readonly key: Uint8Array | KeyObject | JWTVerifyGetKey;
  private readonly algorithms: string[];

  constructor(
    private readonly options: McpJwtOptions,
    private readonly jwks: JwksTuning = {},
  ) {
    this.algorithms = options.algorithms ?? (options.secret !== undefined ? ['HS256'] : ['RS256', 'ES256']);
    // A JWKS is cached; an unknown `kid` triggers a refetch, at most every 30 s (jose's cooldown).
    if (options.secret !== undefined) this.key = new TextEncoder().encode(options.secret);
    else if (options.publicKey !== undefined) this.key = createPublicKey(options.publicKey);
    else
      this.key = createRemoteJWKSet(new URL(String(options.jwksUrl)), {
        cacheMaxAge: 10 * 60_000,
        cooldownDuration: jwks.cooldownMs ?? 30_000,
        ...(jwks.timeoutMs !== undefined && { timeoutDuration: jwks.timeoutMs }),
      });
  }

  async verify(token: string): Promise<McpPrincipal> {
    try {
      const { payload } = await jwtVerify(token, this.key as Uint8Array, {
        algorithms: this.algorithms,
        issuer: this.options.issuer,
        audience: this.options.audience,
        clockTolerance: this.options.clockToleranceSec ?? JWT_LIFETIME_DEFAULTS.clockToleranceSec,
      });
      this.checkLifetime(payload);
      return this.jwks.toPrincipal ? this.jwks.toPrincipal(payload) : principalFromClaims(payload, this.options.tenantClaim);
    } catch (error) {
      if (error instanceof McpAuthError) throw error;
      const outage = this.jwks.outage;
      if (outage && this.options.jwksUrl !== undefined && isJwksOutage(error))
        throw new McpAuthUnavailableError(outage.message, outage.retryAfterMs);
      if (error instanceof errors.JWTExpired) throw new McpAuthError('TOKEN_EXPIRED', 'The access token has expired');
      throw new McpAuthError('INVALID_TOKEN', 'The access token is invalid');
    }
  }

  /** jose has checked that `exp` and `iat`, when present, are numbers and that `exp` has not passed. */
  private checkLifetime(payload: JWTPayload): void {
    const now = Math.floor(Date.now() / 1000);
    const tolerance = this.options.clockToleranceSec ?? JWT_LIFETIME_DEFAULTS.clockToleranceSec;
    const maxLifetime = this.options.maxTokenLifetimeSec ?? JWT_LIFETIME_DEFAULTS.maxTokenLifetimeSec;
    const { exp, iat } = payload;
    if (iat !== undefined && iat > now + tolerance) throw new McpAuthError('INVALID_TOKEN', 'The access token is issued in the future');
    if (exp === undefined) {
      if (this.options.requireExp ?? JWT_LIFETIME_DEFAULTS.requireExp)
        throw new McpAuthError('INVALID_TOKEN', 'The access token has no expiry (exp)');
      return;
    }
    const start = iat === undefined ? now : Math.min(iat, now);
    if (exp - start > maxLifetime + tolerance)
      throw new McpAuthError('INVALID_TOKEN', 'The access token lives longer than this server accepts');
  }
}
