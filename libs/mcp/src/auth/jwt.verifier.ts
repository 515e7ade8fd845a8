import { createPublicKey, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { McpPrincipal } from '../interfaces/mcp-principal.interface.js';
import type { McpJwtOptions } from './mcp-auth-options.interface.js';
import { McpAuthError } from './mcp-auth.error.js';
import { principalFromClaims } from './principal-claims.js';

/** Verifies JWT Bearer tokens with jose: signature, algorithm allow-list, exp/nbf, iss and aud. */
export class JwtVerifier {
  private readonly key: Uint8Array | KeyObject | JWTVerifyGetKey;
  private readonly algorithms: string[];

  constructor(private readonly options: McpJwtOptions) {
    if (options.secret !== undefined) {
      this.key = new TextEncoder().encode(options.secret);
      this.algorithms = options.algorithms ?? ['HS256'];
    } else if (options.publicKey !== undefined) {
      this.key = createPublicKey(options.publicKey);
      this.algorithms = options.algorithms ?? ['RS256', 'ES256'];
    } else {
      // Cached; an unknown `kid` triggers a refetch, at most every 30 s.
      this.key = createRemoteJWKSet(new URL(String(options.jwksUrl)), { cacheMaxAge: 10 * 60_000, cooldownDuration: 30_000 });
      this.algorithms = options.algorithms ?? ['RS256', 'ES256'];
    }
  }

  async verify(token: string): Promise<McpPrincipal> {
    try {
      const { payload } = await jwtVerify(token, this.key as Uint8Array, {
        algorithms: this.algorithms,
        issuer: this.options.issuer,
        audience: this.options.audience,
        clockTolerance: this.options.clockToleranceSec ?? 5,
      });
      return principalFromClaims(payload, this.options.tenantClaim);
    } catch (error) {
      if (error instanceof McpAuthError) throw error;
      if (error instanceof errors.JWTExpired) throw new McpAuthError('TOKEN_EXPIRED', 'The access token has expired');
      throw new McpAuthError('INVALID_TOKEN', 'The access token is invalid');
    }
  }
}
