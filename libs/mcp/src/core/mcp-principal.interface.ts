/**
 * Who is calling: produced by an authenticator from the request's credentials (or the environment over stdio).
 * @publicApi
 */
export interface McpPrincipal {
  /** Stable id of the caller (JWT `sub`, API key id). */
  subject: string;
  /** Data partition the caller may see; every stored record is keyed by it. */
  tenant: string;
  scopes: string[];
  /** Verified token claims (never the raw token). */
  claims: Record<string, unknown>;
}
