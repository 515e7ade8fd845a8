import type { McpPrincipal } from '../core/mcp-principal.interface.js';

/** Credentials as a transport found them (HTTP headers, or the environment over stdio). @publicApi */
export interface McpCredentials {
  /** The token of `Authorization: Bearer <token>`. */
  bearer?: string;
  /** The value of `X-API-Key`. */
  apiKey?: string;
  /** All request headers (lower-case names); empty over stdio. */
  headers: Record<string, string | string[] | undefined>;
  /** The caller's address over HTTP (`X-Forwarded-For`'s last entry with `http.trustProxy`); introspection is bounded per address. */
  address?: string;
}

/** Turns credentials into a principal: `undefined` when none were given, `McpAuthError` when they are wrong. @publicApi */
export interface McpAuthenticator {
  authenticate(credentials: McpCredentials): Promise<McpPrincipal | undefined>;
}
