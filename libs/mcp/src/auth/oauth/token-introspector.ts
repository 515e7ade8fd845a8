import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import { McpAuthError } from '../mcp-auth.error.js';
import { McpAuthUnavailableError } from '../mcp-auth-unavailable.error.js';
import { McpAuthThrottledError } from '../mcp-auth-throttled.error.js';
import { addressKey, CallerBudget } from '../caller-budget.js';
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
  /** Introspection requests one caller address may cause per minute. */
  maxRequestsPerMinute: number;
  /** Introspection requests of one caller address in flight at once. */
  maxConcurrent: number;
}

/** How long a refused token is remembered: a client retrying a bad token costs the authorization server nothing. */
export const REFUSAL_CACHE_MS = 30_000;

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
 * share one request. Refusals are remembered apart ({@link REFUSAL_CACHE_MS}, as many entries), so random tokens
 * never push good entries out. Each caller address gets a bounded rate and number of requests in flight: a flood of
 * unknown tokens is refused here, not relayed.
 */
export class TokenIntrospector {
  private readonly remembered = new Map<string, Remembered>();
  private readonly refused = new Map<string, { error: McpAuthError; until: number }>();
  private readonly inFlight = new Map<string, Promise<McpPrincipal>>();
  /** Requests in flight per caller address; an address leaves the map when it has none. */
  private readonly busy = new Map<string, number>();
  private readonly budget: CallerBudget;

  constructor(private readonly settings: TokenIntrospectorSettings) {
    this.budget = new CallerBudget({
      perCaller: settings.maxRequestsPerMinute,
      total: Number.MAX_SAFE_INTEGER,
      windowMs: 60_000,
      maxCallers: settings.cacheMaxEntries,
    });
  }

  /** The token's principal; `address` is the caller's, whose budget a request to the authorization server spends. */
  async verify(token: string, address = 'unknown'): Promise<McpPrincipal> {
    const key = digest(token);
    const now = Date.now();
    const refusal = this.refused.get(key);
    if (refusal && refusal.until > now) throw refusal.error;
    if (refusal) this.refused.delete(key);
    const hit = this.remembered.get(key);
    if (hit && hit.until > now) return copy(hit.principal);
    if (hit) this.remembered.delete(key);
    let pending = this.inFlight.get(key);
    if (!pending) {
      const caller = addressKey(address);
      const running = this.busy.get(caller) ?? 0;
      if (running >= this.settings.maxConcurrent)
        throw new McpAuthUnavailableError('too many token checks from this address at once', this.settings.retryAfterMs);
      const waitMs = this.budget.take([caller]);
      if (waitMs !== undefined) throw new McpAuthThrottledError('too many token checks from this address', waitMs);
      this.busy.set(caller, running + 1);
      pending = this.introspect(token, key).finally(() => {
        this.inFlight.delete(key);
        const left = (this.busy.get(caller) ?? 1) - 1;
        if (left > 0) this.busy.set(caller, left);
        else this.busy.delete(caller);
      });
      this.inFlight.set(key, pending);
    }
    return copy(await pending);
  }

  private async introspect(token: string, key: string): Promise<McpPrincipal> {
    const claims = await this.ask(token);
    try {
      return this.judge(claims, key);
    } catch (error) {
      if (error instanceof McpAuthError) this.keep(this.refused, key, { error, until: Date.now() + REFUSAL_CACHE_MS });
      throw error;
    }
  }

  /** The principal of an introspection answer, or the McpAuthError refusing it. */
  private judge(claims: Record<string, unknown>, key: string): McpPrincipal {
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
    if (keepMs > 0) this.keep(this.remembered, key, { principal, until: now + keepMs });
    return principal;
  }

  /** Sets `key` in `map`, the oldest entries dropped beyond `cacheMaxEntries`. */
  private keep<T>(map: Map<string, T>, key: string, entry: T): void {
    map.delete(key);
    while (map.size >= this.settings.cacheMaxEntries) map.delete(map.keys().next().value as string);
    map.set(key, entry);
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
