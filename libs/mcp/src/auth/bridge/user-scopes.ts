import type { McpOAuthBridgeScopes } from '../../options/mcp-auth-options.interface.js';

/** An RFC 6749 §3.3 scope token. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * The scopes `auth.bridge.scopes` lets a user with `claims` be granted: the mapped values of its claim, or what its
 * function answers (scope tokens only, each once). None without a mapping.
 */
export async function userScopes(scopes: McpOAuthBridgeScopes | undefined, claims: Readonly<Record<string, unknown>>): Promise<string[]> {
  if (!scopes) return [];
  let granted: readonly unknown[];
  if (typeof scopes === 'function') granted = await scopes(Object.freeze({ ...claims }));
  else {
    const value = claims[scopes.fromClaim ?? 'groups'];
    const held = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string');
    // Own keys only: a group named `constructor` or `__proto__` maps to nothing.
    granted = held.flatMap((item) => (Object.hasOwn(scopes.map, item) ? scopes.map[item] : []));
  }
  if (!Array.isArray(granted)) return [];
  return [...new Set(granted.filter((scope): scope is string => typeof scope === 'string' && SCOPE_TOKEN.test(scope)))];
}

/** Every scope a mapping can grant (a function's cannot be known ahead). */
export function mappedScopes(scopes: McpOAuthBridgeScopes | undefined): string[] {
  return scopes && typeof scopes !== 'function' ? [...new Set(Object.values(scopes.map).flat())] : [];
}
