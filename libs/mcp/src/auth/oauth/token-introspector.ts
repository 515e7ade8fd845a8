import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import { McpAuthError } from '../mcp-auth.error.js';
import { McpAuthUnavailableError } from '../mcp-auth-unavailable.error.js';
import { McpOAuthMessages as Messages } from './oauth.messages.js';

/** What the introspector needs: where, as whom, what to accept, how long to remember. */
export interface TokenIntrospectorSettings {
  endpoint: string;
  /** `client_secret_basic` unless the server lists only `client_secret_post`. */
  clientAuth: 'basic' | 'post';
  clientId: string;
  clientSecret: string;
  issuer: string;
  audiences: () => string[];
  toPrincipal: (claims: JWTPayload) => McpPrincipal;
  cacheMaxMs: number;
  cacheMaxEntries: number;
  timeoutMs: number;
  retryAfterMs: number;
}

interface Remembered {
  principal: McpPrincipal;
  until: number;
}

const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest('base64url');
/** RFC 6749 §2.3.1: the id and secret are form-encoded before Basic. */
const formEncoded = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');

/**
 * Opaque access tokens through RFC 7662 introspection. Active answers are remembered (by the token's digest) no
 * longer than the token lives and at most `cacheMaxMs`, `cacheMaxEntries` at most; concurrent checks of one token
 * share one request. Inactive answers are not remembered (random tokens must not push good entries out).
 */
export class TokenIntrospector {
  private readonly remembered = new Map<string, Remembered>();
  private readonly inFlight = new Map<string, Promise<McpPrincipal>>();

  constructor(private readonly settings: TokenIntrospectorSettings) {}

  async verify(token: string): Promise<McpPrincipal> {
    const key = digest(token);
    const hit = this.remembered.get(key);
    if (hit && hit.until > Date.now()) return copy(hit.principal);
    if (hit) this.remembered.delete(key);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.introspect(token, key).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return copy(await pending);
  }

  private async introspect(token: string, key: string): Promise<McpPrincipal> {
    const claims = await this.ask(token);
    if (claims.active !== true) throw new McpAuthError('INVALID_TOKEN', 'The access token is not active');
    const now = Date.now();
    if (typeof claims.exp === 'number' && claims.exp * 1000 <= now) throw new McpAuthError('TOKEN_EXPIRED', 'The access token has expired');
    if (claims.iss !== undefined && claims.iss !== this.settings.issuer)
      throw new McpAuthError('INVALID_TOKEN', 'The access token was issued by another authorization server');
    const audiences = Array.isArray(claims.aud) ? claims.aud : typeof claims.aud === 'string' ? [claims.aud] : [];
    const accepted = this.settings.audiences();
    // RFC 8707: a token that does not name this resource was meant for another server (or for no resource at all).
    if (!audiences.some((audience) => accepted.includes(audience)))
      throw new McpAuthError('INVALID_TOKEN', 'The access token is not meant for this resource');
    const principal = this.settings.toPrincipal(claims as JWTPayload);
    const lifetime = typeof claims.exp === 'number' ? claims.exp * 1000 - now : Infinity;
    const keepMs = Math.min(this.settings.cacheMaxMs, lifetime);
    if (keepMs > 0) this.remember(key, { principal, until: now + keepMs });
    return principal;
  }

  private remember(key: string, entry: Remembered): void {
    this.remembered.delete(key);
    while (this.remembered.size >= this.settings.cacheMaxEntries) {
      const oldest = this.remembered.keys().next().value as string;
      this.remembered.delete(oldest);
    }
    this.remembered.set(key, entry);
  }

  /** The introspection answer; an outage (no answer, 5xx, our credentials refused, not JSON) is a 503. */
  private async ask(token: string): Promise<Record<string, unknown>> {
    const { endpoint, clientAuth, clientId, clientSecret, timeoutMs, retryAfterMs } = this.settings;
    const body = new URLSearchParams({ token, token_type_hint: 'access_token' });
    const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
    if (clientAuth === 'basic')
      headers.Authorization = `Basic ${Buffer.from(`${formEncoded(clientId)}:${formEncoded(clientSecret)}`).toString('base64')}`;
    else {
      body.set('client_id', clientId);
      body.set('client_secret', clientSecret);
    }
    try {
      const response = await fetch(endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const answer = (await response.json()) as unknown;
      if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) throw new Error('not a JSON object');
      return answer as Record<string, unknown>;
    } catch {
      throw new McpAuthUnavailableError(Messages.unavailable, retryAfterMs);
    }
  }
}

const copy = (principal: McpPrincipal): McpPrincipal => ({ ...principal, scopes: [...principal.scopes], claims: { ...principal.claims } });
