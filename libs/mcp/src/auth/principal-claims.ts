import type { JWTPayload } from 'jose';
import type { McpPrincipal } from '../core/mcp-principal.interface.js';
import { McpAuthError } from './mcp-auth.error.js';

/** Verified claims → principal: tenant from the tenant claim (else `sub`), scopes from `scope` or `scp`. */
export function principalFromClaims(claims: JWTPayload, tenantClaim = 'tenant_id'): McpPrincipal {
  const subject = typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : undefined;
  const tenantValue = claims[tenantClaim];
  const tenant = typeof tenantValue === 'string' && tenantValue !== '' ? tenantValue : subject;
  if (!subject || !tenant) throw new McpAuthError('INVALID_TOKEN', 'The token has no subject');
  return { subject, tenant, scopes: scopesOf(claims), claims: { ...claims } };
}

function scopesOf(claims: JWTPayload): string[] {
  if (typeof claims.scope === 'string') return claims.scope.split(' ').filter(Boolean);
  const scp = claims.scp;
  if (Array.isArray(scp)) return scp.filter((scope): scope is string => typeof scope === 'string');
  if (typeof scp === 'string') return scp.split(' ').filter(Boolean);
  return [];
}
